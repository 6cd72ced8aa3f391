/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pattern.h - the builds of the DIXLOAD2 pattern's inner loop: four
 * xorshift64* streams taking turns word by word over whole 32-byte groups
 * (verify.c says why four).  verify.c picks one once; the test compares
 * them against a reference of its own.
 */
#ifndef DIX_PATTERN_H
#define DIX_PATTERN_H

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

#endif
