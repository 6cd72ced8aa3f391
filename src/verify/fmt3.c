// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt3.c - the DIXLOAD3 format (fmt3.h): the fill of a block, the search
 * for its first changed byte, the portable build of the read check's fast
 * path and the choice of build, made once.  A write is now the header and
 * one copy out of the pool per block, where DIXLOAD2 ran a generator and
 * XXH3 over every body; a read compares the body with the pool, which
 * finds every changed byte, where DIXLOAD2 hashed it (verify.c has the
 * figures).
 */
#include "config.h"

#include <endian.h>
#include <string.h>

#include "verify/fmt3.h"

static inline int eq_generic(const unsigned char *a, const unsigned char *b,
			     uint32_t n)
{
	return !memcmp(a, b, n);
}

#define FMT3_SFX generic
#define FMT3_EQ eq_generic
#define FMT3_ATTR
#include "verify/fmt3-impl.h"

static inline void st64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

void fmt3_fill(unsigned char *blk, uint32_t bsize, uint64_t offset,
	       uint64_t seed, uint32_t seq, const unsigned char *pool)
{
	uint64_t w3 = (uint64_t)seq | ((uint64_t)bsize << 32);
	uint64_t pos = offset + DIX_HDR_SIZE, end = offset + bsize;

	st64(blk, DIX_HDR_MAGIC3);
	st64(blk + 8, offset);
	st64(blk + 16, seed);
	st64(blk + 24, w3);
	st64(blk + 32, vhash_hdr_mix(offset, seed, w3));
	while (pos < end) {
		uint32_t len = fmt3_seg(pos, end);
		uint64_t at = fmt3_base(pos >> 12, seq) + (pos & 4095);

		if (pool)
			memcpy(blk + (pos - offset), pool + at, len);
		else
			pool_bytes(blk + (pos - offset), seed, at, len);
		pos += len;
	}
}

int fmt3_diff(const unsigned char *blk, uint32_t bsize, uint64_t offset,
	      uint64_t seed, uint32_t seq, int *byte, uint8_t *expected,
	      uint8_t *found)
{
	const unsigned char *pool = pool_get(seed);
	uint64_t pos = offset + DIX_HDR_SIZE, end = offset + bsize;
	unsigned char tmp[4096];

	while (pos < end) {
		uint32_t len = fmt3_seg(pos, end), k;
		uint64_t at = fmt3_base(pos >> 12, seq) + (pos & 4095);
		const unsigned char *want = pool ? pool + at : tmp;
		const unsigned char *got = blk + (pos - offset);

		if (!pool)
			pool_bytes(tmp, seed, at, len);
		if (memcmp(got, want, len)) {
			for (k = 0; got[k] == want[k]; k++)
				;
			*byte = (int)(pos - offset + k);
			*expected = want[k];
			*found = got[k];
			return 1;
		}
		pos += len;
	}
	return 0;
}

static fmt3_run_fn run_impl;

uint32_t fmt3_run(const void *buf, uint32_t n, uint32_t bsize,
		  uint64_t offset)
{
	fmt3_run_fn f = __atomic_load_n(&run_impl, __ATOMIC_RELAXED);

	if (!f) {
		f = fmt3_run_avx2();
		if (!f)
			f = fmt3_run_generic;
		/* every thread picks the same one: a benign race */
		__atomic_store_n(&run_impl, f, __ATOMIC_RELAXED);
	}
	return f(buf, n, bsize, offset);
}
