// SPDX-License-Identifier: GPL-2.0
/*
 * The metric rows: well formed, and evaluated as declared.
 */
#include <math.h>
#include <string.h>

#include "measure.h"
#include "metric_rows.h"
#include "unit.h"

static bool term_ok(short term)
{
	int f = (term > 0 ? term : -term) - 1;

	return f >= 0 && f < F_COUNT;
}

static bool terms_ok(const short *terms, int *n)
{
	int i;

	for (i = 0; i < ROW_TERMS && terms[i]; i++)
		if (!term_ok(terms[i]))
			return false;
	*n = i;
	return i < ROW_TERMS;	/* room for the terminator */
}

/* Every row: fields that exist, a numerator, a denominator unless a total. */
static bool row_well_formed(const struct metric_row *r)
{
	int nn, nd;

	if (!terms_ok(r->num, &nn) || !terms_ok(r->den, &nd) || !nn || !r->unit)
		return false;
	if (r->flags & ROW_TOTAL)
		return !nd;
	if (r->flags & ROW_VALUE)
		return !nd && r->scale > 0;
	return nd && r->scale > 0;
}

static const struct metric *eval(const char *name, const double *value,
				 const char *const *missing, struct metric_set *set)
{
	set->nr = 0;
	metric_row_eval(metric_row_find(name), value, missing, set);
	return set->nr == 1 ? &set->m[0] : NULL;
}

TEST(rows_eval)
{
	static double value[F_COUNT];
	static const char *missing[F_COUNT];
	static struct metric_set set;
	const struct metric *m;

	/* per op, scaled */
	value[F_OPS] = 200;
	value[F_CPU_MIGRATIONS] = 50;
	m = eval("migrations_per_1k_ops", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(250, m->value, 0);

	/* a placement share: of the wakeups whose placement is known */
	value[F_TP_PLACED_PREV] = 6;
	value[F_TP_PLACED_WAKER] = 2;
	value[F_TP_PLACED_LLC] = 1;
	value[F_TP_PLACED_OTHER] = 1;
	m = eval("tp_wake_waker_cpu_share", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(0.2, m->value, 1e-12);
	/* a sum per op */
	m = eval("tp_wake_migrations_per_1k_ops", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(20, m->value, 1e-12);

	/* a window's own figure: scaled, not divided by the operations */
	value[F_TP_LAT_P99_NS] = 2500;
	m = eval("tp_wakeup_latency_p99_us", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(2.5, m->value, 1e-12);
	EXPECT_STREQ("us", m->unit);

	/* the series' scans: found of all scan endings */
	value[F_TP_SIS_SCAN_FOUND] = 3;
	value[F_TP_SIS_SCAN_NONE] = 1;
	value[F_TP_SIS_SCAN_BUDGET_ZERO] = 4;
	m = eval("tp_sis_found_share", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(0.375, m->value, 1e-12);

	/* a missing denominator's reason first */
	missing[F_CYCLES] = "cycles gone";
	missing[F_INSTRUCTIONS] = "instructions gone";
	m = eval("ipc", value, missing, &set);
	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, m->missing);
	EXPECT_STREQ("cycles gone", m->missing);

	/* a zero denominator: missing, not infinite */
	value[F_VOLUNTARY_SWITCHES] = value[F_INVOLUNTARY_SWITCHES] = 0;
	m = eval("involuntary_share", value, missing, &set);
	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, m->missing);
	EXPECT_STREQ("denominator is zero", m->missing);

	/* a total: the field itself */
	value[F_TASK_CLOCK] = 123;
	m = eval("task_clock", value, missing, &set);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, m->missing);
	EXPECT_NEAR(123, m->value, 0);
	EXPECT_STREQ("ns", m->unit);
}

/*
 * A field no source wrote in a window, nor marked missing, is missing
 * after it (a field added past a source's range is not a real 0); what
 * was written or marked stays as it was.
 */
TEST(rows_unfilled)
{
	static struct measure m;
	static struct metric_set set;
	const struct metric *mig, *tc;
	int f, unfilled = 0;

	for (f = 0; f < F_OPS; f++)
		m.value[f] = NAN;
	m.value[F_TASK_CLOCK] = 5e9;
	m.missing[F_CYCLES] = "not supported";
	measure_mark_unfilled(&m);
	for (f = 0; f < F_OPS; f++)
		unfilled += m.missing[f] && !strcmp(m.missing[f], MEASURE_UNFILLED);
	memset(&set, 0, sizeof(set));
	measure_metrics(&m, 1000, &set);
	mig = metric_find(&set, "migrations_per_1k_ops");
	tc = metric_find(&set, "task_clock_us_per_op");
	/* all but the one written and the one marked */
	EXPECT_EQ(F_OPS - 2, unfilled);
	EXPECT_STREQ("not supported", m.missing[F_CYCLES]);
	EXPECT_EQ(NULL, m.missing[F_TASK_CLOCK]);
	/* a metric of an unfilled field is missing, not zero */
	ASSERT_NE(NULL, mig);
	ASSERT_NE(NULL, mig->missing);
	EXPECT_STREQ(MEASURE_UNFILLED, mig->missing);
	ASSERT_NE(NULL, tc);
	EXPECT_EQ(NULL, tc->missing);
	EXPECT_NEAR(5000, tc->value, 0);
}

/* The rows mark load-sensitive exactly the metrics named so before. */
static bool named_load_sensitive(const char *n)
{
	return strstr(n, "migrations") || strstr(n, "run_delay") || strstr(n, "wait_us") ||
	       strstr(n, "latency") || strstr(n, "sis_scanned_per_wakeup");
}

TEST(rows_table)
{
	size_t i, j;

	for (i = 0; i < metric_nr_rows; i++) {
		const char *n = metric_rows[i].name;

		EXPECT_TRUE(row_well_formed(&metric_rows[i])) TH_LOG("row %s", n);
		for (j = i + 1; j < metric_nr_rows; j++) {
			const char *other = metric_rows[j].name;

			EXPECT_STRNE(n, other) TH_LOG("rows %zu and %zu", i, j);
		}
		EXPECT_EQ(named_load_sensitive(n), metric_load_sensitive(n)) TH_LOG("row %s", n);
	}
	EXPECT_TRUE(metric_load_sensitive("messages_per_sec"));
	EXPECT_FALSE(metric_load_sensitive("messages_per_sec_best"));
	EXPECT_FALSE(metric_load_sensitive("build_s"));
	/* found by name */
	EXPECT_NE(NULL, metric_row_find("tp_sis_scanned_per_wakeup"));
	EXPECT_EQ(NULL, metric_row_find("no_such_metric"));
}
