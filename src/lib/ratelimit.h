/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ratelimit.h - --rate / --rate-iops: a token bucket per direction, kept as
 * absolute deadlines ("virtual time") in the worker's submit path.
 *
 * Each bucket holds the time at which its next I/O may start.  Submitting
 * an I/O moves that deadline by the I/O's cost (bytes / rate, or 1 / IOPS).
 * A worker that falls behind (slow device, stall) may catch up by at most
 * RATE_SLACK_NS of credit: a 10 ms allowance lets the cap be met despite
 * scheduling jitter, yet bounds the overshoot of any 1 s meter interval
 * after a stall to 1 %, so the cap holds per interval rather than on
 * average over the run.
 *
 * Pure arithmetic over a caller-supplied clock, so tests inject time.
 */
#ifndef DIX_RATELIMIT_H
#define DIX_RATELIMIT_H

#include <stdint.h>

#include "lib/stats.h"

#define RATE_SLACK_NS	10000000ull

/**
 * struct rate_limit - the buckets of one worker.
 * @ns_per_byte: cost of a byte per direction in ns (0: no byte cap)
 * @ns_per_op: cost of an I/O per direction in ns (0: no IOPS cap)
 * @next_b: deadline of the byte bucket per direction (absolute ns)
 * @next_o: deadline of the I/O bucket per direction (absolute ns)
 */
struct rate_limit {
	double ns_per_byte[DIX_DIR_NR];
	double ns_per_op[DIX_DIR_NR];
	double next_b[DIX_DIR_NR];
	double next_o[DIX_DIR_NR];
};

/**
 * rate_limit_init() - caps of one of @share workers that split the total.
 * @bps: bytes per second per direction for the whole run (0: uncapped)
 * @iops: I/Os per second per direction for the whole run (0: uncapped)
 * @share: number of workers the caps are divided between (>= 1)
 * @now: current time in ns
 */
void rate_limit_init(struct rate_limit *l, const double *bps,
		     const double *iops, unsigned int share, uint64_t now);

/** rate_limit_active() - whether direction @dir is capped at all. */
int rate_limit_active(const struct rate_limit *l, int dir);

/**
 * rate_limit_take() - ask to start an I/O of @len bytes in direction @dir.
 *
 * Return: 0 when it may start now (its cost is then charged), or the ns to
 * wait before asking again (nothing is charged).
 */
uint64_t rate_limit_take(struct rate_limit *l, int dir, uint64_t len,
			 uint64_t now);

#endif
