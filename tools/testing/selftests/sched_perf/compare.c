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
	};

	if ((unsigned int)v < ARRAY_SIZE(names) && names[v])
		return names[v];
	return "unknown";
}

/* ln C(n_old + n_new, n_old), without the overflow of the product itself */
static double log_choose(unsigned int n_old, unsigned int n_new)
{
	return lgamma((double)n_old + n_new + 1) - lgamma((double)n_old + 1) -
	       lgamma((double)n_new + 1);
}

/* The smallest two-sided p of the exact test: 2 / C(n_old + n_new, n_old) */
static double smallest_p(unsigned int n_old, unsigned int n_new)
{
	return fmin(1, exp(M_LN2 - log_choose(n_old, n_new)));
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

/*
 * (new - old) / |old| of the medians.  From an old median of 0 any move is
 * infinitely large: +/-HUGE_VAL in the direction of the new median (beyond
 * every threshold that way; the U test still decides whether it is real),
 * and 0 when the new median is 0 as well.
 */
static double relative_change(double old, double new)
{
	if (old == 0)
		return new == 0 ? 0 : copysign(HUGE_VAL, new);
	return (new - old) / fabs(old);
}

/*
 * Beyond @threshold in the bad direction: below it when negative (must not
 * fall), above it when positive (must not rise).  A threshold of 0 names
 * no direction: any move is bad, and none is an improvement.
 */
static bool worse(double change, double threshold)
{
	if (threshold < 0)
		return change < threshold;
	if (threshold > 0)
		return change > threshold;
	return change != 0;
}

static bool better(double change, double threshold)
{
	if (threshold < 0)
		return change > -threshold;
	if (threshold > 0)
		return change < -threshold;
	return false;
}

/* A change in percent: one decimal, or three digits when huge (or inf). */
static void percent(double change, char *buf, size_t len)
{
	if (fabs(change) < 1e4)
		snprintf(buf, len, "%+.1f%%", change * 100);
	else
		snprintf(buf, len, "%+.3g%%", change * 100);
}

/* "old -> new (change), p, p_adj": the figures every report line carries */
static void figures(const struct cmp_result *r, char *buf, size_t len)
{
	char adj[16], pct[16];

	if (isnan(r->p_adj))
		snprintf(adj, sizeof(adj), "n/a");
	else
		snprintf(adj, sizeof(adj), "%.3g", r->p_adj);
	percent(r->change, pct, sizeof(pct));
	snprintf(buf, len, "median %.6g -> %.6g (%s), p %.3g, p_adj %s",
		 r->old.median, r->new.median, pct, r->p, adj);
}

static void describe(struct cmp_result *r, const struct cmp_params *params)
{
	char fig[96], limit[16], opposite[16], apart[64] = "";
	double level = r->level, max_cv = params->max_cv;
	bool paired = params->paired;

	if (r->verdict == CMP_MISSING)
		return;
	figures(r, fig, sizeof(fig));
	if (!paired && (r->rcv_old > max_cv || r->rcv_new > max_cv))
		snprintf(apart, sizeof(apart), "; robust cv %.2f/%.2f, but every run apart",
			 fmin(r->rcv_old, 1e6), fmin(r->rcv_new, 1e6));
	snprintf(limit, sizeof(limit), "%+.3g%%", r->threshold * 100);
	snprintf(opposite, sizeof(opposite), "%+.3g%%", -r->threshold * 100);
	switch (r->verdict) {
	case CMP_NOISY:
		if (!isnan(r->foreign_old)) {
			snprintf(r->why, sizeof(r->why),
				 "machine busy with other work: foreign CPU share %.3f vs %.3f, more than %.2f apart; %s",
				 r->foreign_old, r->foreign_new, CMP_MAX_FOREIGN, fig);
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
		snprintf(r->why, sizeof(r->why),
			 "drifting: cannot judge: trend rho old %+.2f new %+.2f (p < %.2g with the order measured); %s",
			 r->rho_old, r->rho_new, CMP_DRIFT_P, fig);
		break;
	case CMP_TOO_FEW:
		if (params->boots) {
			snprintf(r->why, sizeof(r->why),
				 "too few boots: %u vs %u, Welch's test needs 2 a side; %s",
				 r->old.n, r->new.n, fig);
			break;
		}
		snprintf(r->why, sizeof(r->why),
			 "too few runs: %u vs %u reach p %.2g at best, not below %.2g; %s",
			 r->old.n, r->new.n, paired ? stats_signed_rank_min_p(r->new.n) :
			 smallest_p(r->old.n, r->new.n), level, fig);
		break;
	case CMP_REGRESSED:
		snprintf(r->why, sizeof(r->why), "%s: beyond %s, p_adj < %.3g%s", fig, limit,
			 level, apart);
		break;
	case CMP_IMPROVED:
		snprintf(r->why, sizeof(r->why), "%s: improved beyond %s, p_adj < %.3g%s", fig,
			 opposite, level, apart);
		break;
	case CMP_SAME:
		snprintf(r->why, sizeof(r->why), "%s: within +/-%.3g%%, equivalence p %.3g < %.3g",
			 fig, fabs(r->threshold) * 100, r->p_same, level);
		break;
	default:
		if (worse(r->change, r->threshold) || better(r->change, r->threshold))
			snprintf(r->why, sizeof(r->why),
				 "undecided: %s: beyond %s but not significant at %.3g",
				 fig, worse(r->change, r->threshold) ? limit : opposite, level);
		else
			snprintf(r->why, sizeof(r->why),
				 "undecided: %s: not shown within +/-%.3g%% (equivalence p %.3g, not below %.3g)",
				 fig, fabs(r->threshold) * 100, r->p_same, level);
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
	    !median_of(old, "foreign_cpu_share", &f_old) ||
	    !median_of(new, "foreign_cpu_share", &f_new) ||
	    fabs(f_new - f_old) <= CMP_MAX_FOREIGN)
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

/* @n values of @v divided by @scale (a copy); NULL when out of memory. */
static double *scaled(const double *v, unsigned int n, double scale)
{
	double *out = malloc((n ? n : 1) * sizeof(*out));
	unsigned int i;

	for (i = 0; out && i < n; i++)
		out[i] = v[i] / scale;
	return out;
}

/* The change is judged relative to the old median (1 when that is 0). */
static double old_scale(const struct cmp_result *r)
{
	return r->old.median != 0 ? fabs(r->old.median) : 1;
}

/*
 * Unpaired: Mann-Whitney U on the values (Welch's t-test on boot medians,
 * @boots), Welch's equivalence test on them relative to the old median.
 */
static void unpaired(struct cmp_result *r, const struct runset_metric *o,
		     const struct runset_metric *n, bool boots)
{
	double margin = fabs(r->threshold), *so, *sn;

	r->change = relative_change(r->old.median, r->new.median);
	so = scaled(o->v, o->n, old_scale(r));
	sn = scaled(n->v, n->n, old_scale(r));
	if (boots)
		r->p = so && sn ? stats_welch(so, o->n, sn, n->n, NULL, NULL) : 1;
	else
		r->p = stats_mann_whitney(o->v, o->n, n->v, n->n, NULL);
	r->p_same = so && sn ? stats_welch_tost(so, o->n, sn, n->n, -margin, margin) : 1;
	free(so);
	free(sn);
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
 * Paired (block k = iteration k of each side): the signed-rank test and
 * the one-sample equivalence test on d_k = (new_k - old_k) / |old median|;
 * the change is the median of d (relative_change when the old median is
 * 0); the noise judged is the robust CV of the ratios new_k / old_k.
 */
static void paired(struct cmp_result *r, const struct runset_metric *o,
		   const struct runset_metric *n)
{
	unsigned int k, room = o->n < n->n ? o->n : n->n, nb = 0, nr = 0;
	double *d = malloc((room ? room : 1) * sizeof(*d));
	double *ratio = malloc((room ? room : 1) * sizeof(*ratio));
	double *ov = malloc((room ? room : 1) * sizeof(*ov));
	double *nv = malloc((room ? room : 1) * sizeof(*nv));
	double margin = fabs(r->threshold), med;

	r->p = 1;
	r->p_same = 1;
	r->cv_block = HUGE_VAL;		/* out of memory: no verdict */
	r->change = relative_change(r->old.median, r->new.median);
	if (d && ratio && ov && nv) {
		nb = blocks(o, n, ov, nv);
		for (k = 0; k < nb; k++) {
			d[k] = (nv[k] - ov[k]) / old_scale(r);
			if (ov[k] != 0)
				ratio[nr++] = nv[k] / ov[k];
		}
		if (r->old.median != 0 && nb && !stats_median(d, nb, &med))
			r->change = med;
		r->p = stats_signed_rank(d, nb, NULL);
		r->p_same = stats_tost(d, nb, -margin, margin);
		if (nr < 2)
			r->cv_block = 0;	/* one block or none: no spread seen */
		else if (stats_robust_cv(ratio, nr, &r->cv_block))
			r->cv_block = HUGE_VAL;
	}
	free(d);
	free(ratio);
	free(ov);
	free(nv);
}

/* Both sides trend-free enough to judge a sequential comparison? */
static bool drifting(struct cmp_result *r, const struct runset_metric *o,
		     const struct runset_metric *n)
{
	bool old_trends = o->n >= CMP_DRIFT_MIN_N && stats_trend(o->v, o->n, &r->rho_old) < CMP_DRIFT_P;
	bool new_trends = n->n >= CMP_DRIFT_MIN_N && stats_trend(n->v, n->n, &r->rho_new) < CMP_DRIFT_P;

	return old_trends || new_trends;
}

/*
 * Describe both sides and test them; false (and CMP_MISSING) when a side
 * has no runs.  The verdict is left CMP_UNDECIDED, or set to a reason
 * for none (drifting, noisy).
 */
static bool sides(struct cmp_result *r, const struct runset *old,
		  const struct runset *new, const struct cmp_params *params)
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
		paired(r, o, n);
		if (r->cv_block > max_cv && !r->apart)
			r->verdict = CMP_NOISY;
		return true;
	}
	unpaired(r, o, n, params->boots);
	if (params->boots) {
		/* interleaved boots: no order to trend with, no foreign share */
		if ((r->rcv_old > max_cv || r->rcv_new > max_cv) && !r->apart)
			r->verdict = CMP_NOISY;
		return true;
	}
	if (drifting(r, o, n))
		r->verdict = CMP_DRIFTING;
	else if (((r->rcv_old > max_cv || r->rcv_new > max_cv) && !r->apart) ||
		 machine_busier(r, old, new))
		r->verdict = CMP_NOISY;
	return true;
}

/* Holm over the p of the @nr metrics in @idx; Bonferroni without memory. */
static void adjust(struct cmp_result *out, const unsigned int *idx,
		   unsigned int nr)
{
	double *p = malloc((nr ? nr : 1) * sizeof(*p));
	unsigned int k;

	for (k = 0; p && k < nr; k++)
		p[k] = out[idx[k]].p;
	if (p && !stats_holm(p, nr, p)) {
		for (k = 0; k < nr; k++)
			out[idx[k]].p_adj = p[k];
	} else {
		for (k = 0; k < nr; k++)
			out[idx[k]].p_adj = fmin(1, out[idx[k]].p * nr);
	}
	free(p);
}

/* Could @r's test reach @level with these runs at all? */
static bool enough_runs(const struct cmp_result *r, const struct cmp_params *params,
			double level)
{
	bool pair = params->paired;

	if (params->boots)	/* Welch's t: any p with 2 boots a side */
		return r->old.n >= 2 && r->new.n >= 2;
	if (pair)
		return stats_signed_rank_min_p(r->new.n < r->old.n ? r->new.n : r->old.n) < level;
	return cmp_enough_runs(r->old.n, r->new.n, level);
}

/* The verdict of a metric that could be judged, its p_adj known. */
static enum cmp_verdict decide(const struct cmp_result *r, bool too_few)
{
	if (!too_few && r->p_adj < r->level) {
		if (worse(r->change, r->threshold))
			return CMP_REGRESSED;
		if (better(r->change, r->threshold))
			return CMP_IMPROVED;
	}
	if (r->p_same < r->level)
		return CMP_SAME;
	return too_few ? CMP_TOO_FEW : CMP_UNDECIDED;
}

unsigned int compare_runsets(const struct runset *old, const struct runset *new,
			     const struct cmp_rule *rules, unsigned int nr_rules,
			     const struct cmp_params *params,
			     struct cmp_result *out)
{
	struct cmp_params p = params ? *params :
		(struct cmp_params){ .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV };
	double alpha = p.alpha;
	unsigned int looks = p.looks > 1 ? p.looks : 1;
	unsigned int i, judged = 0, nr_holm = 0, regressed = 0;
	unsigned int *idx = malloc((nr_rules ? nr_rules : 1) * sizeof(*idx));
	bool *too_few = calloc(nr_rules ? nr_rules : 1, sizeof(*too_few));
	double look_alpha = alpha / looks, level;

	/* missing, drifting and noisy metrics are not judged: not in J */
	for (i = 0; i < nr_rules; i++) {
		struct cmp_result *r = &out[i];

		memset(r, 0, sizeof(*r));
		snprintf(r->metric, sizeof(r->metric), "%s", rules[i].metric);
		r->threshold = rules[i].change;
		r->change = NAN;
		r->p = NAN;
		r->p_adj = NAN;
		r->p_same = NAN;
		r->cv_block = NAN;
		r->level = look_alpha;
		r->foreign_old = r->foreign_new = NAN;
		if (sides(r, old, new, &p) && r->verdict == CMP_UNDECIDED)
			judged++;
	}
	level = judged ? look_alpha / judged : look_alpha;
	for (i = 0; i < nr_rules; i++) {
		struct cmp_result *r = &out[i];

		if (r->verdict != CMP_UNDECIDED)
			continue;
		if (!idx || !too_few || !enough_runs(r, &p, level)) {
			if (too_few)
				too_few[i] = true;
			else		/* out of memory: nothing can be judged */
				r->verdict = CMP_TOO_FEW;
		} else {
			idx[nr_holm++] = i;
		}
	}
	adjust(out, idx, nr_holm);
	for (i = 0; i < nr_rules; i++) {
		struct cmp_result *r = &out[i];

		if (r->verdict == CMP_UNDECIDED)
			r->verdict = decide(r, too_few && too_few[i]);
		if (r->verdict == CMP_TOO_FEW)
			r->level = level;	/* what the best p could not reach */
		regressed += r->verdict == CMP_REGRESSED;
		describe(r, &p);
	}
	free(idx);
	free(too_few);
	return regressed;
}
