/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_PERF_OUTPUTS_H
#define SCHED_PERF_OUTPUTS_H

#include "measure.h"
#include "metrics.h"
#include "runset.h"
#include "workload.h"

/* This run's identity, as run sets carry it; @options: what changes the load. */
void outputs_identity(const struct workload *wl, const char *options, struct runset *rs);

/*
 * The run set into @path ("" for none), asked for by option @opt.  A file
 * that cannot be written whole is lost: verdict_lost() makes the run's
 * exit say so, after its KTAP.
 */
void outputs_write(const char *opt, const char *path, const struct workload *wl,
		   const struct measure_meta *meta, const struct runset *rs,
		   const struct wl_result *res, unsigned int n,
		   const struct metric_set *set);

/* --save FILE with --ab KNOB: the A side beside the B side, FILE.a, for sched_perf_compare --paired. */
void outputs_save_a_side(const char *save, const char *ab, const struct workload *wl,
			 const struct measure_meta *meta, const struct runset *a_side);

#endif
