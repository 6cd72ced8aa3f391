/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt3.h - the DIXLOAD3 block format: the header of blockhdr.h with a
 * check word of the header alone in the checksum field, and a body cut
 * from the random pool of the block's seed (pool.h).  Written by every
 * build; verify.c says why and what it costs.
 *
 * Body: the byte at disk position P (the block's offset + 40 up to its
 * end) is pool byte fmt3_base(P / 4096, seq) + P % 4096.  Each 4 KiB page
 * of a write is so one run of the pool, the headers cut into it, and two
 * blocks of one write never share pool bytes: a page compresses no better
 * than random data (the pool is SplitMix64 output), and no two pages are
 * alike (their headers differ: offset and sequence), so an SSD that
 * compresses or deduplicates stores every byte of every write.  A new
 * write to a page (a new sequence number) takes another base, so what a
 * block holds changes with every write.
 *
 * Check: the check word must match the header's offset, seed and
 * sequence/size words (vhash_hdr_mix()), or the header is damaged; then
 * the body is compared with the pool, byte for byte: every changed byte
 * is found, and the first one is the one reported.
 */
#ifndef DIX_FMT3_H
#define DIX_FMT3_H

#include <stddef.h>
#include <stdint.h>

#include "verify/blockhdr.h"
#include "verify/pool.h"

/**
 * fmt3_base() - where in the pool the 4 KiB page @page of the disk (byte
 * offset / 4096) starts for the write with sequence number @seq: a
 * multiple of 8 below POOL_SPAN.
 */
static inline uint64_t fmt3_base(uint64_t page, uint32_t seq)
{
	uint64_t h = page * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)seq * 0xc2b2ae3d27d4eb4full;

	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return (h & (POOL_SPAN / 8 - 1)) * 8;
}

/**
 * fmt3_seg() - bytes of the body from disk position @pos (below @end, the
 * block's end) up to the end of its 4 KiB page or the block, whichever
 * comes first: one piece of the pool.
 */
static inline uint32_t fmt3_seg(uint64_t pos, uint64_t end)
{
	uint64_t page_end = (pos | 4095) + 1;

	return (uint32_t)((page_end < end ? page_end : end) - pos);
}

/**
 * fmt3_fill_io() - fill @len bytes at @buf (whole blocks of @bsize bytes)
 * with DIXLOAD3 blocks for byte @offset, seed @seed, sequence @seq; @pool
 * is pool_get(@seed), or NULL (the bytes are then computed).  The build
 * for this CPU.
 */
void fmt3_fill_io(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		  uint64_t seed, uint32_t seq, const unsigned char *pool);

/**
 * fmt3_diff() - the first byte of the body of @blk (@bsize bytes) that
 * differs from the DIXLOAD3 body for @offset, @seed and @seq.
 *
 * Return: 0 when the body is intact; 1 with the byte's position in the
 * block in @byte, the body's byte in @expected and the one read in @found.
 */
int fmt3_diff(const unsigned char *blk, uint32_t bsize, uint64_t offset,
	      uint64_t seed, uint32_t seq, int *byte, uint8_t *expected,
	      uint8_t *found);

/**
 * fmt3_run() - the fast path of a read check: how many of the @n blocks
 * of @bsize bytes at @buf, read from byte @offset, are intact DIXLOAD3
 * blocks written for exactly that place (magic, offset, block size, check
 * word and every body byte right), from the first up to the first that is
 * not (or whose seed has no cached pool).  The build for this CPU, once
 * it passed its self-test (fmt3_selftest()); a build that fails is not
 * used and a warning says so.
 */
uint32_t fmt3_run(const void *buf, uint32_t n, uint32_t bsize,
		  uint64_t offset);

/**
 * struct fmt3_impl - one build of the fast paths, for the test that holds
 * the builds to each other: portable (memcmp() and memcpy(), which libc
 * tunes for the CPU itself) and AVX2.
 * @name: "generic" or "avx2"
 * @run: fmt3_run() of this build
 * @fill: fmt3_fill_io() of this build
 */
struct fmt3_impl {
	const char *name;
	uint32_t (*run)(const void *buf, uint32_t n, uint32_t bsize,
			uint64_t offset);
	void (*fill)(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		     uint64_t seed, uint32_t seq, const unsigned char *pool);
};
extern const struct fmt3_impl fmt3_generic;
/** fmt3_avx2() - the AVX2 build, or NULL where it cannot run. */
const struct fmt3_impl *fmt3_avx2(void);

/**
 * fmt3_selftest() - hold build @c to the format (vselftest.c): its fill
 * against the bytes fmt3.h and pool.h define, its check against intact
 * I/Os and I/Os with one byte changed, over six block sizes and layouts.
 * @seed: the seed whose pool it uses (pool_get(); with the cache full the
 *	check goes untested, the fill is still held to the format)
 * @why: receives what was wrong
 * Return: 0 when it passes, -1 when it fails.
 */
int fmt3_selftest(const struct fmt3_impl *c, uint64_t seed, char *why,
		  size_t wlen);

/**
 * fmt3_test_candidate() - tests only: make the dispatch try @c instead of
 * the AVX2 build (NULL: the AVX2 build again) and choose anew on the next
 * fmt3_run()/fmt3_fill_io().  Not synchronised with running I/O.
 */
void fmt3_test_candidate(const struct fmt3_impl *c);

#endif
