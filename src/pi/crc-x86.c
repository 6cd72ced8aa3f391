// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc-x86.c - guard implementations using x86 instructions, chosen at run
 * time (__builtin_cpu_supports), so one binary runs everywhere:
 *
 *  - CRC folding with carry-less multiplication (PCLMULQDQ on 128-bit
 *    lanes; VPCLMULQDQ on 512-bit lanes with AVX-512, which of this
 *    project's machines only the Zen 4 development VM of crc.c's table has
 *    run; on 256-bit lanes with AVX2), one generic routine for all three
 *    CRCs, MSB-first (CRC16) and reflected (CRC32C, CRC64);
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

#include "pi/crc-internal.h"

/*
 * k[D]: the fold-by-D-blocks constant pair, D = 1 .. 16.
 * ka, mu, p: the final reduction of a 128-bit remainder X to the CRC
 * X*x^n mod P (Barrett): Y = Xh*(x^(64+n) mod P) + Xl*x^n, which has
 * fewer than 64+n bits and is congruent to X*x^n; then with Y = Yh*x^n + Yl,
 * q = floor(Yh*mu / x^64), mu = floor(x^(64+n) / P) (whose x^64 term is
 * implicit), and CRC = Yl + (q*P mod x^n).  Stored bit-reflected for the
 * reflected CRCs, with the x^(k-1) adjustment where a product is formed.
 */
