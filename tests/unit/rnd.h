/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rnd.h - reproducible pseudo-random test data (xorshift64).
 *
 * Every run sees the same bytes, so a failure can be replayed, and each
 * test keeps its own state instead of sharing libc's rand().  The data is
 * only ever checked against an oracle, never against stored values.
 */
#ifndef DIX_TEST_RND_H
#define DIX_TEST_RND_H

#include <stddef.h>
#include <stdint.h>

/** rnd_next() - advance the non-zero state @s; return the new value. */
static inline uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/** rnd_fill() - @n bytes of @s's sequence (bits 32..39 of each value). */
static inline void rnd_fill(uint64_t *s, void *p, size_t n)
{
	uint8_t *b = p;

	while (n--)
		*b++ = (uint8_t)(rnd_next(s) >> 32);
}

#endif
