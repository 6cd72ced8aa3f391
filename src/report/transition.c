// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * transition.c - steady states before and after an event, the change point
 * and a significance decision.
 *
 * Why these choices:
 * - Steady states leave out the run's warm-up and the seconds right after
 *   an event: the interval in which a module loads is a mix of both levels
 *   and would pull both means towards each other.
 * - The change point is a least-squares split into two constant segments
 *   over the intervals around the event (the classic single change-point
 *   estimator for a shift in mean), refined inside the boundary intervals
 *   by where their value lies between the two levels: an interval that is
 *   40 % of the way from the old to the new level saw the new level for
 *   40 % of its length (levels taken as medians, which a few seconds of
 *   a busy host do not move).  So the result is not tied to the meter's
 *   grid.
 * - Significance needs three things at once: a Welch t-test (unequal
 *   variances, small samples) at the 0.1 % level, a difference of more than
 *   k standard deviations of the noisier side (throughput samples are
 *   autocorrelated - a slow drift makes a t-test over-confident, but it
 *   also widens the spread), and a minimum relative change.  A run in which
 *   nothing happened must say "no significant change", never a ratio of
 *   1.04 dressed up as a transition.
 * - A "before" level that drifts makes any ratio meaningless: on a fresh
 *   scsi_debug disk (never-written sectors carry the 0xffff escape tag,
 *   nobody checks their guard) the meter fell from 28 to 16 MB/s in the
 *   10 s before a hot-load, and the run reported "ratio 1.25" against the
 *   drifted mean.  So a line is fitted to the "before" intervals; when its
 *   slope is significant (two-sided t-test at 1 %: drift must be found in
 *   8 noisy intervals, where 0.1 % would need a slope of 6 standard errors)
 *   and it moves the level by at least 10 % over the window, the verdict
 *   is "before not steady", not a ratio.
 * - The same fit over the share of reads that found never-written blocks
 *   names that cause directly.  On the fresh disk the drift is a
 *   staircase, not a line: dixload visits every block once per pass (1024
 *   blocks of 256 KiB, ~4.5 s at 230 IOPS), so that share falls 100 % ->
 *   50 % -> 25 % at the pass boundaries, and a staircase fits a line
 *   badly: in 4 runs with --precondition off the throughput fit found the
 *   drift twice (-43 %, -40 %) and missed it twice (-30 % and -21 %,
 *   slope within 2 standard errors), while the share fell from 100 % to
 *   about 50 % in all four.  So both series get two tests: the slope, and
 *   the best split into two levels (Bonferroni-corrected for the splits
 *   tried), each at 1 %; a throughput that moves by 10 % of its mean, or
 *   a share that moves by 10 points, with either test significant makes
 *   the window not steady.  Flat throughput with 10 % noise passes as
 *   steady in 98.5 % of draws; a staircase of -25 % in mid-window is
 *   found in 9 of 10 (tests/unit/test-transition.c).
 * - Those tests see one share per interval, and a share over a few dozen
 *   reads is noisy: with 11 reads an interval (a load capped at 30 IOPS
 *   in the VM), a fall from 100 % to 48 % passed both as steady.  Each
 *   read either found a never-written block or did not, so when the reads
 *   per interval are known the share's best split is tested on the counts
 *   instead (tr_share_shift(), a two-proportion z-test), which knows that
 *   11 reads at 100 % and 11 at 48 % differ, and that 10,000 at 50 % and
 *   10,000 at 51 % differ too, though by less than the 10 points a
 *   verdict needs.
 * - A share that does not move can still be most of the reads.  In guest
 *   time (dixvm's instruction-counting clock) the 10 s before the seed's
 *   hot-load write only part of a fresh 256 MiB disk (a tenth with the
 *   DIXLOAD2 block format, two fifths with DIXLOAD3): the share of
 *   never-written reads stays high and level, no drift test fires, and
 *   the run said "significant, 3.15x" (19.15 -> 60.23 MB/s, 440320 blocks
 *   read without a header) where the preconditioned disk gave 5.2x
 *   (10.75 -> 55.6; DIXLOAD2, 2026-12-01).  The "before" level was one of
 *   reads nobody checks.
 *   So a window whose reads found never-written blocks more than 10 % of
 *   the time gets no verdict either, drifting or not (the same 10 points
 *   a moving share needs).  This holds for the "after" window too: a
 *   load that reads the never-written half of the disk after the event
 *   would inflate the other side of the ratio.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/transition.h"
#include "lib/util.h"

/* Level of the tests that call a "before" window not steady: each of the
 * slope and the level shift, two-sided. */
#define TREND_ALPHA	0.01

/* A share at exactly the limit (100 of 1000 blocks) must not cross it by
 * the rounding of the division. */
#define SHARE_EPS	1e-9

void tr_params_default(struct tr_params *p)
{
	p->warmup = 2.0;
	p->settle = 2.0;
	p->window = 8.0;
	p->min_rel = 0.05;
	p->k_sd = 2.0;
	p->trend_min = 0.10;
	p->share_min = 0.10;
	p->unwritten_max = 0.10;
}

/* t(0.9995, df) for df = 1..30, from the standard tables. */
static const double t999[30] = {
	636.62, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781,
	4.587, 4.437, 4.318, 4.221, 4.140, 4.073, 4.015, 3.965, 3.922, 3.883,
	3.850, 3.819, 3.792, 3.768, 3.745, 3.725, 3.707, 3.690, 3.674, 3.659,
	3.646,
};

double tr_t_critical(double df)
{
	/* normal quantile z(0.9995) */
	const double z = 3.2905267;
	double z3 = z * z * z, z5 = z3 * z * z, d;

	if (!(df >= 1))
		return INFINITY;
	if (df < 31)
		return t999[(int)df - 1];
	d = floor(df);
	/* Cornish-Fisher expansion of the t quantile; within 0.001 of the
	 * table at df = 30 and better beyond */
	return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d);
}

