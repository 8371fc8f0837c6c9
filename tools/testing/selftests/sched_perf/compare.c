// SPDX-License-Identifier: GPL-2.0
/*
 * Comparison room: judge two run sets metric by metric (see compare.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compiler.h"
#include "metric_rows.h"
#include "shift.h"
#include "trend.h"

double cmp_default_alpha(bool boots)
{
	return boots ? CMP_ALPHA_BOOTS : CMP_ALPHA;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = {
		[CMP_SAME] = "same",
		[CMP_REGRESSED] = "regressed",
		[CMP_IMPROVED] = "improved",
		[CMP_NOISY] = "noisy",
		[CMP_TOO_FEW] = "too-few-runs",
		[CMP_MISSING] = "missing",
		[CMP_UNDECIDED] = "undecided",
		[CMP_DRIFTING] = "drifting",
		[CMP_WORSE] = "worse",
		[CMP_BETTER] = "better",
	};

	if ((unsigned int)v < ARRAY_SIZE(names) && names[v])
		return names[v];
	return "unknown";
}

/*
 * It spends 45 % of alpha at a third of the runs (8 of 24), where an even
 * split over 4 looks left the first look of 8 blocks unable to reach its
 * level with two metrics or more.
 */
double cmp_spent_by(double alpha, double t, bool last)
{
	if (last || t >= 1)
		return alpha;
	return alpha * log(1 + (M_E - 1) * fmax(0, t));
}

/* SAME's budget: its own, or CMP_ALPHA_SAME. */
static double alpha_same_of(const struct cmp_params *p)
{
	return p->alpha_same > 0 ? p->alpha_same : CMP_ALPHA_SAME;
}

double cmp_alarm(const struct cmp_rule *rule, double share)
{
	if (rule->alarm != 0)
		return rule->alarm;
	return rule->change * (share > 0 ? share : CMP_ALARM_SHARE);
}

/* ln C(n_old + n_new, n_old), without the overflow of the product itself */
static double log_choose(unsigned int n_old, unsigned int n_new)
{
	return lgamma((double)n_old + n_new + 1) - lgamma((double)n_old + 1) -
	       lgamma((double)n_new + 1);
}

void cmp_mde_text(double mde, char *buf, size_t len)
{
	if (isnan(mde))
		snprintf(buf, len, "n/a");
	else if (isinf(mde))
		snprintf(buf, len, "cannot reach");
	else
		cmp_percent(mde, buf, len);
}

bool cmp_decided(enum cmp_verdict v)
{
	return v == CMP_SAME || v == CMP_REGRESSED || v == CMP_IMPROVED;
}

unsigned int cmp_next_look(unsigned int runs)
{
	return runs + (runs + 1) / 2;
}

unsigned int cmp_looks(unsigned int runs, unsigned int max_runs)
{
	unsigned int looks = 1;

	while (runs < max_runs) {
		runs = cmp_next_look(runs);
		looks++;
	}
	return looks;
}

bool cmp_enough_runs(unsigned int n_old, unsigned int n_new, double level)
{
	if (!n_old || !n_new || !(level > 0))
		return false;
	/* in log space: C(n, k) overflows a double from n = 1030 on */
	return M_LN2 - log_choose(n_old, n_new) < log(level);
}

double cmp_min_p(const struct cmp_params *p, unsigned int n_old, unsigned int n_new)
{
	if (p->boots)
		return n_old >= 2 && n_new >= 2 ? 0 : 1;
	if (p->paired)
		return n_new ? fmin(1, ldexp(2, -(int)fmin(n_new, 1100))) : 1;
	if (!n_old || !n_new)
		return 1;
	return fmin(1, exp(M_LN2 - log_choose(n_old, n_new)));
}

/* The share of a budget spent by a look at @n of a plan of @max runs. */
static double spent_share(unsigned int n, unsigned int max, bool last)
{
	return cmp_spent_by(1, (double)n / max, last);
}

/* The plan look @k before this one was taken under. */
static unsigned int max_before(const struct cmp_params *p, unsigned int k)
{
	return p->before_max && p->before_max[k] ? p->before_max[k] : p->max_runs;
}

void cmp_look_levels(const struct cmp_params *p, double share, unsigned int n_old,
		     double *level, double *level_same)
{
	double alpha = p->alpha * share, spent = 0, by, prev = 0;
	unsigned int k, n;

	if (!p->max_runs) {
		*level = alpha / (p->looks > 1 ? p->looks : 1);
		*level_same = alpha_same_of(p) / (p->looks > 1 ? p->looks : 1);
		return;
	}
	for (k = 0; k < p->nr_before; k++) {
		n = p->before[k];
		by = spent_share(n, max_before(p, k), false);
		/* a look its test could not reach spent nothing of its share */
		if (by > spent && cmp_min_p(p, n_old ? n_old : n, n) < alpha * (by - spent))
			spent = by;
		prev = fmax(prev, by);
	}
	by = spent_share(p->now, p->max_runs, p->last);
	*level = alpha * fmax(0, by - spent);
	*level_same = alpha_same_of(p) * fmax(0, by - prev);
}

/*
 * Each rule's share of alpha, @present[i] those with data: see compare.h.
 * The first primary rule present is the primary metric; any other rule
 * (a second one marked primary too) is a mechanism metric.
 */
static void shares(const struct cmp_params *p, const struct cmp_rule *rules,
		   const bool *present, unsigned int nr, double *out)
{
	double ps = p->primary_share > 0 ? p->primary_share : CMP_PRIMARY_SHARE;
	unsigned int i, primary = nr, others = 0;

	for (i = 0; i < nr; i++) {
		if (present[i] && rules[i].primary && primary == nr)
			primary = i;
		else
			others += present[i];
	}
	for (i = 0; i < nr; i++) {
		if (!present[i])
			out[i] = 0;
		else if (primary == nr)
			out[i] = 1.0 / others;
		else if (i == primary)
			out[i] = others ? ps : 1;
		else
			out[i] = (1 - ps) / others;
	}
}

unsigned int cmp_first_look(const struct cmp_params *p, const struct cmp_rule *rules,
			    unsigned int nr, unsigned int runs, unsigned int n_old)
{
	struct cmp_params at = *p;
	bool present[CMP_MAX_RULES], any_primary = false, all;
	double share[CMP_MAX_RULES], level, level_same;
	unsigned int i, n;

	if (!nr || nr > CMP_MAX_RULES || !p->max_runs)
		return runs;
	for (i = 0; i < nr; i++) {
		present[i] = true;
		any_primary |= rules[i].primary;
	}
	shares(p, rules, present, nr, share);
	at.nr_before = 0;
	at.last = false;
	for (n = runs; n < p->max_runs; n++) {
		at.now = n;
		for (i = 0, all = true; i < nr && all; i++) {
			if (any_primary && !rules[i].primary)
				continue;
			cmp_look_levels(&at, share[i], n_old, &level, &level_same);
			all = cmp_min_p(&at, n_old ? n_old : n, n) < level;
		}
		if (all)
			return n;
	}
	return p->max_runs;
}

