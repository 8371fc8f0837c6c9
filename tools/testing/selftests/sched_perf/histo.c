// SPDX-License-Identifier: GPL-2.0
#include "histo.h"

/* Bucket of @v: its power of two, then which 16th of that power. */
static unsigned int bucket_of(uint64_t v)
{
	unsigned int power, sub;

	if (v < HISTO_SUB)
		return v;
	power = 63 - __builtin_clzll(v);	/* >= HISTO_SUB_BITS */
	sub = (v >> (power - HISTO_SUB_BITS)) & (HISTO_SUB - 1);
	power -= HISTO_SUB_BITS - 1;
	if (power >= HISTO_POWERS)
		return HISTO_BUCKETS - 1;
	return power * HISTO_SUB + sub;
}

/* Lowest value and width of bucket @b (inverse of bucket_of()). */
static void bucket_range(unsigned int b, double *low, double *width)
{
	unsigned int power = b / HISTO_SUB, sub = b % HISTO_SUB;

	if (!power) {
		*low = sub;
		*width = 1;
		return;
	}
	*width = (double)(1ULL << (power - 1));
	*low = (double)(1ULL << (power + HISTO_SUB_BITS - 1)) + sub * *width;
}

void histo_record(struct histo *h, uint64_t value)
{
	h->bucket[bucket_of(value)]++;
	h->count++;
}

void histo_merge(struct histo *into, const struct histo *from)
{
	unsigned int i;

	for (i = 0; i < HISTO_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
}

double histo_quantile(const struct histo *h, double q)
{
	uint64_t rank, seen = 0;
	double low, width;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)(q * h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HISTO_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == HISTO_BUCKETS)
		i--;
	bucket_range(i, &low, &width);
	return low + width / 2;
}
