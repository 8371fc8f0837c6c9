// SPDX-License-Identifier: GPL-2.0
/*
 * The only file that includes kselftest.h: its counters are static, so
 * every KTAP line of a program must come from here.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "metric_rows.h"
#include "verdict.h"

#define MAX_LOST	8

static bool bisect_codes;
static char lost[MAX_LOST][1024];	/* verdict_lost()'s lines */
static unsigned int nr_lost;
static unsigned int nr_open;	/* comparisons that may still be worse (cmp_bad_side_open) */

void verdict_begin(unsigned int plan)
{
	ksft_print_header();
	ksft_set_plan(plan);
}

unsigned int verdict_reported(void)
{
	return ksft_test_num();
}

void verdict_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	va_end(ap);
}

/*
 * One KTAP result, "ok N <name> # <diagnostic>": the name is the same on
 * every run (CI parsers track a test by it), the figures of this run go
 * after " # ", and a SKIP is "ok N <name> # SKIP <why>".  Not through
 * ksft_test_result_skip(), which puts the directive before the name ("ok
 * N # SKIP ..."), nor ksft_test_result_code(), which older trees'
 * kselftest.h lack: the counters are kselftest.h's all the same, so its
 * totals and ksft_get_fail_cnt() count every result.
 */
static void result(int code, const char *name, const char *diag)
{
	const char *c;

	switch (code) {
	case KSFT_PASS:
		ksft_inc_pass_cnt();
		break;
	case KSFT_SKIP:
		ksft_inc_xskip_cnt();
		break;
	default:
		ksft_inc_fail_cnt();
		break;
	}
	printf("%s %u %s", code == KSFT_PASS || code == KSFT_SKIP ? "ok" : "not ok",
	       ksft_test_num(), name);
	if (code == KSFT_SKIP || *diag)
		printf(" #%s", code == KSFT_SKIP ? " SKIP" : "");
	if (*diag)
		putchar(' ');
	/* one line whatever the text: a newline would start a line of its own */
	for (c = diag; *c; c++)
		putchar(*c == '\n' ? ' ' : *c);
	putchar('\n');
}

void verdict_check(bool pass, const char *name, const char *fmt, ...)
{
	char detail[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	result(pass ? KSFT_PASS : KSFT_FAIL, name, detail);
}

void verdict_skip(const char *name, const char *why)
{
	result(KSFT_SKIP, name, why);
}

/*
 * A bound on what other work moves (a rate, placement, waiting for a CPU)
 * says nothing about the kernel when other work took a good part of the
 * machine: SKIP it with the figure.  True when skipped.
 */
static bool machine_busy(const struct metric_set *set, const char *metric,
			 const char *name)
{
	const struct metric *f = metric_find(set, METRIC_FOREIGN_SHARE);
	char why[160];

	if (!metric_load_sensitive(metric) || !f || f->missing ||
	    f->value <= LOAD_MAX_FOREIGN)
		return false;
	snprintf(why, sizeof(why),
		 "machine busy with other work: foreign CPU share %.2f > %.2f", f->value,
		 LOAD_MAX_FOREIGN);
	verdict_skip(name, why);
	return true;
}

void verdict_judge(const struct bounds *bs, const char *workload,
		   const char *variant, const struct metric_set *set,
		   const char *skip_all)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];
		const struct metric *m;
		char name[128];
		bool pass;

		if (b->kind != BOUND_ABSOLUTE || !bound_applies(bs, b, workload, variant))
			continue;
		snprintf(name, sizeof(name), "%s.%s", b->workload, b->metric);
		m = metric_find(set, b->metric);
		if (skip_all || !m || m->missing) {
			verdict_skip(name, skip_all ? skip_all : m ? m->missing : "not measured");
			continue;
		}
		if (machine_busy(set, b->metric, name))
			continue;
		pass = b->op == BOUND_AT_MOST ? m->value <= b->limit : m->value >= b->limit;
		verdict_check(pass, name, "%.4g %s %.4g%s%s%s", m->value, bound_op_text[b->op],
			      b->limit, *b->variant ? " (bound for " : "", b->variant,
			      *b->variant ? ")" : "");
	}
}

