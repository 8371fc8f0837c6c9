// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeups, their placement, wakeup preemptions and wakeup-to-run latency
 * of the workload's own tasks, counted by BPF programs on the scheduler
 * tracepoints every kernel has: sched_waking, sched_wakeup,
 * sched_wakeup_new, sched_migrate_task and sched_switch, with
 * sched_process_fork and sched_process_exit to know which tasks are the
 * workload's.  On any kernel with BPF, schedstats or not, patched or not.
 *
 * Raw tracepoints, loaded by the suite's own loader (bpf_load.h): the
 * programs never read a field of a task_struct, so they need no BTF and
 * no CO-RE, and the suite no libbpf nor clang.  A task is known by its
 * task_struct's address, the tracepoints' own argument:
 *  - the workload's tasks are the descendants of this process, which
 *    makes them all after measure_setup(): sched_process_fork adds the
 *    child when the forking task (current) is this process or one of
 *    them, sched_process_exit removes current;
 *  - each one's CPU is where sched_switch last ran it or where
 *    sched_migrate_task last sent it, so that sched_waking sees where
 *    the wakee was (its previous CPU) and on which CPU the waker runs,
 *    and sched_wakeup where the wakeup placed it;
 *  - a wakee that sched_switch then switches in ends its wakeup-to-run
 *    latency, and was a wakeup preemption when the task it replaced was
 *    still runnable (preempted, or prev_state 0) and not the idle task.
 * The counts are per CPU, read at the window's two ends.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_load.h"
#include "compiler.h"
#include "fileio.h"
#include "source.h"

#ifndef BPF_ATOMIC
#define BPF_ATOMIC	0xc0	/* BPF_XADD, before 5.12's headers */
#endif

/* The counts, in one per-CPU value: counters, then the latency histogram. */
enum {
	C_WAKEUPS,		/* sched_wakeup of a followed task */
	C_WAKEUPS_NEW,
	C_PLACED_PREV,		/* on the CPU it last ran on */
	C_PLACED_WAKER,		/* else on the waker's CPU */
	C_PLACED_LLC,		/* else on another CPU sharing prev's LLC */
	C_PLACED_OTHER,		/* else on another LLC */
	C_PLACED_UNKNOWN,	/* not run since it was forked: no prev CPU */
	C_UNPAIRED,		/* a wakeup without its waking (attached between) */
	C_MIGRATIONS,
	C_RAN,			/* a wakee switched in: latency samples */
	C_WAKEUP_PREEMPTS,
	C_INVOLUNTARY,		/* a followed task switched out still runnable */
	C_FOLLOWED,		/* tasks added by sched_process_fork */
	C_LOST,			/* forks the task map had no room for */
	/* the series' tracepoints, for a followed wakee */
	C_SIS_CALLS,
	C_SIS_EXAMINED,
	C_SIS_UNKNOWN,
	C_SIS,			/* SCHED_SIS_NR slots, by reason */
	C_WP_CHECKS = C_SIS + SCHED_SIS_NR,
	C_WP_UNKNOWN,
	C_WP,			/* SCHED_WAKEUP_PREEMPT_NR slots */
	NR_COUNTS = C_WP + SCHED_WAKEUP_PREEMPT_NR,
};

/*
 * Latency buckets: 8 per power of two of nanoseconds (12.5 % wide), up to
 * 2^40 ns; bucket b holds [2^(b/8) * (8 + b%8) / 8, the next one).
 */
#define SUB_BITS	3
#define NR_BUCKETS	(40 << SUB_BITS)
#define NR_SLOTS	(NR_COUNTS + NR_BUCKETS)

/* A followed task, keyed by its task_struct's address. */
struct followed {
	int32_t cpu;		/* where it runs or was sent; NO_CPU */
	int32_t prev_cpu;	/* at its last sched_waking */
	int32_t waker_cpu;
	uint32_t state;		/* WAKING between the two wakeup events, then WOKEN */
	uint64_t woken_ns;
};

#define NO_CPU		0x7fffffff
enum { IDLE, WAKING, WOKEN };
#define MAX_FOLLOWED	32768

