/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool.h - the random pool of the DIXLOAD3 format: per seed, a fixed
 * stream of bytes from which every block body is cut (fmt3.h says how).
 * Byte i of the pool of seed S is byte i % 8 (little-endian) of
 * pool_word(S, i / 8), a SplitMix64 stream: any word can be computed on
 * its own, so a block of a seed the cache has no room for is still
 * written and checked, only slower.
 */
#ifndef DIX_POOL_H
#define DIX_POOL_H

#include <stdint.h>

/* the window bases: 8-byte steps over the first POOL_SPAN bytes */
#define POOL_SPAN	(1u << 20)
/* a 4 KiB page past any base (fmt3.h: a body never crosses one) */
#define POOL_BYTES	(POOL_SPAN + 4096u)

/**
 * pool_word() - word @i of the pool of @seed (the SplitMix64 stream seeded
 * with @seed ^ "DIXLOAD3", output @i).
 */
static inline uint64_t pool_word(uint64_t seed, uint64_t i)
{
	uint64_t z = (seed ^ 0x3344414f4c584944ull) +
		     (i + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/**
 * pool_get() - the pool of @seed, POOL_BYTES long, built on first use.
 *
 * Pools are shared by every thread: built under a lock, then read-only
 * until the process ends (never freed, so a reader needs no reference).
 * At most POOL_CACHED seeds get one.
 *
 * Return: the pool, or NULL when the cache is full or memory ran out (the
 * caller then computes the bytes with pool_bytes()).
 */
const unsigned char *pool_get(uint64_t seed);

#define POOL_CACHED	16

/**
 * pool_bytes() - @len bytes of the pool of @seed from byte @pos into @dst,
 * computed word by word: the same bytes as pool_get(seed) + @pos, for
 * seeds the cache has no room for.
 */
void pool_bytes(unsigned char *dst, uint64_t seed, uint64_t pos, uint32_t len);

#endif
