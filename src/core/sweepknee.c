// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweepknee.c - the knee of a sweep series (see sweepknee.h).
 *
 * Why "the least in flight within 90 % of the best" and not the point of
 * the best rate: past its knee a series' rates differ by the noise of a
 * run, so the best point alone names a depth at random among those that
 * all do the job; what the 2023 thread asked is how few requests in flight
 * an engine needs before more stop paying.  A pure
 * function over the series' figures, so the unit test feeds it made-up
 * series (tests/unit/test-sweepknee.c).
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "core/sweepknee.h"

int sweep_knee(const double *mbps, const double *inflight, int n,
	       double frac, struct sweep_knee *out)
{
	int i, best = -1, knee = -1;

	for (i = 0; i < n; i++)
		if (!isnan(mbps[i]) && (best < 0 || mbps[i] > mbps[best]))
			best = i;
	if (best < 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (isnan(mbps[i]) || mbps[i] < frac * mbps[best])
			continue;
		if (knee < 0 || inflight[i] < inflight[knee])
			knee = i;
	}
	out->best = best;
	out->knee = knee;
	return 0;
}
