/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt3-impl.h - the bodies of fmt3_run() and fmt3_fill_io(), compiled once
 * per build (fmt3.c: portable, fmt3-avx2.c: AVX2).  Include after fmt3.h
 * (the layout; not included here, which would make the two one circle of
 * modules) and after defining FMT3_SFX, an inline FMT3_EQ(a, b, n) (whether the @n bytes at @a
 * and @b are equal), FMT3_COPY(dst, src, n) and FMT3_ATTR (the linkage
 * and target of the functions); FMT3_WHOLE(b, n, bsize, offset, pool,
 * seed, w3, k), if defined, checks a whole I/O of one write at once (@k:
 * vhash_hdr_mix(0, seed, w3), which the caller has).  The check's loop is the whole fast path
 * of a verified read (job-verify.h calls it once per I/O), so the header
 * tests come first and cost a few instructions, and only a block whose
 * header is right is compared.
 */
#include <endian.h>
#include <string.h>

#include "verify/blockhdr.h"
#include "verify/pool.h"

#define FMT3_CAT2(a, b) a##b
#define FMT3_CAT(a, b) FMT3_CAT2(a, b)
#define FMT3_FN(name) FMT3_CAT(name, FMT3_SFX)

static inline void FMT3_FN(f3_st64_)(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/*
 * The header of block @b, read from @offset with block size @bsize, is an
 * intact DIXLOAD3 header written for that place; its seed and sequence
 * word in @seed and @w3.
 */
static inline int FMT3_FN(f3_hdr_ok_)(const unsigned char *b, uint64_t offset,
				      uint32_t bsize, uint64_t *seed,
				      uint64_t *w3)
{
	*seed = blk_ld64(b + 16);
	*w3 = blk_ld64(b + 24);
	return blk_ld64(b) == DIX_HDR_MAGIC3 &&
	       blk_ld64(b + 8) == offset && *w3 >> 32 == bsize &&
	       blk_ld64(b + 32) == vhash_hdr_mix(offset, *seed, *w3);
}

/*
 * Blocks of any size at any place: a body is compared a page's piece at a
 * time (a block of 8 KiB spans two stretches of the pool).
 */
static uint32_t FMT3_FN(f3_run_any_)(const unsigned char *b, uint32_t n,
				     uint32_t bsize, uint64_t offset)
{
	const unsigned char *pool = NULL;
	uint64_t cur = 0;
	uint32_t i;

	for (i = 0; i < n; i++, b += bsize, offset += bsize) {
		uint64_t seed, w3, pos = offset + DIX_HDR_SIZE;
		uint64_t end = offset + bsize;

		if (!FMT3_FN(f3_hdr_ok_)(b, offset, bsize, &seed, &w3))
			break;
		if (!pool || seed != cur) {
			pool = pool_get(seed);
			if (!pool)
				break;	/* no room: verify_block() computes it */
			cur = seed;
		}
		do {
			uint32_t len = fmt3_seg(pos, end);

			if (!FMT3_EQ(b + (pos - offset),
				     pool + fmt3_base(pos >> 12, (uint32_t)w3) +
				     (pos & 4095), len))
				return i;
			pos += len;
		} while (pos < end);
	}
	return i;
}

FMT3_ATTR
uint32_t FMT3_FN(fmt3_run_)(const void *buf, uint32_t n, uint32_t bsize,
			    uint64_t offset)
{
	const unsigned char *b = buf, *pool = NULL, *at = NULL;
	uint64_t cur = 0, cur_w3 = 0, k = 0, page = 0;
	uint32_t i, body = bsize - DIX_HDR_SIZE;

	/*
	 * The common case on its own: blocks of up to 4 KiB (a power of
	 * two) at their own alignment, so a body is one piece of the pool,
	 * the blocks of one page and write share the page's base, and the
	 * blocks of one write share their seed and sequence word: the check
	 * word is then (offset * P1) ^ vhash_hdr_mix(0, seed, w3), one
	 * multiply a block (blockhdr.h's mix is a xor of one term per word).
	 */
	if (bsize > 4096 || (bsize & (bsize - 1)) || (offset & (bsize - 1)))
		return FMT3_FN(f3_run_any_)(b, n, bsize, offset);
	for (i = 0; i < n; i++, b += bsize, offset += bsize) {
		uint64_t seed = blk_ld64(b + 16);
		uint64_t w3 = blk_ld64(b + 24);
		const unsigned char *want;

		if (!pool || seed != cur || w3 != cur_w3) {
			/*
			 * the whole header first: a damaged seed must not
			 * cost a pool (and a place in the cache)
			 */
			if (w3 >> 32 != bsize ||
			    blk_ld64(b + 32) != vhash_hdr_mix(offset, seed, w3))
				break;
			if (!pool || seed != cur) {
				pool = pool_get(seed);
				if (!pool)
					break;	/* verify_block() computes it */
			}
			cur = seed;
			cur_w3 = w3;
			k = vhash_hdr_mix(0, seed, w3);
			at = NULL;
#ifdef FMT3_WHOLE
			/* the usual read, one intact write: all at once */
			if (!i && FMT3_WHOLE(b, n, bsize, offset, pool, seed, w3, k))
				return n;
#endif
		}
		if (blk_ld64(b) != DIX_HDR_MAGIC3 ||
		    blk_ld64(b + 8) != offset ||
		    blk_ld64(b + 32) != ((offset * 0x9e3779b97f4a7c15ull) ^ k))
			break;
		if (!at || offset >> 12 != page) {
			page = offset >> 12;
			at = pool + fmt3_base(page, (uint32_t)w3);
		}
		want = at + (offset & 4095) + DIX_HDR_SIZE;
		/* 512-byte blocks spelled out: a constant length unrolls */
		if (body == 512 - DIX_HDR_SIZE ?
		    !FMT3_EQ(b + DIX_HDR_SIZE, want, 512 - DIX_HDR_SIZE) :
		    !FMT3_EQ(b + DIX_HDR_SIZE, want, body))
			break;
	}
	return i;
}

/*
 * fmt3_fill_io_*() - fmt3_fill_io(): every page's stretch of the pool in
 * one copy, then the headers over it (a header's 40 bytes are copied for
 * nothing, which costs less than a copy per block).
 */
FMT3_ATTR
void FMT3_FN(fmt3_fill_io_)(void *buf, uint32_t len, uint32_t bsize,
			    uint64_t offset, uint64_t seed, uint32_t seq,
			    const unsigned char *pool)
{
	unsigned char *b = buf;
	uint64_t pos = offset, end = offset + len / bsize * bsize;
	uint64_t w3 = (uint64_t)seq | ((uint64_t)bsize << 32);

	while (pos < end) {
		uint32_t seg = fmt3_seg(pos, end);
		uint64_t at = fmt3_base(pos >> 12, seq) + (pos & 4095);

		if (pool)
			FMT3_COPY(b + (pos - offset), pool + at, seg);
		else
			pool_bytes(b + (pos - offset), seed, at, seg);
		pos += seg;
	}
	for (pos = offset; pos < end; pos += bsize, b += bsize) {
		FMT3_FN(f3_st64_)(b, DIX_HDR_MAGIC3);
		FMT3_FN(f3_st64_)(b + 8, pos);
		FMT3_FN(f3_st64_)(b + 16, seed);
		FMT3_FN(f3_st64_)(b + 24, w3);
		FMT3_FN(f3_st64_)(b + 32, vhash_hdr_mix(pos, seed, w3));
	}
}