/*
 * Regularised incomplete beta function I_x(a, b) by its continued fraction
 * (modified Lentz), on the side of x where the fraction converges fast.
 */
static double inc_beta(double a, double b, double x)
{
	const double tiny = 1e-300;
	double front, f = 1, c = 1, d = 0;
	int i;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - inc_beta(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x)) / a;
	for (i = 0; i <= 400; i++) {
		double m = i / 2, num, cd;

		if (i == 0)
			num = 1;
		else if (i % 2 == 0)
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		else
			num = -(a + m) * (a + b + m) * x /
			      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		cd = c * d;
		f *= cd;
		if (fabs(1 - cd) < 1e-12)
			break;
	}
	return front * (f - 1);
}

double tr_t_pvalue(double t, double df)
{
	if (!(df > 0))
		return 1;
	if (isinf(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

long tr_change_point(const double *y, size_t n, double *sse_gain)
{
	double total = 0, total2 = 0, left = 0, left2 = 0, sse0, best = INFINITY;
	long k, bestk = -1;

	if (sse_gain)
		*sse_gain = 0;
	if (n < 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		total += y[i];
		total2 += y[i] * y[i];
	}
	sse0 = total2 - total * total / n;
	/* SSE of a segment = sum(y^2) - sum(y)^2 / len; prefix sums make the
	 * scan linear */
	for (k = 1; k < (long)n; k++) {
		double right, right2, sse;

		left += y[k - 1];
		left2 += y[k - 1] * y[k - 1];
		if (k < 2 || (long)n - k < 2)
			continue;
		right = total - left;
		right2 = total2 - left2;
		sse = (left2 - left * left / k) +
		      (right2 - right * right / (n - k));
		if (sse < best) {
			best = sse;
			bestk = k;
		}
	}
	if (sse_gain && sse0 > 0)
		*sse_gain = 1 - best / sse0;
	return bestk;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Intervals much shorter than the period (the tail of the run) are noisy:
 * half the median length is the cut-off. */
static double min_dt(const struct tr_series *s)
{
	double *v, m;

	if (!s->n)
		return 0;
	v = xmalloc(s->n * sizeof(*v));
	memcpy(v, s->dt, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_double);
	m = v[s->n / 2];
	free(v);
	return m / 2;
}

/*
 * Whether interval @i lies within [t0, t1] and is long enough.  The meter
 * and the control thread wake on the same second, so the interval "ending
 * at 8 s" may end a millisecond after an action at 8 s: 5 % of an
 * interval's length is forgiven at either end.
 */
static int inside(const struct tr_series *s, size_t i, double t0, double t1,
		  double mindt)
{
	double tol = 0.05 * s->dt[i];

	return s->dt[i] >= mindt && s->t[i] - s->dt[i] >= t0 - tol &&
	       s->t[i] <= t1 + tol;
}

/* Mean and sample standard deviation of the intervals within [t0, t1]. */
static int side_stats(const struct tr_series *s, double t0, double t1,
		      double mindt, double *mean, double *sd)
{
	double sum = 0, sum2 = 0;
	int n = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!inside(s, i, t0, t1, mindt))
			continue;
		sum += s->y[i];
		n++;
	}
	*mean = n ? sum / n : 0;
	for (i = 0; i < s->n; i++) {
		if (!inside(s, i, t0, t1, mindt))
			continue;
		sum2 += (s->y[i] - *mean) * (s->y[i] - *mean);
	}
	*sd = n > 1 ? sqrt(sum2 / (n - 1)) : 0;
	return n;
}

/*
 * The best split of @y[0..n) into two levels (tr_change_point()) and
 * whether it is beyond the noise: minimising the split's SSE maximises the
 * pooled two-sample t of its segments, t^2 = (n - 2) * gain / (1 - gain);
 * its p-value is multiplied by the n - 3 splits tried (Bonferroni).
 */
static void level_shift(const double *y, size_t n, struct tr_trend *out)
{
	double gain, a = 0, b = 0, t;
	long k = tr_change_point(y, n, &gain), i;

	if (k < 0)
		return;
	for (i = 0; i < (long)n; i++) {
		if (i < k)
			a += y[i];
		else
			b += y[i];
	}
	out->shift_from = a / k;
	out->shift_to = b / (n - k);
	if (out->shift_from == out->shift_to)
		return;
	t = gain < 1 ? sqrt((n - 2) * gain / (1 - gain)) : INFINITY;
	out->shift_sig = tr_t_pvalue(t, n - 2) * (n - 3) < TREND_ALPHA;
}

void tr_trend(const struct tr_series *s, const double *v, double t0,
	      double t1, const struct tr_params *p, struct tr_trend *out)
{
	double mindt = min_dt(s), sx = 0, sxx = 0, sxy = 0, ssr = 0, mx;
	double first = INFINITY, last = -INFINITY;
	double *x = xmalloc((s->n + 1) * sizeof(*x));
	double *y = xmalloc((s->n + 1) * sizeof(*y));
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	out->change = out->rel = NAN;
	out->shift_from = out->shift_to = NAN;
	out->steady = 1;
	for (i = 0; i < s->n; i++) {
		if (isnan(v[i]) || !inside(s, i, t0, t1, mindt))
			continue;
		x[n] = s->t[i] - s->dt[i] / 2;	/* the interval's middle */
		y[n] = v[i];
		sx += x[n];
		out->mean += y[n++];
		first = fmin(first, s->t[i] - s->dt[i]);
		last = fmax(last, s->t[i]);
	}
	out->n = n;
	if (n < 3)
		goto out;
	mx = sx / n;
	out->mean /= n;
	out->span = last - first;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - out->mean);
	}
	if (!(sxx > 0))
		goto out;
	out->slope = sxy / sxx;
	for (i = 0; i < n; i++) {
		double r = y[i] - out->mean - out->slope * (x[i] - mx);

		ssr += r * r;
	}
	out->slope_se = sqrt(ssr / (n - 2) / sxx);
	/* a perfectly straight line has no error: any slope is exact */
	out->sig = out->slope_se > 0 ?
		   tr_t_pvalue(out->slope / out->slope_se, n - 2) < TREND_ALPHA :
		   out->slope != 0;
	out->change = out->slope * out->span;
	level_shift(y, n, out);
	if (out->mean <= 0)
		goto out;
	out->rel = out->change / out->mean;
	if ((out->sig && fabs(out->rel) >= p->trend_min) ||
	    (out->shift_sig &&
	     fabs(out->shift_to - out->shift_from) >= p->trend_min * out->mean))
		out->steady = 0;
out:
	free(x);
	free(y);
}

