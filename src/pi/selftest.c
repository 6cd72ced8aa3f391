// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest.c - the record of refused builds (selftest.h).  A fixed array:
 * there are a dozen dispatched builds in all, and a refusal is a rare
 * event that must not allocate on a worker's first I/O.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>

#include "pi/selftest.h"
#include "lib/util.h"

#define MAX_REFUSALS	16

static struct selftest_refusal refusals[MAX_REFUSALS];
static size_t nr_refusals;
static pthread_mutex_t refusal_lock = PTHREAD_MUTEX_INITIALIZER;

void selftest_refuse(const char *path, const char *impl, const char *fallback,
		     const char *why)
{
	pthread_mutex_lock(&refusal_lock);
	if (nr_refusals < MAX_REFUSALS) {
		struct selftest_refusal *r = &refusals[nr_refusals];

		r->path = path;
		r->impl = impl;
		r->fallback = fallback;
		snprintf(r->why, sizeof(r->why), "%s", why);
		/* readers take the count with acquire: the record is whole */
		__atomic_store_n(&nr_refusals, nr_refusals + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&refusal_lock);
	dix_warn("self-test: the %s build '%s' is wrong on this machine (%s); "
		 "it is not used, '%s' is", path, impl, why, fallback);
}

size_t selftest_refusals(const struct selftest_refusal **out)
{
	*out = refusals;
	return __atomic_load_n(&nr_refusals, __ATOMIC_ACQUIRE);
}

void selftest_forget(void)
{
	nr_refusals = 0;
}
