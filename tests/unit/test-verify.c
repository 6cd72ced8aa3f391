// SPDX-License-Identifier: GPL-2.0-or-later
/* test-verify.c - block header encode/verify, damage and misplacement. */
#include "config.h"

#include <stdlib.h>
#include <endian.h>
#include <string.h>

#include "verify/extent.h"
#include "verify/fmt3.h"
#include "verify/hdrcheck.h"
#include "verify/pool.h"
#include "hexfile.h"
#include "lib/stats.h"
#include "tap.h"
#include "verify/pattern.h"
#include "verify/verify.h"
#ifdef HAVE_XXHASH
#include <xxhash.h>	/* the library's own XXH3, not vhash.c's inlined copy */
#include "verify/vhash.h"
#endif

/* is_int with a formatted name */
#define is_intf(got, want, ...) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %lld, want %lld\n", g_, w_);		\
} while (0)

/*
 * Data written in any format, by an older build (DIXLOAD1, DIXLOAD2 with
 * XXH3) or this one (DIXLOAD3), must verify, and be found changed and
 * misplaced, by this build, with or without libxxhash; this build's
 * writer of each format it can write gives the stored bytes.
 */
static void stored_format(const char *file, const char *magic, uint64_t m)
{
	uint8_t blk[1024];
	struct verify_fail f;
	long n = hexfile_read(file, blk, sizeof(blk));

	is_intf(n, 1024, "%s fixture read", magic);
	if (n != 1024)
		return;
	ok(!memcmp(blk, magic, 8), "fixture is in the %s format", magic);
	is_intf(verify_block(blk, 512, 1 << 20, &f), VF_OK, "%s block 0 verifies", magic);
	is_intf(verify_block(blk + 512, 512, (1 << 20) + 512, &f), VF_OK,
		"%s block 1 verifies", magic);
	is_intf(verify_block(blk + 512, 512, 0, &f), VF_MISPLACED,
		"%s block at another place: misplaced", magic);
#ifndef HAVE_XXHASH
	if (m != DIX_HDR_MAGIC2)	/* no XXH3 here: cannot write DIXLOAD2 */
#endif
	{
		/* this build's writes: the same bytes for the same identity */
		uint8_t mine[1024];
		uint64_t seed;
		uint32_t seq;

		verify_header_id(blk, &seed, &seq);
		verify_fill_format(mine, 512, 512, 1 << 20, seed, seq, m);
		verify_header_id(blk + 512, &seed, &seq);
		verify_fill_format(mine + 512, 512, 512, (1 << 20) + 512, seed,
				   seq, m);
		ok(!memcmp(mine, blk, sizeof(mine)),
		   "%s: this build fills the stored blocks byte for byte", magic);
	}
	blk[512 + 300] ^= 0x10;
	is_intf(verify_block(blk + 512, 512, (1 << 20) + 512, &f), VF_CHANGED,
		"%s changed byte detected", magic);
	is_intf(f.byte, 300, "%s changed byte position", magic);
	blk[512 + 300] ^= 0x10;
	blk[512 + 24] ^= 0x02;	/* the sequence number: another pattern */
	is_intf(verify_block(blk + 512, 512, (1 << 20) + 512, &f), VF_CHANGED,
		"%s header sequence damage detected", magic);
	blk[512 + 24] ^= 0x02;
#ifdef HAVE_XXHASH
	is_intf(verify_run(blk, 1024, 512, 1 << 20), m != DIX_HDR_MAGIC1 ? 1024 : 0,
		"%s: the fast path for DIXLOAD2 (this build has XXH3) and DIXLOAD3", magic);
#else
	is_intf(verify_run(blk, 1024, 512, 1 << 20), m == DIX_HDR_MAGIC3 ? 1024 : 0,
		"%s: the fast path for DIXLOAD3 only (no XXH3 here)", magic);
#endif
}

