// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc-x86.c - guard implementations using x86 instructions, chosen at run
 * time (__builtin_cpu_supports), so one binary runs everywhere:
 *
 *  - CRC folding with carry-less multiplication (PCLMULQDQ on 128-bit
 *    lanes; VPCLMULQDQ on 512-bit lanes with AVX-512), one generic routine
 *    for all three CRCs, MSB-first (CRC16) and reflected (CRC32C, CRC64);
 *  - CRC32C with the SSE4.2 crc32 instruction;
 *  - the IP checksum with AVX2.
 *
 * Folding, in the polynomial view: a 128-bit accumulator X stands for the
 * message so far, modulo P.  Moving it D 16-byte blocks further down the
 * message multiplies it by x^(128*D); splitting X = Xh*x^64 + Xl gives
 * X*x^(128D) == Xh*(x^(128D+64) mod P) + Xl*(x^(128D) mod P), two 64x64
 * carry-less products whose sum fits 128 bits again.  Any X congruent to
 * the message gives the same CRC, so the final 16-byte remainder is simply
 * run through the slice-by-16 code (one iteration), followed by the tail
 * shorter than a block.  The constants are computed at start-up from the
 * polynomials, not copied from anywhere.
 *
 * In the reflected bit order the register's bit j is the coefficient of
 * x^(127-j), and a carry-less product of two reflected 64-bit values comes
 * out as the true product times x, hence the x^(k-1) constants there.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#include "crc-internal.h"

/* k[D] = the fold-by-D-blocks constant pair, D = 1 .. 16. */
struct fold_consts {
	uint64_t k[17][2];
};

static struct fold_consts fc16, fc32, fc64;

static uint64_t xpow_mod(unsigned int k, uint64_t poly, unsigned int n)
{
	uint64_t top = 1ull << (n - 1);
	uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
	uint64_t r = 1;

	while (k--) {
		uint64_t carry = r & top;

		r = (r << 1) & mask;
		if (carry)
			r ^= poly;
	}
	return r;
}

static uint64_t reflect64(uint64_t v)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

static void make_consts(struct fold_consts *fc, uint64_t poly, unsigned int n,
			int reflected)
{
	unsigned int d;

	for (d = 1; d <= 16; d++) {
		if (reflected) {
			/* lo qword holds the high-degree half */
			fc->k[d][0] = reflect64(xpow_mod(128 * d + 63, poly, n));
			fc->k[d][1] = reflect64(xpow_mod(128 * d - 1, poly, n));
		} else {
			fc->k[d][0] = xpow_mod(128 * d, poly, n);
			fc->k[d][1] = xpow_mod(128 * d + 64, poly, n);
		}
	}
}

void crc_x86_init(void)
{
	make_consts(&fc16, CRC16_T10DIF_POLY, 16, 0);
	make_consts(&fc32, CRC32C_POLY, 32, 1);
	make_consts(&fc64, CRC64_NVME_POLY, 64, 1);
}

int crc_x86_pclmul_ok(void)
{
	return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
}

int crc_x86_vpclmul_ok(void)
{
	return __builtin_cpu_supports("vpclmulqdq") &&
	       __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl") && crc_x86_pclmul_ok();
}

int crc_x86_sse42_ok(void)
{
	return __builtin_cpu_supports("sse4.2");
}

int crc_x86_avx2_ok(void)
{
	return __builtin_cpu_supports("avx2");
}

typedef uint64_t (*finish_fn)(uint64_t, const void *, size_t);

#define T_PCLMUL	__attribute__((target("pclmul,ssse3,sse4.1")))
#define T_VPCLMUL	__attribute__((target("pclmul,ssse3,sse4.1,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")))
#define INLINE		static inline __attribute__((always_inline))

/* ---- 128-bit lanes ---- */

INLINE T_PCLMUL __m128i kload(const struct fold_consts *fc, int d)
{
	return _mm_loadu_si128((const __m128i *)fc->k[d]);
}

INLINE T_PCLMUL __m128i fold128(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
			     _mm_clmulepi64_si128(x, k, 0x11));
}

INLINE T_PCLMUL __m128i load128(const unsigned char *p, int refl, __m128i bswap)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);

	return refl ? v : _mm_shuffle_epi8(v, bswap);
}

/* The initial state enters as an XOR into the first n message bits. */
INLINE T_PCLMUL __m128i init128(uint64_t state, int refl, unsigned int n)
{
	return refl ? _mm_set_epi64x(0, (long long)state) :
		      _mm_set_epi64x((long long)(state << (64 - n)), 0);
}

INLINE T_PCLMUL uint64_t finish128(__m128i x, int refl, __m128i bswap,
				   finish_fn fin, const unsigned char *p,
				   size_t len)
{
	unsigned char tmp[16];

	if (!refl)
		x = _mm_shuffle_epi8(x, bswap);
	_mm_storeu_si128((__m128i *)tmp, x);
	return fin(fin(0, tmp, 16), p, len);
}

