// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vhash.c - the DIXLOAD2 checksum (XXH3), the baseline build and the
 * choice of build, made once.
 */
#include "config.h"

#include <stddef.h>

#include "verify/vhash.h"

#define VHASH_SFX generic
#include "verify/vhash-impl.h"

const struct vhash_impl vhash_generic = {
	.name = "generic",
	.block = vhash_block_generic,
	.run = vhash_run_generic,
};

static const struct vhash_impl *impl;

static const struct vhash_impl *vhash_pick(void)
{
	const struct vhash_impl *i = __atomic_load_n(&impl, __ATOMIC_RELAXED);

	if (!i) {
		i = vhash_avx2();
		if (!i)
			i = &vhash_generic;
		/* every thread picks the same one: a benign race */
		__atomic_store_n(&impl, i, __ATOMIC_RELAXED);
	}
	return i;
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