/* The frame: a task key, the stats key, a struct followed. */
#define FP_TASK		-8
#define FP_STATS	-12
#define FP_FOLLOWED	-40

/* Helpers, by number: the uapi enum of every kernel since 4.x. */
enum {
	LOOKUP = BPF_FUNC_map_lookup_elem,
	UPDATE = BPF_FUNC_map_update_elem,
	DELETE = BPF_FUNC_map_delete_elem,
	NOW_NS = BPF_FUNC_ktime_get_ns,
	THIS_CPU = BPF_FUNC_get_smp_processor_id,
	CURRENT_PID = BPF_FUNC_get_current_pid_tgid,
	CURRENT_TASK = BPF_FUNC_get_current_task,
};

static struct {
	int tasks, stats, llc;
	int links[16];
	unsigned int nr_links, nr_cpus;
	bool one_llc;		/* no cache topology: every CPU one LLC */
} bpf = { .tasks = -1, .stats = -1, .llc = -1 };

static const char *bpf_missing;
static const char *series_missing;	/* the series' tracepoints' figures */
static uint64_t *per_cpu;	/* one lookup's values: nr_cpus * NR_SLOTS */
static uint64_t before[NR_SLOTS], after[NR_SLOTS];

/* --- the programs ----------------------------------------------------- */

/* R0 = the followed task whose address is in @reg, or to @none. */
static void find_followed(struct bpf_asm *a, int reg, int none)
{
	STX(BPF_DW, BPF_REG_10, FP_TASK, reg);
	LD_MAP(BPF_REG_1, bpf.tasks);
	MOV_REG(BPF_REG_2, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_2, FP_TASK);
	CALL(LOOKUP);
	J_IMM(BPF_JEQ, BPF_REG_0, 0, none);
}

/* R7 = this CPU's counts, or to @none. */
static void find_stats(struct bpf_asm *a, int none)
{
	ST_IMM(BPF_W, BPF_REG_10, FP_STATS, 0);
	LD_MAP(BPF_REG_1, bpf.stats);
	MOV_REG(BPF_REG_2, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_2, FP_STATS);
	CALL(LOOKUP);
	J_IMM(BPF_JEQ, BPF_REG_0, 0, none);
	MOV_REG(BPF_REG_7, BPF_REG_0);
}

/* counts[@slot]++ through R7 */
static void count(struct bpf_asm *a, int slot)
{
	MOV_IMM(BPF_REG_1, 1);
	XADD(BPF_REG_7, slot * 8, BPF_REG_1);
}

static void ret0(struct bpf_asm *a)
{
	MOV_IMM(BPF_REG_0, 0);
	EXIT();
}

/* Labels: one namespace per program. */
enum { L_OUT, L_ADD, L_LOST, L_NEXT, L_INVOL, L_PREV, L_WAKER, L_LLC, L_OTHER,
	L_UNKNOWN, L_UNPAIRED, L_WOKEN, L_IDLE_Q, L_LATENCY, L_POSITIVE, L_IN,
	L_LOG2 };

/* counts[@base + the reason in R1], or counts[@unknown] past @nr reasons */
static void count_reason(struct bpf_asm *a, int base, int nr, int unknown)
{
	J_IMM(BPF_JGE, BPF_REG_1, nr, L_UNKNOWN);
	ALU_IMM(BPF_LSH, BPF_REG_1, 3);
	ALU_REG(BPF_ADD, BPF_REG_7, BPF_REG_1);
	count(a, base);
	JA(L_OUT);
	LABEL(L_UNKNOWN);
	count(a, unknown);
}

/*
 * A series tracepoint whose args[@task] is the wakee and args[@reason] its
 * reason: for a followed wakee, counts[@calls]++ and the reason counted.
 * R6 keeps the arguments for @extra, which counts what else it gives.
 */
static void count_series(struct bpf_asm *a, int task, int reason, int calls,
			 int base, int nr, int unknown,
			 void (*extra)(struct bpf_asm *a))
{
	MOV_REG(BPF_REG_6, BPF_REG_1);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, task * 8);
	find_followed(a, BPF_REG_1, L_OUT);
	find_stats(a, L_OUT);
	count(a, calls);
	if (extra)
		extra(a);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, reason * 8);
	count_reason(a, base, nr, unknown);
	LABEL(L_OUT);
	ret0(a);
}