void verdict_compare(const char *workload, const char *label,
		     const struct cmp_result *res, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct cmp_result *r = &res[i];
		char name[160], word_why[sizeof(r->why) + 16];

		snprintf(name, sizeof(name), "%s.%s.%s", workload, label, r->metric);
		if (r->verdict != CMP_MISSING)
			verdict_note("%s: old %.6g +- %.2g (n=%u), new %.6g +- %.2g (n=%u), change %+.2f%% (threshold %+.0f%%), p %.3g, p_adj %.3g%s, equivalence p %.3g (level %.3g)\n",
				     name, r->old.median, r->old.stddev, r->old.n,
				     r->new.median, r->new.stddev, r->new.n,
				     100 * r->change, 100 * r->threshold, r->p,
				     isnan(r->p_adj) ? 1.0 : r->p_adj,
				     isnan(r->p_adj) ? " (not judged)" : "",
				     r->p_same, r->level);
		/* what pairing buys: the noise of one run against that of a block */
		if (r->verdict != CMP_MISSING && isnan(r->cv_block))
			verdict_note("%s: robust cv per iteration old %.3f new %.3f\n",
				     name, fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6));
		else if (r->verdict != CMP_MISSING)
			verdict_note("%s: robust cv per iteration old %.3f new %.3f, per block (new/old) %.3f\n",
				     name, fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6),
				     fmin(r->cv_block, 1e6));
		switch (r->verdict) {
		case CMP_SAME:
		case CMP_IMPROVED:
		case CMP_REGRESSED:
			verdict_check(r->verdict != CMP_REGRESSED, name, "%s: %s",
				      cmp_verdict_name(r->verdict), r->why);
			break;
		case CMP_WORSE:
		case CMP_BETTER:
			/* "SKIP worse: ...", as "SKIP undecided: ..." */
			snprintf(word_why, sizeof(word_why), "%s: %s",
				 cmp_verdict_name(r->verdict), r->why);
			verdict_skip(name, word_why);
			break;
		default:
			verdict_skip(name, r->why);
		}
		nr_open += cmp_bad_side_open(r);
	}
}

bool verdict_failed(void)
{
	return ksft_get_fail_cnt() > 0;
}

void verdict_bisect_codes(void)
{
	bisect_codes = true;
}

void verdict_lost(const char *fmt, ...)
{
	va_list ap;

	if (nr_lost >= MAX_LOST)
		return;
	va_start(ap, fmt);
	vsnprintf(lost[nr_lost++], sizeof(lost[0]), fmt, ap);
	va_end(ap);
}

/* kselftest.h's ksft_finished(): every planned result a pass or a skip */
static int ksft_code(void)
{
	return ksft_plan == ksft_cnt.ksft_pass + ksft_cnt.ksft_xfail +
	       ksft_cnt.ksft_xskip ? KSFT_PASS : KSFT_FAIL;
}

void verdict_finish(void)
{
	unsigned int i;
	int code;

	/*
	 * Good only when no gated metric may still be worse than its
	 * threshold: one left undecided, worse, noisy or drifting is "cannot
	 * tell" (a counter this kernel lacks is no reason to skip).
	 */
	if (bisect_codes)
		code = ksft_get_fail_cnt() ? 1 : nr_open ? 125 : 0;
	else
		code = ksft_code();
	ksft_print_cnts();
	if (!nr_lost)
		exit(code);
	/* the KTAP is whole first: stderr may be the same file */
	fflush(stdout);
	for (i = 0; i < nr_lost; i++)
		fprintf(stderr, "%s\n", lost[i]);
	exit(bisect_codes ? VERDICT_BISECT_LOST : VERDICT_EXIT_LOST);
}

void verdict_skip_all(const char *why)
{
	ksft_print_header();
	if (bisect_codes) {
		ksft_set_plan(0);
		printf("# SKIP: %s\n", why);
		exit(125);
	}
	ksft_exit_skip("%s\n", why);
}