/*
 * Metrics where 0 is normal (a placement count on an idle path, a share
 * of time): their change is taken relative to max(|old median|, floor),
 * so that a move from 0 to a trace of the floor is a measured fraction of
 * it, not an infinite one.  The floors are far below what the default
 * bounds let such a metric rise to.
 */
static const struct {
	const char *suffix;
	double floor;
} floors[] = {
	{ "migrations_per_1k_ops", 0.01 },	/* one per 100k operations */
	{ "sis_scanned_per_wakeup", 0.01 },	/* one CPU per 100 wakeups */
	{ "involuntary_switches_per_op", 0.001 },
	{ "_share", 0.001 },			/* 0.1 % of the time */
};

double cmp_floor(const char *metric)
{
	size_t len = strlen(metric), sl;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(floors); i++) {
		sl = strlen(floors[i].suffix);
		if (len >= sl && !strcmp(metric + len - sl, floors[i].suffix))
			return floors[i].floor;
	}
	return 0;
}

/*
 * A change of any size the bad way of @threshold: down when it is negative
 * (must not fall), up when positive (must not rise).  A threshold of 0
 * names no direction: any move is bad.
 */
static bool bad_way_moved(double change, double threshold)
{
	if (threshold < 0)
		return change < 0;
	if (threshold > 0)
		return change > 0;
	return change != 0;
}

void cmp_percent(double change, char *buf, size_t len)
{
	if (isnan(change))
		snprintf(buf, len, "n/a");
	else if (fabs(change) < 1e4)
		snprintf(buf, len, "%+.1f%%", change * 100);
	else
		snprintf(buf, len, "%+.3g%%", change * 100);
}

/*
 * "medians old -> new (+x %), shift y % [lo, hi], p, p_adj": the figures
 * every report line carries.  The medians' own ratio and the shift
 * estimate of the test (shift.h) can differ, even in sign: the verdict
 * rests on the shift, and its interval is that of the metric's level.
 */
static void figures(const struct cmp_result *r, char *buf, size_t len)
{
	char adj[16], pct[16], lo[16], hi[16], med[16], scale[48] = "";

	if (isnan(r->p_adj))
		snprintf(adj, sizeof(adj), "n/a");
	else
		snprintf(adj, sizeof(adj), "%.3g", r->p_adj);
	cmp_percent(r->change, pct, sizeof(pct));
	cmp_percent(r->ci_lo, lo, sizeof(lo));
	cmp_percent(r->ci_hi, hi, sizeof(hi));
	cmp_percent(r->median_change, med, sizeof(med));
	if (r->floor > 0 && fabs(r->old.median) < r->floor)
		snprintf(scale, sizeof(scale), " of the floor %g", r->floor);
	snprintf(buf, len, "medians %.6g -> %.6g (%s), shift %s%s [%s, %s], p %.3g, p_adj %s",
		 r->old.median, r->new.median, med, pct, scale, lo, hi, r->p, adj);
}

static void describe_too_few(struct cmp_result *r, const struct cmp_params *params,
			     const char *fig)
{
	if (params->boots) {
		snprintf(r->why, sizeof(r->why),
			 "too few boots: %u vs %u, Welch's test needs 2 a side; %s",
			 r->old.n, r->new.n, fig);
		return;
	}
	/*
	 * A plan grown at a look spreads alpha over more runs: until the
	 * runs catch up with what the looks before spent, a look has none.
	 */
	if (!(r->level_metric > 0)) {
		snprintf(r->why, sizeof(r->why),
			 "too few runs: %u vs %u, this look has no alpha left to spend (the looks before spent what the plan allows by now); %s",
			 r->old.n, r->new.n, fig);
		return;
	}
	snprintf(r->why, sizeof(r->why),
		 "too few runs: %u vs %u reach p %.2g at best, not below %.2g; %s",
		 r->old.n, r->new.n, r->min_p, r->level_metric, fig);
}

static void describe(struct cmp_result *r, const struct cmp_params *params)
{
	char fig[200], limit[16], opposite[16], alarm[16], alarm_opp[16], apart[64] = "";
	double lm = r->level_metric, max_cv = params->max_cv;
	bool paired = params->paired;

	if (r->verdict == CMP_MISSING)
		return;
	figures(r, fig, sizeof(fig));
	if (!paired && (r->rcv_old > max_cv || r->rcv_new > max_cv))
		snprintf(apart, sizeof(apart), "; robust cv %.2f/%.2f, but every run apart",
			 fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6));
	cmp_percent(r->threshold, limit, sizeof(limit));
	cmp_percent(-r->threshold, opposite, sizeof(opposite));
	cmp_percent(r->alarm, alarm, sizeof(alarm));
	cmp_percent(-r->alarm, alarm_opp, sizeof(alarm_opp));
	switch (r->verdict) {
	case CMP_NOISY:
		if (!isnan(r->foreign_old)) {
			snprintf(r->why, sizeof(r->why),
				 "machine busy with other work: foreign CPU share %.3f vs %.3f, more than %.2f apart; %s",
				 r->foreign_old, r->foreign_new, LOAD_MAX_FOREIGN_APART, fig);
			break;
		}
		if (paired) {
			snprintf(r->why, sizeof(r->why),
				 "too noisy to judge: robust cv of the block ratios %.2f > %.2f; %s",
				 fmin(r->cv_block, 1e6), fmin(max_cv, 1e6), fig);
			break;
		}
		snprintf(r->why, sizeof(r->why),
			 "too noisy to judge: robust cv old %.2f new %.2f > %.2f; %s",
			 fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6), fmin(max_cv, 1e6), fig);
		break;
	case CMP_DRIFTING:
		if (r->drifted_with[0]) {
			snprintf(r->why, sizeof(r->why),
				 "drifting: cannot judge: the host drifted (%s trends with the order measured); %s",
				 r->drifted_with, fig);
			break;
		}
		snprintf(r->why, sizeof(r->why),
			 "drifting: cannot judge: trend tau old %+.2f new %+.2f (p %.2g with the order measured)%s; %s",
			 r->rho_old, r->rho_new, r->p_drift,
			 r->trend_move ? ", and the move goes the way the sides trend" : "", fig);
		break;
	case CMP_TOO_FEW:
		describe_too_few(r, params, fig);
		break;
	case CMP_REGRESSED:
		snprintf(r->why, sizeof(r->why),
			 "shown worse (one-sided p %.3g < %.3g), estimated beyond the alarm line %s; the regression to catch is %s; %s%s",
			 r->p_beyond, r->threshold == 0 ? lm : lm / 2, alarm, limit, fig, apart);
		break;
	case CMP_IMPROVED:
		snprintf(r->why, sizeof(r->why),
			 "shown better (one-sided p %.3g < %.3g), estimated beyond %s; %s%s",
			 r->p_beyond, lm / 2, alarm_opp, fig, apart);
		break;
	case CMP_WORSE:
	case CMP_BETTER:
		snprintf(r->why, sizeof(r->why),
			 "%s: significant (p < %.3g), but estimated within %s; %s",
			 r->verdict == CMP_WORSE ? "worse" : "better", lm,
			 r->verdict == CMP_WORSE ? alarm : alarm_opp, fig);
		break;
	case CMP_SAME:
		snprintf(r->why, sizeof(r->why), "within +/-%.3g%%, equivalence p %.3g < %.3g; %s",
			 fabs(r->threshold) * 100, r->p_same, r->level_same, fig);
		break;
	default:
		if (r->from_zero)
			snprintf(r->why, sizeof(r->why),
				 "undecided: from an old median of 0, no move shown (p %.3g, not below %.3g) and none can be shown within a relative threshold; %s",
				 r->p, lm, fig);
		else if (r->p_same < r->level_same)
			snprintf(r->why, sizeof(r->why),
				 "undecided: no move shown, and not within +/-%.3g%%: equivalence p %.3g < %.3g, but the interval reaches beyond; %s",
				 fabs(r->threshold) * 100, r->p_same, r->level_same, fig);
		else
			snprintf(r->why, sizeof(r->why),
				 "undecided: neither shown beyond %s nor within +/-%.3g%% (equivalence p %.3g, not below %.3g); %s",
				 bad_way_moved(r->change, r->threshold) ? alarm : alarm_opp,
				 fabs(r->threshold) * 100, r->p_same, r->level_same, fig);
		break;
	}
}