/* the CPUs the search examined: sched_select_idle_sibling_tp's args[4] */
static void add_examined(struct bpf_asm *a)
{
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 32);
	XADD(BPF_REG_7, C_SIS_EXAMINED * 8, BPF_REG_1);
}

/*
 * sched_select_idle_sibling_tp(p, target, cpu, reason, nr_examined), the
 * series': how the search for a followed wakee ended.
 */
static void prog_sis(struct bpf_asm *a)
{
	count_series(a, 0, 3, C_SIS_CALLS, C_SIS, SCHED_SIS_NR, C_SIS_UNKNOWN, add_examined);
}

/* sched_wakeup_preempt_tp(rq, p, reason), the series': why it did or not */
static void prog_wakeup_preempt(struct bpf_asm *a)
{
	count_series(a, 1, 2, C_WP_CHECKS, C_WP, SCHED_WAKEUP_PREEMPT_NR, C_WP_UNKNOWN, NULL);
}

/* sched_process_fork(parent, child): follow children of us and of ours. */
static void prog_fork(struct bpf_asm *a)
{
	MOV_REG(BPF_REG_6, BPF_REG_1);
	CALL(CURRENT_PID);
	ALU_IMM(BPF_RSH, BPF_REG_0, 32);
	J_IMM(BPF_JEQ, BPF_REG_0, getpid(), L_ADD);
	CALL(CURRENT_TASK);
	find_followed(a, BPF_REG_0, L_OUT);
	LABEL(L_ADD);
	find_stats(a, L_OUT);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
	STX(BPF_DW, BPF_REG_10, FP_TASK, BPF_REG_1);
	ST_IMM(BPF_W, BPF_REG_10, FP_FOLLOWED + 0, NO_CPU);
	ST_IMM(BPF_W, BPF_REG_10, FP_FOLLOWED + 4, NO_CPU);
	ST_IMM(BPF_W, BPF_REG_10, FP_FOLLOWED + 8, NO_CPU);
	ST_IMM(BPF_W, BPF_REG_10, FP_FOLLOWED + 12, IDLE);
	ST_IMM(BPF_DW, BPF_REG_10, FP_FOLLOWED + 16, 0);
	LD_MAP(BPF_REG_1, bpf.tasks);
	MOV_REG(BPF_REG_2, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_2, FP_TASK);
	MOV_REG(BPF_REG_3, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_3, FP_FOLLOWED);
	MOV_IMM(BPF_REG_4, BPF_ANY);
	CALL(UPDATE);
	J_IMM(BPF_JNE, BPF_REG_0, 0, L_LOST);
	count(a, C_FOLLOWED);
	JA(L_OUT);
	LABEL(L_LOST);
	count(a, C_LOST);
	LABEL(L_OUT);
	ret0(a);
}

/* sched_process_exit(p): p is current; forget it (its address is reused). */
static void prog_exit(struct bpf_asm *a)
{
	CALL(CURRENT_TASK);
	STX(BPF_DW, BPF_REG_10, FP_TASK, BPF_REG_0);
	LD_MAP(BPF_REG_1, bpf.tasks);
	MOV_REG(BPF_REG_2, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_2, FP_TASK);
	CALL(DELETE);
	ret0(a);
}

/* sched_waking(p), before the placement: where it was, where the waker is. */
static void prog_waking(struct bpf_asm *a)
{
	LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0);
	find_followed(a, BPF_REG_1, L_OUT);
	MOV_REG(BPF_REG_6, BPF_REG_0);
	LDX(BPF_W, BPF_REG_1, BPF_REG_6, offsetof(struct followed, cpu));
	STX(BPF_W, BPF_REG_6, offsetof(struct followed, prev_cpu), BPF_REG_1);
	CALL(THIS_CPU);
	STX(BPF_W, BPF_REG_6, offsetof(struct followed, waker_cpu), BPF_REG_0);
	ST_IMM(BPF_W, BPF_REG_6, offsetof(struct followed, state), WAKING);
	LABEL(L_OUT);
	ret0(a);
}