INLINE T_PCLMUL uint64_t fold_crc128(const struct fold_consts *fc, int refl,
				     unsigned int n, finish_fn fin,
				     uint64_t state, const void *buf, size_t len)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					   11, 12, 13, 14, 15);
	const unsigned char *p = buf;
	__m128i x, k1 = kload(fc, 1);

	if (len < 16)
		return fin(state, p, len);

	if (len >= 128) {
		__m128i a0, a1, a2, a3, a4, a5, a6, a7, k8 = kload(fc, 8);

		a0 = _mm_xor_si128(load128(p, refl, bswap), init128(state, refl, n));
		a1 = load128(p + 16, refl, bswap);
		a2 = load128(p + 32, refl, bswap);
		a3 = load128(p + 48, refl, bswap);
		a4 = load128(p + 64, refl, bswap);
		a5 = load128(p + 80, refl, bswap);
		a6 = load128(p + 96, refl, bswap);
		a7 = load128(p + 112, refl, bswap);
		p += 128;
		len -= 128;
		for (; len >= 128; len -= 128, p += 128) {
			a0 = _mm_xor_si128(fold128(a0, k8), load128(p, refl, bswap));
			a1 = _mm_xor_si128(fold128(a1, k8), load128(p + 16, refl, bswap));
			a2 = _mm_xor_si128(fold128(a2, k8), load128(p + 32, refl, bswap));
			a3 = _mm_xor_si128(fold128(a3, k8), load128(p + 48, refl, bswap));
			a4 = _mm_xor_si128(fold128(a4, k8), load128(p + 64, refl, bswap));
			a5 = _mm_xor_si128(fold128(a5, k8), load128(p + 80, refl, bswap));
			a6 = _mm_xor_si128(fold128(a6, k8), load128(p + 96, refl, bswap));
			a7 = _mm_xor_si128(fold128(a7, k8), load128(p + 112, refl, bswap));
		}
		/* each lane is 7 - i blocks before the last one */
		x = _mm_xor_si128(a7, fold128(a6, k1));
		x = _mm_xor_si128(x, fold128(a5, kload(fc, 2)));
		x = _mm_xor_si128(x, fold128(a4, kload(fc, 3)));
		x = _mm_xor_si128(x, fold128(a3, kload(fc, 4)));
		x = _mm_xor_si128(x, fold128(a2, kload(fc, 5)));
		x = _mm_xor_si128(x, fold128(a1, kload(fc, 6)));
		x = _mm_xor_si128(x, fold128(a0, kload(fc, 7)));
	} else {
		x = _mm_xor_si128(load128(p, refl, bswap), init128(state, refl, n));
		p += 16;
		len -= 16;
	}
	for (; len >= 16; len -= 16, p += 16)
		x = _mm_xor_si128(fold128(x, k1), load128(p, refl, bswap));
	return finish128(x, refl, bswap, fin, p, len);
}

T_PCLMUL uint64_t crc16_pclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc128(&fc16, 0, 16, crc16_slice16, state, buf, len);
}

T_PCLMUL uint64_t crc32c_pclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc128(&fc32, 1, 32, crc32c_slice16, state, buf, len);
}

T_PCLMUL uint64_t crc64_pclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc128(&fc64, 1, 64, crc64_slice16, state, buf, len);
}

/* ---- 512-bit lanes ---- */

INLINE T_VPCLMUL __m512i fold512(__m512i z, __m512i k)
{
	return _mm512_xor_si512(_mm512_clmulepi64_epi128(z, k, 0x00),
				_mm512_clmulepi64_epi128(z, k, 0x11));
}

/* fold @z by the constant @k and add the data @d: one ternary-logic XOR */
INLINE T_VPCLMUL __m512i fold512_add(__m512i z, __m512i k, __m512i d)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
					 _mm512_clmulepi64_epi128(z, k, 0x11),
					 d, 0x96);
}

INLINE T_VPCLMUL __m512i load512(const unsigned char *p, int refl, __m512i bswap)
{
	__m512i v = _mm512_loadu_si512((const void *)p);

	return refl ? v : _mm512_shuffle_epi8(v, bswap);
}

INLINE T_VPCLMUL __m512i kbcast(const struct fold_consts *fc, int d)
{
	return _mm512_broadcast_i32x4(kload(fc, d));
}

