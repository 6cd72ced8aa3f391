// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vselftest.c - the self-tests of the verify builds for an instruction set
 * (fmt3-avx2.c, vhash-avx2.c, pattern-avx2.c), run by their dispatch the
 * first time it is reached, before the build is used (pi/crc-selftest.c
 * does the same for the guards, after the kernel's crypto/testmgr.c).  A
 * build that fails is not used: the portable one is, and the run says so
 * (pi/selftest.h).  Also the pattern's dispatch, which verify.c calls.
 *
 * What each is held to comes from the format's definition, not from the
 * build under test: the DIXLOAD3 fill against the bytes of pool.h's
 * SplitMix64 stream and blockhdr.h's header (computed word by word, not
 * copied), the checks against verdicts known by construction (an intact
 * I/O passes whole; one changed byte stops the run at its block), the
 * pattern against xorshift64* stepped one word at a time, and the XXH3
 * build against the portable build of the same checksum.  Sizes, offsets
 * and start addresses are varied so each loop bound and unaligned load of
 * the AVX2 code is crossed.
 *
 * Cost, once per process (tests/unit/test-selftest's "# selftest" lines,
 * on the machine pi/crc.c names, 2 vCPUs shared with other work): the
 * DIXLOAD3 fill's first call 110-210 us, self-test included, with the
 * pool of the write's seed in hand (the write builds it anyway: 0.6-0.7
 * ms); a first check uses the pool of its first intact block's seed, which
 * it builds anyway too, else a pool of its own (one of the POOL_CACHED
 * places).  The DIXLOAD2 checksum about 40 us, the pattern 1-2 us.
 */
#include "config.h"

#include <endian.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "verify/blockhdr.h"
#include "verify/fmt3.h"
#include "verify/pattern.h"
#include "verify/pool.h"
#include "verify/vhash.h"
#include "pi/selftest.h"

/* the largest I/O a case uses, plus room to start it at an odd address */
#define ST_BUF		(16384u + 64u)

static void st64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/* xorshift64 bytes for bodies and states: any fixed stream will do */
static uint64_t st_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* ---- DIXLOAD3: fill and check ---- */

/* The format's bytes, from the definition (fmt3.h, pool.h, blockhdr.h). */
static void ref_fill3(unsigned char *buf, uint32_t len, uint32_t bsize,
		      uint64_t offset, uint64_t seed, uint32_t seq)
{
	uint64_t w3 = (uint64_t)seq | (uint64_t)bsize << 32, pos, word = 0;
	uint64_t have = ~0ull;	/* the index of @word */
	uint32_t i, j;

	for (i = 0; i < len; i += bsize, offset += bsize) {
		unsigned char *b = buf + i;

		for (j = DIX_HDR_SIZE; j < bsize; j++) {
			uint64_t at;

			pos = offset + j;
			at = fmt3_base(pos >> 12, seq) + (pos & 4095);
			if (at / 8 != have) {
				have = at / 8;
				word = pool_word(seed, have);
			}
			b[j] = (unsigned char)(word >> (8 * (at % 8)));
		}
		st64(b, DIX_HDR_MAGIC3);
		st64(b + 8, offset);
		st64(b + 16, seed);
		st64(b + 24, w3);
		st64(b + 32, vhash_hdr_mix(offset, seed, w3));
	}
}

int fmt3_selftest(const struct fmt3_impl *c, uint64_t seed, char *why,
		  size_t wlen)
{
	/*
	 * The common case (512-byte blocks of one page, which the AVX2 check
	 * takes whole), one across a page boundary, 4 KiB blocks, 1 KiB at
	 * an odd multiple, and sizes that are not a power of two or span two
	 * pages (the any-size loop).
	 */
	static const struct { uint32_t bsize, n; uint64_t offset; } io[] = {
		{ 512, 8, 1u << 20 }, { 512, 6, 3072 }, { 4096, 3, 8192 },
		{ 1024, 5, 5120 }, { 520, 4, 520 * 7 }, { 8192, 2, 8192 },
	};
	/* one byte changed: magic, offset, seed, size, check word, body */
	static const uint16_t at[] = { 0, 9, 17, 29, 35, 40, 41, 300, 511 };
	static unsigned char want[ST_BUF], got[ST_BUF];
	const unsigned char *pool = pool_get(seed);
	size_t i, k;

	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		uint32_t bs = io[i].bsize, n = io[i].n, len = bs * n, seq = 7 + i;
		unsigned char *b = got + 1 + (i % 3) * 16;	/* 1, 17, 33 */
		uint32_t r, blk;

		ref_fill3(want, len, bs, io[i].offset, seed, seq);
		memset(got, 0xa5, sizeof(got));
		c->fill(b, len, bs, io[i].offset, seed, seq, pool);
		if (memcmp(b, want, len) || b[len] != 0xa5 || b[-1] != 0xa5) {
			snprintf(why, wlen, "fill of %u %u-byte blocks at %llu: not the "
				 "format's bytes", n, bs, (unsigned long long)io[i].offset);
			return -1;
		}
		if (!pool)
			continue;	/* the check needs a pool: none to be had */
		r = c->run(b, n, bs, io[i].offset);
		if (r != n) {
			snprintf(why, wlen, "check of %u intact %u-byte blocks at %llu: "
				 "stops at block %u", n, bs,
				 (unsigned long long)io[i].offset, r);
			return -1;
		}
		for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
			if (at[k] >= bs)
				continue;
			blk = (uint32_t)((k + i) % n);
			b[blk * bs + at[k]] ^= 0x10;
			r = c->run(b, n, bs, io[i].offset);
			b[blk * bs + at[k]] ^= 0x10;
			if (r != blk) {
				snprintf(why, wlen, "check of %u %u-byte blocks with byte %u "
					 "of block %u changed: stops at block %u", n, bs,
					 at[k], blk, r);
				return -1;
			}
		}
	}
	return 0;
}