/* sched_migrate_task(p, dest_cpu): it is there now. */
static void prog_migrate(struct bpf_asm *a)
{
	MOV_REG(BPF_REG_6, BPF_REG_1);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 0);
	find_followed(a, BPF_REG_1, L_OUT);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
	STX(BPF_W, BPF_REG_0, offsetof(struct followed, cpu), BPF_REG_1);
	find_stats(a, L_OUT);
	count(a, C_MIGRATIONS);
	LABEL(L_OUT);
	ret0(a);
}

/* R0 = the LLC of the CPU in @reg, or to @none. */
static void find_llc(struct bpf_asm *a, int reg, int none)
{
	STX(BPF_W, BPF_REG_10, FP_STATS, reg);
	LD_MAP(BPF_REG_1, bpf.llc);
	MOV_REG(BPF_REG_2, BPF_REG_10);
	ALU_IMM(BPF_ADD, BPF_REG_2, FP_STATS);
	CALL(LOOKUP);
	J_IMM(BPF_JEQ, BPF_REG_0, 0, none);
	LDX(BPF_W, BPF_REG_0, BPF_REG_0, 0);
}

/*
 * sched_wakeup(p), placed and activated: count it by where it went, and
 * start its latency.
 */
static void prog_wakeup(struct bpf_asm *a)
{
	LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0);
	find_followed(a, BPF_REG_1, L_OUT);
	MOV_REG(BPF_REG_6, BPF_REG_0);
	find_stats(a, L_OUT);
	count(a, C_WAKEUPS);
	LDX(BPF_W, BPF_REG_1, BPF_REG_6, offsetof(struct followed, state));
	J_IMM(BPF_JNE, BPF_REG_1, WAKING, L_UNPAIRED);
	LDX(BPF_W, BPF_REG_8, BPF_REG_6, offsetof(struct followed, cpu));
	LDX(BPF_W, BPF_REG_9, BPF_REG_6, offsetof(struct followed, prev_cpu));
	J_IMM(BPF_JEQ, BPF_REG_9, NO_CPU, L_UNKNOWN);
	J_REG(BPF_JEQ, BPF_REG_8, BPF_REG_9, L_PREV);
	LDX(BPF_W, BPF_REG_1, BPF_REG_6, offsetof(struct followed, waker_cpu));
	J_REG(BPF_JEQ, BPF_REG_8, BPF_REG_1, L_WAKER);
	find_llc(a, BPF_REG_8, L_OTHER);
	MOV_REG(BPF_REG_8, BPF_REG_0);
	find_llc(a, BPF_REG_9, L_OTHER);
	J_REG(BPF_JEQ, BPF_REG_0, BPF_REG_8, L_LLC);
	LABEL(L_OTHER);
	count(a, C_PLACED_OTHER);
	JA(L_WOKEN);
	LABEL(L_LLC);
	count(a, C_PLACED_LLC);
	JA(L_WOKEN);
	LABEL(L_WAKER);
	count(a, C_PLACED_WAKER);
	JA(L_WOKEN);
	LABEL(L_PREV);
	count(a, C_PLACED_PREV);
	JA(L_WOKEN);
	LABEL(L_UNKNOWN);
	count(a, C_PLACED_UNKNOWN);
	JA(L_WOKEN);
	LABEL(L_UNPAIRED);
	count(a, C_UNPAIRED);
	LABEL(L_WOKEN);
	ST_IMM(BPF_W, BPF_REG_6, offsetof(struct followed, state), WOKEN);
	CALL(NOW_NS);
	STX(BPF_DW, BPF_REG_6, offsetof(struct followed, woken_ns), BPF_REG_0);
	LABEL(L_OUT);
	ret0(a);
}