#ifdef HAVE_XXHASH
/* vhash_run() counts intact blocks (of @n, a block count) up to the first bad one. */
static void run_check(const char *name,
		      uint32_t (*run)(const void *, uint32_t, uint32_t, uint64_t))
{
	const uint32_t bs = 512, n = 8, len = bs * n;
	unsigned char *buf = malloc(len);
	uint64_t off = 3ull << 30;

	verify_fill_format(buf, len, bs, off, 77, 5, DIX_HDR_MAGIC2);
	is_intf(run(buf, n, bs, off), n, "%s: intact I/O passes whole", name);
	is_intf(run(buf, n, bs, off + bs), 0, "%s: misplaced I/O stops at block 0", name);
	buf[5 * bs + 511] ^= 1;
	is_intf(run(buf, n, bs, off), 5, "%s: last byte of block 5 changed", name);
	buf[5 * bs + 511] ^= 1;
	buf[2 * bs + 9] ^= 0x80;	/* header: the offset field */
	is_intf(run(buf, n, bs, off), 2, "%s: header offset of block 2", name);
	buf[2 * bs + 9] ^= 0x80;
	buf[6 * bs + 33] ^= 1;		/* the stored checksum */
	is_intf(run(buf, n, bs, off), 6, "%s: checksum of block 6", name);
	buf[6 * bs + 33] ^= 1;
	buf[1 * bs + 20] ^= 1;		/* the seed */
	is_intf(run(buf, n, bs, off), 1, "%s: seed of block 1", name);
	free(buf);
}
#endif

static uint64_t rotl64(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}

static void xxh3_format(void)
{
#ifdef HAVE_XXHASH
	const struct vhash_impl *avx2 = vhash_avx2();
	unsigned char *buf = malloc(4096), buf0[512];
	uint64_t stored, want;

	ok(!verify_fill_format(buf, 4096, 512, 8192, 5, 9, DIX_HDR_MAGIC2) &&
	   !memcmp(buf, "DIXLOAD2", 8), "built with xxhash: can write DIXLOAD2");
	memcpy(&stored, buf + 512 + 32, 8);
	/* the format, spelled out: offset 8704, seed 5, seq 9 | bsize 512 << 32 */
	want = XXH3_64bits(buf + 512 + DIX_HDR_SIZE, 512 - DIX_HDR_SIZE) ^
	       (8704ull * 0x9e3779b97f4a7c15ull) ^ rotl64(5ull * 0xc2b2ae3d27d4eb4full, 21) ^
	       rotl64((9ull | 512ull << 32) * 0x165667b19e3779f9ull, 42);
	ok(le64toh(stored) == want, "DIXLOAD2 checksum is XXH3(body) ^ the header mix");
	is_int(vhash_generic.block(buf + 512, 512) == want, 1, "generic build agrees with libxxhash");
	run_check("generic", vhash_generic.run);
	if (avx2) {
		is_int(avx2->block(buf + 512, 512) == want, 1, "avx2 build agrees with libxxhash");
		run_check("avx2", avx2->run);
	} else {
		skip_cpu_lacks("avx2", "no AVX2 on this CPU: the avx2 build is not checked");
	}
	run_check("dispatched", vhash_run);
	verify_fill_format(buf, 4096, 512, 8192, 5, 9, DIX_HDR_MAGIC2);
	buf[7 * 512 + 100] ^= 4;
	is_int(verify_run(buf, 4096, 512, 8192), 7 * 512,
	       "verify_run: bytes up to the changed block 7");
	free(buf);
#else
	unsigned char buf0[512];

	ok(verify_fill_format(buf0, 512, 512, 0, 1, 1, DIX_HDR_MAGIC2) == -1,
	   "built without xxhash: cannot write DIXLOAD2");
#endif
	verify_fill(buf0, 512, 512, 0, 1, 1);
	ok(!memcmp(buf0, "DIXLOAD3", 8), "every build writes DIXLOAD3");
}