struct fold_consts {
	uint64_t k[17][2];
	uint64_t ka, mu, p;
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

/* floor(x^(64+n) / P) without its x^64 term; plain long division. */
static uint64_t barrett_mu(uint64_t poly, unsigned int n)
{
	unsigned char r[129] = { 0 };	/* remainder coefficients by degree */
	uint64_t q = 0;
	unsigned int i, j;

	r[64 + n] = 1;
	for (i = 64 + n; i >= n; i--) {
		if (!r[i])
			continue;
		r[i] = 0;
		for (j = 0; j < n; j++)
			if ((poly >> j) & 1)
				r[i - n + j] ^= 1;
		if (i - n < 64)
			q |= 1ull << (i - n);
	}
	return q;
}

static void make_consts(struct fold_consts *fc, uint64_t poly, unsigned int n,
			int reflected)
{
	unsigned int d;

	if (reflected) {
		fc->ka = reflect64(xpow_mod(63 + n, poly, n));
		fc->mu = reflect64(barrett_mu(poly, n));
		fc->p = reflect64(poly);
	} else {
		fc->ka = xpow_mod(64 + n, poly, n);
		fc->mu = barrett_mu(poly, n);
		fc->p = poly;
	}

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

/*
 * Reduce the folded remainder @x to the raw CRC state (see struct
 * fold_consts), then run the tail shorter than a block through @fin.
 * Shifts are spelled out per width because they take immediates.
 */
INLINE T_PCLMUL uint64_t finish128(const struct fold_consts *fc, __m128i x,
				   int refl, unsigned int n, finish_fn fin,
				   const unsigned char *p, size_t len)
{
	const __m128i ka = _mm_cvtsi64_si128((long long)fc->ka);
	const __m128i mu = _mm_cvtsi64_si128((long long)fc->mu);
	const __m128i pl = _mm_cvtsi64_si128((long long)fc->p);
	__m128i y, yh, t;
	uint64_t crc;

	if (!refl) {
		/* plain bit order; only CRC16 uses it here */
		__m128i xl = _mm_move_epi64(x);

		y = _mm_xor_si128(_mm_clmulepi64_si128(x, ka, 0x01),
				  n == 16 ? _mm_bslli_si128(xl, 2) :
				  n == 32 ? _mm_bslli_si128(xl, 4) : _mm_bslli_si128(xl, 8));
		yh = n == 16 ? _mm_bsrli_si128(y, 2) :
		     n == 32 ? _mm_bsrli_si128(y, 4) : _mm_bsrli_si128(y, 8);
		t = _mm_clmulepi64_si128(yh, mu, 0x00);
		yh = _mm_xor_si128(yh, _mm_bsrli_si128(t, 8));
		t = _mm_clmulepi64_si128(yh, pl, 0x00);
		crc = (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(t, y));
		if (n < 64)
			crc &= (1ull << n) - 1;
	} else {
		/* reflected: lo qword = Xh, hi qword = Xl, products come out * x */
		__m128i xh_only = _mm_unpackhi_epi64(_mm_setzero_si128(), x);
		uint64_t yl;

		y = _mm_xor_si128(_mm_clmulepi64_si128(x, ka, 0x00),
				  n == 64 ? _mm_bsrli_si128(x, 8) : _mm_bsrli_si128(xh_only, 4));
		yh = n == 64 ? y : _mm_bsrli_si128(y, 4);
		yh = _mm_move_epi64(yh);
		t = _mm_clmulepi64_si128(yh, mu, 0x00);
		yh = _mm_xor_si128(yh, _mm_slli_epi64(t, 1));
		t = _mm_clmulepi64_si128(yh, pl, 0x00);
		if (n == 64) {
			crc = ((uint64_t)_mm_cvtsi128_si64(t) >> 63) |
			      ((uint64_t)_mm_extract_epi64(t, 1) << 1);
			yl = (uint64_t)_mm_extract_epi64(y, 1);
		} else {
			crc = (uint64_t)_mm_extract_epi64(t, 1) >> 31;
			yl = (uint64_t)_mm_extract_epi64(y, 1) >> 32;
			crc &= 0xffffffffu;
		}
		crc ^= yl;
	}
	return len ? fin(crc, p, len) : crc;
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
	return finish128(fc, x, refl, n, fin, p, len);
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

/*
 * Lanes 0..3 of @z are 3..0 blocks before the end: fold lanes 0-2 by their
 * distance (lane 3's constant is zero) and add lane 3 unchanged, then XOR
 * the four lanes together.
 */
INLINE T_VPCLMUL __m128i reduce_lanes(const struct fold_consts *fc, __m512i z)
{
	__m512i kl;
	__m128i x;

	kl = _mm512_inserti32x4(_mm512_setzero_si512(), kload(fc, 3), 0);
	kl = _mm512_inserti32x4(kl, kload(fc, 2), 1);
	kl = _mm512_inserti32x4(kl, kload(fc, 1), 2);
	kl = fold512(z, kl);
	z = _mm512_mask_xor_epi64(kl, 0xc0, kl, z);
	x = _mm_xor_si128(_mm512_extracti32x4_epi32(z, 0),
			  _mm512_extracti32x4_epi32(z, 1));
	x = _mm_xor_si128(x, _mm512_extracti32x4_epi32(z, 2));
	return _mm_xor_si128(x, _mm512_extracti32x4_epi32(z, 3));
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
		__m512i z, k4 = kbcast(fc, 4);

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
		x = reduce_lanes(fc, z);
	} else {
		x = _mm_xor_si128(load128(p, refl, bswap), init128(state, refl, n));
		p += 16;
		len -= 16;
	}
	for (; len >= 16; len -= 16, p += 16)
		x = _mm_xor_si128(fold128(x, k1), load128(p, refl, bswap));
	return finish128(fc, x, refl, n, fin, p, len);
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

/*
 * Four buffers' accumulators (lanes 0..3 = 3..0 blocks before the end) to
 * one register holding each buffer's folded 128-bit remainder in its lane:
 * transpose 4x4 lanes, then fold lane columns by their distance.
 */
INLINE T_VPCLMUL __m512i transpose_reduce(const struct fold_consts *fc, const __m512i *z)
{
	__m512i a = _mm512_shuffle_i64x2(z[0], z[1], 0x44);
	__m512i b = _mm512_shuffle_i64x2(z[0], z[1], 0xee);
	__m512i c = _mm512_shuffle_i64x2(z[2], z[3], 0x44);
	__m512i d = _mm512_shuffle_i64x2(z[2], z[3], 0xee);
	__m512i t0 = _mm512_shuffle_i64x2(a, c, 0x88);
	__m512i t1 = _mm512_shuffle_i64x2(a, c, 0xdd);
	__m512i t2 = _mm512_shuffle_i64x2(b, d, 0x88);
	__m512i t3 = _mm512_shuffle_i64x2(b, d, 0xdd);

	t3 = fold512_add(t2, kbcast(fc, 1), t3);
	t3 = fold512_add(t1, kbcast(fc, 2), t3);
	return fold512_add(t0, kbcast(fc, 3), t3);
}

/* finish128()'s reduction for four remainders at once; lane j's state -> res[2j] */
INLINE T_VPCLMUL void barrett512(const struct fold_consts *fc, __m512i x, int refl,
				 unsigned int n, uint64_t *res)
{
	const __m512i ka = _mm512_set1_epi64((long long)fc->ka);
	const __m512i mu = _mm512_set1_epi64((long long)fc->mu);
	const __m512i pl = _mm512_set1_epi64((long long)fc->p);
	__m512i y, yh, t, r;

	if (!refl) {
		__m512i xl = _mm512_maskz_mov_epi64(0x55, x);

		y = _mm512_xor_si512(_mm512_clmulepi64_epi128(x, ka, 0x01),
				     n == 16 ? _mm512_bslli_epi128(xl, 2) :
				     n == 32 ? _mm512_bslli_epi128(xl, 4) :
					       _mm512_bslli_epi128(xl, 8));
		yh = n == 16 ? _mm512_bsrli_epi128(y, 2) :
		     n == 32 ? _mm512_bsrli_epi128(y, 4) : _mm512_bsrli_epi128(y, 8);
		t = _mm512_clmulepi64_epi128(yh, mu, 0x00);
		yh = _mm512_xor_si512(yh, _mm512_bsrli_epi128(t, 8));
		t = _mm512_clmulepi64_epi128(yh, pl, 0x00);
		r = _mm512_xor_si512(t, y);
		if (n < 64)
			r = _mm512_and_si512(r, _mm512_set1_epi64((long long)((1ull << n) - 1)));
	} else {
		__m512i xh_only = _mm512_unpackhi_epi64(_mm512_setzero_si512(), x);

		y = _mm512_xor_si512(_mm512_clmulepi64_epi128(x, ka, 0x00),
				     n == 64 ? _mm512_bsrli_epi128(x, 8) :
					       _mm512_bsrli_epi128(xh_only, 4));
		yh = n == 64 ? y : _mm512_bsrli_epi128(y, 4);
		yh = _mm512_maskz_mov_epi64(0x55, yh);
		t = _mm512_clmulepi64_epi128(yh, mu, 0x00);
		yh = _mm512_xor_si512(yh, _mm512_slli_epi64(t, 1));
		t = _mm512_clmulepi64_epi128(yh, pl, 0x00);
		if (n == 64) {
			r = _mm512_xor_si512(_mm512_srli_epi64(t, 63),
					     _mm512_bsrli_epi128(_mm512_slli_epi64(t, 1), 8));
			r = _mm512_xor_si512(r, _mm512_bsrli_epi128(y, 8));
		} else {
			r = _mm512_srli_epi64(_mm512_bsrli_epi128(t, 8), 31);
			r = _mm512_xor_si512(r, _mm512_srli_epi64(_mm512_bsrli_epi128(y, 8), 32));
			r = _mm512_and_si512(r, _mm512_set1_epi64(0xffffffffll));
		}
	}
	_mm512_storeu_si512((void *)res, r);
}

/*
 * Many equal-length buffers (the intervals of a PI buffer): four at a time,
 * one 512-bit accumulator each, so the four fold chains overlap and the
 * carry-less multiplier stays busy instead of waiting on one chain's
 * latency - which is what bounds a single 512-byte CRC.
 */
INLINE T_VPCLMUL void fold_multi512(const struct fold_consts *fc, int refl,
				    unsigned int n, finish_fn fin, uint64_t init,
				    const unsigned char *base, size_t stride,
				    size_t len, size_t nbuf, uint64_t *out)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					   11, 12, 13, 14, 15);
	const __m512i bswapz = _mm512_broadcast_i32x4(bswap);
	size_t b = 0;

	if (len >= 128) {
		const __m512i k4 = kbcast(fc, 4);
		const __m512i iz = _mm512_inserti32x4(_mm512_setzero_si512(),
						      init128(init, refl, n), 0);
		const __m512i k1 = kbcast(fc, 1);

		for (; b + 4 <= nbuf; b += 4) {
			const unsigned char *p[4];
			uint64_t res[8];
			__m512i z[4], x;
			size_t off, rest;
			int j;

			for (j = 0; j < 4; j++) {
				p[j] = base + (b + j) * stride;
				z[j] = _mm512_xor_si512(load512(p[j], refl, bswapz), iz);
			}
			for (off = 64; off + 64 <= len; off += 64) {
				z[0] = fold512_add(z[0], k4, load512(p[0] + off, refl, bswapz));
				z[1] = fold512_add(z[1], k4, load512(p[1] + off, refl, bswapz));
				z[2] = fold512_add(z[2], k4, load512(p[2] + off, refl, bswapz));
				z[3] = fold512_add(z[3], k4, load512(p[3] + off, refl, bswapz));
			}
			x = transpose_reduce(fc, z);
			for (rest = len - off; rest >= 16; rest -= 16, off += 16) {
				__m512i d = _mm512_castsi128_si512(load128(p[0] + off, refl, bswap));

				d = _mm512_inserti32x4(d, load128(p[1] + off, refl, bswap), 1);
				d = _mm512_inserti32x4(d, load128(p[2] + off, refl, bswap), 2);
				d = _mm512_inserti32x4(d, load128(p[3] + off, refl, bswap), 3);
				x = fold512_add(x, k1, d);
			}
			barrett512(fc, x, refl, n, res);
			for (j = 0; j < 4; j++)
				out[b + j] = rest ? fin(res[2 * j], p[j] + off, rest) : res[2 * j];
		}
	}
	for (; b < nbuf; b++)
		out[b] = fold_crc512(fc, refl, n, fin, init, base + b * stride, len);
}

T_VPCLMUL void crc16_vpclmul_multi(uint64_t init, const void *base, size_t stride,
				   size_t len, size_t n, uint64_t *out)
{
	fold_multi512(&fc16, 0, 16, crc16_slice16, init, base, stride, len, n, out);
}

T_VPCLMUL void crc32c_vpclmul_multi(uint64_t init, const void *base, size_t stride,
				    size_t len, size_t n, uint64_t *out)
{
	fold_multi512(&fc32, 1, 32, crc32c_slice16, init, base, stride, len, n, out);
}

T_VPCLMUL void crc64_vpclmul_multi(uint64_t init, const void *base, size_t stride,
				   size_t len, size_t n, uint64_t *out)
{
	fold_multi512(&fc64, 1, 64, crc64_slice16, init, base, stride, len, n, out);
}

/* ---- 256-bit lanes: VPCLMULQDQ without AVX-512 ---- */

/*
 * CPUs with VPCLMULQDQ but no AVX-512F (AMD Zen 3, Intel Alder Lake and
 * later client cores) fold 256-bit registers: two 128-bit lanes per
 * instruction.  Only the many-buffer form exists: a single 512-byte CRC is
 * bound by the latency of its chain of folds and its final reduction, not
 * by the multiplier, so wider lanes do not help it; several sectors in
 * flight do.  On the Zen 3 EPYC this was written on (a development VM,
 * /proc/cpuinfo family 25 model 1: AVX2 and VPCLMULQDQ, no AVX-512, so the
 * 512-bit code above could not run there), eight sectors with one 256-bit
 * accumulator each gave guard generation ~1.5-1.9x ISA-L's crc16_t10dif
 * called per sector (scripts/bench-crc).  The 512-bit code was measured on
 * a later one, family 25 model 17 (Zen 4, AVX-512): crc.c's table.
 */
#define T_VPCLMUL256	__attribute__((target("pclmul,ssse3,sse4.1,avx,avx2,vpclmulqdq")))

INLINE T_VPCLMUL256 __m256i fold256(__m256i y, __m256i k)
{
	return _mm256_xor_si256(_mm256_clmulepi64_epi128(y, k, 0x00),
				_mm256_clmulepi64_epi128(y, k, 0x11));
}

INLINE T_VPCLMUL256 __m256i load256(const unsigned char *p, int refl, __m256i bswap)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)p);

	return refl ? v : _mm256_shuffle_epi8(v, bswap);
}