int tr_share_shift(const struct tr_series *s, double t0, double t1,
		   double *from, double *to)
{
	double mindt = min_dt(s), *y, *w, n1 = 0, n2 = 0, u1 = 0, u2 = 0;
	double p, se, z;
	size_t i, m = 0;
	long k, j;
	int res = -1;

	if (!s->share || !s->reads)
		return -1;
	y = xmalloc((s->n + 1) * sizeof(*y));
	w = xmalloc((s->n + 1) * sizeof(*w));
	for (i = 0; i < s->n; i++) {
		if (isnan(s->share[i]) || !(s->reads[i] > 0) ||
		    !inside(s, i, t0, t1, mindt))
			continue;
		y[m] = s->share[i];
		w[m++] = s->reads[i];
	}
	k = tr_change_point(y, m, NULL);
	if (k < 0)
		goto out;
	for (j = 0; j < (long)m; j++) {
		if (j < k) {
			n1 += w[j];
			u1 += w[j] * y[j];
		} else {
			n2 += w[j];
			u2 += w[j] * y[j];
		}
	}
	*from = u1 / n1;
	*to = u2 / n2;
	p = (u1 + u2) / (n1 + n2);
	se = sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
	if (!(se > 0)) {
		/* every read at 0 % or every read at 100 %: no noise */
		res = *from != *to;
		goto out;
	}
	z = fabs(*from - *to) / se;
	/* two-sided normal p-value, times the m - 3 splits tried */
	res = erfc(z / M_SQRT2) * (m - 3) < TREND_ALPHA;
out:
	free(y);
	free(w);
	return res;
}