INLINE T_VPCLMUL uint64_t fold_crc512(const struct fold_consts *fc, int refl,
				      unsigned int n, finish_fn fin,
				      uint64_t state, const void *buf, size_t len)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					   11, 12, 13, 14, 15);
	const __m512i bswapz = _mm512_broadcast_i32x4(bswap);
	const unsigned char *p = buf;
	__m128i x, k1 = kload(fc, 1);

	if (len < 16)
		return fin(state, p, len);

	if (len >= 64) {
		__m512i z, k4 = kbcast(fc, 4), kl;

		z = _mm512_xor_si512(load512(p, refl, bswapz),
				     _mm512_inserti32x4(_mm512_setzero_si512(),
							init128(state, refl, n), 0));
		p += 64;
		len -= 64;
		if (len >= 192) {
			__m512i z1, z2, z3, k16 = kbcast(fc, 16);

			z1 = load512(p, refl, bswapz);
			z2 = load512(p + 64, refl, bswapz);
			z3 = load512(p + 128, refl, bswapz);
			p += 192;
			len -= 192;
			for (; len >= 256; len -= 256, p += 256) {
				z = fold512_add(z, k16, load512(p, refl, bswapz));
				z1 = fold512_add(z1, k16, load512(p + 64, refl, bswapz));
				z2 = fold512_add(z2, k16, load512(p + 128, refl, bswapz));
				z3 = fold512_add(z3, k16, load512(p + 192, refl, bswapz));
			}
			z = fold512_add(z, k4, z1);
			z = fold512_add(z, k4, z2);
			z = fold512_add(z, k4, z3);
		}
		for (; len >= 64; len -= 64, p += 64)
			z = fold512_add(z, k4, load512(p, refl, bswapz));
		/*
		 * Lanes 0..3 are 3..0 blocks before the end: fold lanes 0-2
		 * by their distance (lane 3's constant is zero) and add lane 3
		 * unchanged, then XOR the four lanes together.
		 */
		kl = _mm512_inserti32x4(_mm512_setzero_si512(), kload(fc, 3), 0);
		kl = _mm512_inserti32x4(kl, kload(fc, 2), 1);
		kl = _mm512_inserti32x4(kl, k1, 2);
		kl = fold512(z, kl);
		z = _mm512_mask_xor_epi64(kl, 0xc0, kl, z);
		x = _mm_xor_si128(_mm512_extracti32x4_epi32(z, 0),
				  _mm512_extracti32x4_epi32(z, 1));
		x = _mm_xor_si128(x, _mm512_extracti32x4_epi32(z, 2));
		x = _mm_xor_si128(x, _mm512_extracti32x4_epi32(z, 3));
	} else {
		x = _mm_xor_si128(load128(p, refl, bswap), init128(state, refl, n));
		p += 16;
		len -= 16;
	}
	for (; len >= 16; len -= 16, p += 16)
		x = _mm_xor_si128(fold128(x, k1), load128(p, refl, bswap));
	return finish128(x, refl, bswap, fin, p, len);
}

T_VPCLMUL uint64_t crc16_vpclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc512(&fc16, 0, 16, crc16_slice16, state, buf, len);
}

T_VPCLMUL uint64_t crc32c_vpclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc512(&fc32, 1, 32, crc32c_slice16, state, buf, len);
}

T_VPCLMUL uint64_t crc64_vpclmul(uint64_t state, const void *buf, size_t len)
{
	return fold_crc512(&fc64, 1, 64, crc64_slice16, state, buf, len);
}

/* ---- SSE4.2 CRC32C ---- */

__attribute__((target("sse4.2")))
uint64_t crc32c_sse42(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t crc = (uint32_t)state;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		crc = _mm_crc32_u64(crc, v);
	}
	while (len--)
		crc = _mm_crc32_u8((uint32_t)crc, *p++);
	return (uint32_t)crc;
}

/* ---- AVX2 IP checksum ---- */

/*
 * Zero-extend 32-bit words into 64-bit lanes and add; the lanes cannot
 * overflow within a 1 GiB round.  The lane sums are folded like the
 * portable code's and the tail goes through it.
 */
__attribute__((target("avx2")))
uint64_t ipcsum_avx2(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	const __m256i zero = _mm256_setzero_si256();

	while (len >= 64) {
		size_t n = len < (1u << 30) ? len : (1u << 30);
		__m256i a = zero, b = zero, c = zero, d = zero;
		uint64_t lanes[4], sum;
		int i;

		n &= ~(size_t)63;
		len -= n;
		for (; n; n -= 64, p += 64) {
			__m256i v = _mm256_loadu_si256((const __m256i *)p);
			__m256i w = _mm256_loadu_si256((const __m256i *)(p + 32));

			a = _mm256_add_epi64(a, _mm256_unpacklo_epi32(v, zero));
			b = _mm256_add_epi64(b, _mm256_unpackhi_epi32(v, zero));
			c = _mm256_add_epi64(c, _mm256_unpacklo_epi32(w, zero));
			d = _mm256_add_epi64(d, _mm256_unpackhi_epi32(w, zero));
		}
		a = _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d));
		_mm256_storeu_si256((__m256i *)lanes, a);
		sum = 0;
		for (i = 0; i < 4; i++)
			sum += (lanes[i] & 0xffffffff) + (lanes[i] >> 32);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		/* add the (byte-swapped) partial sum to the big-endian state */
		sum = (uint16_t)state + __builtin_bswap16((uint16_t)sum);
		state = (sum & 0xffff) + (sum >> 16);
	}
	return ipcsum_portable(state, p, len);
}

#endif /* __x86_64__ */