/* ---- the DIXLOAD2 pattern's group loop ---- */

int pattern_groups_selftest(pattern_groups_fn f, char *why, size_t wlen)
{
	static const uint32_t counts[] = { 0, 1, 2, 3, 5, 15, 16, 17, 40 };
	unsigned char got[40 * 32 + 2];
	uint64_t x = 0x6a09e667f3bcc908ull;
	size_t c;

	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		uint64_t s[4], r[4];
		uint32_t i, k;

		for (k = 0; k < 4; k++)
			r[k] = s[k] = st_next(&x);
		memset(got, 0x5a, sizeof(got));
		f(got + 1, counts[c], s);	/* odd address: no alignment assumed */
		for (i = 0; i < counts[c]; i++) {
			for (k = 0; k < 4; k++) {
				unsigned char w[8];

				/* xorshift64*, one word of stream k */
				r[k] ^= r[k] >> 12;
				r[k] ^= r[k] << 25;
				r[k] ^= r[k] >> 27;
				st64(w, r[k] * 0x2545f4914f6cdd1dull);
				if (memcmp(got + 1 + i * 32 + k * 8, w, 8)) {
					snprintf(why, wlen, "%u groups: word %u of stream %u "
						 "is not xorshift64*'s", counts[c], i, k);
					return -1;
				}
			}
		}
		if (got[0] != 0x5a || got[1 + counts[c] * 32] != 0x5a ||
		    memcmp(s, r, sizeof(r))) {
			snprintf(why, wlen, "%u groups: %s", counts[c],
				 memcmp(s, r, sizeof(r)) ? "the states are not returned "
				 "advanced" : "bytes written outside the groups");
			return -1;
		}
	}
	return 0;
}

/*
 * The dispatch of the group loop (verify.c's pattern_groups() asks): the
 * AVX2 build once it passed, else the portable one.
 */
static pattern_groups_fn groups_impl;
static pattern_groups_fn groups_candidate;	/* pattern_groups_test_candidate() */
static const char *groups_candidate_name;
static pthread_mutex_t groups_lock = PTHREAD_MUTEX_INITIALIZER;

pattern_groups_fn pattern_groups_pick(void)
{
	pattern_groups_fn f = __atomic_load_n(&groups_impl, __ATOMIC_ACQUIRE);
	pattern_groups_fn c;
	const char *name;
	char why[192];

	if (f)
		return f;
	pthread_mutex_lock(&groups_lock);
	f = groups_impl;
	if (!f) {
		c = groups_candidate ? groups_candidate : pattern_groups_avx2();
		name = groups_candidate ? groups_candidate_name : "avx2";
		f = pattern_groups_generic;
		if (c && !pattern_groups_selftest(c, why, sizeof(why)))
			f = c;
		else if (c)
			selftest_refuse("DIXLOAD2 pattern", name, "generic", why);
		__atomic_store_n(&groups_impl, f, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&groups_lock);
	return f;
}

void pattern_groups_test_candidate(pattern_groups_fn f, const char *name)
{
	pthread_mutex_lock(&groups_lock);
	groups_candidate = f;
	groups_candidate_name = name;
	__atomic_store_n(&groups_impl, NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&groups_lock);
}

/* ---- DIXLOAD2: XXH3 block checksum and check ---- */

#ifdef HAVE_XXHASH
int vhash_selftest(const struct vhash_impl *c, char *why, size_t wlen)
{
	static const struct { uint32_t bsize, n; } io[] = {
		{ 512, 8 }, { 520, 3 }, { 1024, 4 }, { 4096, 3 }, { 64, 9 },
	};
	static unsigned char buf[ST_BUF];
	uint64_t x = 0xbb67ae8584caa73bull, offset = 1u << 16;
	size_t i, j;

	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		uint32_t bs = io[i].bsize, n = io[i].n, r, k;
		unsigned char *b = buf + 1 + (i % 4) * 8;	/* 1, 9, 17, 25 */

		for (j = 0; j < (size_t)bs * n; j++)
			b[j] = (unsigned char)st_next(&x);
		for (k = 0; k < n; k++) {
			unsigned char *h = b + (size_t)k * bs;
			uint64_t want, got;

			st64(h, DIX_HDR_MAGIC2);
			st64(h + 8, offset + (uint64_t)k * bs);
			st64(h + 16, 42);
			st64(h + 24, (uint64_t)bs << 32 | 5);
			want = vhash_generic.block(h, bs);
			got = c->block(h, bs);
			if (got != want) {
				snprintf(why, wlen, "XXH3 of a %u-byte block at +%zu: 0x%llx, "
					 "want 0x%llx", bs, (size_t)(h - buf) % 64,
					 (unsigned long long)got, (unsigned long long)want);
				return -1;
			}
			st64(h + 32, want);
		}
		r = c->run(b, n, bs, offset);
		if (r != n) {
			snprintf(why, wlen, "check of %u intact %u-byte blocks stops at "
				 "block %u", n, bs, r);
			return -1;
		}
		k = (uint32_t)(i % n);
		b[(size_t)k * bs + bs - 1] ^= 1;	/* the body's last byte */
		r = c->run(b, n, bs, offset);
		if (r != k) {
			snprintf(why, wlen, "check of %u %u-byte blocks with the last "
				 "byte of block %u changed: stops at block %u", n, bs, k, r);
			return -1;
		}
	}
	return 0;
}
#endif
