// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hdrcheck.c - a damaged dixload block told from one dixload never wrote
 * (hdrcheck.h says why), and the damaged fields named.
 *
 * Words of the header as read: magic m, offset o, seed s, sequence/size
 * w (seq in the low half, block size in the high), check word c; the block
 * sits at byte offset O and has B bytes.  Something in the block is
 * dixload's when any of these holds:
 *
 *   body   the first 16 body bytes are the DIXLOAD3 pool's or the DIXLOAD1
 *          or 2 pattern's for place O (or o), seed s and sequence w; or,
 *          for DIXLOAD3, for a seed or sequence word recovered from the
 *          other words through the check word (vhash_hdr_mix() is a XOR of
 *          one bijection per word, so any one word follows from the rest);
 *          or for the seed and sequence of a neighbouring block of the
 *          same read (one write stamps them all alike);
 *   check  c is vhash_hdr_mix() of (O or o, s, w), or of (O, s, w with the
 *          size B);
 *   place  o == O and the size field is B;
 *   magic  m is within 8 bits of a known magic, and o == O or the size
 *          field is B.
 *
 * Data dixload never wrote, taken as uniformly random, passes a rule with
 * probability: body at most 6 candidates x 2 formats x 2^-128; check
 * 3 x 2^-64; place 2^-96; magic: 3 x 5130659561 (the words within 8 bits
 * of one magic, 2^32.3) / 2^64 = 2^-30.7, times 2^-32 for the size field
 * (or 2^-64 for the offset): 2^-62.7.  Together under 2^-61.5 a block,
 * 2^-30.5 (5e-10) over a whole 1 TiB disk of 512-byte blocks.  Structured
 * data is held off by construction: zeroes, all 0xff and any one byte
 * repeated are far from every magic (24 or more bits) and have no size
 * field B; a header of zero words has a check of zero, so a zero seed and
 * sequence word never vouch; a tool that writes the block's offset into
 * every word (fio's verify_pattern %o) gives o == s == w, which voids the
 * header rules (a dixload header never has that: w holds the block size);
 * fio's own header keeps its offset at byte 16, not 8.  Blocks holding
 * dixload's own data are of course recognised: that is the point.
 *
 * Cost: only blocks that failed the fast path come here, and verify.c
 * sends a fresh disk's blocks (one byte repeated) to none of it.  One of
 * random bytes takes the cheap rules, one body probe per format and, only
 * when a cheap rule hinted, the recovered candidates: about 500
 * instructions (callgrind, 16 MiB of random data read in 4 KiB I/Os of
 * 512-byte blocks: 21249850 -> 37604258 in all), data no dixload wrote.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "verify/blockhdr.h"
#include "verify/fmt3.h"
#include "verify/hdrcheck.h"
#include "verify/pool.h"

#define P1 0x9e3779b97f4a7c15ull
#define P2 0xc2b2ae3d27d4eb4full
#define P3 0x165667b19e3779f9ull
/* their inverses modulo 2^64 (odd numbers have one): test-verify checks */
#define P2_INV 0x0ba79078168d4bafull
#define P3_INV 0xe9e9f4c41d6df849ull

/* the most bits a damaged magic may differ in and still vouch (with
 * another field) */
#define MAGIC_NEAR	8

enum { F_NONE, F_1, F_2, F_3 };

static const uint64_t magics[] = {
	0, DIX_HDR_MAGIC1, DIX_HDR_MAGIC2, DIX_HDR_MAGIC3,
};

static inline uint64_t rotr(uint64_t v, int r)
{
	return (v >> r) | (v << (64 - r));
}

/* the seed that makes vhash_hdr_mix(off, seed, w3) == c */
static uint64_t solve_seed(uint64_t c, uint64_t off, uint64_t w3)
{
	uint64_t t = w3 * P3;

	t = c ^ (off * P1) ^ ((t << 42) | (t >> 22));
	return rotr(t, 21) * P2_INV;
}

/* the sequence/size word that makes vhash_hdr_mix(off, seed, w3) == c */
static uint64_t solve_w3(uint64_t c, uint64_t off, uint64_t seed)
{
	uint64_t t = seed * P2;

	t = c ^ (off * P1) ^ ((t << 21) | (t >> 43));
	return rotr(t, 42) * P3_INV;
}

/* Bits set in @x: inline, where the build's popcount is a libgcc call. */
static inline int pop64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
}

/*
 * The known magic nearest to @m (DIXLOAD3 on a tie) in *@fmt; its
 * distance.  The magics differ in their last byte only.
 */
static int magic_near(uint64_t m, int *fmt)
{
	int head = pop64((m ^ DIX_HDR_MAGIC3) << 8), d, best = 65, f;

	for (f = F_3; f >= F_1; f--) {
		d = head + pop64((m ^ magics[f]) >> 56);
		if (d < best) {
			best = d;
			*fmt = f;
		}
	}
	return best;
}

/* The DIXLOAD3 body of a block at @at with @seed and @seq starts as @blk's. */
static int probe3(const unsigned char *blk, uint32_t bsize, uint64_t at,
		  uint64_t seed, uint32_t seq)
{
	uint64_t pos = at + DIX_HDR_SIZE;
	uint64_t base = fmt3_base(pos >> 12, seq) + (pos & 4095);
	unsigned char want[HDR_PROBE];
	uint32_t n = fmt3_seg(pos, at + bsize);

	/* the usual place (a multiple of 8): two pool words, no copy */
	if (n >= HDR_PROBE && !(base & 7))
		return blk_ld64(blk + DIX_HDR_SIZE) == pool_word(seed, base / 8) &&
		       blk_ld64(blk + DIX_HDR_SIZE + 8) ==
		       pool_word(seed, base / 8 + 1);
	if (n > HDR_PROBE)
		n = HDR_PROBE;
	pool_bytes(want, seed, base, n);
	return !memcmp(blk + DIX_HDR_SIZE, want, n);
}