/* xorshift64* as the format defines it, written apart from src/ */
static uint64_t ref_xs(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/*
 * Every build of the pattern's group loop gives the format's bytes: group
 * i is word i of streams 0..3, little-endian, and the states come back
 * advanced by @n words.
 */
static void pattern_builds(void)
{
	static const uint32_t counts[] = { 0, 1, 3, 15, 127 };
	pattern_groups_fn builds[2] = { pattern_groups_generic, pattern_groups_avx2() };
	const char *names[2] = { "generic", "avx2" };
	unsigned char got[127 * 32 + 8], want[127 * 32 + 8];
	unsigned int b, c, i, k;

	for (b = 0; b < 2; b++) {
		if (!builds[b]) {
			skip_cpu_lacks("avx2", "pattern build %s: not on this CPU or compiler", names[b]);
			continue;
		}
		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			uint64_t s[4] = { 0x0123456789abcdefull * (c + 1), 0x9e3779b97f4a7c15ull,
					  0xfffffffffffffff1ull, 1 };
			uint64_t r[4];
			int same;

			memcpy(r, s, sizeof(r));
			for (i = 0; i < counts[c]; i++)
				for (k = 0; k < 4; k++) {
					uint64_t v = htole64(ref_xs(&r[k]));

					memcpy(want + i * 32 + k * 8, &v, 8);
				}
			memset(got, 0x5a, sizeof(got));
			/* at an odd address: the build may not assume alignment */
			builds[b](got + 1, counts[c], s);
			same = !memcmp(got + 1, want, (size_t)counts[c] * 32) &&
			       got[0] == 0x5a && got[counts[c] * 32 + 1] == 0x5a &&
			       !memcmp(s, r, sizeof(r));
			ok(same, "pattern build %s, %u groups: the format's bytes and states",
			   names[b], counts[c]);
		}
	}
}

/*
 * DIXLOAD3 as the format defines it (fmt3.h, pool.h), written apart from
 * src/: SplitMix64 seeded with seed ^ "DIXLOAD3", the page's base, the
 * header mix.
 */
