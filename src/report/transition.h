/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * transition.h - throughput before and after an event: steady-state levels,
 * a change point and whether the difference is real.
 *
 * Pure arithmetic over per-interval samples (no I/O, no clock), so the unit
 * tests drive it with synthetic series.
 */
#ifndef DIX_TRANSITION_H
#define DIX_TRANSITION_H

#include <stddef.h>

/**
 * struct dix_transition - throughput before and after an event.
 * @event: index in run->events
 * @at: the event's time
 * @change_at: change point found in the throughput (seconds), or NAN
 * @before: mean total bytes/s over the steady state before
 * @after: mean total bytes/s over the steady state after
 * @before_sd: standard deviation before
 * @after_sd: standard deviation after
 * @nbefore: intervals in @before
 * @nafter: intervals in @after
 * @ratio: @after / @before
 * @significant: the difference is beyond the noise of both sides (never
 *	when the "before" level drifts: see @steady)
 * @before_trend: relative change of the "before" level over its window,
 *	from a straight-line fit (-0.38: fell by 38 % of its mean); NAN when
 *	there are too few intervals to fit
 * @before_span: seconds the fit covers
 * @before_unwritten_from: share (0..1) of the blocks read that were never
 *	written, early in the "before" window (the first level of its best
 *	two-level split when that split is significant, else the fitted
 *	line's start); NAN when unknown
 * @before_unwritten_to: the same late in the window
 * @before_unwritten: share (0..1) of the blocks read over the whole
 *	"before" steady window that were never written (pooled over its
 *	reads); NAN when unknown (--verify off, no reads)
 * @after_unwritten: the same over the "after" window
 * @drift: the "before" level shows a trend beyond its noise, or the share
 *	of never-written reads (cheaper on a PI device: nobody checks their
 *	guard) moved: the ratio compares a drift, not a step
 * @unwritten_over: @before_unwritten or @after_unwritten is above the
 *	analysis' limit (10 %); the reason given first when the level also
 *	drifted, since a busy host can add a drift to such a window too
 * @steady: no @drift, and neither @before_unwritten nor @after_unwritten
 *	above the analysis' limit (10 %): a level that rests on never-written
 *	blocks measures reads nobody checks, however level it is; 0 means no
 *	verdict is given
 */
struct dix_transition {
	int event;
	double at;
	double change_at;
	double before, after;
	double before_sd, after_sd;
	int nbefore, nafter;
	double ratio;
	int significant;
	double before_trend;
	double before_span;
	double before_unwritten_from;
	double before_unwritten_to;
	double before_unwritten, after_unwritten;
	int drift;
	int unwritten_over;
	int steady;
};

/**
 * struct tr_params - how the steady states are chosen and judged.
 * @warmup: seconds at the start of the run never used as a steady state
 *	(first touch of the device, caches, the first interval's ramp)
 * @settle: seconds after an event (or after the previous one) left out, so
 *	the action itself and the switch-over are not averaged in
 * @window: half-width in seconds of the change-point search around the event
 * @min_rel: smallest relative change |after - before| / before that may be
 *	called significant
 * @k_sd: the levels must differ by more than @k_sd times the larger of the
 *	two standard deviations
 * @trend_min: smallest relative change of the "before" level over its
 *	window that makes it "not steady" (when the slope is also significant)
 * @share_min: smallest change of the share of reads that found
 *	never-written blocks over the "before" window that makes it "not
 *	steady" (when that slope is also significant)
 * @unwritten_max: largest share of never-written reads in the "before" or
 *	the "after" window that a verdict may rest on: above it, that side's
 *	level is one of reads nobody checks, drifting or not
 *
 * Besides these, the difference must pass a two-sided Welch t-test at the
 * 0.1 % level (tr_t_critical()); a "before" trend is significant when its
 * slope, or the shift of its best two-level split, passes a two-sided
 * t-test at the 1 % level (tr_trend()).
 */
struct tr_params {
	double warmup;
	double settle;
	double window;
	double min_rel;
	double k_sd;
	double trend_min;
	double share_min;
	double unwritten_max;
};

/**
 * tr_params_default() - warm-up 2 s, settle 2 s, window 8 s, 5 %, 2 sd,
 * trend 10 %, never-written share 10 points of change and 10 % of the
 * reads in a window at most.
 */
void tr_params_default(struct tr_params *p);

/**
 * struct tr_series - per-interval throughput.
 * @t: end of each interval (seconds since the start), increasing
 * @dt: length of each interval
 * @y: throughput of each interval (bytes/s)
 * @n: number of intervals
 * @share: if not NULL, the share (0..1) of the blocks read in each
 *	interval that carried no dixload header (never written), NAN for an
 *	interval without reads
 * @reads: if not NULL (with @share), the reads completed in each interval:
 *	the counts the share stands on, for a test that weighs them
 */
struct tr_series {
	const double *t;
	const double *dt;
	const double *y;
	size_t n;
	const double *share;
	const double *reads;
};

/**
 * struct tr_window - the intervals a transition used, for the plot.
 * @b0/@b1: span of the "before" steady state (b0 >= b1 when empty)
 * @a0/@a1: span of the "after" steady state
 */