/*
 * @NS buffers of @len (>= 32) bytes at @p[], each folded in one 256-bit
 * accumulator (two 128-bit lanes, 32 bytes per step, so the fold distance
 * is two blocks); the two lanes are joined, the rest shorter than 32 bytes
 * folded 16 at a time, and each remainder reduced like finish128().
 */
/* the per-sector loops must unroll, or the accumulators live in memory */
#define UNROLL _Pragma("GCC unroll 8")

#define FOLD_MULTI256(NS)						\
INLINE T_VPCLMUL256 void fold_multi256_##NS(const struct fold_consts *fc,	\
		int refl, unsigned int n, finish_fn fin, uint64_t init,	\
		const unsigned char *const *p, size_t len, uint64_t *out)	\
{									\
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,	\
					   10, 11, 12, 13, 14, 15);	\
	const __m256i bswapy = _mm256_broadcastsi128_si256(bswap);	\
	const __m256i k2 = _mm256_broadcastsi128_si256(kload(fc, 2));	\
	const __m256i iy = _mm256_zextsi128_si256(init128(init, refl, n));	\
	const __m128i k1 = kload(fc, 1);				\
	__m256i y[NS];							\
	__m128i x[NS];							\
	size_t off, rest;						\
	int j;								\
									\
	UNROLL for (j = 0; j < NS; j++)					\
		y[j] = _mm256_xor_si256(load256(p[j], refl, bswapy), iy);	\
	for (off = 32; off + 32 <= len; off += 32)			\
		UNROLL for (j = 0; j < NS; j++)				\
			y[j] = _mm256_xor_si256(fold256(y[j], k2),	\
					load256(p[j] + off, refl, bswapy));	\
	UNROLL for (j = 0; j < NS; j++)					\
		x[j] = _mm_xor_si128(fold128(_mm256_castsi256_si128(y[j]), k1),	\
				     _mm256_extracti128_si256(y[j], 1));	\
	for (rest = len - off; rest >= 16; rest -= 16, off += 16)	\
		UNROLL for (j = 0; j < NS; j++)				\
			x[j] = _mm_xor_si128(fold128(x[j], k1),		\
					     load128(p[j] + off, refl, bswap));	\
	UNROLL for (j = 0; j < NS; j++)					\
		out[j] = finish128(fc, x[j], refl, n, fin, p[j] + off, rest);	\
}
FOLD_MULTI256(8)
FOLD_MULTI256(4)

