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
	char *dot, *end;
	int n;

	line[strcspn(line, "#\n")] = '\0';
	n = sscanf(line, "%127s %7s %63s %1s", key, op, num, extra);
	if (n <= 0)
		return 1;	/* blank or comment */
	if (n != 3) {
		snprintf(why, len, "expected '<workload>.<metric> <=|>= <number>'");
		return -1;
	}
	dot = strchr(key, '.');
	if (!dot || dot == key || !dot[1] || dot - key >= (int)sizeof(b->workload) ||
	    strlen(dot + 1) >= sizeof(b->metric)) {
		snprintf(why, len, "'%s' is not <workload>.<metric>", key);
		return -1;
	}
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
	memcpy(b->workload, key, dot - key);
	b->workload[dot - key] = '\0';
	snprintf(b->metric, sizeof(b->metric), "%s", dot + 1);
	return 0;
}

static bool duplicate(const struct bounds *bs, const struct bound *b)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++)
		if (bs->b[i].op == b->op && !strcmp(bs->b[i].workload, b->workload) &&
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

int bounds_check_names(const struct bounds *bs, const char *workload,
		       const struct metric_set *known, const char *path,
		       char *err, size_t len)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];

		if (strcmp(b->workload, workload) || metric_find(known, b->metric))
			continue;
		snprintf(err, len, "%s:%u: %s has no metric '%s'",
			 path, b->line, workload, b->metric);
		return -1;
	}
	return 0;
}

unsigned int bounds_count(const struct bounds *bs, const char *workload)
{
	unsigned int i, n = 0;

	for (i = 0; i < bs->nr; i++)
		n += !strcmp(bs->b[i].workload, workload);
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
		   const struct metric_set *set, const char *skip_all)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];
		const struct metric *m;
		char name[128];
		bool pass;

		if (strcmp(b->workload, workload))
			continue;
		snprintf(name, sizeof(name), "%s.%s", b->workload, b->metric);
		m = metric_find(set, b->metric);
		if (skip_all || !m || m->missing) {
			verdict_skip(name, skip_all ? skip_all : m ? m->missing : "not measured");
			continue;
		}
		pass = b->op == BOUND_AT_MOST ? m->value <= b->limit : m->value >= b->limit;
		verdict_check(pass, name, "%.4g %s %.4g", m->value, op_text[b->op], b->limit);
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
