// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ratelimit.c - token buckets on absolute deadlines (see ratelimit.h).
 *
 * Deadlines are doubles in ns: a 4 KiB I/O at 10 GB/s costs 409.6 ns, and
 * rounding each charge to whole ns would bias the cap by 0.1 %.
 */
#include "config.h"

#include <string.h>

#include "lib/ratelimit.h"

void rate_limit_init(struct rate_limit *l, const double *bps,
		     const double *iops, unsigned int share, uint64_t now)
{
	int d;

	memset(l, 0, sizeof(*l));
	if (!share)
		share = 1;
	for (d = 0; d < DIX_DIR_NR; d++) {
		if (bps[d] > 0)
			l->ns_per_byte[d] = 1e9 * share / bps[d];
		if (iops[d] > 0)
			l->ns_per_op[d] = 1e9 * share / iops[d];
		l->next_b[d] = l->next_o[d] = (double)now;
	}
}

int rate_limit_active(const struct rate_limit *l, int dir)
{
	return l->ns_per_byte[dir] > 0 || l->ns_per_op[dir] > 0;
}

/* Credit older than the slack is forfeited: no bursts after a stall. */
static double clamp_old(double next, double now)
{
	double floor = now - (double)RATE_SLACK_NS;

	return next < floor ? floor : next;
}

uint64_t rate_limit_take(struct rate_limit *l, int dir, uint64_t len,
			 uint64_t now)
{
	double t = (double)now, wait = 0;

	if (!rate_limit_active(l, dir))
		return 0;
	if (l->ns_per_byte[dir] > 0) {
		l->next_b[dir] = clamp_old(l->next_b[dir], t);
		if (l->next_b[dir] > t)
			wait = l->next_b[dir] - t;
	}
	if (l->ns_per_op[dir] > 0) {
		l->next_o[dir] = clamp_old(l->next_o[dir], t);
		if (l->next_o[dir] > t && l->next_o[dir] - t > wait)
			wait = l->next_o[dir] - t;
	}
	if (wait > 0)
		return wait < 1 ? 1 : (uint64_t)wait;
	l->next_b[dir] += len * l->ns_per_byte[dir];
	l->next_o[dir] += l->ns_per_op[dir];
	return 0;
}
