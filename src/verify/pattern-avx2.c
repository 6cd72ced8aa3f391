// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pattern-avx2.c - the DIXLOAD2 pattern's four streams stepped together in
 * one AVX2 register (pattern.h), used when the CPU has it.  Each stream is
 * a 64-bit lane; AVX2 has no 64-bit multiply, so the xorshift64* output
 * multiply is three 32x32 products.  The bytes are the portable build's:
 * writes carry the pattern every build regenerates.  4 KiB writes of
 * 512-byte blocks on null_blk, io_uring QD32: 14340 -> 10565 instructions
 * per I/O, the pattern having been most of the write's cost (6.1 guest
 * under icount, scripts/bench-vm).
 */
#include "config.h"

#include <stdint.h>

#include "verify/pattern.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2")))
static void pattern_groups_v(unsigned char *p, uint32_t n, uint64_t s[4])
{
	/* the multiplier 0x2545f4914f6cdd1d, as its 32-bit halves */
	const __m256i mlo = _mm256_set1_epi64x(0x4f6cdd1d);
	const __m256i mhi = _mm256_set1_epi64x(0x2545f491);
	__m256i x = _mm256_loadu_si256((const __m256i *)s);
	uint32_t i;

	for (i = 0; i < n; i++) {
		__m256i lo, cross;

		x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 12));
		x = _mm256_xor_si256(x, _mm256_slli_epi64(x, 25));
		x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 27));
		lo = _mm256_mul_epu32(x, mlo);
		cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), mlo),
					 _mm256_mul_epu32(x, mhi));
		_mm256_storeu_si256((__m256i *)(p + (size_t)i * 32),
				    _mm256_add_epi64(lo, _mm256_slli_epi64(cross, 32)));
	}
	_mm256_storeu_si256((__m256i *)s, x);
}

pattern_groups_fn pattern_groups_avx2(void)
{
	return __builtin_cpu_supports("avx2") ? pattern_groups_v : NULL;
}
#else
pattern_groups_fn pattern_groups_avx2(void)
{
	return NULL;
}
#endif