static bool median_of(const struct runset *rs, const char *metric, double *out)
{
	const struct runset_metric *m = runset_find(rs, metric);

	return m && !stats_median(m->v, m->n, out);
}

/*
 * A wall-clock rate or a placement count compares two kernels only when
 * the rest of the machine took about the same CPU time in both runs;
 * CPU time and switches per op are judged either way.
 */
static bool machine_busier(struct cmp_result *r, const struct runset *old,
			   const struct runset *new)
{
	double f_old, f_new;

	if (!metric_load_sensitive(r->metric) ||
	    !median_of(old, METRIC_FOREIGN_SHARE, &f_old) ||
	    !median_of(new, METRIC_FOREIGN_SHARE, &f_new) ||
	    fabs(f_new - f_old) <= LOAD_MAX_FOREIGN_APART)
		return false;
	r->foreign_old = f_old;
	r->foreign_new = f_new;
	return true;
}

static void range_of(const struct runset_metric *m, double *lo, double *hi)
{
	unsigned int i;

	*lo = HUGE_VAL;
	*hi = -HUGE_VAL;
	for (i = 0; i < m->n; i++) {
		*lo = fmin(*lo, m->v[i]);
		*hi = fmax(*hi, m->v[i]);
	}
}

/*
 * Every run of one side beyond every run of the other: whatever the noise
 * of either side, it did not hide the move.  With A and B alike, 8 runs
 * against 8 fall apart by chance in 2 of 12870 orders.
 */
static bool ranges_apart(const struct runset_metric *o,
			 const struct runset_metric *n)
{
	double olo, ohi, nlo, nhi;

	range_of(o, &olo, &ohi);
	range_of(n, &nlo, &nhi);
	return ohi < nlo || nhi < olo;
}

