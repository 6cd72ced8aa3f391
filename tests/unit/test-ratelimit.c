// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-ratelimit.c - --rate/--rate-iops buckets with an injected clock: a
 * greedy submitter that starts every I/O the limiter allows must get the
 * cap in every 1 s interval (not just on average), keep no burst after a
 * stall, and the two directions must not share a bucket.
 */
#include "config.h"

#include <string.h>

#include "lib/ratelimit.h"
#include "tap.h"

#define SEC 1000000000ull

/*
 * Simulate @secs seconds of a submitter that asks for @len-byte I/Os in
 * direction @dir; when told to wait it advances the clock by the wait plus
 * @jitter ns (a late wake-up).  Bytes started per 1 s interval go to @per.
 */
static void greedy(struct rate_limit *l, int dir, uint64_t len, int secs,
		   uint64_t jitter, uint64_t *now, uint64_t *per)
{
	uint64_t end = *now + secs * SEC, t0 = *now, w;

	memset(per, 0, secs * sizeof(*per));
	while (*now < end) {
		w = rate_limit_take(l, dir, len, *now);
		if (w) {
			*now += w + jitter;
			continue;
		}
		if (*now < end)
			per[(*now - t0) / SEC] += len;
	}
}

static int within(uint64_t got, double want, double tol)
{
	return got >= want * (1 - tol) && got <= want * (1 + tol);
}

int main(void)
{
	double bps[2] = { 50e6, 0 }, iops[2] = { 0, 0 };
	struct rate_limit l;
	uint64_t now = 5 * SEC, per[10];
	int i, bad;

	/* 50 MB/s of 64 KiB reads: every interval within one I/O of the cap */
	rate_limit_init(&l, bps, iops, 1, now);
	ok(rate_limit_active(&l, 0) && !rate_limit_active(&l, 1),
	   "only the read direction is capped");
	greedy(&l, 0, 65536, 10, 0, &now, per);
	for (i = 0, bad = 0; i < 10; i++)
		bad += !within(per[i], 50e6, 65536 / 50e6 + 1e-9);
	ok(!bad, "50 MB/s held in each of 10 intervals (first %llu, last %llu)",
	   (unsigned long long)per[0], (unsigned long long)per[9]);

	/* late wake-ups (300 us each) are caught up within the slack */
	greedy(&l, 0, 65536, 10, 300000, &now, per);
	for (i = 0, bad = 0; i < 10; i++)
		bad += !within(per[i], 50e6, 0.01 + 65536 / 50e6);
	ok(!bad, "jittery wake-ups still get the cap (interval 5: %llu)",
	   (unsigned long long)per[5]);

	/* an idle 3 s earns at most the slack, not a 150 MB burst */
	now += 3 * SEC;
	greedy(&l, 0, 65536, 1, 0, &now, per);
	ok(per[0] <= 50e6 * (1 + (double)RATE_SLACK_NS / SEC) + 65536,
	   "after a 3 s stall the next second stays within the slack (%llu)",
	   (unsigned long long)per[0]);

	/* writes are uncapped: always allowed, and they leave reads alone */
	ok(rate_limit_take(&l, 1, 1 << 20, now) == 0 &&
	   rate_limit_take(&l, 1, 1 << 20, now) == 0,
	   "uncapped writes never wait");

	/* IOPS cap split between 4 jobs: one job gets a quarter */
	bps[0] = 0;
	iops[0] = iops[1] = 1000;
	rate_limit_init(&l, bps, iops, 4, now);
	greedy(&l, 1, 4096, 3, 0, &now, per);
	ok(within(per[1], 250 * 4096.0, 0.005),
	   "1000 IOPS over 4 jobs: 250 per job per second (%llu I/Os)",
	   (unsigned long long)(per[1] / 4096));

	/* both buckets: the stricter one governs */
	bps[0] = 1e6;	/* 1 MB/s of 64 KiB = 15.3 IOPS < 1000 */
	rate_limit_init(&l, bps, iops, 1, now);
	greedy(&l, 0, 65536, 3, 0, &now, per);
	ok(within(per[2], 1e6, 65536 / 1e6 + 1e-9),
	   "bytes cap stricter than IOPS cap wins (%llu)",
	   (unsigned long long)per[2]);

	/* a refused request charges nothing */
	rate_limit_init(&l, bps, iops, 1, now);
	ok(rate_limit_take(&l, 0, 1000000, now) == 0, "first 1 MB I/O starts");
	ok(rate_limit_take(&l, 0, 1000, now) > 0, "second waits");
	ok(rate_limit_take(&l, 0, 1000, now + SEC - 1) > 0 &&
	   rate_limit_take(&l, 0, 1000, now + SEC) == 0,
	   "refusals do not push the deadline: allowed exactly 1 s later");
	return tap_done();
}
