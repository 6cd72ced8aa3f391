/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pattern.h - the builds of the DIXLOAD2 pattern's inner loop: four
 * xorshift64* streams taking turns word by word over whole 32-byte groups
 * (verify.c says why four).  verify.c picks one once; the test compares
 * them against a reference of its own.
 */
#ifndef DIX_PATTERN_H
#define DIX_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/**
 * typedef pattern_groups_fn - fill @n 32-byte groups at @p.
 * @p: where the groups go (any alignment)
 * @n: groups to fill
 * @s: the four streams' states in, their states after the last group out
 *
 * Group i holds word i of each stream, in stream order, little-endian.
 */
typedef void (*pattern_groups_fn)(unsigned char *p, uint32_t n, uint64_t s[4]);

/** pattern_groups_generic() - the portable build (always there). */
void pattern_groups_generic(unsigned char *p, uint32_t n, uint64_t s[4]);

/**
 * pattern_groups_avx2() - the AVX2 build.
 *
 * Return: the function, or NULL when this CPU or compiler has no AVX2.
 */
pattern_groups_fn pattern_groups_avx2(void);

/**
 * pattern_groups_pick() - the build for this CPU, chosen once (vselftest.c):
 * the AVX2 build when it passes pattern_groups_selftest(), else the
 * portable one (and a warning names the build refused).  Thread-safe.
 */
pattern_groups_fn pattern_groups_pick(void);

/**
 * pattern_groups_selftest() - @f against xorshift64* stepped word by word:
 * nine group counts from 0 to 40, at an odd address, states returned.
 * Return: 0 when it passes, -1 with what was wrong in @why.
 */
int pattern_groups_selftest(pattern_groups_fn f, char *why, size_t wlen);

/**
 * pattern_groups_test_candidate() - tests only: the dispatch tries @f,
 * named @name, instead of the AVX2 build (NULL: the AVX2 build again) and
 * chooses anew on its next call.  Not synchronised with running I/O.
 */
void pattern_groups_test_candidate(pattern_groups_fn f, const char *name);

#endif
