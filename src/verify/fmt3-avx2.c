// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt3-avx2.c - the DIXLOAD3 fast paths (fmt3-impl.h) built for AVX2,
 * used when the CPU has it.  The check compares a body 32 bytes at a time,
 * gathering the differences (of the headers too, for an I/O of one write)
 * and testing them once: no branch per chunk and no call per block, as
 * memcmp() has.  The
 * fill copies with 32-byte moves where libc's memcpy() takes `rep movsb`
 * at 4 KiB, a page's copy.
 */
#include "config.h"

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "verify/fmt3.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define DIFF(a, b, i) _mm256_xor_si256(LD((a) + (i)), LD((b) + (i)))

__attribute__((target("avx2")))
static inline int eq_avx2(const unsigned char *a, const unsigned char *b,
			  uint32_t n)
{
	__m256i x = _mm256_setzero_si256(), y = _mm256_setzero_si256();
	size_t i = 0;	/* not 32-bit: i + 32 would need a zero extension */

	if (n < 32)
		return !memcmp(a, b, n);
	if (n == 472) {		/* a 512-byte block's body, unrolled */
		x = _mm256_or_si256(_mm256_or_si256(DIFF(a, b, 0), DIFF(a, b, 32)),
				    _mm256_or_si256(DIFF(a, b, 64), DIFF(a, b, 96)));
		y = _mm256_or_si256(_mm256_or_si256(DIFF(a, b, 128), DIFF(a, b, 160)),
				    _mm256_or_si256(DIFF(a, b, 192), DIFF(a, b, 224)));
		x = _mm256_or_si256(x, _mm256_or_si256(DIFF(a, b, 256), DIFF(a, b, 288)));
		y = _mm256_or_si256(y, _mm256_or_si256(DIFF(a, b, 320), DIFF(a, b, 352)));
		x = _mm256_or_si256(x, _mm256_or_si256(DIFF(a, b, 384), DIFF(a, b, 416)));
		y = _mm256_or_si256(y, DIFF(a, b, 440));
		x = _mm256_or_si256(x, y);
		return _mm256_testz_si256(x, x);
	}
	for (; i + 128 <= n; i += 128) {
		x = _mm256_or_si256(x, _mm256_or_si256(DIFF(a, b, i), DIFF(a, b, i + 32)));
		y = _mm256_or_si256(y, _mm256_or_si256(DIFF(a, b, i + 64), DIFF(a, b, i + 96)));
	}
	for (; i + 32 <= n; i += 32)
		x = _mm256_or_si256(x, DIFF(a, b, i));
	if (i < n)	/* the last 32 bytes again: they cover the rest */
		y = _mm256_or_si256(y, DIFF(a, b, n - 32));
	x = _mm256_or_si256(x, y);
	return _mm256_testz_si256(x, x);
}

__attribute__((target("avx2")))
static inline void copy_avx2(unsigned char *d, const unsigned char *s,
			     uint32_t n)
{
	size_t i = 0;

	if (n < 32) {
		memcpy(d, s, n);
		return;
	}
	for (; i + 128 <= n; i += 128) {
		__m256i a = LD(s + i), b = LD(s + i + 32);
		__m256i c = LD(s + i + 64), e = LD(s + i + 96);

		_mm256_storeu_si256((__m256i *)(d + i), a);
		_mm256_storeu_si256((__m256i *)(d + i + 32), b);
		_mm256_storeu_si256((__m256i *)(d + i + 64), c);
		_mm256_storeu_si256((__m256i *)(d + i + 96), e);
	}
	for (; i + 32 <= n; i += 32)
		_mm256_storeu_si256((__m256i *)(d + i), LD(s + i));
	if (i < n)
		_mm256_storeu_si256((__m256i *)(d + n - 32), LD(s + n - 32));
}

/*
 * All @n blocks at @b (of @bsize bytes, a power of two up to 4 KiB, read
 * from @offset, a multiple of it) intact blocks of the one write whose
 * first block's header (already checked) names @seed and @w3 (@k is
 * vhash_hdr_mix(0, @seed, @w3))?  Every
 * difference, header or body, is gathered in one register and tested once
 * for the whole I/O: no branch per block, where the loop that finds the
 * first bad block (fmt3-impl.h, which calls this first) has a few.
 * Inlined twice, for 512-byte blocks and for the rest (whole_avx2()).
 */
