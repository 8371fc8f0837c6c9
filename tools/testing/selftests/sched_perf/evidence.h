/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Evidence room: when a check fails (or when asked with --evidence DIR),
 * run the workload once more under a scheduler tracer -- trace-cmd record,
 * else perf record of the same events -- keep the trace and write what it says
 * (tracesum.h): summary.txt, migrations.tsv, tasks.tsv,
 * wakeup_latency.tsv, preemptions.tsv and run.log in the directory.
 * Nothing of this runs on a passing run unless asked for.
 */
#ifndef SCHED_PERF_EVIDENCE_H
#define SCHED_PERF_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

/* Set in the traced re-run, so that it does not trace itself again. */
#define EVIDENCE_CHILD_ENV	"SCHED_PERF_EVIDENCE_CHILD"

/*
 * Collect evidence automatically after a failed check?  Not in a traced
 * re-run, not with SCHED_PERF_EVIDENCE=0, and only when trace-cmd or perf
 * is installed.
 */
bool evidence_automatic(void);

/*
 * Note where this program is, for the traced re-run.  Call before
 * mounts_private_ns(): in a mount namespace of the run's own,
 * /proc/self/exe names the program as the namespace it came from sees it,
 * which in a chroot whose / is a mount (schroot, make check-fresh) is a
 * path outside the chroot, and the tracer could not start the re-run.
 */
void evidence_find_self(void);

/*
 * Re-run this program with the @nr option words @opts (the driver's:
 * every option given but those of this run only, such as comparing and
 * saving, see opts.h), for one iteration of @seconds, under a tracer;
 * run.log starts with its command line.  Into @dir (created if missing), or
 * when @dir is NULL into a new directory sched_perf-<@workload>-evidence-*
 * under $SCHED_PERF_RESULTS_DIR, $TMPDIR or /tmp.  Returns 0 with the
 * directory in @where; -1 with a one-line reason in @why when no tracer
 * could record; EVIDENCE_LOST when the evidence could not be written (a
 * full filesystem, an I/O error): @why is "PATH: error", and nothing of
 * it is left (each file is written whole, outfile.h, and those written
 * before are removed, with the directory when it was made here).
 */
#define EVIDENCE_LOST	-2
int evidence_collect(const char *dir, const char *workload, double seconds,
		     int nr, char *const *opts, char *where, size_t wlen,
		     char *why, size_t len);

#endif