static uint8_t ref_pool_byte(uint64_t seed, uint64_t i)
{
	uint64_t z = (seed ^ 0x3344414f4c584944ull) + (i / 8 + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (uint8_t)(z >> (8 * (i % 8)));
}

static uint64_t ref_base(uint64_t page, uint32_t seq)
{
	uint64_t h = page * 0x9e3779b97f4a7c15ull ^ (uint64_t)seq * 0xc2b2ae3d27d4eb4full;

	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return (h % (1u << 17)) * 8;	/* 8-byte steps over 1 MiB */
}

static void ref_st64(uint8_t *p, uint64_t v)
{
	int k;

	for (k = 0; k < 8; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

static void ref_fill3(uint8_t *buf, uint32_t len, uint32_t bs, uint64_t off,
		      uint64_t seed, uint32_t seq)
{
	uint32_t i, j;

	for (i = 0; i < len; i += bs, off += bs) {
		uint8_t *b = buf + i;
		uint64_t w3 = seq | (uint64_t)bs << 32;

		memcpy(b, "DIXLOAD3", 8);
		ref_st64(b + 8, off);
		ref_st64(b + 16, seed);
		ref_st64(b + 24, w3);
		ref_st64(b + 32, (off * 0x9e3779b97f4a7c15ull) ^
			 rotl64(seed * 0xc2b2ae3d27d4eb4full, 21) ^
			 rotl64(w3 * 0x165667b19e3779f9ull, 42));
		for (j = DIX_HDR_SIZE; j < bs; j++) {
			uint64_t p = off + j;

			b[j] = ref_pool_byte(seed, ref_base(p / 4096, seq) + p % 4096);
		}
	}
}

/* the builds of the fast paths; NULL where one cannot run */
static const struct fmt3_impl *builds3[2];

/* every build's fast path over @n blocks gives @want */
static void runs_give(const uint8_t *buf, uint32_t n, uint32_t bs, uint64_t off,
		      uint32_t want, const char *what)
{
	int b;

	for (b = 0; b < 2; b++)
		if (builds3[b])
			is_intf(builds3[b]->run(buf, n, bs, off), want, "%s (%s)", what,
				builds3[b]->name);
	is_intf(verify_run(buf, n * bs, bs, off), want * bs, "%s (verify_run)", what);
}

static void fmt3_spelled_out(void)
{
	static const struct { uint32_t len, bs; uint64_t off; } io[] = {
		{ 4096, 512, 1 << 20 },		/* a 4 KiB write of 512-byte blocks */
		{ 2048, 512, 1536 },		/* across a page boundary */
		{ 8192, 4096, 12288 },
		{ 8192, 8192, 8192 },		/* one block, two pages of pool */
		{ 16384, 16384, 1ull << 40 },
	};
	uint8_t *got = malloc(16384), *want = malloc(16384);
	unsigned int i, b;

	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		uint64_t seed = 0xfeedull << 40 | i;

		ref_fill3(want, io[i].len, io[i].bs, io[i].off, seed, 3 + i);
		for (b = 0; b < 2; b++) {
			if (!builds3[b])
				continue;
			memset(got, 0x5a, 16384);
			builds3[b]->fill(got, io[i].len, io[i].bs, io[i].off, seed, 3 + i,
					 pool_get(seed));
			ok(!memcmp(got, want, io[i].len) &&
			   (io[i].len == 16384 || got[io[i].len] == 0x5a),
			   "DIXLOAD3 spelled out (%s fill): %u bytes of %u-byte blocks at %llu",
			   builds3[b]->name, io[i].len, io[i].bs, (unsigned long long)io[i].off);
		}
		verify_fill(got, io[i].len, io[i].bs, io[i].off, seed, 3 + i);
		ok(!memcmp(got, want, io[i].len),
		   "DIXLOAD3 spelled out (verify_fill): %u bytes of %u-byte blocks at %llu",
		   io[i].len, io[i].bs, (unsigned long long)io[i].off);
		runs_give(got, io[i].len / io[i].bs, io[i].bs, io[i].off,
			  io[i].len / io[i].bs, "DIXLOAD3: the fast path passes an intact I/O");
	}
	free(got);
	free(want);
}

/*
 * One changed byte at every position of a block (0x5a xored in), block 3
 * of a 4 KiB I/O: in the magic the block reads as header damaged: magic
 * (it read as never written before issue 33), in the rest
 * of the header (offset, seed, sequence and size, check word) as header
 * damaged, in the body as changed at that byte with the right expected
 * and found; every build's fast path stops at block 3.
 */
static void fmt3_every_byte(uint32_t bs, uint32_t n)
{
	const uint64_t off = 5ull << 30;
	uint32_t len = bs * n, k = n > 3 ? 3 : n - 1, p, bad[4] = { 0 }, runs = 0;
	uint8_t *buf = malloc(len), *orig = malloc(len);
	struct verify_fail f;
	int b;

	verify_fill(orig, len, bs, off, 4321, 11);
	for (p = 0; p < bs; p++) {
		uint8_t *blk = buf + k * bs;
		enum verify_kind kind;

		memcpy(buf, orig, len);
		blk[p] ^= 0x5a;
		kind = verify_block(blk, bs, off + k * bs, &f);
		if (p < 8)
			bad[0] += kind != VF_CHANGED || f.byte != -1 ||
				  f.hdr_fields != HDR_F_MAGIC;
		else if (p < 32)
			bad[1] += kind != VF_CHANGED || f.byte != -1;
		else if (p < DIX_HDR_SIZE)
			bad[2] += kind != VF_CHANGED || f.byte != -1 ||
				  f.csum_expected == f.csum_found;
		else
			bad[3] += kind != VF_CHANGED || f.byte != (int)p ||
				  f.expected != orig[k * bs + p] ||
				  f.found != (orig[k * bs + p] ^ 0x5a);
		for (b = 0; b < 2; b++)
			if (builds3[b])
				runs += builds3[b]->run(buf, n, bs, off) != k;
		runs += verify_run(buf, len, bs, off) != k * bs;
	}
	is_intf(bad[0], 0, "DIXLOAD3 %u-byte blocks: a changed magic: header damaged: magic (it read as never written before issue 33)", bs);
	is_intf(bad[1], 0, "DIXLOAD3 %u-byte blocks: a changed offset, seed, sequence or size: header damaged", bs);
	is_intf(bad[2], 0, "DIXLOAD3 %u-byte blocks: a changed check word: header damaged, both words", bs);
	is_intf(bad[3], 0, "DIXLOAD3 %u-byte blocks: every changed body byte named with expected and found", bs);
	is_intf(runs, 0, "DIXLOAD3 %u-byte blocks: the fast path stops at the changed block, every byte", bs);
	free(buf);
	free(orig);
}

/* misplaced, unwritten, a stale sequence, a fixture of this format */
static void fmt3_kinds(void)
{
	const uint32_t bs = 512;
	uint8_t *a = malloc(4096), *b7 = malloc(4096), *b8 = malloc(4096);
	struct verify_fail f;
	struct bad_extent e;
	char msg[256];
	uint64_t seed;
	uint32_t seq, j;

	verify_fill(a, 4096, bs, 1 << 20, 1234, 7);
	is_int(verify_block(a + 2 * bs, bs, 4096, &f), VF_MISPLACED, "DIXLOAD3: misplaced block");
	is_int(f.hdr_offset, (1 << 20) + 2 * bs, "DIXLOAD3: the header names where it belongs");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 8: misplaced, holds data written for LBA 2050",
	       "DIXLOAD3 misplaced: where it is and where its data belongs");
	runs_give(a, 8, bs, (1 << 20) + bs, 0, "DIXLOAD3: a misplaced I/O stops at block 0");
	a[2 * bs + 200] ^= 1;	/* misplaced and changed: named against its own place */
	is_int(verify_block(a + 2 * bs, bs, 4096, &f), VF_CHANGED,
	       "DIXLOAD3: a misplaced block with a changed byte reads as changed");
	is_int(f.byte, 200, "DIXLOAD3: ... at that byte");

	memset(a, 0, bs);
	is_int(verify_block(a, bs, 1 << 20, &f), VF_UNWRITTEN, "DIXLOAD3: zeros are unwritten");
	runs_give(a, 8, bs, 1 << 20, 0, "DIXLOAD3: an unwritten block stops the fast path");

	/*
	 * A block whose header is of write 8 and body of write 7 (as a
	 * writer that stamped only the header would leave): changed at the
	 * first byte where the two bodies differ.
	 */
	verify_fill(b7, 4096, bs, 1 << 20, 1234, 7);
	verify_fill(b8, 4096, bs, 1 << 20, 1234, 8);
	for (j = DIX_HDR_SIZE; j < bs && b7[bs + j] == b8[bs + j]; j++)
		;
	memcpy(b7 + bs, b8 + bs, DIX_HDR_SIZE);
	is_int(verify_block(b7 + bs, bs, (1 << 20) + bs, &f), VF_CHANGED,
	       "DIXLOAD3: header of write 8 over the body of write 7: changed");
	ok(f.byte == (int)j && f.expected == b8[bs + j] && f.found == b7[bs + j],
	   "DIXLOAD3: ... at the first byte the writes differ (%d, want %u)", f.byte, j);
	runs_give(b7, 8, bs, 1 << 20, 1, "DIXLOAD3: the fast path stops at the stale body");
	/* a whole older write is intact: its version is the journal's to judge */
	verify_fill(b7, 4096, bs, 1 << 20, 1234, 7);
	is_int(verify_block(b7 + bs, bs, (1 << 20) + bs, &f), VF_OK,
	       "DIXLOAD3: an intact older write verifies");
	verify_header_id(b7 + bs, &seed, &seq);
	ok(seed == 1234 && seq == 7, "DIXLOAD3: its header names seed and write");
	free(a);
	free(b7);
	free(b8);
}

static uint64_t rnd_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	return ref_xs(&rnd_state);
}

