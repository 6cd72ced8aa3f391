// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sweepknee.c - the knee of a sweep series on made-up series: a
 * monotone one, a non-monotone one (a later dip does not move the knee, a
 * peak in the middle is the best), ties of MB/s and of requests in flight,
 * a single point, all points equal, points without a result, none with one.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "core/sweepknee.h"
#include "tap.h"

static struct sweep_knee knee(const double *y, const double *f,
			      int n, int *r)
{
	struct sweep_knee k = { -7, -7 };

	*r = sweep_knee(y, f, n, SWEEP_KNEE_FRAC, &k);
	return k;
}

int main(void)
{
	struct sweep_knee k;
	int r;

	{	/* monotone: 89 % at 8 is short, 95 % at 32 is the knee */
		const double y[] = { 10, 17.8, 19, 20 };
		const double f[] = { 1, 8, 32, 112 };

		k = knee(y, f, 4, &r);
		ok(r == 0 && k.knee == 2 && k.best == 3,
		   "monotone: knee at 32 in flight (95 %%), best at 112: %d %d", k.knee, k.best);
	}
	{	/* exactly 90 % reaches */
		const double y[] = { 9, 10 };
		const double f[] = { 1, 4 };

		k = knee(y, f, 2, &r);
		ok(r == 0 && k.knee == 0 && k.best == 1, "exactly 90 %% of the best is the knee");
	}
	{	/* non-monotone: a peak in the middle, a fall past it */
		const double y[] = { 5, 30, 28, 12 };
		const double f[] = { 1, 8, 32, 112 };

		k = knee(y, f, 4, &r);
		ok(r == 0 && k.knee == 1 && k.best == 1,
		   "non-monotone: the peak is both best and knee: %d %d", k.knee, k.best);
	}
	{	/* non-monotone: reaches, dips, recovers; the knee stays first */
		const double y[] = { 4, 19, 12, 20 };
		const double f[] = { 1, 4, 16, 64 };

		k = knee(y, f, 4, &r);
		ok(r == 0 && k.knee == 1 && k.best == 3,
		   "non-monotone: a dip after the knee does not move it: %d %d", k.knee, k.best);
	}
	{	/* the points in another order than their in-flight counts
		 * (a sweep whose first key is not the depth) */
		const double y[] = { 20, 19.5, 3 };
		const double f[] = { 64, 16, 1 };

		k = knee(y, f, 3, &r);
		ok(r == 0 && k.knee == 1 && k.best == 0,
		   "unordered: the least in flight, not the first point: %d", k.knee);
	}
	{	/* ties of MB/s: the first best; ties of in flight (a sync
		 * series: one per thread whatever --iodepth) */
		const double y[] = { 6, 8, 8, 7.5 };
		const double f[] = { 1, 1, 1, 1 };

		k = knee(y, f, 4, &r);
		ok(r == 0 && k.best == 1 && k.knee == 1,
		   "ties: the first of equal bests, the first of equal in flight reaching 90 %%: %d %d",
		   k.knee, k.best);
	}
	{
		const double y[] = { 3.25 };
		const double f[] = { 4 };

		k = knee(y, f, 1, &r);
		ok(r == 0 && k.knee == 0 && k.best == 0, "a single point is its own knee");
	}
	{	/* all equal: the least in flight does it */
		const double y[] = { 5, 5, 5 };
		const double f[] = { 16, 4, 64 };

		k = knee(y, f, 3, &r);
		ok(r == 0 && k.knee == 1 && k.best == 0,
		   "all equal: the knee is the least in flight (4), the best the first: %d %d",
		   k.knee, k.best);
	}
	{	/* all zero: every point reaches 90 % of 0 */
		const double y[] = { 0, 0 };
		const double f[] = { 8, 2 };

		k = knee(y, f, 2, &r);
		ok(r == 0 && k.knee == 1, "all zero: the least in flight");
	}
	{	/* points without a result are skipped, even with fewer in flight */
		const double y[] = { NAN, 10, NAN, 9.5 };
		const double f[] = { 1, 8, 32, 112 };

		k = knee(y, f, 4, &r);
		ok(r == 0 && k.knee == 1 && k.best == 1,
		   "a point without a result is never the knee: %d", k.knee);
	}
	{
		const double y[] = { NAN, NAN };
		const double f[] = { 1, 2 };

		k = knee(y, f, 2, &r);
		ok(r == -ENOENT && k.knee == -7, "no point with a result: -ENOENT, nothing written");
		k = knee(y, f, 0, &r);
		ok(r == -ENOENT, "no point at all: -ENOENT");
	}
	return tap_done();
}
