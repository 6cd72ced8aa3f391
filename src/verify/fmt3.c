// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt3.c - the DIXLOAD3 format (fmt3.h): the portable build of the fill
 * and of the read check's fast path, the choice of build (made once), and
 * the search for a block's first changed byte.  A write is now a copy out
 * of the pool and the headers, where DIXLOAD2 ran a generator and XXH3
 * over every body; a read compares the body with the pool, which finds
 * every changed byte, where DIXLOAD2 hashed it (verify.c has the figures).
 */
#include "config.h"

#include <endian.h>
#include <pthread.h>
#include <string.h>

#include "verify/fmt3.h"
#include "pi/selftest.h"

static inline int eq_generic(const unsigned char *a, const unsigned char *b,
			     uint32_t n)
{
	return !memcmp(a, b, n);
}

#define FMT3_SFX generic
#define FMT3_EQ eq_generic
#define FMT3_COPY memcpy
#define FMT3_ATTR static
#include "verify/fmt3-impl.h"

const struct fmt3_impl fmt3_generic = {
	.name = "generic",
	.run = fmt3_run_generic,
	.fill = fmt3_fill_io_generic,
};

/*
 * The choice of build, made once, after the AVX2 build passed its
 * self-test (vselftest.c) on this machine: under a lock, so the workers
 * that reach the first I/O together wait for one test and one verdict.
 */
static const struct fmt3_impl *impl;
static const struct fmt3_impl *candidate;	/* fmt3_test_candidate() */
static pthread_mutex_t pick_lock = PTHREAD_MUTEX_INITIALIZER;

/* the seed whose pool the self-test uses when the I/O offers none */
#define SELFTEST_SEED	0x5453455446534c46ull

static const struct fmt3_impl *fmt3_pick_slow(uint64_t seed)
{
	const struct fmt3_impl *i, *c;
	char why[192];

	pthread_mutex_lock(&pick_lock);
	i = impl;
	if (!i) {
		c = candidate ? candidate : fmt3_avx2();
		i = &fmt3_generic;
		if (c && !fmt3_selftest(c, seed, why, sizeof(why)))
			i = c;
		else if (c)
			selftest_refuse("DIXLOAD3 check and fill", c->name, i->name, why);
		__atomic_store_n(&impl, i, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&pick_lock);
	return i;
}

static inline const struct fmt3_impl *fmt3_pick(uint64_t seed)
{
	const struct fmt3_impl *i = __atomic_load_n(&impl, __ATOMIC_ACQUIRE);

	return i ? i : fmt3_pick_slow(seed);
}

void fmt3_test_candidate(const struct fmt3_impl *c)
{
	pthread_mutex_lock(&pick_lock);
	candidate = c;
	__atomic_store_n(&impl, NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pick_lock);
}

uint32_t fmt3_run(const void *buf, uint32_t n, uint32_t bsize,
		  uint64_t offset)
{
	const unsigned char *b = buf;
	uint64_t seed = SELFTEST_SEED;

	/*
	 * the self-test takes the pool of the first block's seed when the
	 * block is intact enough that the check builds that pool anyway
	 */
	if (!__atomic_load_n(&impl, __ATOMIC_ACQUIRE) && n &&
	    blk_ld64(b) == DIX_HDR_MAGIC3 && blk_ld64(b + 24) >> 32 == bsize &&
	    blk_ld64(b + 32) == vhash_hdr_mix(offset, blk_ld64(b + 16), blk_ld64(b + 24)))
		seed = blk_ld64(b + 16);
	return fmt3_pick(seed)->run(buf, n, bsize, offset);
}

void fmt3_fill_io(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		  uint64_t seed, uint32_t seq, const unsigned char *pool)
{
	fmt3_pick(seed)->fill(buf, len, bsize, offset, seed, seq, pool);
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
