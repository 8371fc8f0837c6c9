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

static bool names_unique(void)
{
	size_t i, j;

	for (i = 0; i < metric_nr_rows; i++)
		for (j = i + 1; j < metric_nr_rows; j++)
			if (!strcmp(metric_rows[i].name, metric_rows[j].name))
				return false;
	return true;
}

/* The rows mark load-sensitive exactly the metrics named so before. */
static bool load_sensitive_as_named(void)
{
	size_t i;

	for (i = 0; i < metric_nr_rows; i++) {
		const char *n = metric_rows[i].name;
		bool by_name = strstr(n, "migrations") || strstr(n, "run_delay") ||
			       strstr(n, "wait_us") || strstr(n, "latency") ||
			       strstr(n, "sis_scanned_per_wakeup");

		if (by_name != metric_load_sensitive(n))
			return false;
	}
	return metric_load_sensitive("messages_per_sec") &&
	       !metric_load_sensitive("messages_per_sec_best") &&
	       !metric_load_sensitive("build_s");
}

static const struct metric *eval(const char *name, const double *value,
				 const char *const *missing, struct metric_set *set)
{
	set->nr = 0;
	metric_row_eval(metric_row_find(name), value, missing, set);
	return set->nr == 1 ? &set->m[0] : NULL;
}

UNIT_TEST(rows_eval)
{
	static double value[F_COUNT];
	static const char *missing[F_COUNT];
	static struct metric_set set;
	const struct metric *m;

	value[F_OPS] = 200;
	value[F_CPU_MIGRATIONS] = 50;
	m = eval("migrations_per_1k_ops", value, missing, &set);
	EXPECT(m && !m->missing && m->value == 250, "rows_per_op_scaled");

	/* a placement share: of the wakeups whose placement is known */
	value[F_TP_PLACED_PREV] = 6;
	value[F_TP_PLACED_WAKER] = 2;
	value[F_TP_PLACED_LLC] = 1;
	value[F_TP_PLACED_OTHER] = 1;
	m = eval("tp_wake_waker_cpu_share", value, missing, &set);
	EXPECT(m && !m->missing && fabs(m->value - 0.2) < 1e-12, "rows_share_of_a_sum");
	m = eval("tp_wake_migrations_per_1k_ops", value, missing, &set);
	EXPECT(m && !m->missing && fabs(m->value - 20) < 1e-12, "rows_sum_per_op");

	/* a window's own figure: scaled, not divided by the operations */
	value[F_TP_LAT_P99_NS] = 2500;
	m = eval("tp_wakeup_latency_p99_us", value, missing, &set);
	EXPECT(m && !m->missing && fabs(m->value - 2.5) < 1e-12 && !strcmp(m->unit, "us"),
	       "rows_value_scaled");

	/* the series' scans: found of all scan endings */
	value[F_TP_SIS_SCAN_FOUND] = 3;
	value[F_TP_SIS_SCAN_NONE] = 1;
	value[F_TP_SIS_SCAN_BUDGET_ZERO] = 4;
	m = eval("tp_sis_found_share", value, missing, &set);
	EXPECT(m && !m->missing && fabs(m->value - 0.375) < 1e-12, "rows_series_scans");

	missing[F_CYCLES] = "cycles gone";
	missing[F_INSTRUCTIONS] = "instructions gone";
	m = eval("ipc", value, missing, &set);
	EXPECT(m && m->missing && !strcmp(m->missing, "cycles gone"),
	       "rows_missing_denominator_first");

	value[F_VOLUNTARY_SWITCHES] = value[F_INVOLUNTARY_SWITCHES] = 0;
	m = eval("involuntary_share", value, missing, &set);
	EXPECT(m && m->missing && !strcmp(m->missing, "denominator is zero"),
	       "rows_zero_denominator_missing");

	value[F_TASK_CLOCK] = 123;
	m = eval("task_clock", value, missing, &set);
	EXPECT(m && !m->missing && m->value == 123 && !strcmp(m->unit, "ns"), "rows_total");
}

/*
 * A field no source wrote in a window, nor marked missing, is missing
 * after it (a field added past a source's range is not a real 0); what
 * was written or marked stays as it was.
 */
UNIT_TEST(rows_unfilled)
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
	EXPECT(unfilled == F_OPS - 2 && !strcmp(m.missing[F_CYCLES], "not supported") &&
	       !m.missing[F_TASK_CLOCK] && mig && mig->missing &&
	       !strcmp(mig->missing, MEASURE_UNFILLED) && tc && !tc->missing && tc->value == 5000,
	       "measure_unfilled_field_missing_not_zero");
}

UNIT_TEST(rows_table)
{
	size_t i, bad = 0;

	for (i = 0; i < metric_nr_rows; i++)
		bad += !row_well_formed(&metric_rows[i]);
	EXPECT(!bad, "rows_well_formed");
	EXPECT(names_unique(), "rows_names_unique");
	EXPECT(load_sensitive_as_named(), "rows_load_sensitive_as_named");
	EXPECT(metric_row_find("tp_sis_scanned_per_wakeup") && !metric_row_find("no_such_metric"),
	       "rows_find");
}
