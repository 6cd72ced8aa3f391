// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify.c - block headers, pattern and checks.
 *
 * Three on-disk formats, told apart by the magic; the header layout is the
 * same.  DIXLOAD1 blocks carry a hand-written 4-lane multiply-xor hash and
 * a one-stream pattern; DIXLOAD2 blocks carry XXH3 (vhash.h) and a
 * four-stream pattern (struct pgen); DIXLOAD3 blocks (fmt3.h), which every
 * build writes, carry a check word of the header and a body copied out of
 * a per-seed random pool (pool.h).  DIXLOAD3 because generating the body
 * and hashing it were most of what a write and a verified read cost: in
 * the 6.1 guest under icount (scripts/bench-vm, instructions per 4 KiB
 * I/O of 512-byte blocks) a DIXLOAD2 write spent about 6000 instructions
 * on pattern and XXH3, a verified read about 2400 on XXH3; with DIXLOAD3
 * the write costs about 1100 over the interface's floor and the check
 * about 1000 (doc/benchmarks.md has the rows), and the compare finds
 * every changed byte where a hash finds most.  The older formats are
 * still read, so data written by an older build verifies across runs; a
 * build without libxxhash checks DIXLOAD2 blocks by regenerating their
 * pattern and comparing every byte instead.
 *
 * A read is checked by verify_run() first, a whole run of blocks at a time
 * (one call, no per-block bookkeeping); only a block that fails that fast
 * path goes through verify_block(), which names the failure: a block
 * without an exact magic goes to hdr_examine() (hdrcheck.c), which tells a
 * damaged dixload block from one dixload never wrote.
 */
#include "config.h"

#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "verify/extent.h"
#include "verify/fmt3.h"
#include "verify/hdrcheck.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "verify/pattern.h"
#include "verify/verify.h"
#include "verify/vhash.h"

#define P1 0x9e3779b97f4a7c15ull
#define P2 0xc2b2ae3d27d4eb4full

static inline uint64_t rotl(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}

static inline uint64_t ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static inline void st64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	return rotl(h ^ (v * P2), 31) * P1;
}

uint64_t block_hash(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t a = seed ^ P1, b = seed ^ P2, c = ~seed, d = seed + P1;
	uint64_t h;
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		a = mix(a, ld64(p + i));
		b = mix(b, ld64(p + i + 8));
		c = mix(c, ld64(p + i + 16));
		d = mix(d, ld64(p + i + 24));
	}
	h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18) + len;
	for (; i < len; i++)
		h = mix(h, p[i]);
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	return h;
}

/* Pattern words: xorshift64* seeded from the block's identity. */
static uint64_t pattern_seed(uint64_t seed, uint64_t offset, uint32_t seq)
{
	uint64_t s = seed ^ (offset * P1) ^ ((uint64_t)seq << 32) ^ P2;

	return s ? s : P1;
}

static inline uint64_t xs_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/*
 * The pattern's words, in order.  DIXLOAD1: one xorshift64* stream.
 * DIXLOAD2: four streams (seeds s, s^P1, s^P2, s^P3) taking turns word by
 * word over whole 32-byte groups, then the first stream for the rest: the
 * four are independent, so filling a 4 KiB write of 512-byte blocks takes
 * 0.52 us instead of 1.03 us, waiting on one stream's shifts (measured
 * here; the checksum then adds 0.20 us, so folding it into the fill could
 * save at most that second pass and was not done).
 */
struct pgen {
	uint64_t s[4];
	uint32_t w, group_words;	/* words given; words in whole groups */
	int multi;
};

static uint64_t nonzero(uint64_t s)
{
	return s ? s : P1;
}

static void pgen_init(struct pgen *g, int multi, uint64_t s, uint32_t len)
{
	g->s[0] = s;
	g->s[1] = nonzero(s ^ P1);
	g->s[2] = nonzero(s ^ P2);
	g->s[3] = nonzero(s ^ 0x165667b19e3779f9ull);
	g->w = 0;
	g->group_words = len / 32 * 4;
	g->multi = multi;
}

static inline uint64_t pgen_next(struct pgen *g)
{
	uint32_t k = g->multi && g->w < g->group_words ? g->w % 4 : 0;

	g->w++;
	return xs_next(&g->s[k]);
}

