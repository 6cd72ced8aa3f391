// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pool.c - the per-seed pools of the DIXLOAD3 format (pool.h), cached for
 * the process.  A run writes with one seed, and a read meets the seeds of
 * every run (and MPI rank: each draws its own) whose blocks it finds, so a
 * few pools are kept, each built once (1 MiB of SplitMix64, about 1 ms)
 * and then only read.  Readers take no lock: a slot's seed is written
 * before its pool pointer is published (release), and a reader that sees
 * the pointer (acquire) sees the seed; slots are never reused, so a pool a
 * reader holds stays valid.  Past POOL_CACHED seeds the bytes are computed
 * per block (pool_bytes()), which is correct, only slower.
 */
#include "config.h"

#include <endian.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "verify/pool.h"

struct pool_slot {
	uint64_t seed;
	const unsigned char *pool;	/* published last */
};

static struct pool_slot slots[POOL_CACHED];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static const unsigned char *pool_find(uint64_t seed)
{
	unsigned int i;

	for (i = 0; i < POOL_CACHED; i++) {
		const unsigned char *p = __atomic_load_n(&slots[i].pool,
							 __ATOMIC_ACQUIRE);

		if (!p)
			return NULL;	/* slots fill in order */
		if (slots[i].seed == seed)
			return p;
	}
	return NULL;
}

static unsigned char *pool_build(uint64_t seed)
{
	unsigned char *p = aligned_alloc(64, POOL_BYTES);
	uint64_t i;

	if (!p)
		return NULL;
	for (i = 0; i < POOL_BYTES / 8; i++) {
		uint64_t w = htole64(pool_word(seed, i));

		memcpy(p + i * 8, &w, 8);
	}
	return p;
}

const unsigned char *pool_get(uint64_t seed)
{
	const unsigned char *p = pool_find(seed);
	unsigned int i;

	if (p)
		return p;
	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_CACHED; i++) {
		if (!slots[i].pool) {
			unsigned char *n = pool_build(seed);

			if (n) {
				slots[i].seed = seed;
				__atomic_store_n(&slots[i].pool, n,
						 __ATOMIC_RELEASE);
			}
			p = n;
			break;
		}
		if (slots[i].seed == seed) {	/* another thread built it */
			p = slots[i].pool;
			break;
		}
	}
	pthread_mutex_unlock(&pool_lock);
	return p;
}

void pool_bytes(unsigned char *dst, uint64_t seed, uint64_t pos, uint32_t len)
{
	while (len) {
		uint64_t w = htole64(pool_word(seed, pos / 8));
		uint32_t k = pos % 8, n = 8 - k < len ? 8 - k : len;

		memcpy(dst, (unsigned char *)&w + k, n);
		dst += n;
		pos += n;
		len -= n;
	}
}