/* sched_wakeup_new(p): counted apart, no placement nor latency. */
static void prog_wakeup_new(struct bpf_asm *a)
{
	LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0);
	find_followed(a, BPF_REG_1, L_OUT);
	ST_IMM(BPF_W, BPF_REG_0, offsetof(struct followed, state), IDLE);
	find_stats(a, L_OUT);
	count(a, C_WAKEUPS_NEW);
	LABEL(L_OUT);
	ret0(a);
}

/* to @runnable when sched_switch's prev (ctx in R6) was still runnable */
static void if_prev_runnable(struct bpf_asm *a, int runnable, int not)
{
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 0);		/* preempt */
	J_IMM(BPF_JNE, BPF_REG_1, 0, runnable);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 24);		/* prev_state */
	J_IMM(BPF_JNE, BPF_REG_1, 0, not);
	JA(runnable);
}

/* R9 = the latency bucket of the nanoseconds in R0 (clobbers R1, R2) */
static void bucket(struct bpf_asm *a)
{
	int shift, l = L_LOG2;

	J_IMM(BPF_JSGE, BPF_REG_0, 0, L_POSITIVE);
	MOV_IMM(BPF_REG_0, 0);
	LABEL(L_POSITIVE);
	/* R9 = floor(log2(R0)), by halving the width each step */
	MOV_REG(BPF_REG_1, BPF_REG_0);
	MOV_IMM(BPF_REG_9, 0);
	for (shift = 32; shift; shift /= 2, l++) {
		MOV_REG(BPF_REG_2, BPF_REG_1);
		ALU_IMM(BPF_RSH, BPF_REG_2, shift);
		J_IMM(BPF_JEQ, BPF_REG_2, 0, l);
		MOV_REG(BPF_REG_1, BPF_REG_2);
		ALU_IMM(BPF_ADD, BPF_REG_9, shift);
		LABEL(l);
	}
	/* the SUB_BITS bits below the leading one */
	MOV_REG(BPF_REG_2, BPF_REG_0);
	ALU_IMM(BPF_LSH, BPF_REG_2, SUB_BITS);
	ALU_REG(BPF_RSH, BPF_REG_2, BPF_REG_9);
	ALU_IMM(BPF_AND, BPF_REG_2, (1 << SUB_BITS) - 1);
	ALU_IMM(BPF_LSH, BPF_REG_9, SUB_BITS);
	ALU_REG(BPF_ADD, BPF_REG_9, BPF_REG_2);
	J_IMM(BPF_JLT, BPF_REG_9, NR_BUCKETS, L_IN);
	MOV_IMM(BPF_REG_9, NR_BUCKETS - 1);
	LABEL(L_IN);
}

/*
 * sched_switch(preempt, prev, next, prev_state): prev's pending wakeup is
 * spent (it ran); next, if woken, ends its latency here, and preempted
 * when prev was runnable and not idle.
 */
static void prog_switch(struct bpf_asm *a)
{
	MOV_REG(BPF_REG_6, BPF_REG_1);
	find_stats(a, L_OUT);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 8);
	find_followed(a, BPF_REG_1, L_NEXT);
	ST_IMM(BPF_W, BPF_REG_0, offsetof(struct followed, state), IDLE);
	if_prev_runnable(a, L_INVOL, L_NEXT);
	LABEL(L_INVOL);
	count(a, C_INVOLUNTARY);
	LABEL(L_NEXT);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_6, 16);
	find_followed(a, BPF_REG_1, L_OUT);
	MOV_REG(BPF_REG_8, BPF_REG_0);
	CALL(THIS_CPU);
	STX(BPF_W, BPF_REG_8, offsetof(struct followed, cpu), BPF_REG_0);
	LDX(BPF_W, BPF_REG_1, BPF_REG_8, offsetof(struct followed, state));
	J_IMM(BPF_JNE, BPF_REG_1, WOKEN, L_OUT);
	ST_IMM(BPF_W, BPF_REG_8, offsetof(struct followed, state), IDLE);
	count(a, C_RAN);
	if_prev_runnable(a, L_IDLE_Q, L_LATENCY);
	LABEL(L_IDLE_Q);
	CALL(CURRENT_PID);		/* prev is current: pid 0 is idle */
	J_IMM(BPF_JEQ, BPF_REG_0, 0, L_LATENCY);
	count(a, C_WAKEUP_PREEMPTS);
	LABEL(L_LATENCY);
	CALL(NOW_NS);
	LDX(BPF_DW, BPF_REG_1, BPF_REG_8, offsetof(struct followed, woken_ns));
	ALU_REG(BPF_SUB, BPF_REG_0, BPF_REG_1);
	bucket(a);
	ALU_IMM(BPF_LSH, BPF_REG_9, 3);
	ALU_REG(BPF_ADD, BPF_REG_7, BPF_REG_9);
	count(a, NR_COUNTS);
	LABEL(L_OUT);
	ret0(a);
}