void pattern_groups_generic(unsigned char *p, uint32_t n, uint64_t s[4])
{
	/*
	 * pgen_next()'s order, four words at a time; the states in locals,
	 * or each step waits on a store and a reload
	 */
	uint64_t a = s[0], b = s[1], c = s[2], d = s[3];
	uint32_t i;

	for (i = 0; i < n; i++, p += 32) {
		st64(p, xs_next(&a));
		st64(p + 8, xs_next(&b));
		st64(p + 16, xs_next(&c));
		st64(p + 24, xs_next(&d));
	}
	s[0] = a;
	s[1] = b;
	s[2] = c;
	s[3] = d;
}

/*
 * The build of the groups' loop for this CPU, chosen once, after its
 * self-test (vselftest.c).
 */
static inline pattern_groups_fn pattern_groups(void)
{
	return pattern_groups_pick();
}

static void pattern_fill(unsigned char *p, uint32_t len, uint64_t s, int multi)
{
	struct pgen g;
	uint32_t i = 0;

	pgen_init(&g, multi, s, len);
	if (multi) {
		pattern_groups()(p, len / 32, g.s);
		i = len / 32 * 32;
		g.w = g.group_words;
	}
	for (; i + 8 <= len; i += 8)
		st64(p + i, pgen_next(&g));
	if (i < len) {
		uint64_t v = htole64(pgen_next(&g));

		memcpy(p + i, &v, len - i);
	}
}

/* DIXLOAD1 checksum of a block with its checksum field taken as zero. */
static uint64_t block_csum(const unsigned char *b, uint32_t bsize)
{
	uint64_t h = block_hash(b, 32, 0);

	return h ^ block_hash(b + DIX_HDR_SIZE, bsize - DIX_HDR_SIZE, h);
}

void verify_fill(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		 uint64_t seed, uint32_t seq)
{
	fmt3_fill_io(buf, len, bsize, offset, seed, seq, pool_get(seed));
}

int verify_fill_format(void *buf, uint32_t len, uint32_t bsize,
		       uint64_t offset, uint64_t seed, uint32_t seq,
		       uint64_t magic)
{
	unsigned char *b = buf;
	uint32_t i;

	if (magic == DIX_HDR_MAGIC3) {
		verify_fill(buf, len, bsize, offset, seed, seq);
		return 0;
	}
#ifndef HAVE_XXHASH
	if (magic == DIX_HDR_MAGIC2)
		return -1;
#endif
	if (magic != DIX_HDR_MAGIC1 && magic != DIX_HDR_MAGIC2)
		return -1;
	for (i = 0; i + bsize <= len; i += bsize, offset += bsize) {
		unsigned char *blk = b + i;

		st64(blk, magic);
		st64(blk + 8, offset);
		st64(blk + 16, seed);
		st64(blk + 24, (uint64_t)seq | ((uint64_t)bsize << 32));
		pattern_fill(blk + DIX_HDR_SIZE, bsize - DIX_HDR_SIZE,
			     pattern_seed(seed, offset, seq),
			     magic == DIX_HDR_MAGIC2);
#ifdef HAVE_XXHASH
		if (magic == DIX_HDR_MAGIC2) {
			st64(blk + 32, vhash_block(blk, bsize));
			continue;
		}
#endif
		st64(blk + 32, block_csum(blk, bsize));
	}
	return 0;
}

void verify_header_id(const void *blk, uint64_t *seed, uint32_t *seq)
{
	const unsigned char *b = blk;

	*seed = ld64(b + 16);
	*seq = (uint32_t)ld64(b + 24);
}

/*
 * The first byte of the pattern of block @blk, as written for @offset with
 * @seed and @seq (@multi: the DIXLOAD2 pattern), that differs, into @f;
 * 0 when the pattern is intact.
 */
static int pattern_diff(const unsigned char *blk, uint32_t bsize, int multi,
			uint64_t seed, uint64_t offset, uint32_t seq,
			struct verify_fail *f)
{
	unsigned char tmp[8];
	struct pgen g;
	uint32_t i, k;