static bool all_positive(const double *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

/*
 * @n values of @v on the metric's scale (a copy): their logarithm on the
 * ratio scale, else divided by @scale.  NULL when out of memory.
 */
static double *scaled(const struct cmp_result *r, const double *v, unsigned int n,
		      double scale)
{
	double *out = malloc((n ? n : 1) * sizeof(*out));
	unsigned int i;

	for (i = 0; out && i < n; i++)
		out[i] = r->ratio_scale ? log(v[i]) : v[i] / scale;
	return out;
}

/*
 * What one metric's tests work on: the data on its scale, and the
 * one-sided p of a move beyond the threshold either way.
 */
struct judged {
	struct shift sh;
	double *a, *b;		/* owned: the data on the metric's scale */
	double p_worse;		/* one-sided: a move the bad way, against 0 */
	double p_better;	/* a move the good way */
};

/*
 * The scale of a change.  When every value of both sides is positive and
 * the metric is not one where 0 is normal (it has no floor), the ratio
 * scale: the tests and the estimate work on logarithms, a shift s there is
 * the change e^s - 1, so that a run k times slower is k times slower
 * whatever the level of its block or run.  Else (zeros, negative values,
 * a count near zero) differences relative to |old median|, or the floor
 * when that is larger (cmp_floor): on logarithms a count near zero is all
 * noise (boot medians of 0.05, 0.09 and 0.37 CPUs scanned per wakeup
 * spread by a factor of 7 and hid a move to 3.96, +4500 %, from Welch's
 * t at 3 boots a side).  From an old median of 0 without a floor
 * there is no scale (r->from_zero): the data stay in their units, any move
 * shown is an infinite change, and none is ever "same".  Returns the
 * divisor of the differences.
 */
static double scale_of(struct cmp_result *r, bool positive)
{
	double scale;

	r->floor = cmp_floor(r->metric);
	r->ratio_scale = positive && r->floor == 0;
	scale = fmax(fabs(r->old.median), r->floor);
	r->from_zero = !r->ratio_scale && scale == 0;
	return r->from_zero ? 1 : scale;
}

/* A change (of the ratios) on the metric's scale: what the tests test. */
static double on_scale(const struct cmp_result *r, double change)
{
	if (!r->ratio_scale)
		return change;
	return change > -1 ? log1p(change) : -HUGE_VAL;
}

/* A shift on the metric's scale as a change (of the ratios). */
static double as_change(const struct cmp_result *r, double shift)
{
	return r->ratio_scale ? expm1(shift) : shift;
}

/*
 * The blocks of a paired comparison: A's and B's values of the same
 * iteration, into @ov and @nv (room for the smaller side).  An iteration
 * missing on either side drops that block, for this metric only; the
 * others stay paired as measured.  Returns how many.
 */
static unsigned int blocks(const struct runset_metric *o, const struct runset_metric *n,
			   double *ov, double *nv)
{
	unsigned int i = 0, j = 0, nb = 0;

	while (i < o->n && j < n->n) {
		if (o->it[i] < n->it[j]) {
			i++;
		} else if (o->it[i] > n->it[j]) {
			j++;
		} else {
			ov[nb] = o->v[i++];
			nv[nb++] = n->v[j++];
		}
	}
	return nb;
}

/*
 * Paired (block k = iteration k of each side): d_k = ln(new_k / old_k) on
 * the ratio scale, else (new_k - old_k) / scale, judged by the signed-rank
 * test and its Hodges-Lehmann shift; the noise judged is the robust CV of
 * the ratios new_k / old_k.
 */
static void paired(struct cmp_result *r, const struct runset_metric *o,
		   const struct runset_metric *n, struct judged *j)
{
	unsigned int k, room = o->n < n->n ? o->n : n->n, nb = 0, nr = 0;
	double *ratio = malloc((room ? room : 1) * sizeof(*ratio));
	double *ov = malloc((room ? room : 1) * sizeof(*ov));
	double *nv = malloc((room ? room : 1) * sizeof(*nv));
	double scale;

	j->b = malloc((room ? room : 1) * sizeof(*j->b));
	r->cv_block = HUGE_VAL;		/* out of memory: no verdict */
	if (j->b && ratio && ov && nv) {
		nb = blocks(o, n, ov, nv);
		scale = scale_of(r, all_positive(ov, nb) && all_positive(nv, nb));
		for (k = 0; k < nb; k++) {
			j->b[k] = r->ratio_scale ? log(nv[k] / ov[k]) : (nv[k] - ov[k]) / scale;
			if (ov[k] != 0)
				ratio[nr++] = nv[k] / ov[k];
		}
		if (nr < 2)
			r->cv_block = 0;	/* one block or none: no spread seen */
		else if (stats_robust_cv(ratio, nr, &r->cv_block))
			r->cv_block = HUGE_VAL;
	}
	j->sh = (struct shift){ SHIFT_PAIRED, NULL, 0, j->b, j->b ? nb : 0 };
	free(ratio);
	free(ov);
	free(nv);
}

/*
 * Unpaired: both sides on the metric's scale, judged by the Mann-Whitney
 * test and its Hodges-Lehmann shift, or boot means (@boots) by Welch's
 * t and the difference of the means.
 */
static void unpaired(struct cmp_result *r, const struct runset_metric *o,
		     const struct runset_metric *n, bool boots, struct judged *j)
{
	double scale = scale_of(r, all_positive(o->v, o->n) && all_positive(n->v, n->n));

	j->a = scaled(r, o->v, o->n, scale);
	j->b = scaled(r, n->v, n->n, scale);
	j->sh = (struct shift){ boots ? SHIFT_MEANS : SHIFT_RANKS, j->a, j->a ? o->n : 0,
				j->b, j->b ? n->n : 0 };
}

/*
 * The p that a sequential comparison trends with the order measured:
 * Kendall's S of both sides summed (trend.h), so that a host drifting the
 * same way through both runs, which is what would move the new run
 * against the old, adds up.  1 when too few values.
 */
static double drift_p(struct cmp_result *r, const struct runset_metric *o,
		      const struct runset_metric *n)
{
	if (o->n + n->n < CMP_DRIFT_MIN_N)
		return 1;
	return trend_p(o->v, o->n, n->v, n->n, &r->rho_old, &r->rho_new);
}

/*
 * A count where 0 is normal spreads by its floor, not by its median: 0.0003
 * CPUs scanned per wakeup, give or take 0.0002, is a robust CV of 0.6 but
 * steady at the scale the change is judged on (the floor, 0.01).  Its CVs
 * are the robust spread over max(|median|, floor), of each side, and of
 * the blocks' differences (already over that scale) when paired.
 */
static void spread_over_floor(struct cmp_result *r, const struct runset_metric *o,
			      const struct runset_metric *n, const struct judged *j, bool pair)
{
	double sd_old, sd_new;

	if (r->floor == 0 || r->ratio_scale)
		return;
	if (stats_robust_sd(o->v, o->n, &sd_old) || stats_robust_sd(n->v, n->n, &sd_new))
		return;		/* out of memory: the CVs stay as they were */
	r->rcv_old = sd_old / fmax(fabs(r->old.median), r->floor);
	r->rcv_new = sd_new / fmax(fabs(r->new.median), r->floor);
	if (pair && j->b && (j->sh.nb < 2 || stats_robust_sd(j->b, j->sh.nb, &r->cv_block)))
		r->cv_block = j->sh.nb < 2 ? 0 : HUGE_VAL;
}

/*
 * Describe both sides and put their data in @j; false (and CMP_MISSING)
 * when a side has no runs.  The verdict is left CMP_UNDECIDED, or set to
 * a reason for none (drifting, noisy).
 */
static bool sides(struct cmp_result *r, const struct runset *old,
		  const struct runset *new, const struct cmp_params *params,
		  struct judged *j)
{
	bool pair = params->paired;
	double max_cv = params->max_cv;
	const struct runset_metric *o = runset_find(old, r->metric);
	const struct runset_metric *n = runset_find(new, r->metric);
	const char *side = NULL;

	if (!o || stats_describe(o->v, o->n, 0.95, &r->old))
		side = "old";
	if (!n || stats_describe(n->v, n->n, 0.95, &r->new))
		side = side ? "old nor the new" : "new";
	if (side) {
		memset(&r->old, 0, sizeof(r->old));
		memset(&r->new, 0, sizeof(r->new));
		r->verdict = CMP_MISSING;
		snprintf(r->why, sizeof(r->why), "no runs of %s in the %s run set",
			 r->metric, side);
		return false;
	}
	if (stats_robust_cv(o->v, o->n, &r->rcv_old) ||
	    stats_robust_cv(n->v, n->n, &r->rcv_new))
		r->rcv_old = r->rcv_new = HUGE_VAL;	/* out of memory: no verdict */
	r->verdict = CMP_UNDECIDED;
	r->apart = ranges_apart(o, n);
	if (pair) {
		/*
		 * Ratios of a count near zero vary wildly (0.0003 -> 4 CPUs
		 * scanned per wakeup); sides apart are judged anyway, as below.
		 */
		paired(r, o, n, j);
		spread_over_floor(r, o, n, j, pair);
		if (r->cv_block > max_cv && !r->apart)
			r->verdict = CMP_NOISY;
		return true;
	}
	unpaired(r, o, n, params->boots, j);
	spread_over_floor(r, o, n, j, pair);
	if (params->boots) {
		/* interleaved boots: no order to trend with, no foreign share */
		if ((r->rcv_old > max_cv || r->rcv_new > max_cv) && !r->apart)
			r->verdict = CMP_NOISY;
		return true;
	}
	r->p_drift = drift_p(r, o, n);
	if (((r->rcv_old > max_cv || r->rcv_new > max_cv) && !r->apart) ||
	    machine_busier(r, old, new))
		r->verdict = CMP_NOISY;
	return true;
}

/* The alternative that says "worse than c" for @threshold, and "better". */
static enum shift_alt bad_way(double threshold)
{
	return threshold < 0 ? SHIFT_LESS : SHIFT_GREATER;
}

static enum shift_alt good_way(double threshold)
{
	return threshold < 0 ? SHIFT_GREATER : SHIFT_LESS;
}

static bool all_zero(const double *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

/*
 * Every test of one metric, on the same statistic (shift.h): its shift
 * estimate is the change; the two-sided p that it is 0; the one-sided p
 * that it lies beyond the alarm line in the bad way (against "shift no
 * further than the line"), and beyond its opposite in the good way; the
 * two one-sided tests of the equivalence (SAME) and the bad half of them
 * alone (not worse than the threshold).  From an old median of 0 (no scale), any move shown is
 * beyond every threshold, and only two sides of zeros are the same.
 */
static void test(struct cmp_result *r, struct judged *j)
{
	const struct shift *sh = &j->sh;
	double th = r->threshold, margin = fabs(th), est = shift_estimate(sh);
	bool zeros;

	r->change = !r->from_zero ? as_change(r, est) : est == 0 ? 0 : copysign(HUGE_VAL, est);
	r->p = shift_p(sh, 0, SHIFT_TWO_SIDED);
	r->min_p = shift_min_p(sh);
	r->p_same = 1;
	r->p_ni = 1;
	if (th == 0) {
		/* no direction: any move is bad, none good, nothing the same */
		j->p_worse = r->p;
		j->p_better = 1;
		return;
	}
	if (r->from_zero) {
		zeros = sh->nb && all_zero(sh->b, sh->nb) &&
			(sh->kind == SHIFT_PAIRED || all_zero(sh->a, sh->na));
		j->p_worse = shift_p(sh, 0, bad_way(th));
		j->p_better = shift_p(sh, 0, good_way(th));
		r->p_same = r->p_ni = zeros ? 0 : 1;
		return;
	}
	/*
	 * A move is shown against 0; whether it is beyond the alarm line is
	 * the estimate's to say (decide()): a test against the line itself
	 * needs the interval's far bound beyond it, which a true change
	 * between A and M reaches in a few gates only.
	 */
	j->p_worse = shift_p(sh, 0, bad_way(th));
	j->p_better = shift_p(sh, 0, good_way(th));
	r->p_ni = shift_p(sh, on_scale(r, th), good_way(th));
	r->p_same = fmax(shift_p(sh, on_scale(r, -margin), SHIFT_GREATER),
			 shift_p(sh, on_scale(r, margin), SHIFT_LESS));
}

/* The interval of the change at the metric's level, relative as the change. */
static void interval(struct cmp_result *r, const struct judged *j)
{
	double lo, hi;

	shift_interval(&j->sh, r->level_metric, &lo, &hi);
	if (r->from_zero) {
		lo = lo == 0 ? 0 : copysign(HUGE_VAL, lo);
		hi = hi == 0 ? 0 : copysign(HUGE_VAL, hi);
	} else {
		lo = as_change(r, lo);
		hi = as_change(r, hi);
	}
	r->ci_lo = lo;
	r->ci_hi = hi;
}

/* Is @change beyond @line, on its far side from 0? */
static bool beyond(double change, double line)
{
	return line < 0 ? change < line : change > line;
}

/*
 * "same" claims the change lies within +/- M: the equivalence test
 * shows it, and the interval printed beside the word says it too, finite
 * and inside, so that no reader sees "same" next to [-100 %, +inf].
 */
static bool interval_inside(const struct cmp_result *r)
{
	double m = fabs(r->threshold);

	return isfinite(r->ci_lo) && isfinite(r->ci_hi) && r->ci_lo > -m && r->ci_hi < m;
}

/* The interval's bound on the bad side of the threshold, finite and inside it. */
static bool bad_bound_inside(const struct cmp_result *r)
{
	if (r->threshold < 0)
		return isfinite(r->ci_lo) && r->ci_lo > r->threshold;
	return isfinite(r->ci_hi) && r->ci_hi < r->threshold;
}

/*
 * The verdict of a metric that could be judged.  regressed: a move the
 * bad way shown (one-sided against 0 at half the metric's level: the
 * interval lies on the bad side of 0) and its estimate beyond the alarm
 * line A; improved the same the good way; same only when neither holds,
 * the equivalence test shows the change within +/- M and the interval
 * agrees; a move shown whose estimate is not beyond A is worse or better,
 * which a gate keeps looking at.  A threshold of 0 names no direction:
 * any move shown is a regression.
 */
static enum cmp_verdict decide(struct cmp_result *r, const struct judged *j, bool too_few)
{
	double lm = r->level_metric, one = r->threshold == 0 ? lm : lm / 2;
	bool bad = bad_way_moved(r->change, r->threshold);
	double line = r->threshold == 0 ? 0 : r->alarm;

	r->p_beyond = bad ? j->p_worse : j->p_better;
	if (!too_few && j->p_worse < one && (line == 0 || beyond(r->change, line))) {
		r->p_beyond = j->p_worse;
		return CMP_REGRESSED;
	}
	if (!too_few && j->p_better < one && line != 0 && beyond(r->change, -line)) {
		r->p_beyond = j->p_better;
		return CMP_IMPROVED;
	}
	if (r->p_same < r->level_same && (r->from_zero || interval_inside(r)))
		return CMP_SAME;
	if (!too_few && r->p < lm)
		return bad ? CMP_WORSE : CMP_BETTER;
	return too_few ? CMP_TOO_FEW : CMP_UNDECIDED;
}

bool cmp_bad_side_open(const struct cmp_result *r)
{
	switch (r->verdict) {
	case CMP_SAME:
	case CMP_IMPROVED:
	case CMP_BETTER:
	case CMP_MISSING:
		return false;
	case CMP_UNDECIDED:
	case CMP_TOO_FEW:
	case CMP_WORSE:
		/*
		 * not worse than the threshold may be shown on its own (a
		 * small move shown, its estimate within A, that cannot be
		 * M), the interval's bad bound inside M, as same's
		 */
		return !(r->p_ni < r->level_same && bad_bound_inside(r));
	default:
		return true;
	}
}

const char *cmp_reason(const struct cmp_result *r)
{
	const char *word = cmp_verdict_name(r->verdict);
	size_t len = strlen(word);

	if (!strncmp(r->why, word, len) && r->why[len] == ':' && r->why[len + 1] == ' ')
		return r->why + len + 2;
	return r->why;
}

bool cmp_gate_open(const struct cmp_result *res, unsigned int n)
{
	const struct cmp_result *primary = NULL;
	unsigned int i, missing = 0;

	for (i = 0; i < n; i++)
		if (res[i].primary && !primary)
			primary = &res[i];
	for (i = 0; i < n; i++) {
		missing += res[i].verdict == CMP_MISSING;
		if (res[i].verdict == CMP_REGRESSED)
			return true;	/* failed: never a pass */
		/*
		 * The verdict rests on the throughput: a mechanism metric
		 * left open beside it is reported, and fails the gate only
		 * when shown regressed.  Without a primary every metric
		 * counts.
		 */
		if (primary && &res[i] != primary)
			continue;
		if (cmp_bad_side_open(&res[i]) || res[i].verdict == CMP_MISSING)
			return true;
	}
	return missing == n;
}

/*
 * The looks of a sequential plan: the runs a side each is planned at
 * (what its level is spent by), those it has (what its information is)
 * and its level.
 */
struct look_plan {
	unsigned int nr;
	unsigned int planned[CMP_MAX_LOOKS];
	unsigned int max[CMP_MAX_LOOKS];	/* the plan each was taken under */
	unsigned int n[CMP_MAX_LOOKS];
	double level[CMP_MAX_LOOKS];
};

/*
 * The looks a metric of alpha share @share is judged at: those before and
 * this one (@p; its data has @n_new runs a side), and with @to_max the
 * planned ones after it, up to max_runs, the last of them spending what
 * is left.  Not sequential: this look alone.
 */
static void plan_looks(const struct cmp_params *p, double share, unsigned int n_old,
		       unsigned int n_new, bool to_max, struct look_plan *lp)
{
	struct cmp_params at = *p;
	unsigned int k, n;
	double unused;

	lp->nr = 0;
	if (!p->max_runs) {
		lp->n[lp->nr] = lp->planned[lp->nr] = n_new;
		cmp_look_levels(p, share, n_old, &lp->level[lp->nr++], &unused);
		return;
	}
	for (k = 0; k < p->nr_before && lp->nr < CMP_MAX_LOOKS - 1; k++) {
		lp->planned[lp->nr] = p->before[k];
		lp->max[lp->nr] = max_before(p, k);
		lp->n[lp->nr++] = p->before[k];
	}
	/* this look: its level by its plan, its information by its data */
	lp->planned[lp->nr] = n = p->now;
	lp->max[lp->nr] = p->max_runs;
	lp->n[lp->nr++] = n_new;
	while (to_max && !p->last && n < p->max_runs && lp->nr < CMP_MAX_LOOKS) {
		n = cmp_next_look(n) < p->max_runs ? cmp_next_look(n) : p->max_runs;
		lp->planned[lp->nr] = n;
		lp->max[lp->nr] = p->max_runs;
		lp->n[lp->nr++] = n;
	}
	for (k = 0; k < lp->nr; k++) {
		at.nr_before = k;
		at.before = lp->planned;
		at.before_max = lp->max;
		at.now = lp->planned[k];
		at.last = k + 1 == lp->nr &&
			  (p->last || (to_max && lp->planned[k] >= p->max_runs));
		cmp_look_levels(&at, share, n_old, &lp->level[k], &unused);
	}
}

/* The variance factor of the estimate at look size @n: var = sd^2 v. */
static double variance_factor(const struct cmp_params *p, unsigned int n_old, unsigned int n)
{
	if (p->paired)
		return 1.0 / n;
	if (p->boots)
		return 2.0 / n;
	return 1.0 / n_old + 1.0 / n;
}

#define GRID	61	/* points of the continuation region, odd (Simpson) */

/* The density at @x of a normal of mean 0 and deviation @sd. */
static double normal_pdf(double x, double sd)
{
	return exp(-0.5 * (x / sd) * (x / sd)) / (sd * sqrt(2 * M_PI));
}

/*
 * The probability that a sequential test crosses its bound at some look,
 * for a drift @theta (the change beyond the alarm line, over the
 * estimate's sd at unit information): the score S_k = Z_k sqrt(I_k) is a
 * Brownian motion with drift, its increments independent (Armitage,
 * McPherson and Rowe's recursive integration, on a grid).  @info[k] and
 * the one-sided bounds @bound[k] (of Z) per look; a score within
 * +/- @same[k] there is a gate shown the same, which stops.
 */
static double crossing(double theta, const double *info, const double *bound,
		       const double *same, unsigned int nr)
{
	double f[GRID], g[GRID], x[GRID], y[GRID], w, h = 0, hy, prev_i = 0, cross = 0;
	unsigned int k, a, b;

	for (k = 0; k < nr; k++) {
		double di = info[k] - prev_i, sdi = sqrt(di), top = bound[k] * sqrt(info[k]);
		double lo = theta * info[k] - 8 * sqrt(info[k]);

		if (!(di > 0))
			continue;
		if (lo >= top)
			return 1;	/* no room left below the bound: crossed */
		hy = (top - lo) / (GRID - 1);
		for (b = 0; b < GRID; b++) {
			y[b] = lo + b * hy;
			g[b] = 0;
		}
		if (!prev_i) {
			cross += 1 - stats_normal_cdf((top - theta * di) / sdi);
			for (b = 0; b < GRID; b++)
				g[b] = normal_pdf(y[b] - theta * di, sdi);
		} else {
			for (a = 0; a < GRID; a++) {
				w = h / 3 * (a == 0 || a == GRID - 1 ? 1 : a % 2 ? 4 : 2) * f[a];
				if (w < 1e-14)
					continue;	/* nothing left there to carry */
				cross += w * (1 - stats_normal_cdf((top - x[a] - theta * di) / sdi));
				for (b = 0; b < GRID; b++)
					g[b] += w * normal_pdf(y[b] - x[a] - theta * di, sdi);
			}
		}
		/* a gate shown the same here stops: nothing goes on from there */
		for (b = 0; b < GRID; b++)
			if (fabs(y[b]) < same[k])
				g[b] = 0;
		memcpy(f, g, sizeof(f));
		memcpy(x, y, sizeof(x));
		h = hy;
		prev_i = info[k];
	}
	return cross;
}

/*
 * The looks of @lp that can fail the metric of @r (its spread r->sd):
 * each one's information and the bound its Z must cross.  A look fails
 * the metric when its score crosses the significance bound and its
 * estimate lies beyond the alarm line, i.e. Z_k beyond max(t_k, |A|
 * sqrt(I_k)); a look whose interval lies inside +/- M ends the gate
 * "same" (a change between A and M is not always caught: the simulated
 * gates of --mde-table found the model 10-25 points optimistic there
 * without it).
 */
struct look_bounds {
	unsigned int nr;
	double info[CMP_MAX_LOOKS];
	double bound[CMP_MAX_LOOKS];
	double same[CMP_MAX_LOOKS];	/* |S| within it: shown the same, stops */
};

static void bounds_of(const struct cmp_result *r, const struct cmp_params *p,
		      const struct look_plan *lp, unsigned int n_old, struct look_bounds *lb)
{
	double eff = p->boots ? 1 : 3 / M_PI, alarm = fabs(on_scale(r, r->alarm)), df, t;
	double m = fabs(on_scale(r, r->threshold));
	unsigned int k;

	lb->nr = 0;
	for (k = 0; k < lp->nr; k++) {
		unsigned int n = lp->n[k], no = p->paired || p->boots ? n : n_old;

		/* a look its test cannot reach cannot catch anything */
		if (!(cmp_min_p(p, no, n) < lp->level[k]))
			continue;
		/*
		 * t's quantile for the small sizes the normal overstates; the
		 * rank tests, discrete there, with half the degrees of freedom
		 * (sched_perf_sim --mde-table checks the figure by simulation)
		 */
		df = p->boots ? no + n - 2.0 : ((p->paired ? n : no + n - 1.0) - 1) / 2;
		lb->info[lb->nr] = eff / (r->sd * r->sd * variance_factor(p, n_old, n));
		t = df >= 1 ? stats_t_quantile(1 - lp->level[k] / 2, df) : HUGE_VAL;
		lb->bound[lb->nr] = fmax(t, alarm * sqrt(lb->info[lb->nr]));
		/* the interval at the same level inside +/- M: "same" */
		lb->same[lb->nr] = m * lb->info[lb->nr] - t * sqrt(lb->info[lb->nr]);
		lb->nr++;
	}
}

/* The power at a true change @theta on the metric's scale, the bad way (> 0). */
static double power_at(const struct look_bounds *lb, double theta)
{
	return lb->nr ? crossing(theta, lb->info, lb->bound, lb->same, lb->nr) : 0;
}

double cmp_mde(const struct cmp_result *r, const struct cmp_params *p, unsigned int n_old,
	       unsigned int n_new, bool to_max)
{
	double sign = r->threshold < 0 ? -1 : 1, lo = 0, hi = 1, mid;
	struct look_plan lp;
	struct look_bounds lb;
	unsigned int k;

	if (r->from_zero || r->threshold == 0 || !(r->sd > 0) || !n_new ||
	    (!p->paired && !n_old))
		return NAN;
	plan_looks(p, r->share > 0 ? r->share : 1, p->paired ? 0 : n_old, n_new, to_max, &lp);
	bounds_of(r, p, &lp, n_old, &lb);
	if (!(power_at(&lb, 1e6) >= CMP_MDE_POWER))
		return copysign(HUGE_VAL, sign);
	/* theta: the change on the metric's scale, the bad way */
	while (power_at(&lb, hi) < CMP_MDE_POWER && hi < 1e6)
		hi *= 2;
	/* to 1e-7 of a log change: far below the figures printed */
	for (k = 0; k < 24; k++) {
		mid = (lo + hi) / 2;
		if (power_at(&lb, mid) < CMP_MDE_POWER)
			lo = mid;
		else
			hi = mid;
	}
	return as_change(r, sign * hi);
}

double cmp_power(const struct cmp_result *r, const struct cmp_params *p, unsigned int n_old,
		 unsigned int n_new, bool to_max, double change)
{
	struct look_plan lp;
	struct look_bounds lb;

	if (r->from_zero || r->threshold == 0 || !(r->sd > 0) || !n_new ||
	    (!p->paired && !n_old) || !bad_way_moved(change, r->threshold))
		return NAN;
	plan_looks(p, r->share > 0 ? r->share : 1, p->paired ? 0 : n_old, n_new, to_max, &lp);
	bounds_of(r, p, &lp, n_old, &lb);
	return power_at(&lb, fabs(on_scale(r, change)));
}

/*
 * The upper confidence bound (CMP_SD_UPPER_Z) of a standard deviation
 * @sd of @df degrees of freedom: sd sqrt(k / chi2_(1-conf)(k)), the
 * quantile by Wilson and Hilferty's cube.
 */
static double upper_sd(double sd, double df)
{
	double k = fmax(1, df);
	double z = -CMP_SD_UPPER_Z;
	double c = 1 - 2 / (9 * k) + z * sqrt(2 / (9 * k));

	return c > 0 ? sd * sqrt(1 / (c * c * c)) : sd * 10;
}

double cmp_planning_sd(const struct cmp_result *r)
{
	return upper_sd(r->sd, r->sd_df);
}

const struct cmp_result *cmp_primary_result(const struct cmp_result *res, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (res[i].primary && res[i].verdict != CMP_MISSING)
			return &res[i];
	for (i = 0; i < n; i++)
		if (res[i].verdict != CMP_MISSING)
			return &res[i];
	return NULL;
}

const struct cmp_rule *cmp_primary_rule(const struct cmp_rule *rules, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (rules[i].primary)
			return &rules[i];
	return nr ? &rules[0] : NULL;
}

double cmp_rules_catch(const struct cmp_rule *rules, unsigned int nr)
{
	const struct cmp_rule *r = cmp_primary_rule(rules, nr);

	return r ? fabs(r->change) : 0;
}

/* Does @r, its spread planned, catch @catch at CMP_MDE_POWER with @plan? */
static bool catches(const struct cmp_result *r, const struct cmp_params *plan,
		    unsigned int n_old, double catch)
{
	return cmp_power(r, plan, n_old, plan->now, true, catch) >= CMP_MDE_POWER;
}

unsigned int cmp_runs_to_catch(const struct cmp_result *seen, const struct cmp_params *p,
			       double catch)
{
	unsigned int n_old = seen->old.n;	/* a saved baseline's: fixed */
	struct cmp_params plan = *p;
	unsigned int lo = cmp_next_look(p->now), hi = RUNSET_MAX_RUNS, mid;
	struct cmp_result r = *seen;

	if (!(seen->sd > 0) || !p->now)
		return 0;
	/* a change the bad way of the rule, whatever sign it was given in */
	catch = copysign(fabs(catch), seen->threshold);
	/*
	 * The spread of a few runs is itself noisy: planned from its upper
	 * bound, the plan falls short of the power far less often.
	 */
	r.sd = cmp_planning_sd(seen);
	if (p->paired)
		n_old = 0;
	/* the power rises with max_runs: the smallest max_runs that catches it */
	plan.max_runs = hi;
	if (!catches(&r, &plan, n_old, catch))
		return RUNSET_MAX_RUNS + 1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		plan.max_runs = mid;
		if (catches(&r, &plan, n_old, catch))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void cmp_fill_mde(struct cmp_result *res, unsigned int n, const struct cmp_params *p)
{
	struct cmp_result planned;
	unsigned int i, n_old, n_new;

	for (i = 0; i < n; i++) {
		struct cmp_result *r = &res[i];

		if (r->verdict == CMP_MISSING || r->verdict == CMP_NOISY)
			continue;
		n_new = r->new.n;
		n_old = r->old.n;
		if (p->paired)
			n_old = n_new = r->nb;
		/* from the spread's upper bound: a figure the gate can defend */
		planned = *r;
		planned.sd = cmp_planning_sd(r);
		r->mde = cmp_mde(&planned, p, n_old, n_new, true);
		r->mde_now = cmp_mde(&planned, p, n_old, n_new, false);
	}
}

/* The plain standard deviation of @n values, or NAN below 2. */
static double plain_sd(const double *v, unsigned int n)
{
	double mean = 0, ss = 0;
	unsigned int i;

	if (n < 2 || !v)
		return NAN;
	for (i = 0; i < n; i++)
		mean += v[i] / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (n - 1));
}

/* A robust standard deviation, or NAN below 2 values. */
static double robust_sd(const double *v, unsigned int n)
{
	double sd;

	if (n < 2 || !v || stats_robust_sd(v, n, &sd))
		return NAN;
	return sd;
}

/*
 * The spread the test sees, on the metric's scale, for the mde: of the
 * block differences (paired), else of each side pooled (plain for Welch's
 * t on boots, robust for the rank test, as it sees them); its degrees of
 * freedom into @df (a MAD's are CMP_ROBUST_DF_SHARE of a plain one's).
 */
static double spread(const struct judged *j, double *df)
{
	const struct shift *sh = &j->sh;
	double sa, sb;

	if (sh->kind == SHIFT_PAIRED) {
		*df = CMP_ROBUST_DF_SHARE * (sh->nb - 1.0);
		return robust_sd(sh->b, sh->nb);
	}
	if (sh->kind == SHIFT_MEANS) {
		*df = sh->na + sh->nb - 2.0;
		sa = plain_sd(sh->a, sh->na);
		sb = plain_sd(sh->b, sh->nb);
	} else {
		*df = CMP_ROBUST_DF_SHARE * (sh->na + sh->nb - 2.0);
		sa = robust_sd(sh->a, sh->na);
		sb = robust_sd(sh->b, sh->nb);
	}
	return sqrt((sa * sa + sb * sb) / 2);
}

static void init_result(struct cmp_result *r, const struct cmp_rule *rule,
			const struct cmp_params *p)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->metric, sizeof(r->metric), "%s", rule->metric);
	r->threshold = rule->change;
	r->alarm = cmp_alarm(rule, p->alarm_share);
	r->primary = rule->primary;
	r->median_change = NAN;
	r->sd = NAN;
	r->mde = r->mde_now = NAN;
	r->change = NAN;
	r->p = NAN;
	r->p_adj = NAN;
	r->p_same = NAN;
	r->p_ni = NAN;
	r->p_beyond = NAN;
	r->ci_lo = r->ci_hi = NAN;
	r->cv_block = NAN;
	r->min_p = NAN;
	r->p_drift = NAN;
	r->foreign_old = r->foreign_new = NAN;
}

