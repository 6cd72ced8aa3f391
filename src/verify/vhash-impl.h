/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vhash-impl.h - the body of vhash.c and vhash-avx2.c, compiled once per
 * instruction set: libxxhash picks its vector code from the compiler's
 * target macros, so XXH3 is inlined (XXH_INLINE_ALL) into each file rather
 * than called in the shared library, which Debian builds for SSE2 only
 * (472-byte bodies: 0.39 us per 4 KiB with SSE2, 0.16-0.19 us with AVX2 on
 * the benchmark machine).  Include after defining VHASH_SFX (and vhash.h,
 * for the struct vhash_impl the file fills).  It takes the header format
 * from blockhdr.h, not verify.h: verify.c calls the checksum, so the
 * checksum must not depend on the checks.
 */
#include <endian.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "verify/blockhdr.h"

#define VHASH_CAT2(a, b) a##b
#define VHASH_CAT(a, b) VHASH_CAT2(a, b)
#define VHASH_FN(name) VHASH_CAT(name, VHASH_SFX)

static uint64_t VHASH_FN(vhash_block_)(const void *blk, uint32_t bsize)
{
	const unsigned char *b = blk;

	return XXH3_64bits(b + DIX_HDR_SIZE, bsize - DIX_HDR_SIZE) ^
	       vhash_hdr_mix(blk_ld64(b + 8), blk_ld64(b + 16),
			     blk_ld64(b + 24));
}

static uint32_t VHASH_FN(vhash_run_)(const void *buf, uint32_t n,
				     uint32_t bsize, uint64_t offset)
{
	const unsigned char *b = buf;
	uint32_t i;

	for (i = 0; i < n; i++, b += bsize, offset += bsize) {
		if (blk_ld64(b) != DIX_HDR_MAGIC2 ||
		    blk_ld64(b + 8) != offset ||
		    blk_ld64(b + 24) >> 32 != bsize ||
		    blk_ld64(b + 32) != VHASH_FN(vhash_block_)(b, bsize))
			break;
	}
	return i;
}