	pgen_init(&g, multi, pattern_seed(seed, offset, seq),
		  bsize - DIX_HDR_SIZE);
	for (i = DIX_HDR_SIZE; i < bsize; i += 8) {
		uint32_t n = bsize - i < 8 ? bsize - i : 8;
		uint64_t v = htole64(pgen_next(&g));

		if (n == 8 && !memcmp(&v, blk + i, 8))
			continue;
		memcpy(tmp, &v, 8);
		for (k = 0; k < n; k++) {
			if (tmp[k] != blk[i + k]) {
				f->byte = i + k;
				f->expected = tmp[k];
				f->found = blk[i + k];
				return 1;
			}
		}
	}
	return 0;
}

/*
 * hdr_pattern_fn for hdrcheck.c: the first HDR_PROBE bytes of the DIXLOAD1
 * (@multi 0) or DIXLOAD2 pattern for (@seed, @offset, @seq); any body of
 * 32 bytes or more starts the same.
 */
static void pattern_probe(uint64_t seed, uint64_t offset, uint32_t seq,
			  int multi, unsigned char *out)
{
	uint64_t s0 = pattern_seed(seed, offset, seq), s1 = nonzero(s0 ^ P1);

	/* pgen_next()'s first two words: stream 0, then stream 0 or 1 */
	st64(out, xs_next(&s0));
	st64(out + 8, multi ? xs_next(&s1) : xs_next(&s0));
}

/*
 * @f, a header found damaged (byte -1), names what hdr_examine() made of
 * it: the fields, the format's magic, where its data belongs.
 */
static void header_fields(const unsigned char *blk, uint32_t bsize,
			  uint64_t offset, const unsigned char *near,
			  struct verify_fail *f)
{
	struct hdr_view v;

	hdr_examine(blk, bsize, offset, pattern_probe, near, &v);
	f->hdr_fields = v.fields;
	f->magic_want = v.magic;
	f->written_for = v.written_for;
}

/*
 * A DIXLOAD3 block (header words already in @f->hdr_offset): a header
 * whose check word or block size is wrong is damaged (byte -1, both check
 * words); else the body is held against the pool for the place the header
 * names, so a block at the wrong place that is itself intact reads as
 * misplaced, and a changed one names its first changed byte.
 */
static enum verify_kind fmt3_block(const unsigned char *blk, uint32_t bsize,
				   uint64_t offset, const unsigned char *near,
				   struct verify_fail *f)
{
	uint64_t seed = ld64(blk + 16), w3 = ld64(blk + 24);
	uint64_t stored = ld64(blk + 32);
	uint64_t check = vhash_hdr_mix(f->hdr_offset, seed, w3);

	if (check == stored && (w3 >> 32) == bsize &&
	    !fmt3_diff(blk, bsize, f->hdr_offset, seed, (uint32_t)w3,
		       &f->byte, &f->expected, &f->found))
		return f->kind = f->hdr_offset != offset ? VF_MISPLACED : VF_OK;
	f->csum_expected = stored;
	f->csum_found = check;
	if (f->byte < 0)
		header_fields(blk, bsize, offset, near, f);
	return f->kind = VF_CHANGED;
}

/*
 * A block without an exact magic: never written when nothing in it is
 * dixload's, else damaged (hdrcheck.c has the rules and what they cost
 * data that is not dixload's), the damaged fields named.
 */
static enum verify_kind damaged_magic(const unsigned char *blk,
				      uint32_t bsize, uint64_t offset,
				      const unsigned char *near,
				      struct verify_fail *f)
{
	struct hdr_view v;

	if (!hdr_examine(blk, bsize, offset, pattern_probe, near, &v))
		return f->kind = VF_UNWRITTEN;
	f->hdr_fields = v.fields;
	f->magic_want = v.magic;
	f->written_for = v.written_for;
	f->csum_expected = ld64(blk + 32);
	f->csum_found = vhash_hdr_mix(v.written_for, v.identified ? v.seed :
				      ld64(blk + 16), v.identified ? v.w3 :
				      ld64(blk + 24));
	return f->kind = VF_CHANGED;
}