__attribute__((target("avx2"), always_inline))
static inline int whole_in(const unsigned char *b, uint32_t n,
			   const uint32_t bsize, uint64_t offset,
			   const unsigned char *pool, uint64_t seed,
			   uint64_t w3, uint64_t k)
{
	const uint32_t body = bsize - DIX_HDR_SIZE;
	/* the header's first four words, the offset stepping a block on */
	__m256i want = _mm256_set_epi64x((long long)w3, (long long)seed,
					 (long long)offset,
					 (long long)DIX_HDR_MAGIC3);
	const __m256i step = _mm256_set_epi64x(0, 0, bsize, 0);
	__m256i acc = _mm256_setzero_si256();
	uint64_t cw = 0, end = offset + (uint64_t)n * bsize;

	while (offset < end) {
		const unsigned char *p = pool + fmt3_base(offset >> 12, (uint32_t)w3) +
					 (offset & 4095) + DIX_HDR_SIZE;
		uint64_t page_end = ((offset >> 12) + 1) << 12;

		if (page_end > end)
			page_end = end;
		for (; offset < page_end; offset += bsize, b += bsize, p += bsize) {
			const unsigned char *q = b + DIX_HDR_SIZE;
			uint64_t c;

			acc = _mm256_or_si256(acc, _mm256_xor_si256(LD(b), want));
			want = _mm256_add_epi64(want, step);
			memcpy(&c, b + 32, 8);
			cw |= le64toh(c) ^ (offset * 0x9e3779b97f4a7c15ull) ^ k;
			if (body == 472) {
				acc = _mm256_or_si256(acc, _mm256_or_si256(
					_mm256_or_si256(DIFF(q, p, 0), DIFF(q, p, 32)),
					_mm256_or_si256(DIFF(q, p, 64), DIFF(q, p, 96))));
				acc = _mm256_or_si256(acc, _mm256_or_si256(
					_mm256_or_si256(DIFF(q, p, 128), DIFF(q, p, 160)),
					_mm256_or_si256(DIFF(q, p, 192), DIFF(q, p, 224))));
				acc = _mm256_or_si256(acc, _mm256_or_si256(
					_mm256_or_si256(DIFF(q, p, 256), DIFF(q, p, 288)),
					_mm256_or_si256(DIFF(q, p, 320), DIFF(q, p, 352))));
				acc = _mm256_or_si256(acc, _mm256_or_si256(
					_mm256_or_si256(DIFF(q, p, 384), DIFF(q, p, 416)),
					DIFF(q, p, 440)));
			} else if (!eq_avx2(q, p, body)) {
				return 0;
			}
		}
	}
	return !cw && _mm256_testz_si256(acc, acc);
}

/*
 * whole_in() with 512-byte blocks a constant of their own: that loop has
 * no call (eq_avx2() for other sizes), so nothing is kept on the stack,
 * and no test of the size per block (about 10 instructions a block less).
 */
__attribute__((target("avx2")))
static int whole_avx2(const unsigned char *b, uint32_t n, uint32_t bsize,
		      uint64_t offset, const unsigned char *pool,
		      uint64_t seed, uint64_t w3, uint64_t k)
{
	if (bsize == 512)
		return whole_in(b, n, 512, offset, pool, seed, w3, k);
	return whole_in(b, n, bsize, offset, pool, seed, w3, k);
}

#define FMT3_WHOLE whole_avx2
#define FMT3_SFX avx2
#define FMT3_EQ eq_avx2
#define FMT3_COPY copy_avx2
#define FMT3_ATTR static __attribute__((target("avx2")))
#include "verify/fmt3-impl.h"

static const struct fmt3_impl impl = {
	.name = "avx2",
	.run = fmt3_run_avx2,
	.fill = fmt3_fill_io_avx2,
};

const struct fmt3_impl *fmt3_avx2(void)
{
	return __builtin_cpu_supports("avx2") ? &impl : NULL;
}
#else
const struct fmt3_impl *fmt3_avx2(void)
{
	return NULL;
}
#endif
