/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histogram: 16 linear buckets per power of two, so
 * every recorded value is known to within 1/16 (6 %), from 1 ns to 2^40 ns
 * (18 min), in fixed memory that can live in shared memory and be merged.
 */
#ifndef SCHED_PERF_HISTO_H
#define SCHED_PERF_HISTO_H

#include <stdint.h>

#define HISTO_SUB_BITS	4
#define HISTO_SUB	(1 << HISTO_SUB_BITS)
#define HISTO_POWERS	41
#define HISTO_BUCKETS	(HISTO_POWERS * HISTO_SUB)

struct histo {
	uint64_t count;
	uint64_t bucket[HISTO_BUCKETS];
};

void histo_record(struct histo *h, uint64_t value);
void histo_merge(struct histo *into, const struct histo *from);
/* Value at quantile @q (0 < q <= 1): the middle of its bucket; 0 if empty. */
double histo_quantile(const struct histo *h, double q);

#endif