/*
 * A host that drifted through a sequential comparison moved every metric
 * it measured, whether or not each one's trend reached the level: the
 * trend of any metric below CMP_DRIFT_P / the metrics tested (Bonferroni:
 * a steady host is refused in at most CMP_DRIFT_P of the comparisons)
 * takes the judgement from all (named in theirs).  They keep their share
 * of alpha: the split is over the metrics present, which a comparison
 * replayed from its looks (sched_perf_compare --look) knows.
 */
static void host_drifted(struct cmp_result *out, unsigned int nr)
{
	unsigned int i, tested = 0, first = nr;

	for (i = 0; i < nr; i++) {
		if (isnan(out[i].p_drift))
			continue;
		tested++;
		if (first == nr || out[i].p_drift < out[first].p_drift)
			first = i;
	}
	if (first == nr || !(out[first].p_drift < CMP_DRIFT_P / tested))
		return;
	for (i = 0; i < nr; i++) {
		if (isnan(out[i].p_drift))
			continue;
		out[i].verdict = CMP_DRIFTING;
		if (i != first)
			snprintf(out[i].drifted_with, sizeof(out[i].drifted_with), "%s",
				 out[first].metric);
	}
}

/*
 * A move between two runs measured one after the other (unpaired) that
 * their own trend could explain: the sides trend with the order measured
 * the way the move goes, one-sided p below CMP_DRIFT_GUARD_P.  A host
 * drifting through both runs moves the new one against the old by the
 * drift times the runs between them, which shows before the trend inside
 * each run does (a step of n runs' drift against a slope over n: about
 * 1.7 times the z); such a move is not judged (drifting).
 */
