// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt3-avx2.c - the DIXLOAD3 read check's fast path (fmt3-impl.h) with
 * the body compared 32 bytes at a time in an AVX2 register, the
 * differences gathered and tested once per block: no branch per chunk,
 * and no call per block as memcmp() costs.  Used when the CPU has AVX2.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "verify/fmt3.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2")))
static inline int eq_avx2(const unsigned char *a, const unsigned char *b,
			  uint32_t n)
{
	__m256i acc = _mm256_setzero_si256();
	uint32_t i;

	if (n < 32)
		return !memcmp(a, b, n);
	for (i = 0; i + 32 <= n; i += 32)
		acc = _mm256_or_si256(acc, _mm256_xor_si256(
			_mm256_loadu_si256((const __m256i *)(a + i)),
			_mm256_loadu_si256((const __m256i *)(b + i))));
	if (i < n)	/* the last 32 bytes again: they cover the rest */
		acc = _mm256_or_si256(acc, _mm256_xor_si256(
			_mm256_loadu_si256((const __m256i *)(a + n - 32)),
			_mm256_loadu_si256((const __m256i *)(b + n - 32))));
	return _mm256_testz_si256(acc, acc);
}

#define FMT3_SFX avx2_build
#define FMT3_EQ eq_avx2
#define FMT3_ATTR static __attribute__((target("avx2")))
#include "verify/fmt3-impl.h"

fmt3_run_fn fmt3_run_avx2(void)
{
	return __builtin_cpu_supports("avx2") ? fmt3_run_avx2_build : NULL;
}
#else
fmt3_run_fn fmt3_run_avx2(void)
{
	return NULL;
}
#endif