/*
 * The builds of the fast path agree with each other and with
 * verify_block() (the leading blocks it finds intact at their place) on
 * random I/Os, damaged at random.
 */
static void fmt3_builds_agree(void)
{
	static const uint32_t sizes[] = { 512, 1024, 4096, 8192 };
	uint8_t *buf = malloc(8 * 8192), *other = malloc(8192);
	unsigned int it, disagree = 0, damaged = 0;

	for (it = 0; it < 3000; it++) {
		uint32_t bs = sizes[rnd() % 4], n = 1 + rnd() % 8, len = bs * n, want, k;
		uint64_t off = (rnd() % (1u << 20)) * bs, seed = 100 + rnd() % 3;
		uint32_t seq = (uint32_t)rnd();
		struct verify_fail f;
		int b;

		verify_fill(buf, len, bs, off, seed, seq);
		if (builds3[1]) {
			builds3[1]->fill(other, bs, bs, off + (n - 1) * bs, seed, seq,
					 pool_get(seed));
			disagree += !!memcmp(other, buf + (n - 1) * bs, bs);
			builds3[0]->fill(other, bs, bs, off + (n - 1) * bs, seed, seq,
					 pool_get(seed));
			disagree += !!memcmp(other, buf + (n - 1) * bs, bs);
		}
		switch (rnd() % 5) {
		case 0:		/* intact */
			break;
		case 1:		/* one byte anywhere */
			buf[rnd() % len] ^= 1 << (rnd() % 8);
			break;
		case 2:		/* a block of another place */
			k = rnd() % n;
			verify_fill(other, bs, bs, off + (1 + rnd() % 9) * bs, seed, seq);
			memcpy(buf + k * bs, other, bs);
			break;
		case 3:		/* another write's block, header or body */
			k = rnd() % n;
			verify_fill(other, bs, bs, off + k * bs, seed, seq + 1);
			switch (rnd() % 3) {
			case 0:
				memcpy(buf + k * bs, other, bs);
				break;
			case 1:
				memcpy(buf + k * bs, other, DIX_HDR_SIZE);
				break;
			default:
				memcpy(buf + k * bs + DIX_HDR_SIZE, other + DIX_HDR_SIZE,
				       bs - DIX_HDR_SIZE);
				break;
			}
			break;
		default:	/* a few bytes of noise */
			for (k = 0; k < 1 + rnd() % 4; k++)
				buf[rnd() % len] = (uint8_t)rnd();
			break;
		}
		for (want = 0; want < n; want++)
			if (verify_block(buf + want * bs, bs, off + want * bs, &f) != VF_OK)
				break;
		damaged += want < n;
		for (b = 0; b < 2; b++)
			if (builds3[b] && builds3[b]->run(buf, n, bs, off) != want)
				disagree++;
		if (verify_run(buf, len, bs, off) != want * bs)
			disagree++;
	}
	is_intf(disagree, 0, "DIXLOAD3: the builds' fills, their fast paths and verify_block() agree on 3000 random I/Os");
	ok(damaged > 1000 && damaged < 3000, "DIXLOAD3: ... of which %u damaged", damaged);
	free(buf);
	free(other);
}

