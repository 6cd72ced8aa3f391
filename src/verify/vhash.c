// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vhash.c - the DIXLOAD2 checksum (XXH3), the baseline build and the
 * choice of build, made once, after the AVX2 build passed its self-test.
 */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "verify/vhash.h"
#include "pi/selftest.h"

#define VHASH_SFX generic
#include "verify/vhash-impl.h"

const struct vhash_impl vhash_generic = {
	.name = "generic",
	.block = vhash_block_generic,
	.run = vhash_run_generic,
};

/*
 * The choice of build, made once, after the AVX2 build passed its
 * self-test (vselftest.c): under a lock, so the workers that reach the
 * first check together wait for one verdict.
 */
static const struct vhash_impl *impl;
static const struct vhash_impl *candidate;	/* vhash_test_candidate() */
static pthread_mutex_t pick_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct vhash_impl *vhash_pick_slow(void)
{
	const struct vhash_impl *i, *c;
	char why[192];

	pthread_mutex_lock(&pick_lock);
	i = impl;
	if (!i) {
		c = candidate ? candidate : vhash_avx2();
		i = &vhash_generic;
		if (c && !vhash_selftest(c, why, sizeof(why)))
			i = c;
		else if (c)
			selftest_refuse("DIXLOAD2 checksum", c->name, i->name, why);
		__atomic_store_n(&impl, i, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&pick_lock);
	return i;
}

static inline const struct vhash_impl *vhash_pick(void)
{
	const struct vhash_impl *i = __atomic_load_n(&impl, __ATOMIC_ACQUIRE);

	return i ? i : vhash_pick_slow();
}

void vhash_test_candidate(const struct vhash_impl *c)
{
	pthread_mutex_lock(&pick_lock);
	candidate = c;
	__atomic_store_n(&impl, NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pick_lock);
}

uint64_t vhash_block(const void *blk, uint32_t bsize)
{
	return vhash_pick()->block(blk, bsize);
}

uint32_t vhash_run(const void *buf, uint32_t n, uint32_t bsize,
		   uint64_t offset)
{
	return vhash_pick()->run(buf, n, bsize, offset);
}
