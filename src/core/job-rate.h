/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-rate.h - the depth loop's wait for --rate / --rate-iops: whether the
 * pending I/O may go, and the sleep when nothing else can be done.
 *
 * The bucket arithmetic is lib/ratelimit.h's; this is the worker's side of
 * it, inline because a capped load asks once per I/O.
 */
#ifndef DIX_JOB_RATE_H
#define DIX_JOB_RATE_H

#include <stdint.h>
#include <time.h>

#include "lib/ratelimit.h"
#include "lib/util.h"

/* The longest sleep towards a deadline, so a stop is seen soon. */
#define RATE_SLEEP_MAX_NS	100000000ull

/**
 * rate_wait() - whether the pending I/O (@dir, @len bytes) must wait for
 * its bucket in @rl.  With I/Os in flight (@inflight) the worker goes on
 * reaping them (their latency stays honest: nothing sleeps while a
 * completion waits); with none it sleeps towards the deadline, at most
 * RATE_SLEEP_MAX_NS at a time.
 * Return: 0 when the I/O may start now (its cost is charged), 1 when it
 * must be asked for again.
 */
static inline int rate_wait(struct rate_limit *rl, unsigned int inflight,
			    int dir, uint64_t len)
{
	uint64_t wait = rate_limit_take(rl, dir, len, dix_now_ns());
	struct timespec ts;

	if (!wait)
		return 0;
	if (inflight)
		return 1;
	if (wait > RATE_SLEEP_MAX_NS)
		wait = RATE_SLEEP_MAX_NS;
	ts.tv_sec = wait / 1000000000;
	ts.tv_nsec = wait % 1000000000;
	nanosleep(&ts, NULL);
	return 1;
}

#endif
