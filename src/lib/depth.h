/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * depth.h - the requests actually in flight, measured, for a whole run.
 *
 * A configured depth is a wish: an AF_ALG "async" submission that the
 * kernel completes inside io_submit() keeps one request in flight whatever
 * --iodepth says (Debian 12's 6.1.0-57).  So the engines that can be fooled
 * this way count what is in flight when it changes, and the run reports the
 * maximum and the time-weighted mean of that count (JSON inflight_max,
 * inflight_mean), never the product of its options.
 *
 * One meter per run, shared by its workers (struct dix_eng_ctx.depth): the
 * count is the run's, so its maximum is a maximum of the sum, not a sum of
 * the workers' maxima.  A mutex, not atomics: the integral needs the count
 * and the time of its last change to move together, and the engines that
 * use it submit at most a few hundred thousand requests a second.
 */
#ifndef DIX_DEPTH_H
#define DIX_DEPTH_H

#include <pthread.h>
#include <stdint.h>

/**
 * struct dix_depth - requests in flight over time.
 * @now: requests in flight now
 * @max: the most in flight at once since depth_init()
 * @t0: when counting started (ns, CLOCK_MONOTONIC)
 * @t_last: the time of the last change of @now
 * @area: the integral of @now over time, in request-nanoseconds
 * @external: the figures came from depth_report() (the kernel counted)
 * @span: with @external, the time @area spans (ns)
 */
struct dix_depth {
	pthread_mutex_t lock;
	uint64_t now;
	uint64_t max;
	uint64_t t0;
	uint64_t t_last;
	long double area;
	int external;
	uint64_t span;
};

void depth_init(struct dix_depth *d);
void depth_destroy(struct dix_depth *d);

/** depth_enter() - @n requests went into flight (submitted) now. */
void depth_enter(struct dix_depth *d, unsigned int n);

/** depth_leave() - @n requests left flight (completed) now. */
void depth_leave(struct dix_depth *d, unsigned int n);

/**
 * depth_report() - an engine whose requests are counted elsewhere (the
 * dixkload module counts them in the kernel) gives its figures: the
 * maximum, the integral in request-nanoseconds and the time it spans (ns),
 * all since its load started.  Replaces what was counted; later calls
 * replace earlier ones.
 */
void depth_report(struct dix_depth *d, uint64_t max, uint64_t area_ns,
		  uint64_t span_ns);

/**
 * depth_read() - the maximum and the mean in flight from depth_init() to
 * now (time-weighted).  Return: 0, or -ENODATA when nothing was counted
 * (no engine of the run measures its depth).
 */
int depth_read(struct dix_depth *d, uint64_t *max, double *mean);

#endif
