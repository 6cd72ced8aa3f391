// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-hdrdamage.c - a damaged header is never "never written" (issue 33):
 * every bit of a written block's header flipped, and every byte set to
 * each of its other 255 values, one at a time, in each format, must read
 * as damaged (never VF_OK, never VF_UNWRITTEN), the field named; random
 * damage of several bytes too; and data dixload never wrote (random
 * bytes, zeroes, all 0xff, another tool's blocks) must still read as
 * never written.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "verify/extent.h"
#include "verify/hdrcheck.h"
#include "verify/verify.h"
#include "tap.h"

#define is_intf(got, want, ...) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %lld, want %lld\n", g_, w_);		\
} while (0)

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* the field byte @p of a header belongs to (blockhdr.h's layout) */
static unsigned int field_of(uint32_t p)
{
	if (p < 8)
		return HDR_F_MAGIC;
	if (p < 16)
		return HDR_F_OFFSET;
	if (p < 24)
		return HDR_F_SEED;
	if (p < 28)
		return HDR_F_SEQ;
	if (p < 32)
		return HDR_F_SIZE;
	return HDR_F_CHECK;
}

static const char *fmt_name(uint64_t m)
{
	return m == DIX_HDR_MAGIC1 ? "DIXLOAD1" : m == DIX_HDR_MAGIC2 ?
	       "DIXLOAD2" : "DIXLOAD3";
}

/*
 * Every bit, then every byte value, of the header of block 1 of a 4-block
 * write at @off: found, and (DIXLOAD3) the one damaged field named.
 */
static void every_header_change(uint64_t magic, uint32_t bs, uint64_t off)
{
	uint32_t len = 4 * bs, p, missed = 0, misnamed = 0, tried = 0;
	uint8_t *orig = malloc(len), *buf = malloc(len);
	uint8_t *blk = buf + bs;
	struct verify_fail f;
	int bit, v;

	if (!ok(!verify_fill_format(orig, len, bs, off, 4242, 17, magic),
		"%s %u-byte blocks written", fmt_name(magic), bs))
		goto out;
	for (p = 0; p < DIX_HDR_SIZE; p++) {
		for (v = -8; v < 256; v++) {
			enum verify_kind k;

			memcpy(buf, orig, len);
			if (v < 0) {		/* the bits, one at a time */
				bit = v + 8;
				blk[p] ^= 1u << bit;
			} else if (v == orig[bs + p]) {
				continue;
			} else {		/* every other value */
				blk[p] = (uint8_t)v;
			}
			tried++;
			k = verify_block(blk, bs, off + bs, &f);
			if (k == VF_OK || k == VF_UNWRITTEN) {
				if (missed++ < 3)
					printf("#   %s %u-byte: byte %u = 0x%02x read as %s\n",
					       fmt_name(magic), bs, p, blk[p],
					       k == VF_OK ? "intact" : "never written");
				continue;
			}
			if (magic == DIX_HDR_MAGIC3 && k == VF_CHANGED &&
			    (f.byte != -1 || f.hdr_fields != field_of(p))) {
				if (misnamed++ < 3)
					printf("#   byte %u = 0x%02x: fields 0x%x, byte %d\n",
					       p, blk[p], f.hdr_fields, f.byte);
			}
		}
	}
	is_intf(missed, 0, "%s %u-byte blocks at %llu: each of %u single-bit and single-byte changes to the header is found",
		fmt_name(magic), bs, (unsigned long long)off, tried);
	if (magic == DIX_HDR_MAGIC3)
		is_intf(misnamed, 0, "%s %u-byte blocks: ... as header damage naming the one field changed",
			fmt_name(magic), bs);
out:
	free(orig);
	free(buf);
}

/*
 * Random damage of @nbytes distinct header bytes: up to 3 always found by
 * the header's own fields; any number found when the block's neighbour in
 * the read lends its identity and the body is intact.
 */
static void random_damage(uint32_t bs, int nbytes, int near, int trials)
{
	const uint64_t off = 7ull << 30;
	uint8_t *orig = malloc(4 * bs), *buf = malloc(4 * bs);
	int t, missed = 0;

	verify_fill(orig, 4 * bs, bs, off, 99, 3);
	for (t = 0; t < trials; t++) {
		uint64_t used = 0;
		struct verify_fail f;
		enum verify_kind k;
		int j = 0;

		memcpy(buf, orig, 4 * bs);
		while (j < nbytes) {
			uint32_t p = rnd() % DIX_HDR_SIZE;
			uint8_t nv = (uint8_t)rnd();

			if (used & (1ull << p) || nv == orig[bs + p])
				continue;
			used |= 1ull << p;
			buf[bs + p] = nv;
			j++;
		}
		k = verify_block_near(buf + bs, bs, off + bs,
				      near ? buf : NULL, &f);
		missed += k == VF_OK || k == VF_UNWRITTEN;
	}
	is_intf(missed, 0, "DIXLOAD3 %u-byte blocks: %d random headers with %d bytes changed, all found%s",
		bs, trials, nbytes, near ? " (the neighbour's identity tried)" : "");
	free(orig);
	free(buf);
}

/* What dixload never wrote stays never written, next to a dixload block too. */
static void never_written(void)
{
	static const uint32_t sizes[] = { 512, 4096 };
	uint8_t blk[4096], near[4096];
	struct verify_fail f;
	int i, s, bad = 0, n = 0;

	verify_fill(near, 4096, 512, 1 << 20, 5, 1);
	for (s = 0; s < 2; s++) {
		uint32_t bs = sizes[s];

		for (i = 0; i < 20000; i++, n++) {
			uint64_t off = (rnd() % (1ull << 30)) * bs;
			uint32_t j;

			for (j = 0; j < bs; j += 8) {
				uint64_t w = rnd();

				memcpy(blk + j, &w, 8);
			}
			if (i % 4 == 0)	/* a place the offset field names */
				memcpy(blk + 8, &off, 8);
			bad += verify_block_near(blk, bs, off, i & 1 ? near : NULL,
						 &f) != VF_UNWRITTEN;
		}
	}
	is_intf(bad, 0, "%d random blocks (a quarter with their own offset at byte 8): never written", n);

	/* zeroes, 0xff and every byte repeated, at offset 0 and elsewhere */
	bad = n = 0;
	for (i = 0; i < 256; i++) {
		static const uint64_t offs[] = { 0, 512, 4096, 1ull << 40 };
		int k;

		memset(blk, i, sizeof(blk));
		for (k = 0; k < 4; k++, n++)
			bad += verify_block_near(blk, 512, offs[k], near, &f) !=
			       VF_UNWRITTEN;
	}
	is_intf(bad, 0, "%d blocks of one byte repeated (zeroes, 0xff ...): never written", n);

	/*
	 * fio's verify_pattern %o: the block's offset in every word.  At
	 * 2 TiB + a little its high half is 512 (the block size of the size
	 * field): the repetition must void it.
	 */
	bad = n = 0;
	for (i = 0; i < 64; i++, n++) {
		uint64_t off = (512ull << 32) + (uint64_t)i * 512;
		uint32_t j;

		for (j = 0; j < 512; j += 8)
			memcpy(blk + j, &off, 8);
		bad += verify_block(blk, 512, off, &f) != VF_UNWRITTEN;
	}
	is_intf(bad, 0, "%d blocks with their offset in every word (fio's %%o) where it looks like a size field: never written", n);

	/* fio's verify header: magic 0xacca, type, length, seed, offset ... */
	memset(blk, 0, sizeof(blk));
	blk[0] = 0xca;
	blk[1] = 0xac;
	blk[2] = 4;
	blk[5] = 0x10;		/* len 4096 */
	{
		uint64_t seed = 0x1234567887654321ull, off = 3ull << 20;

		memcpy(blk + 8, &seed, 8);
		memcpy(blk + 16, &off, 8);
		is_int(verify_block(blk, 4096, off, &f), VF_UNWRITTEN,
		       "a fio verify header: never written");
	}
	/* text that names the format, at a block's start */
	memset(blk, ' ', sizeof(blk));
	memcpy(blk, "dixload3 writes blocks of 512 bytes", 35);
	is_int(verify_block(blk, 512, 0, &f), VF_UNWRITTEN,
	       "text starting \"dixload3 ...\": never written");
}

/* Whole-block and whole-header damage, and the lines the user reads. */
static void named(void)
{
	uint8_t buf[4096], orig[4096];
	struct verify_fail f;
	struct bad_extent e;
	char msg[512];

	verify_fill(orig, 4096, 512, 5000 * 512ull - 512, 42, 1);
	memcpy(buf, orig, sizeof(buf));
	buf[512] ^= 0x01;	/* the case: byte 0 of LBA 5000 */
	is_int(verify_block(buf + 512, 512, 5000 * 512ull, &f), VF_CHANGED,
	       "one bit of byte 0 of the magic: damaged");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 5000: header damaged: magic (magic 0x3344414f4c584945, DIXLOAD3 is 0x3344414f4c584944)",
	       "... named: the block, the field, what was read and what it should be");
	extent_free(&e);
	buf[512] ^= 0x01;
	buf[512 + 3] ^= 0x01;	/* and byte 3 */
	is_int(verify_block(buf + 512, 512, 5000 * 512ull, &f), VF_CHANGED,
	       "one bit of byte 3 of the magic: damaged");
	is_int(f.hdr_fields, HDR_F_MAGIC, "... the magic named");

	/* the magic damaged, the block at another place: where it belongs */
	is_int(verify_block(buf + 512, 512, 1 << 20, &f), VF_CHANGED,
	       "a damaged magic at another place: damaged");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	ok(strstr(msg, "header damaged: magic (") &&
	   strstr(msg, "holds data written for LBA 5000)"),
	   "... and where its data belongs (%s)", msg);
	extent_free(&e);

	/* the magic and the seed: the seed found again through the check word */
	memcpy(buf, orig, sizeof(buf));
	buf[512] = 'X';
	buf[512 + 17] ^= 0xff;
	is_int(verify_block(buf + 512, 512, 5000 * 512ull, &f), VF_CHANGED,
	       "magic and seed damaged: damaged");
	is_int(f.hdr_fields, HDR_F_MAGIC | HDR_F_SEED, "... both named");

	/* the header zeroed, the body intact */
	memcpy(buf, orig, sizeof(buf));
	memset(buf + 512, 0, DIX_HDR_SIZE);
	is_int(verify_block(buf + 512, 512, 5000 * 512ull, &f), VF_UNWRITTEN,
	       "a header zeroed whole, no neighbour: nothing of the header is left (the run's knowledge or --journal must say)");
	is_int(verify_block_near(buf + 512, 512, 5000 * 512ull, buf, &f),
	       VF_CHANGED, "... with its neighbour in the read: its body is the write's, damaged");
	ok(f.hdr_fields == (HDR_F_MAGIC | HDR_F_OFFSET | HDR_F_SEED | HDR_F_SEQ |
			    HDR_F_SIZE | HDR_F_CHECK),
	   "... every field named (0x%x)", f.hdr_fields);
	/* a block zeroed whole is never written to the block alone */
	memset(buf + 512, 0, 512);
	is_int(verify_block_near(buf + 512, 512, 5000 * 512ull, buf, &f),
	       VF_UNWRITTEN, "a block zeroed whole: no trace of dixload in it (an error only where the run knows it wrote: tests/sh/header-damage.sh)");
}

int main(void)
{
	static const uint64_t magics[] = {
		DIX_HDR_MAGIC1, DIX_HDR_MAGIC2, DIX_HDR_MAGIC3,
	};
	int m, k;

	for (m = 0; m < 3; m++) {
#ifndef HAVE_XXHASH
		/* no XXH3 in this build: it reads DIXLOAD2, cannot write it */
		if (magics[m] == DIX_HDR_MAGIC2)
			continue;
#endif
		every_header_change(magics[m], 512, 5ull << 30);
		every_header_change(magics[m], 4096, 5ull << 30);
	}
	every_header_change(DIX_HDR_MAGIC3, 512, 0);
	every_header_change(DIX_HDR_MAGIC3, 4096, 0);
	every_header_change(DIX_HDR_MAGIC3, 8192, 1ull << 40);
	for (k = 2; k <= 3; k++) {
		random_damage(512, k, 0, 20000);
		random_damage(4096, k, 0, 20000);
	}
	for (k = 4; k <= DIX_HDR_SIZE; k += 6)
		random_damage(512, k, 1, 5000);
	random_damage(512, DIX_HDR_SIZE, 1, 5000);
	never_written();
	named();
	return tap_done();
}
