/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-offsets.h - where a worker's next I/O goes: the direction, and the
 * offset within its slice (sequential, or a full-period LCG permutation per
 * pass, so a random pass touches every block exactly once without a map).
 *
 * Pure arithmetic over the state passed in, inline because the depth loop
 * asks it once per I/O: a call per I/O would be the cost of the
 * generator itself.
 */
#ifndef DIX_JOB_OFFSETS_H
#define DIX_JOB_OFFSETS_H

#include <stdint.h>
#include <string.h>

#include "conf/options.h"
#include "lib/stats.h"

/* Offsets: sequential, or a full-period LCG permutation per pass. */
struct gen {
	uint64_t nblocks;	/* I/O-sized blocks in the slice */
	uint64_t issued;	/* blocks issued in this pass */
	uint64_t m;		/* power of two >= nblocks */
	uint64_t a, c, x;	/* LCG x = a*x + c mod m */
	uint64_t rng;		/* xorshift state: mix and pass seeds */
	int random;
	int loop;		/* --runtime: start a new pass at the end */
};

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static inline void gen_pass(struct gen *g)
{
	g->issued = 0;
	if (!g->random)
		return;
	/* a = 1 mod 4 and c odd give full period modulo a power of two */
	g->a = (rng_next(&g->rng) & ~3ull) | 5;
	g->c = rng_next(&g->rng) | 1;
	g->x = rng_next(&g->rng) & (g->m - 1);
}

/**
 * gen_init() - a generator over @nblocks blocks, @random or sequential,
 * starting a new pass at the end when @loop, seeded from @seed (0: a fixed
 * seed).
 */
static inline void gen_init(struct gen *g, uint64_t nblocks, int random,
			    int loop, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->nblocks = nblocks;
	g->random = random;
	g->loop = loop;
	g->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	g->m = 1;
	while (g->m < nblocks)
		g->m <<= 1;
	gen_pass(g);
}

/** gen_next() - next block index, or -1 when the region has been covered once. */
static inline int64_t gen_next(struct gen *g)
{
	if (g->issued == g->nblocks) {
		if (!g->loop)
			return -1;
		gen_pass(g);
	}
	g->issued++;
	if (!g->random)
		return g->issued - 1;
	do {
		g->x = (g->a * g->x + g->c) & (g->m - 1);
	} while (g->x >= g->nblocks);
	return g->x;
}

/**
 * offsets_dir() - the direction of the next I/O: writes only while
 * preconditioning (@pre), else --rw @rw, mixed by --rwmixread @mixread.
 */
static inline int offsets_dir(struct gen *g, int pre, int rw,
			      uint64_t mixread)
{
	if (pre)
		return DIX_WRITE;
	switch (rw) {
	case RW_READ:
	case RW_RANDREAD:
		return DIX_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return DIX_WRITE;
	default:
		return rng_next(&g->rng) % 100 < mixread ? DIX_READ : DIX_WRITE;
	}
}

/**
 * offsets_next() - the next I/O of the pass over the slice [@start, @end)
 * in I/Os of @bs bytes: its offset and length in *@off and *@len.  The
 * preconditioning pass (@pre) writes sequentially from *@pre_next, the
 * last write shorter when the slice ends first.
 * Return: 0, or -1 when the slice has been covered (and no --runtime loop).
 */
static inline int offsets_next(struct gen *g, int pre, uint64_t *pre_next,
			       uint64_t start, uint64_t end, uint64_t bs,
			       uint64_t *off, uint32_t *len)
{
	int64_t b;

	if (pre) {
		if (*pre_next >= end)
			return -1;
		*off = *pre_next;
		*len = end - *off < bs ? end - *off : bs;
		*pre_next += *len;
		return 0;
	}
	b = gen_next(g);
	if (b < 0)
		return -1;
	*off = start + (uint64_t)b * bs;
	*len = bs;
	return 0;
}

#endif
