// SPDX-License-Identifier: GPL-2.0
/*
 * The only file that includes kselftest.h: its counters are static, so
 * every KTAP line of a program must come from here.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "fileio.h"
#include "metric_rows.h"
#include "verdict.h"

static bool bisect_codes;
static unsigned int nr_cannot_judge;	/* comparisons too noisy or too short */
static unsigned int nr_judged;		/* comparisons with a verdict */

static const char *const op_text[] = {
	[BOUND_AT_MOST] = "<=",
	[BOUND_AT_LEAST] = ">=",
};

/* "-5%" or "+20%" into -0.05 or 0.20, for "change >=" and "change <=". */
static int parse_change(struct bound *b, const char *num, char *why, size_t len)
{
	char *end;

	errno = 0;
	b->limit = strtod(num, &end) / 100;
	if (end == num || strcmp(end, "%") || errno || !isfinite(b->limit)) {
		snprintf(why, len, "'%s' is not a percentage like -5%% or +20%%", num);
		return -1;
	}
	if ((b->op == BOUND_AT_LEAST && b->limit >= 0) ||
	    (b->op == BOUND_AT_MOST && b->limit <= 0)) {
		snprintf(why, len, "a change bound is 'change >= -N%%' (may not fall more) or 'change <= +N%%' (may not rise more)");
		return -1;
	}
	b->kind = BOUND_CHANGE;
	return 0;
}

static int parse_bound_line(char *line, struct bound *b, char *why, size_t len)
{
	char key[128], op[64], num[64], extra[64];
	char *dot, *at, *end;
	bool change;
	int n;

	line[strcspn(line, "#\n")] = '\0';
	n = sscanf(line, "%127s %63s %63s %63s", key, op, num, extra);
	if (n <= 0)
		return 1;	/* blank or comment */
	change = n == 4 && !strcmp(op, "change");
	if (change) {
		snprintf(op, sizeof(op), "%s", num);
		snprintf(num, sizeof(num), "%s", extra);
		n = sscanf(line, "%*s %*s %*s %*s %1s", extra) == 1 ? 5 : 3;
	}
	if (n != 3) {
		snprintf(why, len, "expected '<workload>[@<variant>].<metric> [change] <=|>= <number>[%%]'");
		return -1;
	}
	dot = strchr(key, '.');
	if (dot)
		*dot = '\0';
	at = strchr(key, '@');
	if (at)
		*at++ = '\0';
	if (!dot || !*key || !dot[1] || strlen(key) >= sizeof(b->workload) ||
	    (at && (!*at || strlen(at) >= sizeof(b->variant))) ||
	    strlen(dot + 1) >= sizeof(b->metric)) {
		snprintf(why, len, "'%.64s' is not <workload>[@<variant>].<metric>", line);
		return -1;
	}
	snprintf(b->workload, sizeof(b->workload), "%s", key);
	snprintf(b->variant, sizeof(b->variant), "%s", at ? at : "");
	snprintf(b->metric, sizeof(b->metric), "%s", dot + 1);
	if (!strcmp(op, "<="))
		b->op = BOUND_AT_MOST;
	else if (!strcmp(op, ">="))
		b->op = BOUND_AT_LEAST;
	else {
		snprintf(why, len, "operator '%s' is not <= or >=", op);
		return -1;
	}
	if (change)
		return parse_change(b, num, why, len);
	errno = 0;
	b->limit = strtod(num, &end);
	if (*end || errno || !isfinite(b->limit)) {
		snprintf(why, len, "'%s' is not a number", num);
		return -1;
	}
	return 0;
}

/*
 * A message quotes the file: any byte that is not printable ASCII (a
 * carriage return, an escape sequence, a NUL's neighbours) becomes '?',
 * so the message stays one clear line.
 */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}

static bool duplicate(const struct bounds *bs, const struct bound *b)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++)
		if (bs->b[i].op == b->op && bs->b[i].kind == b->kind &&
		    !strcmp(bs->b[i].workload, b->workload) &&
		    !strcmp(bs->b[i].variant, b->variant) &&
		    !strcmp(bs->b[i].metric, b->metric))
			return true;
	return false;
}

int bounds_load(const char *path, struct bounds *bs, char *err, size_t len)
{
	size_t size;
	char *text = fileio_read_user(path, &size, err, len), *pos = text, *line;
	unsigned int lineno = 0;
	char why[160];
	int ret = 0;

	bs->nr = 0;
	if (!text)
		return -1;
	while (!ret && (line = fileio_next_line(&pos, text + size))) {
		struct bound b = { .line = ++lineno };
		int r = parse_bound_line(line, &b, why, sizeof(why));

		if (r > 0)
			continue;
		if (!r && duplicate(bs, &b))
			snprintf(why, sizeof(why), "%s.%s %s%s given twice", b.workload,
				 b.metric, b.kind == BOUND_CHANGE ? "change " : "",
				 op_text[b.op]), r = -1;
		if (!r && bs->nr >= BOUNDS_MAX)
			snprintf(why, sizeof(why), "more than %d bounds", BOUNDS_MAX), r = -1;
		if (r) {
			printable(why);
			snprintf(err, len, "%s:%u: %s", path, lineno, why);
			ret = -1;
		} else {
			bs->b[bs->nr++] = b;
		}
	}
	free(text);
	return ret;
}