/*
 * Seeds past the cache: the pool's bytes computed per block are the
 * cached pool's, and blocks of such a seed are written and checked all
 * the same (verify_block(); the fast path leaves them to it).
 */
static void fmt3_uncached(void)
{
	static const uint32_t pos[][2] = { { 0, 8 }, { 3, 5 }, { 1000, 4096 }, { POOL_BYTES - 9, 9 } };
	uint8_t got[4096], *buf = malloc(4096), *want = malloc(4096);
	const unsigned char *pool = pool_get(1234);
	struct verify_fail f;
	unsigned int i, same = 1;
	uint64_t s;

	for (i = 0; i < 4; i++) {
		pool_bytes(got, 1234, pos[i][0], pos[i][1]);
		same &= pool && !memcmp(got, pool + pos[i][0], pos[i][1]);
	}
	ok(same, "pool_bytes() gives the cached pool's bytes");
	for (s = 1; s <= POOL_CACHED + 1 && pool_get(1ull << 50 | s); s++)
		;
	ok(s <= POOL_CACHED + 1, "the pool cache fills (at seed %llu)", (unsigned long long)s);
	ok(!pool_get(1ull << 50 | s) && pool_get(1234) == pool,
	   "past the cache: no pool, the cached ones stay");
	ref_fill3(want, 4096, 512, 1 << 30, 1ull << 50 | s, 2);
	for (i = 0; i < 2; i++) {
		if (!builds3[i])
			continue;
		memset(buf, 0, 4096);
		builds3[i]->fill(buf, 4096, 512, 1 << 30, 1ull << 50 | s, 2, NULL);
		ok(!memcmp(buf, want, 4096), "an uncached seed: the format's bytes (%s fill)",
		   builds3[i]->name);
	}
	verify_fill(buf, 4096, 512, 1 << 30, 1ull << 50 | s, 2);
	ok(!memcmp(buf, want, 4096), "an uncached seed: the format's bytes (verify_fill)");
	is_int(verify_block(buf + 512, 512, (1 << 30) + 512, &f), VF_OK,
	       "an uncached seed: its block verifies");
	buf[512 + 471] ^= 2;
	is_int(verify_block(buf + 512, 512, (1 << 30) + 512, &f), VF_CHANGED,
	       "an uncached seed: a changed byte is found");
	is_int(f.byte, 471, "an uncached seed: ... at its place");
	is_int(verify_run(buf, 4096, 512, 1 << 30), 0,
	       "an uncached seed: the fast path leaves it to verify_block()");
	free(buf);
	free(want);
}