static const struct {
	const char *tracepoint;
	void (*write)(struct bpf_asm *a);
	bool series;	/* the series' (kernel/sched): absent, its figures are */
} progs[] = {
	{ "sched_process_fork", prog_fork, false },
	{ "sched_process_exit", prog_exit, false },
	{ "sched_waking", prog_waking, false },
	{ "sched_migrate_task", prog_migrate, false },
	{ "sched_wakeup", prog_wakeup, false },
	{ "sched_wakeup_new", prog_wakeup_new, false },
	{ "sched_switch", prog_switch, false },
	{ "sched_select_idle_sibling_tp", prog_sis, true },
	{ "sched_wakeup_preempt_tp", prog_wakeup_preempt, true },
};

_Static_assert(ARRAY_SIZE(progs) <= ARRAY_SIZE(bpf.links), "a link per program");

/* --- loading them ------------------------------------------------------ */

static char why[256];

/* Is there no bpf() at all?  Its sysctl exists wherever it does. */
static bool no_bpf_syscall(void)
{
	return access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK) != 0;
}

static const char *errno_why(const char *what, int err)
{
	if (no_bpf_syscall())
		return "no bpf() (CONFIG_BPF_SYSCALL=n)";
	if (err == EPERM)
		return "not permitted (BPF needs root or CAP_BPF and CAP_PERFMON)";
	snprintf(why, sizeof(why), "%s: %s", what, strerror(err));
	return why;
}

/* The first CPU of @cpu's last-level cache's shared_cpu_list: its LLC's name. */
static int llc_of(unsigned int cpu)
{
	char path[96], line[64];
	int index, id = -1;

	for (index = 0; index < 8; index++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, index);
		if (fileio_first_line(path, line, sizeof(line)))
			break;
		id = atoi(line);	/* the last index is the last level */
	}
	return id;
}

static int fill_llc(void)
{
	unsigned int cpu;
	uint32_t id;
	int llc;

	bpf.one_llc = false;
	for (cpu = 0; cpu < bpf.nr_cpus; cpu++) {
		llc = llc_of(cpu);
		if (llc < 0)
			bpf.one_llc = true;
		id = llc < 0 ? 0 : llc;
		if (bpf_map_update(bpf.llc, &cpu, &id))
			return -1;
	}
	return 0;
}

static const char *make_maps(void)
{
	bpf.nr_cpus = bpf_possible_cpus();
	if (!bpf.nr_cpus)
		return "no /sys/devices/system/cpu/possible";
	bpf.tasks = bpf_map_new(BPF_MAP_TYPE_HASH, sizeof(uint64_t), sizeof(struct followed),
				MAX_FOLLOWED, "sp_tasks");
	if (bpf.tasks < 0)
		return errno_why("BPF map refused", errno);
	bpf.stats = bpf_map_new(BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(uint32_t),
				NR_SLOTS * sizeof(uint64_t), 1, "sp_stats");
	bpf.llc = bpf_map_new(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t), sizeof(uint32_t),
			      bpf.nr_cpus, "sp_llc");
	if (bpf.stats < 0 || bpf.llc < 0)
		return errno_why("BPF map refused", errno);
	if (fill_llc())
		return errno_why("BPF map update refused", errno);
	per_cpu = calloc(bpf.nr_cpus, NR_SLOTS * sizeof(uint64_t));
	return per_cpu ? NULL : "out of memory";
}

