/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vhash.h - the block checksum of the second on-disk format (magic
 * DIXLOAD2): XXH3-64 of the block body (bytes 40 to the end) xor
 * vhash_hdr_mix() of the header's offset, seed and sequence/size words, so
 * damage anywhere but the magic (checked on its own) and the checksum
 * field itself changes it.  Only with libxxhash (HAVE_XXHASH); see
 * verify.c for why.
 */
#ifndef DIX_VHASH_H
#define DIX_VHASH_H

#include <stddef.h>
#include <stdint.h>

#include "verify/blockhdr.h"	/* vhash_hdr_mix() */

/** vhash_block() - the DIXLOAD2 checksum of the @bsize-byte block @blk. */
uint64_t vhash_block(const void *blk, uint32_t bsize);

/**
 * vhash_run() - the fast path of a read check: how many of the @n blocks
 * of @bsize bytes at @buf, read from byte @offset, are intact DIXLOAD2
 * blocks written for exactly that place (magic, offset, block size and
 * checksum all right), counted from the first up to the first that is not.
 * The caller checks that one on its own (verify_block() says why it
 * failed) and carries on after it.
 */
uint32_t vhash_run(const void *buf, uint32_t n, uint32_t bsize,
		   uint64_t offset);

/*
 * The two builds of both, for tests that compare them: the compiler's
 * baseline (SSE2 on x86-64) and AVX2 (NULL when the CPU lacks it or the
 * build is not for x86-64).
 */
struct vhash_impl {
	const char *name;
	uint64_t (*block)(const void *blk, uint32_t bsize);
	uint32_t (*run)(const void *buf, uint32_t n, uint32_t bsize,
			uint64_t offset);
};
extern const struct vhash_impl vhash_generic;
/** vhash_avx2() - the AVX2 build, or NULL where it cannot run. */
const struct vhash_impl *vhash_avx2(void);

/**
 * vhash_selftest() - build @c against the portable build (vselftest.c):
 * the checksum of blocks of five sizes at varied start addresses, and the
 * check of intact runs and of a run with one byte changed.
 * Return: 0 when it passes, -1 with what was wrong in @why.
 */
int vhash_selftest(const struct vhash_impl *c, char *why, size_t wlen);

/**
 * vhash_test_candidate() - tests only: the dispatch tries @c instead of
 * the AVX2 build (NULL: the AVX2 build again) and chooses anew on its
 * next call.  Not synchronised with running I/O.
 */
void vhash_test_candidate(const struct vhash_impl *c);

#endif
