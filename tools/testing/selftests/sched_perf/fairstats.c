// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/sched/fair_stats parser.
 *
 * The text is read in place, line by line and word by word as (pointer,
 * length) spans: no copy, no fixed-size buffer, so a line of any length
 * and any bytes is only ever read up to its end or the text's NUL.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "fairstats.h"

#define FC_NAME(column) #column
const char *const fair_counter_names[FC_COUNT] = {
#define FAIR_COUNTER(column) FC_NAME(column),
#include "fair_counters.h"
#undef FAIR_COUNTER
};

struct span {
	const char *s;
	size_t len;
};

struct parser {
	const char *next;		/* start of the line after @line */
	struct span line;
	unsigned int lineno;
	size_t nr_cols;			/* header columns after "cpu" */
	int *col;			/* counter of each column, -1: skipped */
	size_t cap;			/* room in fs->cpus */
	uint64_t seen[FAIR_STATS_MAX_CPUS / 64];	/* duplicate check */
	char *err;
	size_t errlen;
};

enum num_result { NUM_OK, NUM_NOT_A_NUMBER, NUM_NEGATIVE, NUM_TOO_BIG };

/* Room for a quoted word in a message; longer words are cut. */
#define SHOW_LEN 40

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static __printf(2, 3) int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (!ps->err || !ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* As fail(), "line N: " first: the reader wants to find the line. */
static __printf(2, 3) int fail_line(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ps->err || !ps->errlen)
		return -1;
	n = snprintf(ps->err, ps->errlen, "line %u: ", ps->lineno);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * @w made fit for a one-line message: cut to SHOW_LEN and any byte that
 * is not printable ASCII (a control character, a tab) shown as '?'.
 */
static const char *show(const struct span *w, char buf[SHOW_LEN])
{
	size_t i, n = w->len < SHOW_LEN - 4 ? w->len : SHOW_LEN - 4;

	for (i = 0; i < n; i++) {
		unsigned char c = w->s[i];

		buf[i] = c > ' ' && c < 0x7f ? c : '?';
	}
	if (n < w->len) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* The next line into ps->line; false at the end of the text. */
static bool next_line(struct parser *ps)
{
	size_t len;

	if (!*ps->next)
		return false;
	len = strcspn(ps->next, "\n");
	ps->line.s = ps->next;
	ps->line.len = len;
	ps->next += len + (ps->next[len] == '\n');
	ps->lineno++;
	return true;
}

/* The next word of @line from *@pos on; false when none is left. */
static bool next_word(const struct span *line, size_t *pos, struct span *w)
{
	size_t i = *pos;

	while (i < line->len && is_blank(line->s[i]))
		i++;
	w->s = line->s + i;
	while (i < line->len && !is_blank(line->s[i]))
		i++;
	w->len = line->s + i - w->s;
	*pos = i;
	return w->len != 0;
}

static size_t count_words(const struct span *line)
{
	struct span w;
	size_t pos = 0, n = 0;

	while (next_word(line, &pos, &w))
		n++;
	return n;
}

static bool word_is(const struct span *w, const char *s)
{
	return w->len == strlen(s) && !memcmp(w->s, s, w->len);
}

/* Decimal digits only: no sign, no blank, no base prefix, at most 2^64-1. */
static enum num_result parse_u64(const struct span *w, uint64_t *v)
{
	size_t i;

	*v = 0;
	if (w->len && w->s[0] == '-')
		return NUM_NEGATIVE;
	if (!w->len)
		return NUM_NOT_A_NUMBER;
	for (i = 0; i < w->len; i++) {
		unsigned int d = (unsigned char)w->s[i] - '0';

		if (d > 9)
			return NUM_NOT_A_NUMBER;
		if (*v > (UINT64_MAX - d) / 10)
			return NUM_TOO_BIG;
		*v = *v * 10 + d;
	}
	return NUM_OK;
}

static int counter_of(const struct span *w)
{
	int k;

	for (k = 0; k < FC_COUNT; k++)
		if (word_is(w, fair_counter_names[k]))
			return k;
	return -1;
}

static int parse_version(struct parser *ps, unsigned int *version)
{
	char buf[SHOW_LEN];
	struct span w, num;
	size_t pos = 0;
	uint64_t v;

	next_line(ps);
	if (!next_word(&ps->line, &pos, &w) || !word_is(&w, "version"))
		return fail_line(ps, "expected 'version N', got '%s'", show(&w, buf));
	if (!next_word(&ps->line, &pos, &num))
		return fail_line(ps, "'version' without a number");
	if (next_word(&ps->line, &pos, &w))
		return fail_line(ps, "'%s' after the version number", show(&w, buf));
	if (parse_u64(&num, &v) != NUM_OK || v > UINT_MAX)
		return fail_line(ps, "version '%s' is not a number from 1 to %u",
				 show(&num, buf), UINT_MAX);
	/* version 0 never existed: the file is not what we think it is */
	if (!v)
		return fail_line(ps, "version 0 is not a fair_stats version (they start at 1)");
	/* the first draft: its wakeup checks counted migrations and forks */
	if (v == 1)
		return fail_line(ps, "version 1 counts every wakeup_preempt() call, not wakeups: %s",
				 "a kernel with the version 2 patches (kernel/sched) is needed");
	if (v != FAIR_STATS_VERSION)
		return fail_line(ps, "version %u: this suite knows version %u only",
				 (unsigned int)v, FAIR_STATS_VERSION);
	*version = v;
	return 0;
}

/* Which counter each column holds; every counter must have one. */
static int map_columns(struct parser *ps, size_t pos)
{
	bool have[FC_COUNT] = { false };
	struct span w;
	size_t i;
	int k;

	for (i = 0; next_word(&ps->line, &pos, &w); i++) {
		k = counter_of(&w);
		ps->col[i] = k;
		if (k < 0)
			continue;
		/* two columns of one name: no telling which is the counter */
		if (have[k])
			return fail_line(ps, "column %s appears twice in the header",
					 fair_counter_names[k]);
		have[k] = true;
	}
	/* a !CONFIG_SMP kernel has no idle sibling search, hence no sis_* */
	if (!have[FC_sis_calls] && have[FC_wakeup_checks])
		return fail_line(ps, "no sis_* columns: a kernel without CONFIG_SMP has no idle sibling search");
	for (k = 0; k < FC_COUNT; k++)
		if (!have[k])
			return fail_line(ps, "header lacks the column %s",
					 fair_counter_names[k]);
	return 0;
}

static int parse_header(struct parser *ps)
{
	char buf[SHOW_LEN];
	struct span w;
	size_t pos = 0, n;

	if (!next_line(ps))
		return fail(ps, "line 2: no header line ('cpu <column>...') after the version");
	n = count_words(&ps->line);
	if (!next_word(&ps->line, &pos, &w) || !word_is(&w, "cpu"))
		return fail_line(ps, "expected the header 'cpu <column>...', got '%s'",
				 show(&w, buf));
	ps->nr_cols = n - 1;
	ps->col = calloc(n, sizeof(*ps->col));
	if (!ps->col)
		return fail(ps, "out of memory");
	return map_columns(ps, pos);
}

/* "cpu<N>", N < FAIR_STATS_MAX_CPUS, into @cpu. */
static int parse_cpu_word(struct parser *ps, const struct span *w,
			  unsigned int *cpu)
{
	char buf[SHOW_LEN];
	enum num_result r;
	struct span num;
	uint64_t v;

	if (w->len < 4 || memcmp(w->s, "cpu", 3))
		return fail_line(ps, "row starts with '%s', not cpu<N>", show(w, buf));
	num.s = w->s + 3;
	num.len = w->len - 3;
	r = parse_u64(&num, &v);
	if (r == NUM_NOT_A_NUMBER || r == NUM_NEGATIVE)
		return fail_line(ps, "row starts with '%s', not cpu<N>", show(w, buf));
	if (r == NUM_TOO_BIG || v >= FAIR_STATS_MAX_CPUS)
		return fail_line(ps, "'%s': CPU number out of range (max %u)",
				 show(w, buf), FAIR_STATS_MAX_CPUS - 1);
	*cpu = v;
	return 0;
}

static int parse_value(struct parser *ps, const struct span *w,
		       unsigned int cpu, int k, uint64_t *v)
{
	const char *name = fair_counter_names[k];
	char buf[SHOW_LEN];

	switch (parse_u64(w, v)) {
	case NUM_OK:
		return 0;
	case NUM_NEGATIVE:
		return fail_line(ps, "cpu%u %s: negative value '%s'", cpu, name,
				 show(w, buf));
	case NUM_TOO_BIG:
		return fail_line(ps, "cpu%u %s: '%s' is out of range (> 2^64-1)",
				 cpu, name, show(w, buf));
	default:
		return fail_line(ps, "cpu%u %s: '%s' is not a number", cpu, name,
				 show(w, buf));
	}
}

static int add_cpu(struct parser *ps, struct fair_stats *fs,
		   const struct fair_stats_cpu *c)
{
	if (fs->nr_cpus == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		struct fair_stats_cpu *p = realloc(fs->cpus, cap * sizeof(*p));

		if (!p)
			return fail(ps, "out of memory");
		fs->cpus = p;
		ps->cap = cap;
	}
	fs->cpus[fs->nr_cpus++] = *c;
	return 0;
}

static int parse_row(struct parser *ps, struct fair_stats *fs)
{
	size_t pos = 0, n = count_words(&ps->line) - 1, i;
	struct fair_stats_cpu c = { 0 };
	uint64_t bit;
	struct span w;

	next_word(&ps->line, &pos, &w);
	if (parse_cpu_word(ps, &w, &c.cpu))
		return -1;
	if (n != ps->nr_cols)
		return fail_line(ps, "cpu%u has %zu values, the header names %zu columns",
				 c.cpu, n, ps->nr_cols);
	bit = 1ULL << (c.cpu % 64);
	if (ps->seen[c.cpu / 64] & bit)
		return fail_line(ps, "cpu%u listed a second time", c.cpu);
	ps->seen[c.cpu / 64] |= bit;
	for (i = 0; next_word(&ps->line, &pos, &w); i++) {
		int k = ps->col[i];

		if (k >= 0 && parse_value(ps, &w, c.cpu, k, &c.v[k]))
			return -1;
	}
	return add_cpu(ps, fs, &c);
}

static bool line_is_blank(const struct span *line)
{
	size_t pos = 0;
	struct span w;

	return !next_word(line, &pos, &w);
}

static int parse_rows(struct parser *ps, struct fair_stats *fs)
{
	unsigned int blank = 0;

	while (next_line(ps)) {
		/* the end may carry blank lines; the middle may not */
		if (line_is_blank(&ps->line)) {
			if (!blank)
				blank = ps->lineno;
			continue;
		}
		if (blank)
			return fail_line(ps, "row after the blank line %u", blank);
		if (parse_row(ps, fs))
			return -1;
	}
	if (!fs->nr_cpus)
		return fail(ps, "no cpu rows after the header (the file lists CPUs only while kernel.sched_schedstats is 1)");
	return 0;
}

static bool text_is_blank(const char *s)
{
	return !s[strspn(s, " \t\n")];
}

static int by_cpu(const void *a, const void *b)
{
	const struct fair_stats_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int parse_all(struct parser *ps, struct fair_stats *fs)
{
	if (text_is_blank(ps->next))
		return fail(ps, "empty text: no 'version N' line");
	if (parse_version(ps, &fs->version) || parse_header(ps) ||
	    parse_rows(ps, fs))
		return -1;
	/* the kernel prints CPUs in order, but diff must not depend on it */
	qsort(fs->cpus, fs->nr_cpus, sizeof(*fs->cpus), by_cpu);
	return 0;
}

int fair_stats_parse(const char *text, struct fair_stats *fs,
		     char *err, size_t errlen)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	int ret;

	memset(fs, 0, sizeof(*fs));
	if (err && errlen)
		err[0] = '\0';
	if (!ps) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	ps->next = text ? text : "";
	ps->err = err;
	ps->errlen = errlen;
	ret = parse_all(ps, fs);
	free(ps->col);
	free(ps);
	if (ret)
		fair_stats_free(fs);
	return ret;
}

void fair_stats_free(struct fair_stats *fs)
{
	free(fs->cpus);
	memset(fs, 0, sizeof(*fs));
}

static __printf(4, 5) int diff_fail(struct fair_stats_delta *d, char *err,
				    size_t errlen, const char *fmt, ...)
{
	va_list ap;

	memset(d, 0, sizeof(*d));
	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The merge below needs both lists ascending, as parsing leaves them. */
static bool ascending(const struct fair_stats *fs)
{
	size_t i;

	for (i = 1; i < fs->nr_cpus; i++)
		if (fs->cpus[i - 1].cpu >= fs->cpus[i].cpu)
			return false;
	return true;
}

int fair_stats_diff(const struct fair_stats *before,
		    const struct fair_stats *after,
		    struct fair_stats_delta *d, char *err, size_t errlen)
{
	size_t i = 0, j = 0;
	int k;

	memset(d, 0, sizeof(*d));
	if (!ascending(before) || !ascending(after))
		return diff_fail(d, err, errlen, "snapshot CPUs not in ascending order");
	/* both lists ascending: walk them side by side, matching numbers */
	while (i < before->nr_cpus || j < after->nr_cpus) {
		const struct fair_stats_cpu *b = i < before->nr_cpus ? &before->cpus[i] : NULL;
		const struct fair_stats_cpu *a = j < after->nr_cpus ? &after->cpus[j] : NULL;

		if (b && (!a || b->cpu < a->cpu))
			return diff_fail(d, err, errlen, "cpu%u went offline during the run",
					 b->cpu);
		if (!b || a->cpu < b->cpu)
			return diff_fail(d, err, errlen, "cpu%u came online during the run",
					 a->cpu);
		/* unsigned subtraction: a counter that wrapped still counts right */
		for (k = 0; k < FC_COUNT; k++)
			d->v[k] += a->v[k] - b->v[k];
		d->nr_cpus++;
		i++;
		j++;
	}
	if (!d->nr_cpus)
		return diff_fail(d, err, errlen, "no CPUs in either snapshot");
	return 0;
}
