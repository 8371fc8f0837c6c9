// SPDX-License-Identifier: GPL-2.0
/*
 * The only file that includes kselftest.h: its counters are static, so
 * every KTAP line of a program must come from here.
 */
#include <ctype.h>
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
static unsigned int nr_open;	/* comparisons that may still let one through (cmp_gate_open) */
static unsigned int planned;

/* One KTAP document a process: kselftest.h's counters start at zero. */
void verdict_begin(unsigned int plan)
{
	planned = plan;
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
 * Does @s hold a figure: a digit that does not continue a word ("0.82",
 * "p 0.03", "2 of 5"; not "tcp_rr", "ipv4" or "per_1k_ops")?
 */
bool verdict_has_figure(const char *s)
{
	const char *c;

	for (c = s; *c; c++)
		if (isdigit((unsigned char)*c) &&
		    (c == s || !(isalnum((unsigned char)c[-1]) || c[-1] == '_')))
			return true;
	return false;
}

/*
 * A SKIP's reason on its result line: the cause of @why, the text before
 * its first " (" or ": " (what follows is the detail: an errno, a path, a
 * figure).  CI parsers file a skipped result under its reason too
 * (0-day's takes it as one more part of the name), so a reason must read
 * the same on every run with that cause: one that still holds a figure
 * is replaced by a fixed one.
 */
static void fixed_reason(const char *why, char *buf, size_t len)
{
	size_t n = strlen(why);
	const char *p = strstr(why, " (");
	const char *colon = strstr(why, ": ");

	if (colon && (!p || colon < p))
		p = colon;
	if (p)
		n = p - why;
	snprintf(buf, len, "%.*s", (int)n, why);
	if (verdict_has_figure(buf) || !*buf)
		snprintf(buf, len, "%s", "not available");
}

/*
 * One KTAP result, "ok N <name>", "not ok N <name>" or "ok N <name> #
 * SKIP[ <reason>]", and nothing else: CI parsers track a test by all the
 * text after "ok N " (0-day's keeps even a diagnostic after " # "), so a
 * figure there would be a new test on every run.  The figures of this
 * run go on a "# <name>: ..." line before it (verdict_check(),
 * verdict_skip()).  Not through ksft_test_result_skip(), which puts the
 * directive before the name ("ok N # SKIP ..."), nor
 * ksft_test_result_code(), which older trees' kselftest.h lack: the
 * counters are kselftest.h's all the same, so its totals and
 * ksft_get_fail_cnt() count every result.
 */
static void result(int code, const char *name, const char *reason)
{
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
	if (code == KSFT_SKIP)
		printf(" # SKIP%s%s", reason ? " " : "", reason ? reason : "");
	putchar('\n');
}

/* "# <name>: <detail>", on one line whatever the text */
static void detail_note(const char *name, const char *detail)
{
	const char *c;

	printf("# %s: ", name);
	for (c = detail; *c; c++)
		putchar(*c == '\n' ? ' ' : *c);
	putchar('\n');
}

void verdict_check(bool pass, const char *name, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (*detail)
		detail_note(name, detail);
	result(pass ? KSFT_PASS : KSFT_FAIL, name, NULL);
}

void verdict_skip(const char *name, const char *why)
{
	char reason[128];

	fixed_reason(why, reason, sizeof(reason));
	/* the whole text where the reason is but its cause */
	if (strcmp(reason, why))
		detail_note(name, why);
	result(KSFT_SKIP, name, reason);
}

/*
 * A bound on what other work moves (a rate, placement, waiting for a CPU)
 * says nothing about the kernel when other work took a good part of the
 * machine: SKIP it, why and the figure on the line before only.  The
 * check passes on a quiet machine, and 0-day, which files a SKIP under
 * its reason too, would file it under a second name on a busy one.  True
 * when skipped.
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
	detail_note(name, why);
	result(KSFT_SKIP, name, NULL);
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

/* "-4.9%", or "n/a" */
static const char *pct(double v, char *buf, size_t len)
{
	cmp_percent(v, buf, len);
	return buf;
}

/*
 * The figures of a comparison's metric, on "# <name>: ..." lines before
 * its result: the sides, the shift and its levels, the noise, and what
 * the gate could catch (the mde, with the runs it may take and with those
 * it took).
 */
static void compare_notes(const char *name, const struct cmp_result *r)
{
	char th[16], al[16], mde[16], now[16];

	if (r->verdict == CMP_MISSING) {
		verdict_note("%s: %s\n", name, r->why);
		return;
	}
	verdict_note("%s: old %.6g +- %.2g (n=%u), new %.6g +- %.2g (n=%u), medians %s, shift %s, to catch %s, alarm %s, %s; p %.3g, p_adj %.3g (level %.3g, %.0f%% of alpha), equivalence p %.3g (level %.3g)\n",
		     name, r->old.median, r->old.stddev, r->old.n, r->new.median,
		     r->new.stddev, r->new.n, pct(r->median_change, mde, sizeof(mde)),
		     pct(r->change, now, sizeof(now)), pct(r->threshold, th, sizeof(th)),
		     pct(r->alarm, al, sizeof(al)), r->primary ? "primary" : "mechanism", r->p,
		     isnan(r->p_adj) ? 1.0 : r->p_adj, r->level_metric, 100 * r->share,
		     r->p_same, r->level_same);
	/* what pairing buys: the noise of one run against that of a block */
	if (isnan(r->cv_block))
		verdict_note("%s: robust cv per iteration old %.3f new %.3f\n",
			     name, fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6));
	else
		verdict_note("%s: robust cv per iteration old %.3f new %.3f, per block (new/old) %.3f\n",
			     name, fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6),
			     fmin(r->cv_block, 1e6));
	cmp_mde_text(r->mde, mde, sizeof(mde));
	cmp_mde_text(r->mde_now, now, sizeof(now));
	verdict_note("%s: mde %s with the runs it may take, %s with these (%.0f%% power, from the spread's upper bound)\n",
		     name, mde, now, 100 * CMP_MDE_POWER);
	verdict_note("%s: %s: %s\n", name, cmp_verdict_name(r->verdict), cmp_reason(r));
}

void verdict_compare(const char *workload, const char *label,
		     const struct cmp_result *res, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct cmp_result *r = &res[i];
		char name[160];

		snprintf(name, sizeof(name), "%s.%s.%s", workload, label, r->metric);
		compare_notes(name, r);
		/* the result line: the name, and a SKIP's fixed reason only */
		switch (r->verdict) {
		case CMP_SAME:
		case CMP_IMPROVED:
		case CMP_BETTER:
		case CMP_REGRESSED:
			verdict_check(r->verdict != CMP_REGRESSED, name, "%s", "");
			break;
		default:
			verdict_skip(name, cmp_verdict_name(r->verdict));
		}
	}
	nr_open += cmp_gate_open(res, n);
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
	return planned == (unsigned int)(ksft_get_pass_cnt() + ksft_get_xfail_cnt() +
					  ksft_get_xskip_cnt()) ? KSFT_PASS : KSFT_FAIL;
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
	else if (ksft_get_fail_cnt())
		code = KSFT_FAIL;
	else
		code = nr_open ? KSFT_SKIP : ksft_code();
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
		/* kselftest.h's form of it, "SKIP: ..." would read as a result */
		printf("1..0 # SKIP %s\n", why);
		exit(125);
	}
	ksft_exit_skip("%s\n", why);
}