static void fmt3_tests(void)
{
	builds3[0] = &fmt3_generic;
	builds3[1] = fmt3_avx2();
	if (!builds3[1])
		skip_cpu_lacks("avx2", "no AVX2 on this CPU or compiler: the avx2 build is not checked");
	fmt3_spelled_out();
	fmt3_every_byte(512, 8);
	fmt3_every_byte(4096, 2);
	fmt3_every_byte(8192, 1);
	fmt3_kinds();
	fmt3_builds_agree();
}

int main(void)
{
	const uint32_t bs = 512, n = 8;
	unsigned char *buf = malloc(bs * n), *copy = malloc(bs * n);
	struct verify_fail f;
	struct bad_extent e;
	char msg[512], want[512];
	uint32_t i;
	int all = 1;

	verify_fill(buf, bs * n, bs, 1 << 20, 1234, 7);
	for (i = 0; i < n; i++)
		all &= verify_block(buf + i * bs, bs, (1 << 20) + i * bs, &f) == VF_OK;
	ok(all, "freshly filled blocks verify");

	memcpy(copy, buf, bs * n);
	verify_fill(copy, bs * n, bs, 1 << 20, 1234, 8);
	ok(memcmp(copy + DIX_HDR_SIZE, buf + DIX_HDR_SIZE, bs - DIX_HDR_SIZE),
	   "a new write sequence changes the pattern");

	memset(copy, 0, bs);
	is_int(verify_block(copy, bs, 0, &f), VF_UNWRITTEN, "zeros are unwritten");

	/* flip one byte in the pattern */
	memcpy(copy, buf, bs * n);
	copy[3 * bs + 100] ^= 0x40;
	is_int(verify_block(copy + 3 * bs, bs, (1 << 20) + 3 * bs, &f), VF_CHANGED,
	       "flipped byte detected");
	is_int(f.byte, 100, "first differing byte");
	is_int(f.found, buf[3 * bs + 100] ^ 0x40, "found byte");
	is_int(f.expected, buf[3 * bs + 100], "expected byte");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	snprintf(want, sizeof(want),
		 "verify: LBA 2051: content changed at byte 100 of the block, expected 0x%02x, found 0x%02x",
		 buf[3 * bs + 100], buf[3 * bs + 100] ^ 0x40);
	is_str(msg, want, "a changed block as an extent: LBA, byte, expected, found");
	ok(e.count == 1 && e.kind == DIX_ERR_VERIFY && !e.has_src, "one verify block");

	/* damage only the header's sequence field */
	memcpy(copy, buf, bs * n);
	copy[24] ^= 1;
	is_int(verify_block(copy, bs, 1 << 20, &f), VF_CHANGED, "header damage detected");
	/* only the stored checksum damaged: the pattern is intact */
	memcpy(copy, buf, bs * n);
	copy[33] ^= 1;
	is_int(verify_block(copy, bs, 1 << 20, &f), VF_CHANGED, "checksum damage detected");
	is_int(f.byte, -1, "no pattern byte differs");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	ok(!strncmp(msg, "verify: LBA 2048: header damaged: check word (checksum expected 0x", 66) &&
	   strstr(msg, ", found 0x"), "header damage: the check word named, both checksums (%s)", msg);
	extent_free(&e);

	/* a whole intact block at the wrong place */
	is_int(verify_block(buf + 2 * bs, bs, 4096, &f), VF_MISPLACED, "misplaced block");
	is_int(f.hdr_offset, (1 << 20) + 2 * bs, "header names where it belongs");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 8: misplaced, holds data written for LBA 2050",
	       "misplaced: where it is and where its data belongs");
	memset(copy, 0, bs);
	verify_block(copy, bs, 512, &f);
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 1: no dixload header (never written, or the header was destroyed)",
	       "no header");

	/* 4096-byte blocks too */
	free(buf);
	buf = malloc(4096 * 2);
	verify_fill(buf, 8192, 4096, 0, 99, 1);
	is_int(verify_block(buf + 4096, 4096, 4096, &f), VF_OK, "4k block verifies");
	buf[4096 + 4095] ^= 0xff;
	is_int(verify_block(buf + 4096, 4096, 4096, &f), VF_CHANGED, "last byte change");
	is_int(f.byte, 4095, "last byte position");

	/* 4096-byte blocks through the fast path: 2 of 2 intact, then 1 */
	buf[4096 + 4095] ^= 0xff;
#ifdef HAVE_XXHASH
	is_int(verify_run(buf, 8192, 4096, 0), 8192, "4k blocks: fast path");
	buf[4096 + 4095] ^= 0xff;
	is_int(verify_run(buf, 8192, 4096, 0), 4096, "4k blocks: fast path stops at the change");
#endif
	stored_format("verify-dixload1-512.hex", "DIXLOAD1", DIX_HDR_MAGIC1);
	stored_format("verify-dixload2-512.hex", "DIXLOAD2", DIX_HDR_MAGIC2);
	stored_format("verify-dixload3-512.hex", "DIXLOAD3", DIX_HDR_MAGIC3);
	fmt3_tests();
	pattern_builds();
	xxh3_format();
	fmt3_uncached();	/* last: it fills the process's pool cache */

	ok(block_hash("abc", 3, 0) != block_hash("abd", 3, 0), "hash differs");
	ok(block_hash("abc", 3, 0) != block_hash("abc", 3, 1), "hash is seeded");
	free(buf);
	free(copy);
	return tap_done();
}