INLINE T_VPCLMUL256 void fold_multi256(const struct fold_consts *fc, int refl,
				       unsigned int n, finish_fn fin, uint64_t init,
				       const unsigned char *base, size_t stride,
				       size_t len, size_t nbuf, uint64_t *out)
{
	const unsigned char *p[8];
	size_t b = 0;
	int j;

	if (len >= 32) {
		for (; b + 8 <= nbuf; b += 8) {
			for (j = 0; j < 8; j++)
				p[j] = base + (b + j) * stride;
			fold_multi256_8(fc, refl, n, fin, init, p, len, out + b);
		}
		for (; b + 4 <= nbuf; b += 4) {
			for (j = 0; j < 4; j++)
				p[j] = base + (b + j) * stride;
			fold_multi256_4(fc, refl, n, fin, init, p, len, out + b);
		}
	}
	for (; b < nbuf; b++)
		out[b] = fold_crc128(fc, refl, n, fin, init, base + b * stride, len);
}

int crc_x86_vpclmul256_ok(void)
{
	return __builtin_cpu_supports("vpclmulqdq") &&
	       __builtin_cpu_supports("avx2") && crc_x86_pclmul_ok();
}

T_VPCLMUL256 void crc16_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
					 size_t len, size_t n, uint64_t *out)
{
	fold_multi256(&fc16, 0, 16, crc16_slice16, init, base, stride, len, n, out);
}

T_VPCLMUL256 void crc32c_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
					  size_t len, size_t n, uint64_t *out)
{
	fold_multi256(&fc32, 1, 32, crc32c_slice16, init, base, stride, len, n, out);
}

T_VPCLMUL256 void crc64_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
					 size_t len, size_t n, uint64_t *out)
{
	fold_multi256(&fc64, 1, 64, crc64_slice16, init, base, stride, len, n, out);
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
