// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify.c - block headers, pattern and checks.
 *
 * The checksum is a 4-lane multiply-xor hash rather than a CRC: it only has
 * to detect changes (not model a wire format), and four independent lanes
 * keep it well above device speed without ISA-L.
 */
#include "config.h"

#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "extent.h"
#include "stats.h"
#include "verify.h"

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

static void pattern_fill(unsigned char *p, uint32_t len, uint64_t s)
{
	uint32_t i;

	for (i = 0; i + 8 <= len; i += 8)
		st64(p + i, xs_next(&s));
	if (i < len) {
		uint64_t v = htole64(xs_next(&s));

		memcpy(p + i, &v, len - i);
	}
}

/* Checksum of a block with its checksum field taken as zero. */
static uint64_t block_csum(const unsigned char *b, uint32_t bsize)
{
	uint64_t h = block_hash(b, 32, 0);

	return h ^ block_hash(b + DIX_HDR_SIZE, bsize - DIX_HDR_SIZE, h);
}

void verify_fill(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		 uint64_t seed, uint32_t seq)
{
	unsigned char *b = buf;
	uint32_t i;

	for (i = 0; i + bsize <= len; i += bsize, offset += bsize) {
		unsigned char *blk = b + i;

		st64(blk, DIX_HDR_MAGIC);
		st64(blk + 8, offset);
		st64(blk + 16, seed);
		st64(blk + 24, (uint64_t)seq | ((uint64_t)bsize << 32));
		pattern_fill(blk + DIX_HDR_SIZE, bsize - DIX_HDR_SIZE,
			     pattern_seed(seed, offset, seq));
		st64(blk + 32, block_csum(blk, bsize));
	}
}

void verify_header_id(const void *blk, uint64_t *seed, uint32_t *seq)
{
	const unsigned char *b = blk;

	*seed = ld64(b + 16);
	*seq = (uint32_t)ld64(b + 24);
}

enum verify_kind verify_block(const void *data, uint32_t bsize,
			      uint64_t offset, struct verify_fail *f)
{
	const unsigned char *blk = data;
	uint64_t csum, stored, hdr_off, seed, w3;
	unsigned char tmp[8];
	uint32_t seq, i;
	uint64_t s;

	memset(f, 0, sizeof(*f));
	f->offset = offset;
	f->byte = -1;
	if (ld64(blk) != DIX_HDR_MAGIC)
		return f->kind = VF_UNWRITTEN;

	hdr_off = ld64(blk + 8);
	seed = ld64(blk + 16);
	w3 = ld64(blk + 24);
	seq = (uint32_t)w3;
	stored = ld64(blk + 32);
	csum = block_csum(blk, bsize);
	f->hdr_offset = hdr_off;

	if (csum == stored && (w3 >> 32) == bsize) {
		if (hdr_off != offset)
			return f->kind = VF_MISPLACED;
		return f->kind = VF_OK;
	}

	/* Changed: find the first byte that differs from the pattern. */
	f->kind = VF_CHANGED;
	f->csum_expected = stored;
	f->csum_found = csum;
	s = pattern_seed(seed, offset, seq);
	for (i = DIX_HDR_SIZE; i < bsize; i += 8) {
		uint32_t n = bsize - i < 8 ? bsize - i : 8, k;
		uint64_t v = htole64(xs_next(&s));

		memcpy(tmp, &v, 8);
		for (k = 0; k < n; k++) {
			if (tmp[k] != blk[i + k]) {
				f->byte = i + k;
				f->expected = tmp[k];
				f->found = blk[i + k];
				return VF_CHANGED;
			}
		}
	}
	return VF_CHANGED;
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
		b->cause = cause_intern(CAUSE_HEADER);
		if (asprintf(&b->detail, "checksum expected 0x%016llx, found 0x%016llx",
			     (unsigned long long)f->csum_expected,
			     (unsigned long long)f->csum_found) < 0)
			b->detail = NULL;
		break;
	default:
		b->cause = cause_intern(CAUSE_NO_HEADER);
		break;
	}
}