/*
 * The header and the first HDR_PROBE body bytes of @blk are one byte
 * repeated (a fresh disk's zeroes, an erased flash's 0xff): nothing in them
 * is dixload's, since hdr_examine() would void every header rule for them
 * and a body probe matches such bytes with probability 2^-128.  Said in a
 * few instructions, first: a 16 MiB zero file read in 4 KiB I/Os of
 * 512-byte blocks cost 564 instructions a block more than the old "no
 * exact magic, never written" through the whole examination, 66 with this
 * test (callgrind, 20582568 -> 22752975 in all).
 */
static int one_byte_repeated(const unsigned char *blk)
{
	uint64_t w = ld64(blk), acc = 0;
	int i;

	if (w != (w & 0xff) * 0x0101010101010101ull)
		return 0;
	for (i = 8; i < DIX_HDR_SIZE + HDR_PROBE; i += 8)
		acc |= ld64(blk + i) ^ w;
	return !acc;
}

/* A header whose magic is exact, to lend its identity (hdrcheck.h). */
static const unsigned char *near_header(const void *nb)
{
	uint64_t m;

	if (!nb)
		return NULL;
	m = ld64(nb);
	return m == DIX_HDR_MAGIC1 || m == DIX_HDR_MAGIC2 ||
	       m == DIX_HDR_MAGIC3 ? nb : NULL;
}

enum verify_kind verify_block(const void *data, uint32_t bsize,
			      uint64_t offset, struct verify_fail *f)
{
	return verify_block_near(data, bsize, offset, NULL, f);
}

enum verify_kind verify_block_near(const void *data, uint32_t bsize,
				   uint64_t offset, const void *nb,
				   struct verify_fail *f)
{
	const unsigned char *blk = data, *near;
	uint64_t magic, csum, stored, hdr_off, seed, w3;
	uint32_t seq;
	int intact;

	magic = ld64(blk);
	/* a fresh disk's blocks first, in a few instructions: the usual
	 * failure of the fast path (VF_UNWRITTEN needs only these fields) */
	if (magic != DIX_HDR_MAGIC1 && magic != DIX_HDR_MAGIC2 &&
	    magic != DIX_HDR_MAGIC3 && one_byte_repeated(blk)) {
		f->offset = offset;
		f->byte = -1;
		f->hdr_fields = 0;
		return f->kind = VF_UNWRITTEN;
	}
	memset(f, 0, sizeof(*f));
	f->offset = offset;
	f->byte = -1;
	near = near_header(nb);
	hdr_off = ld64(blk + 8);
	seed = ld64(blk + 16);
	w3 = ld64(blk + 24);
	seq = (uint32_t)w3;
	stored = ld64(blk + 32);
	f->hdr_offset = hdr_off;
	f->magic = magic;
	f->size_field = (uint32_t)(w3 >> 32);
	if (magic != DIX_HDR_MAGIC1 && magic != DIX_HDR_MAGIC2 &&
	    magic != DIX_HDR_MAGIC3)
		return damaged_magic(blk, bsize, offset, near, f);

	if (magic == DIX_HDR_MAGIC3)
		return fmt3_block(blk, bsize, offset, near, f);
	if (magic == DIX_HDR_MAGIC1) {
		csum = block_csum(blk, bsize);
		intact = csum == stored;
	} else {
#ifdef HAVE_XXHASH
		csum = vhash_block(blk, bsize);
		intact = csum == stored;
#else
		/*
		 * No XXH3 here: the pattern, regenerated from the header,
		 * stands for the checksum (a damaged offset, seed or sequence
		 * regenerates another pattern).  Only damage to the stored
		 * checksum itself goes unseen, and it protects nothing else.
		 */
		struct verify_fail g;

		memset(&g, 0, sizeof(g));
		csum = stored;
		intact = !pattern_diff(blk, bsize, 1, seed, hdr_off, seq, &g);
#endif
	}

	if (intact && (w3 >> 32) == bsize) {
		if (hdr_off != offset)
			return f->kind = VF_MISPLACED;
		return f->kind = VF_OK;
	}