/* The format whose body for (@at, @seed, @seq) @blk starts with, or F_NONE. */
static int probe(const unsigned char *blk, uint32_t bsize, uint64_t at,
		 uint64_t seed, uint32_t seq, hdr_pattern_fn pat)
{
	unsigned char want[HDR_PROBE];

	if (probe3(blk, bsize, at, seed, seq))
		return F_3;
	/* DIXLOAD1 and 2 share their first word: compare it once */
	pat(seed, at, seq, 0, want);
	if (memcmp(blk + DIX_HDR_SIZE, want, 8))
		return F_NONE;
	if (!memcmp(blk + DIX_HDR_SIZE + 8, want + 8, HDR_PROBE - 8))
		return F_1;
	pat(seed, at, seq, 1, want);
	return memcmp(blk + DIX_HDR_SIZE + 8, want + 8, HDR_PROBE - 8) ?
	       F_NONE : F_2;
}

int hdr_examine(const unsigned char *blk, uint32_t bsize, uint64_t offset,
		hdr_pattern_fn pat, const unsigned char *near,
		struct hdr_view *v)
{
	uint64_t m = blk_ld64(blk), o = blk_ld64(blk + 8);
	uint64_t s = blk_ld64(blk + 16), w = blk_ld64(blk + 24);
	uint64_t c = blk_ld64(blk + 32);
	uint64_t wfix = (w & 0xffffffffull) | ((uint64_t)bsize << 32);
	uint64_t at = offset, S = s, W = w;
	int near_fmt = F_3, fmt, d, rep, size_ok, check_ok, hint;

	memset(v, 0, sizeof(*v));
	d = magic_near(m, &near_fmt);
	/* a word repeated (a tool's offset in every word) vouches for nothing */
	rep = o == s && s == w;
	size_ok = w >> 32 == bsize;
	/* zero seed and sequence words: the check of a zero header is zero */
	check_ok = !rep && (s || w) &&
		   (c == vhash_hdr_mix(offset, s, w) ||
		    c == vhash_hdr_mix(o, s, w) ||
		    c == vhash_hdr_mix(offset, s, wfix));
	fmt = probe(blk, bsize, offset, s, (uint32_t)w, pat);
	hint = d <= MAGIC_NEAR || o == offset || size_ok || check_ok;
	if (fmt == F_NONE && hint && !rep) {
		/* data written for the place its (self-consistent) header names */
		if (o != offset) {
			fmt = probe(blk, bsize, o, s, (uint32_t)w, pat);
			if (fmt != F_NONE)
				at = o;
		}
		/* the seed, or the sequence word, damaged: recovered */
		if (fmt == F_NONE) {
			S = solve_seed(c, offset, w);
			if (probe3(blk, bsize, offset, S, (uint32_t)w))
				fmt = F_3;
			else
				S = s;
		}
		if (fmt == F_NONE) {
			W = solve_w3(c, offset, s);
			if (W >> 32 == bsize &&
			    probe3(blk, bsize, offset, s, (uint32_t)W))
				fmt = F_3;
			else
				W = w;
		}
	}

	/* the identity of the write the neighbour came with */
	if (fmt == F_NONE && near) {
		uint64_t ns = blk_ld64(near + 16), nw = blk_ld64(near + 24);

		fmt = probe(blk, bsize, offset, ns, (uint32_t)nw, pat);
		if (fmt != F_NONE) {
			S = ns;
			W = nw;
		}
	}

	if (fmt != F_NONE) {
		v->identified = 1;
		v->seed = S;
		v->w3 = W;
		v->magic = magics[fmt];
		if (S != s)
			v->fields |= HDR_F_SEED;
		if ((uint32_t)W != (uint32_t)w)
			v->fields |= HDR_F_SEQ;
		/* the older formats' checksums cover the body: verify.c's */
		if (fmt == F_3 &&
		    c != vhash_hdr_mix(at, S, (W & 0xffffffffull) |
				       ((uint64_t)bsize << 32)))
			v->fields |= HDR_F_CHECK;
	} else {
		v->magic = magics[near_fmt];
		/* a self-consistent header naming another place: misplaced */
		if (o != offset && c == vhash_hdr_mix(o, s, w))
			at = o;
		if (c != vhash_hdr_mix(at, s, wfix))
			v->fields |= HDR_F_UNSURE;
	}
	v->written_for = at;
	if (m != v->magic)
		v->fields |= HDR_F_MAGIC;
	if (o != at)
		v->fields |= HDR_F_OFFSET;
	if (!size_ok)
		v->fields |= HDR_F_SIZE;
	return fmt != F_NONE || check_ok || (!rep && o == offset && size_ok) ||
	       (!rep && d <= MAGIC_NEAR && (o == offset || size_ok));
}

const char *hdr_fields_text(unsigned int fields, char *buf, size_t len)
{
	static const char *const names[] = {
		"magic", "offset", "seed", "sequence", "block size",
		"check word", "seed, sequence or check word",
	};
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int k;

		if (!(fields & (1u << i)))
			continue;
		k = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", names[i]);
		if (k < 0 || (size_t)k >= len - n)
			break;
		n += k;
	}
	return buf;
}
