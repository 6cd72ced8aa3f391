// SPDX-License-Identifier: GPL-2.0-or-later
/* test-verify.c - block header encode/verify, damage and misplacement. */
#include "config.h"

#include <stdlib.h>
#include <endian.h>
#include <string.h>

#include "verify/extent.h"
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
 * Data written in either format, by an older build (DIXLOAD1) or one with
 * XXH3 (DIXLOAD2), must verify, and be found changed and misplaced, by
 * this build, with or without libxxhash.
 */
static void stored_format(const char *file, const char *magic)
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
	if (!memcmp(magic, "DIXLOAD2", 8) && DIX_HDR_MAGIC == DIX_HDR_MAGIC2) {
		/* this build's writes: the same bytes for the same identity */
		uint8_t mine[1024];
		uint64_t seed;
		uint32_t seq;

		verify_header_id(blk, &seed, &seq);
		verify_fill(mine, 512, 512, 1 << 20, seed, seq);
		verify_header_id(blk + 512, &seed, &seq);
		verify_fill(mine + 512, 512, 512, (1 << 20) + 512, seed, seq);
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
	is_intf(verify_run(blk, 1024, 512, 1 << 20),
		!strcmp(magic, "DIXLOAD2") && DIX_HDR_MAGIC == DIX_HDR_MAGIC2 ? 1024 : 0,
		"%s: the fast path only where this build has XXH3", magic);
}

#ifdef HAVE_XXHASH
/* vhash_run() counts intact blocks (of @n, a block count) up to the first bad one. */
static void run_check(const char *name,
		      uint32_t (*run)(const void *, uint32_t, uint32_t, uint64_t))
{
	const uint32_t bs = 512, n = 8, len = bs * n;
	unsigned char *buf = malloc(len);
	uint64_t off = 3ull << 30;

	verify_fill(buf, len, bs, off, 77, 5);
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

#ifdef HAVE_XXHASH
static uint64_t rotl64(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}
#endif

static void xxh3_format(void)
{
#ifdef HAVE_XXHASH
	const struct vhash_impl *avx2 = vhash_avx2();
	unsigned char *buf = malloc(4096);
	uint64_t stored, want;

	verify_fill(buf, 4096, 512, 8192, 5, 9);
	ok(!memcmp(buf, "DIXLOAD2", 8), "built with xxhash: writes DIXLOAD2");
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
		ok(1, "# SKIP no AVX2 on this CPU: the avx2 build is not checked");
	}
	run_check("dispatched", vhash_run);
	verify_fill(buf, 4096, 512, 8192, 5, 9);
	buf[7 * 512 + 100] ^= 4;
	is_int(verify_run(buf, 4096, 512, 8192), 7 * 512,
	       "verify_run: bytes up to the changed block 7");
	free(buf);
#else
	unsigned char buf0[512];

	verify_fill(buf0, 512, 512, 0, 1, 1);
	ok(!memcmp(buf0, "DIXLOAD1", 8), "built without xxhash: writes DIXLOAD1");
#endif
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
			ok(1, "# SKIP pattern build %s: not on this CPU or compiler", names[b]);
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
	ok(!strncmp(msg, "verify: LBA 2048: header damaged (checksum expected 0x", 54) &&
	   strstr(msg, ", found 0x"), "header damage: both checksums (%s)", msg);
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
	stored_format("verify-dixload1-512.hex", "DIXLOAD1");
	stored_format("verify-dixload2-512.hex", "DIXLOAD2");
	pattern_builds();
	xxh3_format();

	ok(block_hash("abc", 3, 0) != block_hash("abd", 3, 0), "hash differs");
	ok(block_hash("abc", 3, 0) != block_hash("abc", 3, 1), "hash is seeded");
	free(buf);
	free(copy);
	return tap_done();
}
