/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepknee.h - the answer of a sweep series to "how many requests in
 * flight?": the least requests in flight that reach a fraction (90 %) of
 * the series' best MB/s.
 */
#ifndef DIX_SWEEPKNEE_H
#define DIX_SWEEPKNEE_H

/* The share of a series' best MB/s its knee must reach. */
#define SWEEP_KNEE_FRAC	0.9

/**
 * struct sweep_knee - where a series stops gaining.
 * @knee: index of the point with the least requests in flight whose MB/s
 *	is at least @frac of the best (the first in sweep order among points
 *	with as few in flight)
 * @best: index of the point with the best MB/s (the first among equals)
 */
struct sweep_knee {
	int knee;
	int best;
};

/**
 * sweep_knee() - the knee of one series (pure: no I/O, no state).
 * @mbps: each point's MB/s, NAN for a point without a result (skipped)
 * @inflight: each point's requests in flight
 * @n: points in the series, in sweep order
 * @frac: the share of the best to reach (SWEEP_KNEE_FRAC)
 * @out: the knee and the best, indices into @mbps
 *
 * Non-monotone series are taken as measured: a point past the knee that
 * falls below @frac of the best does not move the knee.
 *
 * Return: 0, or -ENOENT when no point has a result (@out untouched).
 */
int sweep_knee(const double *mbps, const double *inflight, int n,
	       double frac, struct sweep_knee *out);

#endif