	f->kind = VF_CHANGED;
	f->csum_expected = stored;
	f->csum_found = csum;
	/*
	 * A body of another format (a damaged last byte of the magic) or a
	 * field the body shows damaged: the header is.  Else the first byte
	 * that differs from the pattern; none: the checksum itself.
	 */
	header_fields(blk, bsize, offset, near, f);
	if (f->hdr_fields && !(f->hdr_fields & HDR_F_UNSURE))
		return VF_CHANGED;
	f->hdr_fields = 0;
	if (!pattern_diff(blk, bsize, magic == DIX_HDR_MAGIC2, seed, offset,
			  seq, f))
		f->hdr_fields = HDR_F_CHECK;
	return VF_CHANGED;
}

uint32_t verify_run(const void *buf, uint32_t len, uint32_t bsize,
		    uint64_t offset)
{
	uint64_t magic;

	if (len < bsize)
		return 0;
	/* a run of one format; a mixed read takes one call per change */
	magic = ld64(buf);
	if (magic == DIX_HDR_MAGIC3)
		return fmt3_run(buf, len / bsize, bsize, offset) * bsize;
#ifdef HAVE_XXHASH
	if (magic == DIX_HDR_MAGIC2)
		return vhash_run(buf, len / bsize, bsize, offset) * bsize;
#endif
	return 0;
}

/*
 * A damaged header as an extent: the fields in the cause ("header damaged:
 * magic, offset"; a cause holds no per-block values, and the few
 * combinations of fields are few causes), their values in the detail.
 */
static void header_extent(const struct verify_fail *f, uint32_t lbs,
			  struct bad_extent *b)
{
	char names[96], cause[128], det[400], fmt[9];
	uint64_t want = htole64(f->magic_want);
	int n = 0;

	memcpy(fmt, &want, 8);
	fmt[8] = '\0';

	if (f->hdr_fields) {
		snprintf(cause, sizeof(cause), "%s: %s", CAUSE_HEADER,
			 hdr_fields_text(f->hdr_fields, names, sizeof(names)));
		b->cause = cause_intern(cause);
	} else {
		b->cause = cause_intern(CAUSE_HEADER);
	}
	det[0] = '\0';
	if (f->csum_expected != f->csum_found)
		n = snprintf(det, sizeof(det), "; checksum expected 0x%016llx, found 0x%016llx",
			     (unsigned long long)f->csum_expected,
			     (unsigned long long)f->csum_found);
	if (f->hdr_fields & HDR_F_MAGIC)
		n += snprintf(det + n, sizeof(det) - n,
			      "; magic 0x%016llx, %s is 0x%016llx",
			      (unsigned long long)f->magic, fmt,
			      (unsigned long long)f->magic_want);
	if (f->hdr_fields & HDR_F_OFFSET)
		n += snprintf(det + n, sizeof(det) - n,
			      "; offset field %llu (LBA %llu)",
			      (unsigned long long)f->hdr_offset,
			      (unsigned long long)(f->hdr_offset / lbs));
	if (f->hdr_fields & HDR_F_SIZE)
		n += snprintf(det + n, sizeof(det) - n,
			      "; block size field %u", f->size_field);
	if (f->hdr_fields && f->written_for != f->offset)
		snprintf(det + n, sizeof(det) - n,
			 "; holds data written for LBA %llu",
			 (unsigned long long)(f->written_for / lbs));
	/* each part starts "; ": the first one's is cut */
	b->detail = det[0] ? xstrdup(det + 2) : NULL;
}

void verify_extent(const struct verify_fail *f, uint32_t lbs,
		   struct bad_extent *b)
{
	memset(b, 0, sizeof(*b));
	b->kind = DIX_ERR_VERIFY;
	b->lba = f->offset / lbs;
	b->count = 1;
	b->byte = -1;
	switch (f->kind) {
	case VF_MISPLACED:
		b->cause = cause_intern(CAUSE_MISPLACED);
		b->has_src = 1;
		b->src = f->hdr_offset / lbs;
		break;
	case VF_CHANGED:
		if (f->byte >= 0) {
			b->cause = cause_intern(CAUSE_CHANGED);
			b->byte = f->byte;
			b->expected = f->expected;
			b->found = f->found;
			break;
		}
		header_extent(f, lbs, b);
		break;
	default:
		b->cause = cause_intern(CAUSE_NO_HEADER);
		break;
	}
}