struct tr_window {
	double b0, b1, a0, a1;
};

/**
 * struct tr_trend - a straight line fitted to per-interval values over time.
 * @n: intervals used
 * @mean: their mean value
 * @slope: least-squares slope, value per second
 * @slope_se: its standard error (from the residuals, n - 2 degrees of
 *	freedom)
 * @sig: the slope passes a two-sided t-test at 1 % (an exact line with a
 *	slope counts too)
 * @span: seconds from the start of the first interval used to the end of
 *	the last
 * @change: @slope * @span, the change over the span; NAN when @n < 3
 * @rel: @change / @mean, the relative change; NAN when @n < 3 or
 *	@mean <= 0
 * @shift_from: mean of the first segment of the best split into two
 *	levels (tr_change_point(), each at least 2 intervals); NAN when
 *	@n < 4
 * @shift_to: mean of the second segment
 * @shift_sig: the two levels differ beyond the noise: pooled two-sample
 *	t-test at 1 %, Bonferroni-corrected for the @n - 3 splits tried (a
 *	drift that comes as a staircase fits a line badly)
 * @steady: 0 when @sig and |@rel| >= the parameters' trend_min, or when
 *	@shift_sig and the shift is at least trend_min of @mean; 1 otherwise
 *	(also when there is too little to tell)
 */
struct tr_trend {
	int n;
	double mean;
	double slope;
	double slope_se;
	int sig;
	double span;
	double change;
	double rel;
	double shift_from;
	double shift_to;
	int shift_sig;
	int steady;
};

/**
 * tr_trend() - fit a line to the values @v (one per interval of @s; NAN
 * values are skipped) of the intervals within [@t0, @t1] (the same
 * intervals a steady state there would use: the run's short tail left
 * out) and decide whether the level drifts by trend_min of its mean.
 * @s: the series (times and lengths of the intervals)
 * @v: the values: @s->y for throughput, @s->share for the share of
 *	never-written reads
 * @t0: start of the window (seconds)
 * @t1: end of the window
 * @p: parameters (trend_min)
 * @out: the fit
 */
void tr_trend(const struct tr_series *s, const double *v, double t0,
	      double t1, const struct tr_params *p, struct tr_trend *out);

/**
 * tr_share_shift() - the best split of the share of never-written reads
 * within [@t0, @t1] into two levels, tested on the reads behind it: the
 * two pooled shares (each interval weighted by its reads) compared by a
 * two-proportion z-test at 1 %, Bonferroni-corrected for the splits tried.
 * @s: the series, with @s->share and @s->reads
 * @t0: start of the window (seconds)
 * @t1: end of the window
 * @from: the pooled share before the split
 * @to: the pooled share after it
 *
 * Return: 1 when the two levels differ beyond the noise of the counts, 0
 * when they do not, -1 when there is no split to test (fewer than 4
 * intervals with reads, or no @s->reads); @from/@to are set unless -1.
 */
int tr_share_shift(const struct tr_series *s, double t0, double t1,
		   double *from, double *to);

/**
 * tr_analyse() - analyse the event at @at.
 * @s: the series
 * @at: the event's time
 * @lo: the previous event's time (0 if none): "before" starts after it
 * @hi: the next event's time (INFINITY if none): "after" ends there
 * @p: parameters
 * @out: filled: at, change_at (NAN unless significant), before/after means
 *	and standard deviations, nbefore/nafter, ratio (0 when before is 0),
 *	before_trend, before_span (tr_trend() of the "before" window),
 *	before_unwritten_from/_to (the same over @s->share, NAN without it),
 *	before_unwritten/after_unwritten (each window's share of
 *	never-written reads, NAN without @s->share), drift (the throughput
 *	drifts by trend_min of its mean, or the share by share_min), steady
 *	(no drift, and neither window's share above unwritten_max),
 *	significant (never when not steady); @out->event is left alone
 * @w: if not NULL, the spans used
 *
 * Return: 0, or -EINVAL when @s is not increasing in time.  Too few samples
 * on a side is not an error: that side has n = 0 or 1 and the transition
 * is not significant.
 */
int tr_analyse(const struct tr_series *s, double at, double lo, double hi,
	       const struct tr_params *p, struct dix_transition *out,
	       struct tr_window *w);

/**
 * tr_change_point() - least-squares split of @y[0..n) into two constant
 * segments, each at least 2 long.
 * @sse_gain: if not NULL, 1 - SSE(split) / SSE(one segment) (0 .. 1)
 * Return: the index of the first element of the second segment, or -1 when
 * n < 4.
 */
long tr_change_point(const double *y, size_t n, double *sse_gain);

/**
 * tr_t_critical() - two-sided 99.9 % critical value of Student's t with
 * @df degrees of freedom (df >= 1; fractional df is rounded down, which
 * errs on the strict side).
 */
double tr_t_critical(double df);

/**
 * tr_t_pvalue() - two-sided p-value of Student's t statistic @t with @df
 * degrees of freedom (any real df > 0), from the regularised incomplete
 * beta function.  Return: 0 .. 1; 1 when @df <= 0.
 */
double tr_t_pvalue(double t, double df);

#endif