/*
 * The share of never-written reads over the intervals within [t0, t1]:
 * pooled over the reads behind it when they are known (an interval of 3
 * reads weighs less than one of 300), else the mean of the intervals'
 * shares.  Return: 0..1, or NAN without @s->share or without reads there.
 */
static double share_level(const struct tr_series *s, double t0, double t1,
			  double mindt)
{
	double sum = 0, n = 0;
	size_t i;

	if (!s->share)
		return NAN;
	for (i = 0; i < s->n; i++) {
		double w = s->reads ? s->reads[i] : 1;

		if (isnan(s->share[i]) || !(w > 0) ||
		    !inside(s, i, t0, t1, mindt))
			continue;
		sum += w * s->share[i];
		n += w;
	}
	return n > 0 ? sum / n : NAN;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Median of y[a..b): the levels a boundary interval is placed between
 * should not move because the host stole a few seconds of CPU. */
static double seg_median(const double *y, long a, long b)
{
	double *v = xmalloc((b - a) * sizeof(*v)), m;
	long n = b - a;

	memcpy(v, y + a, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

/*
 * The change point within [t0, t1], refined inside the two boundary
 * intervals.  Return: seconds, or NAN when there are too few intervals.
 */
static double change_time(const struct tr_series *s, double t0, double t1,
			  double mindt)
{
	size_t *idx = xmalloc((s->n + 1) * sizeof(*idx));
	double *y = xmalloc((s->n + 1) * sizeof(*y));
	double ml, mr, res = NAN;
	size_t i, m = 0;
	long k;

	for (i = 0; i < s->n; i++) {
		if (!inside(s, i, t0, t1, mindt))
			continue;
		idx[m] = i;
		y[m++] = s->y[i];
	}
	k = tr_change_point(y, m, NULL);
	if (k < 0)
		goto out;
	/* the levels, without the boundary intervals when that leaves some */
	ml = k >= 3 ? seg_median(y, 0, k - 1) : seg_median(y, 0, k);
	mr = (long)m - k >= 3 ? seg_median(y, k + 1, m) : seg_median(y, k, m);
	res = s->t[idx[k - 1]] - s->dt[idx[k - 1]];
	if (ml == mr) {
		res = s->t[idx[k - 1]];
		goto out;
	}
	/* the share of each boundary interval still at the old level; the two
	 * intervals are adjacent, so the shares add up to the time the old
	 * level lasted from the start of the first one */
	res += s->dt[idx[k - 1]] * clamp01((y[k - 1] - mr) / (ml - mr));
	res += s->dt[idx[k]] * clamp01((y[k] - mr) / (ml - mr));
out:
	free(idx);
	free(y);
	return res;
}

int tr_analyse(const struct tr_series *s, double at, double lo, double hi,
	       const struct tr_params *p, struct dix_transition *out,
	       struct tr_window *w)
{
	double mindt = min_dt(s), b0, a0, diff, se, tstat, df, vb, va;
	double from, to;
	struct tr_trend trend;
	size_t i;
	int shift;

	for (i = 1; i < s->n; i++)
		if (!(s->t[i] > s->t[i - 1]))
			return -EINVAL;

	/* "before" starts after the warm-up and after the previous event
	 * has settled; "after" starts once this one has settled */
	b0 = fmax(p->warmup, lo > 0 ? lo + p->settle : 0);
	a0 = at + p->settle;
	out->at = at;
	out->change_at = NAN;
	out->nbefore = side_stats(s, b0, at, mindt, &out->before,
				  &out->before_sd);
	out->nafter = side_stats(s, a0, hi, mindt, &out->after,
				 &out->after_sd);
	out->ratio = out->before > 0 ? out->after / out->before : 0;
	out->significant = 0;
	tr_trend(s, s->y, b0, at, p, &trend);
	out->before_trend = trend.rel;
	out->before_span = trend.span;
	out->drift = !trend.steady;
	out->before_unwritten_from = NAN;
	out->before_unwritten_to = NAN;
	if (s->share && (shift = tr_share_shift(s, b0, at, &from, &to)) >= 0) {
		/* the reads behind the shares are known: the split tested
		 * on the counts decides alone; the tests below, on one share
		 * per interval, called flat binomial noise over 11 reads an
		 * interval a drift in 2.6 % of draws and missed half of the
		 * falls from 100 % to 50 % (tests/unit/test-transition.c) */
		out->before_unwritten_from = from;
		out->before_unwritten_to = to;
		if (shift == 1 && fabs(to - from) >= p->share_min)
			out->drift = 1;
	} else if (s->share) {
		tr_trend(s, s->share, b0, at, p, &trend);
		/* the share's staircase levels when it has them, else the
		 * line's ends */
		if (!isnan(trend.shift_from) && trend.shift_sig) {
			out->before_unwritten_from = trend.shift_from;
			out->before_unwritten_to = trend.shift_to;
		} else if (trend.n >= 3) {
			out->before_unwritten_from =
				clamp01(trend.mean - trend.change / 2);
			out->before_unwritten_to =
				clamp01(trend.mean + trend.change / 2);
		}
		if ((trend.sig && fabs(trend.change) >= p->share_min) ||
		    (trend.shift_sig &&
		     fabs(trend.shift_to - trend.shift_from) >= p->share_min))
			out->drift = 1;
	}
	/* a level that rests on never-written blocks, drifting or not, is
	 * not the checked path's level: no verdict on it either */
	out->before_unwritten = share_level(s, b0, at, mindt);
	out->after_unwritten = share_level(s, a0, hi, mindt);
	/* too few intervals for a split or a line: the window's share is
	 * the best figure for both of its ends */
	if (isnan(out->before_unwritten_from) &&
	    !isnan(out->before_unwritten)) {
		out->before_unwritten_from = out->before_unwritten;
		out->before_unwritten_to = out->before_unwritten;
	}
	out->unwritten_over =
		out->before_unwritten > p->unwritten_max + SHARE_EPS ||
		out->after_unwritten > p->unwritten_max + SHARE_EPS;
	out->steady = !out->drift && !out->unwritten_over;
	if (w) {
		w->b0 = b0;
		w->b1 = at;
		w->a0 = a0;
		w->a1 = isinf(hi) && s->n ? s->t[s->n - 1] : hi;
	}
	if (out->nbefore < 2 || out->nafter < 2 || out->before <= 0)
		return 0;

	diff = out->after - out->before;
	vb = out->before_sd * out->before_sd / out->nbefore;
	va = out->after_sd * out->after_sd / out->nafter;
	se = sqrt(vb + va);
	if (se > 0) {
		tstat = fabs(diff) / se;
		/* Welch-Satterthwaite degrees of freedom */
		df = (vb + va) * (vb + va) /
		     (vb * vb / (out->nbefore - 1) + va * va / (out->nafter - 1));
	} else {
		/* two perfectly flat sides: any difference is exact */
		tstat = diff != 0 ? INFINITY : 0;
		df = out->nbefore + out->nafter - 2;
	}
	/* a drifting "before" compares a drift, not a step, and a window
	 * of never-written reads a level nobody checks: no verdict */
	out->significant = out->steady && tstat > tr_t_critical(df) &&
		fabs(diff) > p->k_sd * fmax(out->before_sd, out->after_sd) &&
		fabs(diff) >= p->min_rel * out->before;
	if (out->significant)
		out->change_at = change_time(s, fmax(b0, at - p->window),
					     fmin(hi, at + p->window), mindt);
	return 0;
}
