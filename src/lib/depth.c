// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * depth.c - the requests actually in flight, measured (see depth.h).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "lib/depth.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void depth_init(struct dix_depth *d)
{
	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->lock, NULL);
	d->t0 = d->t_last = mono_ns();
}

void depth_destroy(struct dix_depth *d)
{
	pthread_mutex_destroy(&d->lock);
}

/* the integral up to @t, at the count that held since the last change */
static void advance(struct dix_depth *d, uint64_t t)
{
	if (t > d->t_last)
		d->area += (long double)d->now * (long double)(t - d->t_last);
	d->t_last = t;
}

void depth_enter(struct dix_depth *d, unsigned int n)
{
	uint64_t t = mono_ns();

	pthread_mutex_lock(&d->lock);
	advance(d, t);
	d->now += n;
	if (d->now > d->max)
		d->max = d->now;
	pthread_mutex_unlock(&d->lock);
}

void depth_leave(struct dix_depth *d, unsigned int n)
{
	uint64_t t = mono_ns();

	pthread_mutex_lock(&d->lock);
	advance(d, t);
	/* a completion the engine never entered is its bug; do not wrap */
	d->now = d->now > n ? d->now - n : 0;
	pthread_mutex_unlock(&d->lock);
}

void depth_report(struct dix_depth *d, uint64_t max, uint64_t area_ns,
		  uint64_t span_ns)
{
	pthread_mutex_lock(&d->lock);
	d->external = 1;
	d->max = max;
	d->area = (long double)area_ns;
	d->now = 0;
	d->span = span_ns;
	pthread_mutex_unlock(&d->lock);
}

int depth_read(struct dix_depth *d, uint64_t *max, double *mean)
{
	uint64_t t = mono_ns(), span;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	if (!d->external)
		advance(d, t);
	span = d->external ? d->span : t - d->t0;
	if (d->max == 0 && d->area == 0) {
		ret = -ENODATA;
		*max = 0;
		*mean = 0;
	} else {
		*max = d->max;
		*mean = span ? (double)(d->area / (long double)span) : 0;
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}