/* The verifier's last words: its reason. */
static const char *last_line(char *log)
{
	char *end = log + strlen(log), *p;

	while (end > log && end[-1] == '\n')
		*--end = '\0';
	p = strrchr(log, '\n');
	return p ? p + 1 : log;
}

static const char *load_and_attach(void)
{
	static char log[16384], series_why[128];
	struct bpf_asm a;
	unsigned int i;
	int prog, link;

	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		bpf_asm_init(&a);
		progs[i].write(&a);
		prog = bpf_prog_new(&a, progs[i].tracepoint, log, sizeof(log));
		if (prog < 0) {
			if (errno == EPERM || no_bpf_syscall())
				return errno_why("", errno);
			snprintf(why, sizeof(why), "BPF program refused: %s: %s (%s)",
				 progs[i].tracepoint, strerror(errno), last_line(log));
			return why;
		}
		link = bpf_raw_tp_attach(progs[i].tracepoint, prog);
		close(prog);	/* the link holds it */
		if (link < 0 && errno == ENOENT && progs[i].series) {
			if (series_missing)
				continue;	/* the first one named */
			snprintf(series_why, sizeof(series_why),
				 "no tracepoint %s (a kernel without the kernel/sched patches)",
				 progs[i].tracepoint);
			series_missing = series_why;
			continue;
		}
		if (link < 0) {
			if (errno == ENOENT) {
				snprintf(why, sizeof(why), "no raw tracepoint %s", progs[i].tracepoint);
				return why;
			}
			return errno_why("raw tracepoint refused", errno);
		}
		bpf.links[bpf.nr_links++] = link;
	}
	return NULL;
}

static void close_all(void)
{
	unsigned int i;

	for (i = 0; i < bpf.nr_links; i++)
		close(bpf.links[i]);
	bpf.nr_links = 0;
	if (bpf.tasks >= 0)
		close(bpf.tasks);
	if (bpf.stats >= 0)
		close(bpf.stats);
	if (bpf.llc >= 0)
		close(bpf.llc);
	bpf.tasks = bpf.stats = bpf.llc = -1;
	free(per_cpu);
	per_cpu = NULL;
}

static void bpf_setup(struct measure *m)
{
	series_missing = NULL;
	bpf_missing = make_maps();
	if (!bpf_missing)
		bpf_missing = load_and_attach();
	if (bpf_missing)
		close_all();
}

static void bpf_teardown(struct measure *m)
{
	close_all();
}

/* @sum = every CPU's counts */
static bool snapshot(uint64_t *sum)
{
	uint32_t key = 0;
	unsigned int cpu, s;

	if (bpf_missing)
		return false;
	if (bpf_map_lookup(bpf.stats, &key, per_cpu)) {
		bpf_missing = errno_why("BPF map unreadable", errno);
		return false;
	}
	memset(sum, 0, NR_SLOTS * sizeof(*sum));
	for (cpu = 0; cpu < bpf.nr_cpus; cpu++)
		for (s = 0; s < NR_SLOTS; s++)
			sum[s] += per_cpu[cpu * NR_SLOTS + s];
	return true;
}

static void bpf_begin(struct measure *m)
{
	snapshot(before);
}

/* A bucket's bounds in nanoseconds (see NR_BUCKETS). */
static double bucket_low(unsigned int b)
{
	return ldexp((double)((1 << SUB_BITS) + (b & ((1 << SUB_BITS) - 1))),
		     (int)(b >> SUB_BITS) - SUB_BITS);
}

/* The @q quantile of @n samples in @hist, interpolated within its bucket. */
static double quantile_ns(const uint64_t *hist, uint64_t n, double q)
{
	double want = q * n, seen = 0;
	unsigned int b;

	for (b = 0; b < NR_BUCKETS; b++) {
		if (hist[b] && seen + hist[b] >= want) {
			double low = bucket_low(b), high = bucket_low(b + 1);

			return low + (high - low) * (want - seen) / hist[b];
		}
		seen += hist[b];
	}
	return bucket_low(NR_BUCKETS);
}

