/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockhdr.h - the on-disk header of a dixload data block: its magics, its
 * size and the header mix (the header's part of the DIXLOAD2 checksum,
 * the whole DIXLOAD3 check word).  A header of its
 * own because both the block checks (verify.c) and the checksum builds
 * (vhash-impl.h) need the format, and neither may include the other:
 * verify.c calls vhash, so vhash including verify.h made the two one
 * circle of modules.
 *
 * Layout (little-endian 64-bit words): magic at 0, the byte offset the
 * block was written to at 8, the run's seed at 16, the write sequence
 * number (low 32 bits) and the block size (high 32) at 24, the checksum at
 * 32; the body (a pattern, a piece of the pool) fills the rest from
 * DIX_HDR_SIZE on.
 */
#ifndef DIX_BLOCKHDR_H
#define DIX_BLOCKHDR_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#define DIX_HDR_MAGIC1	0x3144414f4c584944ull	/* "DIXLOAD1" little-endian */
#define DIX_HDR_MAGIC2	0x3244414f4c584944ull	/* "DIXLOAD2": XXH3 checksum */
#define DIX_HDR_MAGIC3	0x3344414f4c584944ull	/* "DIXLOAD3": pool body */
/* the format every build writes (verify.c says why) */
#define DIX_HDR_MAGIC	DIX_HDR_MAGIC3
#define DIX_HDR_SIZE	40

/* A little-endian 64-bit word of a block (any alignment): the header's words
 * and the checks' loads, one definition for every build of the checks. */
static inline uint64_t blk_ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/*
 * The header's part of the DIXLOAD2 checksum (XXH3-64 of the body xor
 * this), and the DIXLOAD3 check word.  Each word goes through a bijection (a multiply by an odd
 * constant, a rotation) before the XOR, so a change to any one of them
 * always changes the result.  Three multiplies instead of XXH3 over the 32
 * header bytes: that cost 0.036 us per 4 KiB read of 512-byte blocks, a
 * fifth of the whole check.
 */
static inline uint64_t vhash_hdr_mix(uint64_t offset, uint64_t seed, uint64_t w3)
{
	uint64_t a = offset * 0x9e3779b97f4a7c15ull;
	uint64_t b = seed * 0xc2b2ae3d27d4eb4full;
	uint64_t c = w3 * 0x165667b19e3779f9ull;

	return a ^ ((b << 21) | (b >> 43)) ^ ((c << 42) | (c >> 22));
}

#endif
