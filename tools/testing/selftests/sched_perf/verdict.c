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
#include "verdict.h"

static const char *const op_text[] = {
	[BOUND_AT_MOST] = "<=",
	[BOUND_AT_LEAST] = ">=",
};

static int parse_bound_line(char *line, struct bound *b, char *why, size_t len)
{
	char key[128], op[8], num[64], extra[2];
	char *dot, *at, *end;
	int n;

	line[strcspn(line, "#\n")] = '\0';
	n = sscanf(line, "%127s %7s %63s %1s", key, op, num, extra);
	if (n <= 0)
		return 1;	/* blank or comment */
	if (n != 3) {
		snprintf(why, len, "expected '<workload>[@<variant>].<metric> <=|>= <number>'");
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
	errno = 0;
	b->limit = strtod(num, &end);
	if (*end || errno || !isfinite(b->limit)) {
		snprintf(why, len, "'%s' is not a number", num);
		return -1;
	}
	return 0;
}

static bool duplicate(const struct bounds *bs, const struct bound *b)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++)
		if (bs->b[i].op == b->op && !strcmp(bs->b[i].workload, b->workload) &&
		    !strcmp(bs->b[i].variant, b->variant) &&
		    !strcmp(bs->b[i].metric, b->metric))
			return true;
	return false;
}

int bounds_load(const char *path, struct bounds *bs, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512], why[160];
	unsigned int lineno = 0;
	int ret = 0;

	bs->nr = 0;
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		struct bound b = { .line = ++lineno };
		int r = parse_bound_line(line, &b, why, sizeof(why));

		if (r > 0)
			continue;
		if (!r && duplicate(bs, &b))
			snprintf(why, sizeof(why), "%s.%s %s given twice",
				 b.workload, b.metric, op_text[b.op]), r = -1;
		if (!r && bs->nr >= BOUNDS_MAX)
			snprintf(why, sizeof(why), "more than %d bounds", BOUNDS_MAX), r = -1;
		if (r) {
			snprintf(err, len, "%s:%u: %s", path, lineno, why);
			ret = -1;
		} else {
			bs->b[bs->nr++] = b;
		}
	}
	fclose(f);
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
	unsigned int i;

	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];

		if (strcmp(b->workload, workload))
			continue;
		if (!metric_find(known, b->metric)) {
			snprintf(err, len, "%s:%u: %s has no metric '%s'",
				 path, b->line, workload, b->metric);
			return -1;
		}
		if (!known_variant(variants, b->variant)) {
			snprintf(err, len, "%s:%u: %s has no variant '%s'",
				 path, b->line, workload, b->variant);
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

		if (o->op == b->op && !strcmp(o->workload, workload) &&
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
		n += bound_applies(bs, &bs->b[i], workload, variant);
	return n;
}

void verdict_begin(unsigned int plan)
{
	ksft_print_header();
	ksft_set_plan(plan);
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

		if (!bound_applies(bs, b, workload, variant))
			continue;
		snprintf(name, sizeof(name), "%s.%s", b->workload, b->metric);
		m = metric_find(set, b->metric);
		if (skip_all || !m || m->missing) {
			verdict_skip(name, skip_all ? skip_all : m ? m->missing : "not measured");
			continue;
		}
		pass = b->op == BOUND_AT_MOST ? m->value <= b->limit : m->value >= b->limit;
		verdict_check(pass, name, "%.4g %s %.4g%s%s%s", m->value, op_text[b->op],
			      b->limit, *b->variant ? " (bound for " : "", b->variant,
			      *b->variant ? ")" : "");
	}
}

void verdict_finish(void)
{
	ksft_finished();
}

void verdict_skip_all(const char *why)
{
	ksft_print_header();
	ksft_exit_skip("%s\n", why);
}