static void put_series(struct measure *m, const uint64_t *d)
{
	unsigned int r;

	source_missing(m, F_TP_SIS_CALLS, F_TP_LAST, series_missing);
	if (series_missing)
		return;
	m->value[F_TP_SIS_CALLS] = d[C_SIS_CALLS];
	m->value[F_TP_SIS_EXAMINED] = d[C_SIS_EXAMINED];
	m->value[F_TP_SIS_UNKNOWN] = d[C_SIS_UNKNOWN];
	for (r = 0; r < SCHED_SIS_NR; r++)
		m->value[F_TP_SIS_FIRST + r] = d[C_SIS + r];
	m->value[F_TP_WP_CHECKS] = d[C_WP_CHECKS];
	m->value[F_TP_WP_UNKNOWN] = d[C_WP_UNKNOWN];
	for (r = 0; r < SCHED_WAKEUP_PREEMPT_NR; r++)
		m->value[F_TP_WP_FIRST + r] = d[C_WP + r];
}

static void put_fields(struct measure *m, const uint64_t *d)
{
	uint64_t hist[NR_BUCKETS], samples = 0;
	unsigned int b;

	m->value[F_TP_WAKEUPS] = d[C_WAKEUPS];
	m->value[F_TP_PLACED_PREV] = d[C_PLACED_PREV];
	m->value[F_TP_PLACED_WAKER] = d[C_PLACED_WAKER];
	m->value[F_TP_PLACED_LLC] = d[C_PLACED_LLC];
	m->value[F_TP_PLACED_OTHER] = d[C_PLACED_OTHER];
	m->value[F_TP_RAN] = d[C_RAN];
	m->value[F_TP_WAKEUP_PREEMPTS] = d[C_WAKEUP_PREEMPTS];
	m->value[F_TP_INVOLUNTARY] = d[C_INVOLUNTARY];
	put_series(m, d);
	for (b = 0; b < NR_BUCKETS; b++) {
		hist[b] = d[NR_COUNTS + b];
		samples += hist[b];
	}
	if (!samples) {
		source_missing(m, F_TP_LAT_P50_NS, F_TP_LAT_P99_NS,
			       "no wakee of the workload ran in the window");
		return;
	}
	m->value[F_TP_LAT_P50_NS] = quantile_ns(hist, samples, 0.50);
	m->value[F_TP_LAT_P99_NS] = quantile_ns(hist, samples, 0.99);
}

static void bpf_end(struct measure *m)
{
	static char lost[128];
	uint64_t d[NR_SLOTS];
	unsigned int s;

	if (snapshot(after) && after[C_LOST] > before[C_LOST]) {
		snprintf(lost, sizeof(lost), "more than %d tasks: %llu not followed",
			 MAX_FOLLOWED, (unsigned long long)(after[C_LOST] - before[C_LOST]));
		source_missing(m, F_TP_WAKEUPS, F_TP_LAST, lost);
		return;
	}
	source_missing(m, F_TP_WAKEUPS, F_TP_LAST, bpf_missing);
	if (bpf_missing)
		return;
	for (s = 0; s < NR_SLOTS; s++)
		d[s] = after[s] - before[s];
	put_fields(m, d);
}

static void bpf_describe(const struct measure *m, struct measure_meta *meta)
{
	static char what[320];

	if (bpf_missing) {
		meta_add(meta, "bpf", "%s", bpf_missing);
		return;
	}
	snprintf(what, sizeof(what),
		 "raw tracepoints sched_waking, sched_wakeup(_new), sched_migrate_task, sched_switch%s; the workload's tasks%s",
		 series_missing ? "" : ", sched_select_idle_sibling_tp, sched_wakeup_preempt_tp",
		 bpf.one_llc ? "; no cache topology, one LLC assumed" : "");
	meta_add(meta, "bpf", "%s", what);
	if (series_missing)
		meta_add(meta, "bpf_series", "%s", series_missing);
}

const struct counter_source src_bpf = {
	.name = "bpf",
	.first = F_TP_WAKEUPS,
	.last = F_TP_LAST,
	.setup = bpf_setup,
	.teardown = bpf_teardown,
	.begin = bpf_begin,
	.end = bpf_end,
	.describe = bpf_describe,
};
