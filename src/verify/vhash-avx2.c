// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vhash-avx2.c - the DIXLOAD2 checksum built for AVX2 (vhash-impl.h), used
 * when the CPU has it: twice the speed of the SSE2 build on 512-byte
 * blocks.  GCC's target pragma also defines __AVX2__ for the rest of the
 * file, which is what makes xxhash.h choose its AVX2 code.
 */
#include "config.h"

#include <stddef.h>

#include "verify/vhash.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2")
#define XXH_VECTOR XXH_AVX2
#define VHASH_SFX avx2
#include "verify/vhash-impl.h"

static const struct vhash_impl impl = {
	.name = "avx2",
	.block = vhash_block_avx2,
	.run = vhash_run_avx2,
};

const struct vhash_impl *vhash_avx2(void)
{
	return __builtin_cpu_supports("avx2") ? &impl : NULL;
}
#else
const struct vhash_impl *vhash_avx2(void)
{
	return NULL;
}
#endif