static bool trend_explains(const struct cmp_result *r)
{
	double s;

	if (isnan(r->p_drift) || (r->verdict != CMP_REGRESSED && r->verdict != CMP_IMPROVED))
		return false;
	/* Kendall's S of both sides: tau times the pairs of each */
	s = r->rho_old * r->old.n * (r->old.n - 1.0) + r->rho_new * r->new.n * (r->new.n - 1.0);
	if (!s || (s > 0) != (r->change > 0))
		return false;
	return r->p_drift / 2 < CMP_DRIFT_GUARD_P;
}

/* The levels of @r, of alpha share @share at this look, and its spread. */
static void levels(struct cmp_result *r, const struct judged *j, const struct cmp_params *p,
		   double share)
{
	r->share = share;
	r->nb = j->sh.kind == SHIFT_PAIRED ? j->sh.nb : 0;
	/* the old side's runs: what an unpaired look's test could reach */
	cmp_look_levels(p, share, p->paired ? 0 : j->sh.na, &r->level_metric, &r->level_same);
	/* not judged (noisy, drifting): no adjusted p */
	if (r->verdict == CMP_UNDECIDED)
		r->p_adj = share > 0 ? fmin(1, r->p / share) : NAN;
	r->sd = spread(j, &r->sd_df);
}