static bool known_variant(const char *const *variants, const char *v)
{
	if (!*v)
		return true;
	for (; *variants; variants++)
		if (!strcmp(*variants, v))
			return true;
	return false;
}

int bounds_check_names(const struct bounds *bs, const char *workload,
		       const char *const *variants,
		       const struct metric_set *known, const char *path,
		       char *err, size_t len)
{
	char name[METRIC_NAME_LEN];
	unsigned int i;

	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];

		if (strcmp(b->workload, workload))
			continue;
		if (!metric_find(known, b->metric)) {
			snprintf(name, sizeof(name), "%s", b->metric);
			printable(name);
			snprintf(err, len, "%s:%u: %s has no metric '%s'",
				 path, b->line, workload, name);
			return -1;
		}
		if (!known_variant(variants, b->variant)) {
			snprintf(name, sizeof(name), "%s", b->variant);
			printable(name);
			snprintf(err, len, "%s:%u: %s has no variant '%s'",
				 path, b->line, workload, name);
			return -1;
		}
	}
	return 0;
}

/*
 * A variant's own bound replaces the generic one for the same metric and
 * direction; the generic one judges every other variant.
 */
static bool bound_applies(const struct bounds *bs, const struct bound *b,
			  const char *workload, const char *variant)
{
	unsigned int i;

	if (strcmp(b->workload, workload))
		return false;
	if (*b->variant)
		return !strcmp(b->variant, variant);
	for (i = 0; i < bs->nr; i++) {
		const struct bound *o = &bs->b[i];

		if (o->op == b->op && o->kind == b->kind && !strcmp(o->workload, workload) &&
		    !strcmp(o->metric, b->metric) && !strcmp(o->variant, variant))
			return false;
	}
	return true;
}

unsigned int bounds_count(const struct bounds *bs, const char *workload,
			  const char *variant)
{
	unsigned int i, n = 0;

	for (i = 0; i < bs->nr; i++)
		n += bs->b[i].kind == BOUND_ABSOLUTE &&
		     bound_applies(bs, &bs->b[i], workload, variant);
	return n;
}

unsigned int bounds_changes(const struct bounds *bs, const char *workload,
			    const char *variant, struct cmp_rule *rules,
			    unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < bs->nr && n < max; i++) {
		const struct bound *b = &bs->b[i];

		if (b->kind != BOUND_CHANGE || !bound_applies(bs, b, workload, variant))
			continue;
		snprintf(rules[n].metric, sizeof(rules[n].metric), "%s", b->metric);
		rules[n++].change = b->limit;
	}
	return n;
}

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

void verdict_check(bool pass, const char *name, const char *fmt, ...)
{
	char detail[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (pass)
		ksft_test_result_pass("%s%s%s\n", name, *detail ? " " : "", detail);
	else
		ksft_test_result_fail("%s%s%s\n", name, *detail ? " " : "", detail);
}

void verdict_skip(const char *name, const char *why)
{
	ksft_test_result_skip("%s: %s\n", name, why);
}

/*
 * A bound on what other work moves (a rate, placement, waiting for a CPU)
 * says nothing about the kernel when other work took a good part of the
 * machine: SKIP it with the figure.  True when skipped.
 */
static bool machine_busy(const struct metric_set *set, const char *metric,
			 const char *name)
{
	const struct metric *f = metric_find(set, "foreign_cpu_share");
	char why[160];

	if (!metric_load_sensitive(metric) || !f || f->missing ||
	    f->value <= VERDICT_MAX_FOREIGN)
		return false;
	snprintf(why, sizeof(why),
		 "machine busy with other work: foreign CPU share %.2f > %.2f", f->value,
		 VERDICT_MAX_FOREIGN);
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
		verdict_check(pass, name, "%.4g %s %.4g%s%s%s", m->value, op_text[b->op],
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
		char name[160];

		snprintf(name, sizeof(name), "%s.%s.%s", workload, label, r->metric);
		if (r->verdict != CMP_MISSING)
			verdict_note("%s: old %.6g +- %.2g (n=%u), new %.6g +- %.2g (n=%u), change %+.2f%% (threshold %+.0f%%), p %.3g, Holm p %.3g%s, equivalence p %.3g (level %.3g)\n",
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
			nr_judged++;
			break;
		default:
			verdict_skip(name, r->why);
			/* a counter this kernel lacks is no reason to skip a bisect step */
			nr_cannot_judge += r->verdict != CMP_MISSING;
		}
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

void verdict_finish(void)
{
	if (!bisect_codes)
		ksft_finished();
	ksft_print_cnts();
	/*
	 * One metric too noisy on this machine must not make every bisect
	 * step a skip: "cannot judge" only when no comparison could judge.
	 */
	exit(ksft_get_fail_cnt() ? 1 : nr_cannot_judge && !nr_judged ? 125 : 0);
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
