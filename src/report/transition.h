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

#include "run.h"

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
 *
 * Besides these, the difference must pass a two-sided Welch t-test at the
 * 0.1 % level (tr_t_critical()).
 */
struct tr_params {
	double warmup;
	double settle;
	double window;
	double min_rel;
	double k_sd;
};

/** tr_params_default() - warm-up 2 s, settle 2 s, window 8 s, 5 %, 2 sd. */
void tr_params_default(struct tr_params *p);

/**
 * struct tr_series - per-interval throughput.
 * @t: end of each interval (seconds since the start), increasing
 * @dt: length of each interval
 * @y: throughput of each interval (bytes/s)
 * @n: number of intervals
 */
struct tr_series {
	const double *t;
	const double *dt;
	const double *y;
	size_t n;
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
 * tr_analyse() - analyse the event at @at.
 * @s: the series
 * @at: the event's time
 * @lo: the previous event's time (0 if none): "before" starts after it
 * @hi: the next event's time (INFINITY if none): "after" ends there
 * @p: parameters
 * @out: filled: at, change_at (NAN unless significant), before/after means
 *	and standard deviations, nbefore/nafter, ratio (0 when before is 0),
 *	significant; @out->event is left alone
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

#endif