unsigned int compare_runsets(const struct runset *old, const struct runset *new,
			     const struct cmp_rule *rules, unsigned int nr_rules,
			     const struct cmp_params *params,
			     struct cmp_result *out)
{
	struct cmp_params p = params ? *params :
		(struct cmp_params){ .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV };
	struct judged *j = calloc(nr_rules ? nr_rules : 1, sizeof(*j));
	bool *present = calloc(nr_rules ? nr_rules : 1, sizeof(*present));
	double *share = calloc(nr_rules ? nr_rules : 1, sizeof(*share));
	unsigned int i, regressed = 0;
	/* a sequential look: the looks so far; one of --looks N: N */
	unsigned int nr_looks = p.max_runs ? p.nr_before + 1 : p.looks > 1 ? p.looks : 1;
	double level = 0;
	bool too_few;

	for (i = 0; i < nr_rules; i++) {
		struct cmp_result *r = &out[i];

		init_result(r, &rules[i], &p);
		r->looks = nr_looks;
		if (!j || !present || !share) {
			r->verdict = CMP_TOO_FEW;	/* out of memory: cannot judge */
			continue;
		}
		if (!sides(r, old, new, &p, &j[i]))
			continue;
		present[i] = true;
		if (r->old.median != 0)
			r->median_change = r->new.median / r->old.median - 1;
		test(r, &j[i]);
	}
	host_drifted(out, nr_rules);
	/* weighted Bonferroni over the metrics present: one interval each */
	if (j && present && share) {
		shares(&p, rules, present, nr_rules, share);
		for (i = 0; i < nr_rules; i++)
			if (present[i])
				levels(&out[i], &j[i], &p, share[i]);
	}
	for (i = 0; i < nr_rules; i++)
		level += out[i].level_metric;
	for (i = 0; i < nr_rules; i++) {
		struct cmp_result *r = &out[i];

		r->level = level;
		if (j && r->verdict != CMP_MISSING)
			interval(r, &j[i]);
		if (r->verdict == CMP_UNDECIDED) {
			too_few = !(r->min_p < r->level_metric);
			r->verdict = decide(r, &j[i], too_few);
			r->trend_move = trend_explains(r);
			if (r->trend_move)
				r->verdict = CMP_DRIFTING;
		}
		regressed += r->verdict == CMP_REGRESSED;
		describe(r, &p);
		if (j) {
			free(j[i].a);
			free(j[i].b);
		}
	}
	free(j);
	free(present);
	free(share);
	return regressed;
}
