/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt3-impl.h - the body of fmt3_run(), compiled once per build (fmt3.c:
 * portable, fmt3-avx2.c: AVX2).  Include after fmt3.h (the layout; not
 * included here, which would make the two one circle of modules) and after
 * defining FMT3_SFX, an inline FMT3_EQ(a, b, n) (whether the @n bytes at @a
 * and @b are equal) and FMT3_ATTR (the linkage and target of the function).
 * The loop is the whole fast path of a verified read (job-verify.h calls
 * it once per I/O), so the header tests come first and cost a few
 * instructions, and only a block whose header is right is compared.
 */
#include <endian.h>
#include <string.h>

#include "verify/blockhdr.h"
#include "verify/pool.h"

#define FMT3_CAT2(a, b) a##b
#define FMT3_CAT(a, b) FMT3_CAT2(a, b)
#define FMT3_FN(name) FMT3_CAT(name, FMT3_SFX)

static inline uint64_t FMT3_FN(f3_ld64_)(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

FMT3_ATTR
uint32_t FMT3_FN(fmt3_run_)(const void *buf, uint32_t n, uint32_t bsize,
			    uint64_t offset)
{
	const unsigned char *b = buf, *pool = NULL;
	uint64_t cur = 0;
	uint32_t i;

	for (i = 0; i < n; i++, b += bsize, offset += bsize) {
		uint64_t seed = FMT3_FN(f3_ld64_)(b + 16);
		uint64_t w3 = FMT3_FN(f3_ld64_)(b + 24);
		uint64_t pos = offset + DIX_HDR_SIZE, end = offset + bsize;
		int same = 1;

		if (FMT3_FN(f3_ld64_)(b) != DIX_HDR_MAGIC3 ||
		    FMT3_FN(f3_ld64_)(b + 8) != offset || w3 >> 32 != bsize ||
		    FMT3_FN(f3_ld64_)(b + 32) != vhash_hdr_mix(offset, seed, w3))
			break;
		if (!pool || seed != cur) {
			pool = pool_get(seed);
			if (!pool)
				break;	/* no room: verify_block() computes it */
			cur = seed;
		}
		while (same && pos < end) {
			uint32_t len = fmt3_seg(pos, end);

			same = FMT3_EQ(b + (pos - offset),
				       pool + fmt3_base(pos >> 12, (uint32_t)w3) +
				       (pos & 4095), len);
			pos += len;
		}
		if (!same)
			break;
	}
	return i;
}
