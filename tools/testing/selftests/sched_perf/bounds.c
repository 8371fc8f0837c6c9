// SPDX-License-Identifier: GPL-2.0
/*
 * The bounds file: a human-edited list of absolute bounds and change
 * thresholds per workload and metric.  See bounds.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "fileio.h"
#include "metric_rows.h"

const char *const bound_op_text[] = {
	[BOUND_AT_MOST] = "<=",
	[BOUND_AT_LEAST] = ">=",
};

/* "-5%" into -0.05: 0, or -1 for anything but a finite percentage. */
static int fraction_of_percent(const char *num, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(num, &end) / 100;
	return end == num || strcmp(end, "%") || errno || !isfinite(*out) ? -1 : 0;
}

/* "-5%" or "+20%" into -0.05 or 0.20, for "change >=" and "change <=". */
static int parse_change(struct bound *b, const char *num, char *why, size_t len)
{
	if (fraction_of_percent(num, &b->limit)) {
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

/*
 * "alarm -N%" after a change bound: where the gate fails, inside the
 * change (the regression to catch), on the same side.
 */
static int parse_alarm(struct bound *b, const char *word, const char *num, char *why,
		       size_t len)
{
	if (strcmp(word, "alarm") || fraction_of_percent(num, &b->alarm) || b->alarm == 0 ||
	    (b->alarm < 0) != (b->limit < 0) || fabs(b->alarm) > fabs(b->limit)) {
		snprintf(why, len,
			 "after a change bound only 'alarm N%%', N on the change's side and within it, not '%.20s %.20s'",
			 word, num);
		return -1;
	}
	return 0;
}

static int parse_bound_line(char *line, struct bound *b, char *why, size_t len)
{
	char key[128], op[64], num[64], extra[64], word[64], alarm[64];
	char *dot, *at, *end;
	bool change;
	int n;

	line[strcspn(line, "#\n")] = '\0';
	n = sscanf(line, "%127s %63s %63s %63s %63s %63s", key, op, num, extra, word, alarm);
	if (n <= 0)
		return 1;	/* blank or comment */
	change = (n == 4 || n == 6) && !strcmp(op, "change");
	if (change) {
		snprintf(op, sizeof(op), "%s", num);
		snprintf(num, sizeof(num), "%s", extra);
		n = sscanf(line, "%*s %*s %*s %*s %*s %*s %1s", extra) == 1 ? 7 : n == 6 ? 5 : 3;
	}
	if (n != 3 && !(change && n == 5)) {
		snprintf(why, len, "expected '<workload>[@<variant>].<metric> [change] <=|>= <number>[%%] [alarm <number>%%]'");
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
	if (change && parse_change(b, num, why, len))
		return -1;
	if (change)
		return n == 5 ? parse_alarm(b, word, alarm, why, len) : 0;
	errno = 0;
	b->limit = strtod(num, &end);
	if (*end || errno || !isfinite(b->limit)) {
		snprintf(why, len, "'%s' is not a number", num);
		return -1;
	}
	return 0;
}

/* The line of @bs that @b would replace, or NULL */
static struct bound *same_bound(struct bounds *bs, const struct bound *b)
{
	unsigned int i;

	for (i = 0; i < bs->nr; i++)
		if (bs->b[i].op == b->op && bs->b[i].kind == b->kind &&
		    !strcmp(bs->b[i].workload, b->workload) &&
		    !strcmp(bs->b[i].variant, b->variant) &&
		    !strcmp(bs->b[i].metric, b->metric))
			return &bs->b[i];
	return NULL;
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
		if (!r && same_bound(bs, &b))
			snprintf(why, sizeof(why), "%s.%s %s%s given twice", b.workload,
				 b.metric, b.kind == BOUND_CHANGE ? "change " : "",
				 bound_op_text[b.op]), r = -1;
		if (!r && bs->nr >= BOUNDS_MAX)
			snprintf(why, sizeof(why), "more than %d bounds", BOUNDS_MAX), r = -1;
		if (r) {
			fileio_printable(why);
			snprintf(err, len, "%s:%u: %s", path, lineno, why);
			ret = -1;
		} else {
			bs->b[bs->nr++] = b;
		}
	}
	free(text);
	return ret;
}

int bounds_override(const char *path, struct bounds *bs, char *err, size_t len)
{
	struct bounds *more = malloc(sizeof(*more));
	unsigned int i, added = 0;
	struct bound *old;

	if (!more) {
		snprintf(err, len, "%s: out of memory", path);
		return -1;
	}
	if (bounds_load(path, more, err, len)) {
		free(more);
		return -1;
	}
	for (i = 0; i < more->nr; i++)
		added += !same_bound(bs, &more->b[i]);
	if (bs->nr + added > BOUNDS_MAX) {
		snprintf(err, len, "%s: more than %d bounds with the file before it",
			 path, BOUNDS_MAX);
		free(more);
		return -1;
	}
	for (i = 0; i < more->nr; i++) {
		old = same_bound(bs, &more->b[i]);
		*(old ? old : &bs->b[bs->nr++]) = more->b[i];
	}
	free(more);
	return 0;
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
			fileio_printable(name);
			snprintf(err, len, "%s:%u: %s has no metric '%s'",
				 path, b->line, workload, name);
			return -1;
		}
		if (!known_variant(variants, b->variant)) {
			snprintf(name, sizeof(name), "%s", b->variant);
			fileio_printable(name);
			snprintf(err, len, "%s:%u: %s has no variant '%s'",
				 path, b->line, workload, name);
			return -1;
		}
	}
	return 0;
}

bool bound_applies(const struct bounds *bs, const struct bound *b,
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
		rules[n].change = b->limit;
		rules[n].alarm = b->alarm;
		/* the workload's throughput: what the gate's verdict rests on */
		rules[n++].primary = metric_is_throughput(b->metric);
	}
	return n;
}
