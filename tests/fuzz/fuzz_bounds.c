// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: bounds_load() (verdict.c), the reader of the bounds file
 * (--bounds FILE), and what the programs do with what it returns:
 * bounds_check_names(), bounds_count(), bounds_changes().
 */
#include <math.h>

#include "fuzz.h"
#include "verdict.h"

static const char *const variants[] = { "pipe-process", "socket-threads", NULL };
static const char *const workloads[] = { "hackbench", "tcp_rr", "otherwl" };

static bool terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

static void check_bound(const struct bound *b)
{
	FUZZ_CHECK(terminated(b->workload, sizeof(b->workload)) &&
		   terminated(b->variant, sizeof(b->variant)) &&
		   terminated(b->metric, sizeof(b->metric)), "a name is not terminated");
	FUZZ_CHECK(b->workload[0] && b->metric[0], "a bound without workload or metric");
	FUZZ_CHECK(!strpbrk(b->workload, ".@ \t\n") && !strpbrk(b->variant, ". \t\n") &&
		   !strpbrk(b->metric, " \t\n"), "a name holds a separator: %s@%s.%s",
		   b->workload, b->variant, b->metric);
	FUZZ_CHECK(b->op == BOUND_AT_MOST || b->op == BOUND_AT_LEAST, "op %d", b->op);
	FUZZ_CHECK(isfinite(b->limit), "limit not finite");
	if (b->kind == BOUND_CHANGE)
		FUZZ_CHECK(b->op == BOUND_AT_LEAST ? b->limit < 0 : b->limit > 0,
			   "change bound %s %g points the wrong way",
			   b->op == BOUND_AT_LEAST ? ">=" : "<=", b->limit);
	else
		FUZZ_CHECK(b->kind == BOUND_ABSOLUTE, "kind %d", b->kind);
	FUZZ_CHECK(b->line > 0, "bound without a line number");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bounds bs;
	static struct metric_set known;
	struct cmp_rule rules[BOUNDS_MAX];
	const char *path = fuzz_file(data, size);
	char err[512], prefix[80];
	unsigned int i, n;

	memset(err, 'x', sizeof(err));
	if (bounds_load(path, &bs, err, sizeof(err))) {
		snprintf(prefix, sizeof(prefix), "%s:", path);
		fuzz_error_line("bounds_load", err, sizeof(err), prefix);
		return 0;
	}
	FUZZ_CHECK(bs.nr <= BOUNDS_MAX, "%u bounds", bs.nr);
	for (i = 0; i < bs.nr; i++) {
		check_bound(&bs.b[i]);
		if (i)
			FUZZ_CHECK(bs.b[i].line > bs.b[i - 1].line, "lines out of order");
	}
	if (!known.nr) {
		metric_add(&known, "messages_per_sec", "1/s", 1);
		metric_add(&known, "migrations_per_1k_ops", "", 1);
	}
	/* what a program (its workload's name) does with the bounds */
	for (i = 0; i < ARRAY_SIZE(workloads); i++) {
		memset(err, 'x', sizeof(err));
		if (bounds_check_names(&bs, workloads[i], variants, &known, path, err,
				       sizeof(err)))
			fuzz_error_line("bounds_check_names", err, sizeof(err), path);
	}
	/* and the judging, for each workload and variant the file names */
	for (i = 0; i < bs.nr; i++) {
		const char *wl = bs.b[i].workload;
		const char *var = bs.b[i].variant[0] ? bs.b[i].variant : variants[0];

		FUZZ_CHECK(bounds_count(&bs, wl, var) <= bs.nr, "more bounds than loaded");
		n = bounds_changes(&bs, wl, var, rules, BOUNDS_MAX);
		FUZZ_CHECK(n <= bs.nr, "more change rules than bounds");
		while (n--)
			FUZZ_CHECK(rules[n].change != 0 && isfinite(rules[n].change),
				   "change rule %g", rules[n].change);
	}
	return 0;
}
