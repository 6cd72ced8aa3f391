// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc.c - portable guard implementations (byte table, slice-by-16, IP
 * checksum), the ISA-L wrappers, the table of all implementations and the
 * dispatch.  The x86 instruction-set versions live in crc-x86.c.
 *
 * Why slice-by-16: one table lookup per byte with no serial dependency
 * between the 16 lookups of a block, against the byte-at-a-time loop whose
 * every step waits for the previous one (4.5 vs 0.41 GB/s measured on an
 * earlier development VM; on 2026-12-03, loaded, 0.92 vs 0.084 at 4 KiB).
 */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#endif

#include "lib/byteorder.h"
#include "pi/crc.h"
#include "pi/crc-internal.h"
#include "pi/selftest.h"
#include "lib/util.h"

/*
 * tab16[k][v] is the CRC of byte v followed by k zero bytes (zero initial
 * state); likewise tab32/tab64 for the reflected CRCs.  Slice-by-16 XORs
 * the 16 lookups of a block together.
 */
static uint16_t tab16[16][256];
static uint32_t tab32[16][256];
static uint64_t tab64[16][256];

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	const uint32_t p32 = 0x82f63b78u;		/* CRC32C_POLY reflected */
	const uint64_t p64 = 0x9a6c9329ac4bc9b5ull;	/* CRC64_NVME_POLY reflected */
	unsigned int v, k, b;

	for (v = 0; v < 256; v++) {
		uint16_t c16 = v << 8;
		uint32_t c32 = v;
		uint64_t c64 = v;

		for (b = 0; b < 8; b++) {
			c16 = (c16 & 0x8000) ? (uint16_t)((c16 << 1) ^ CRC16_T10DIF_POLY)
					     : (uint16_t)(c16 << 1);
			c32 = (c32 & 1) ? (c32 >> 1) ^ p32 : c32 >> 1;
			c64 = (c64 & 1) ? (c64 >> 1) ^ p64 : c64 >> 1;
		}
		tab16[0][v] = c16;
		tab32[0][v] = c32;
		tab64[0][v] = c64;
	}
	for (k = 1; k < 16; k++) {
		for (v = 0; v < 256; v++) {
			uint16_t c16 = tab16[k - 1][v];
			uint32_t c32 = tab32[k - 1][v];
			uint64_t c64 = tab64[k - 1][v];

			tab16[k][v] = (uint16_t)(c16 << 8) ^ tab16[0][c16 >> 8];
			tab32[k][v] = (c32 >> 8) ^ tab32[0][c32 & 0xff];
			tab64[k][v] = (c64 >> 8) ^ tab64[0][c64 & 0xff];
		}
	}
#if defined(__x86_64__)
	crc_x86_init();
#endif
}

void crc_tables_init(void)
{
	pthread_once(&tables_once, build_tables);
}

/* ---- CRC-16/T10-DIF ---- */

static uint64_t crc16_byte(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint16_t crc = state;

	while (len--)
		crc = (uint16_t)(crc << 8) ^ tab16[0][(crc >> 8) ^ *p++];
	return crc;
}

uint64_t crc16_slice16(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint16_t crc = state;

	for (; len >= 16; len -= 16, p += 16) {
		unsigned int hi = (crc >> 8) ^ p[0], lo = (crc & 0xff) ^ p[1];

		crc = tab16[15][hi] ^ tab16[14][lo] ^
		      tab16[13][p[2]] ^ tab16[12][p[3]] ^
		      tab16[11][p[4]] ^ tab16[10][p[5]] ^
		      tab16[9][p[6]] ^ tab16[8][p[7]] ^
		      tab16[7][p[8]] ^ tab16[6][p[9]] ^
		      tab16[5][p[10]] ^ tab16[4][p[11]] ^
		      tab16[3][p[12]] ^ tab16[2][p[13]] ^
		      tab16[1][p[14]] ^ tab16[0][p[15]];
	}
	return crc16_byte(crc, p, len);
}

/* ---- CRC-32C ---- */

static uint64_t crc32c_byte(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = state;

	while (len--)
		crc = (crc >> 8) ^ tab32[0][(crc ^ *p++) & 0xff];
	return crc;
}

uint64_t crc32c_slice16(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = state;

	for (; len >= 16; len -= 16, p += 16) {
		uint32_t c = crc ^ get_le32(p);

		crc = tab32[15][c & 0xff] ^ tab32[14][(c >> 8) & 0xff] ^
		      tab32[13][(c >> 16) & 0xff] ^ tab32[12][c >> 24] ^
		      tab32[11][p[4]] ^ tab32[10][p[5]] ^
		      tab32[9][p[6]] ^ tab32[8][p[7]] ^
		      tab32[7][p[8]] ^ tab32[6][p[9]] ^
		      tab32[5][p[10]] ^ tab32[4][p[11]] ^
		      tab32[3][p[12]] ^ tab32[2][p[13]] ^
		      tab32[1][p[14]] ^ tab32[0][p[15]];
	}
	return crc32c_byte(crc, p, len);
}

/* ---- CRC-64/NVME ---- */

static uint64_t crc64_byte(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t crc = state;

	while (len--)
		crc = (crc >> 8) ^ tab64[0][(crc ^ *p++) & 0xff];
	return crc;
}

uint64_t crc64_slice16(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t crc = state;

	for (; len >= 16; len -= 16, p += 16) {
		uint64_t c = crc ^ get_le64(p);

		crc = tab64[15][c & 0xff] ^ tab64[14][(c >> 8) & 0xff] ^
		      tab64[13][(c >> 16) & 0xff] ^ tab64[12][(c >> 24) & 0xff] ^
		      tab64[11][(c >> 32) & 0xff] ^ tab64[10][(c >> 40) & 0xff] ^
		      tab64[9][(c >> 48) & 0xff] ^ tab64[8][c >> 56] ^
		      tab64[7][p[8]] ^ tab64[6][p[9]] ^
		      tab64[5][p[10]] ^ tab64[4][p[11]] ^
		      tab64[3][p[12]] ^ tab64[2][p[13]] ^
		      tab64[1][p[14]] ^ tab64[0][p[15]];
	}
	return crc64_byte(crc, p, len);
}

/* ---- IP checksum ---- */

/*
 * The raw state is the folded 16-bit ones' complement sum of big-endian
 * words, not yet complemented.  The sum is byte-order independent up to a
 * final swap (RFC 1071), so we add little-endian 32-bit words into 64-bit
 * accumulators, fold, and swap once.
 */
uint64_t ipcsum_portable(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t sum = __builtin_bswap16((uint16_t)state);

	while (len) {
		/* 2^30 bytes per round keeps the 64-bit accumulators exact. */
		size_t n = len < (1u << 30) ? len : (1u << 30);
		uint64_t a = 0, b = 0, c = 0, d = 0;

		len -= n;
		for (; n >= 16; n -= 16, p += 16) {
			a += get_le32(p);
			b += get_le32(p + 4);
			c += get_le32(p + 8);
			d += get_le32(p + 12);
		}
		for (; n >= 4; n -= 4, p += 4)
			a += get_le32(p);
		if (n >= 2) {
			a += p[0] | (p[1] << 8);
			p += 2;
			n -= 2;
		}
		if (n) {
			/* lone last byte: high half of a zero-padded BE word */
			a += *p++;
		}
		a = (a & 0xffffffff) + (a >> 32) + (b & 0xffffffff) + (b >> 32);
		c = (c & 0xffffffff) + (c >> 32) + (d & 0xffffffff) + (d >> 32);
		sum += a + c;
		sum = (sum & 0xffffffff) + (sum >> 32);
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return __builtin_bswap16((uint16_t)sum);
}

/* ---- ISA-L ---- */

#ifdef HAVE_ISAL
static uint64_t crc16_isal(uint64_t state, const void *buf, size_t len)
{
	/* ISA-L's init_crc is our raw state: init 0, no final XOR. */
	return crc16_t10dif((uint16_t)state, buf, len);
}

static uint64_t crc32c_isal(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = state;

	/*
	 * crc32_iscsi() takes the raw register (no inversion inside: callers
	 * pass ~0 and invert the result for CRC-32C) and an int length.
	 */
	while (len) {
		int n = len > (size_t)INT_MAX ? INT_MAX & ~15 : (int)len;

		crc = crc32_iscsi((unsigned char *)p, n, crc);
		p += n;
		len -= n;
	}
	return crc;
}

#ifdef HAVE_ISAL_CRC64_NVME
static uint64_t crc64_isal(uint64_t state, const void *buf, size_t len)
{
	/* ISA-L's crc64 *_refl functions invert on entry and exit. */
	return ~crc64_rocksoft_refl(~state, buf, len);
}
#endif
#endif

/*
 * ---- the table ----
 *
 * Ranks order the single-buffer dispatch among the implementations that
 * pass their self-test (crc-selftest.c).  Where each was measured
 * (doc/pi-engines.md, "CRC implementations", has the figures and
 * commands): on 2026-12-03 on the development VM, 2 vCPUs, /proc/cpuinfo
 * "AMD EPYC" family 25 model 17 (Zen 4, EPYC 9004: AVX-512, VPCLMULQDQ),
 * shared with six other builds, so only the order means anything.  There
 * the 512-bit vpclmul code and ISA-L tie on single buffers, within the
 * noise (crc16, 10 alternated runs each, best cell: 4 KiB 17.4 vs 22.5
 * GB/s, 64 KiB 21.1 vs 20.7, 512 B 11.2 vs 13.0), so ISA-L, the more
 * widely deployed code, keeps the first rank; for the intervals of a PI
 * buffer crc_best_intervals() prefers the four-at-a-time vpclmul variant
 * (scripts/bench-crc: PI generate+verify 1.28x ISA-L's, quartiles
 * 1.13-1.49).  vpclmul256 (rank 45) was measured against ISA-L on a Zen 3
 * development VM (family 25 model 1: VPCLMULQDQ without AVX-512, where it
 * is the intervals' choice; doc/benchmarks.md, "CRC figures"), never
 * against pclmul.  Never run on any machine of this project: ISA-L's
 * crc64 (rank 60 over vpclmul; needs ISA-L 2.31, the machines have 2.30,
 * so it is not built), and any path on a CPU other than these two.  The
 * TCG guests of the VM tests have neither AVX-512 nor VPCLMULQDQ: the
 * vpclmul and vpclmul256 paths do not run there; `dixload crcbench`
 * prints what a CPU cannot run.
 */

#define IMPL(n, g, up, mu, ok, r, d, nd) \
	{ .name = n, .guard = g, .update = up, .multi = mu, .supported = ok, \
	  .rank = r, .desc = d, .needs = nd }

#define NEEDS_PCLMUL	"pclmulqdq, ssse3"
#define NEEDS_VPCLMUL	"avx512f, avx512bw, avx512vl, vpclmulqdq, pclmulqdq, ssse3"
#define NEEDS_VPCLMUL256 "avx2, vpclmulqdq, pclmulqdq, ssse3"
#define REF_DESC	"bit at a time, the self-test's reference (last resort)"

static const struct crc_impl impl_table[] = {
	IMPL("reference", DIX_GUARD_CRC16, crc16_reference, NULL, NULL, 1, REF_DESC, NULL),
	IMPL("byte", DIX_GUARD_CRC16, crc16_byte, NULL, NULL, 10,
	     "portable, one table lookup per byte", NULL),
	IMPL("slice16", DIX_GUARD_CRC16, crc16_slice16, NULL, NULL, 20,
	     "portable slice-by-16", NULL),
#if defined(__x86_64__)
	IMPL("pclmul", DIX_GUARD_CRC16, crc16_pclmul, NULL, crc_x86_pclmul_ok, 40,
	     "PCLMULQDQ folding, 8 x 128-bit lanes", NEEDS_PCLMUL),
	IMPL("vpclmul", DIX_GUARD_CRC16, crc16_vpclmul, crc16_vpclmul_multi, crc_x86_vpclmul_ok, 50,
	     "AVX-512 VPCLMULQDQ folding, 4 x 512-bit lanes", NEEDS_VPCLMUL),
	IMPL("vpclmul256", DIX_GUARD_CRC16, crc16_pclmul, crc16_vpclmul256_multi, crc_x86_vpclmul256_ok, 45,
	     "AVX2 VPCLMULQDQ, 8 sectors in flight (single buffers: pclmul)", NEEDS_VPCLMUL256),
#endif
#ifdef HAVE_ISAL
	IMPL("isal", DIX_GUARD_CRC16, crc16_isal, NULL, NULL, 60,
	     "ISA-L crc16_t10dif (its own CPU dispatch)", NULL),
#endif

	IMPL("reference", DIX_GUARD_IP, ipcsum_reference, NULL, NULL, 1,
	     "one 16-bit word at a time (RFC 1071), the self-test's reference", NULL),
	IMPL("portable", DIX_GUARD_IP, ipcsum_portable, NULL, NULL, 20,
	     "portable, 4 x 64-bit accumulators", NULL),
#if defined(__x86_64__)
	IMPL("avx2", DIX_GUARD_IP, ipcsum_avx2, NULL, crc_x86_avx2_ok, 40,
	     "AVX2, 64-bit lane accumulators", "avx2"),
#endif

	IMPL("reference", DIX_GUARD_CRC32C, crc32c_reference, NULL, NULL, 1, REF_DESC, NULL),
	IMPL("byte", DIX_GUARD_CRC32C, crc32c_byte, NULL, NULL, 10,
	     "portable, one table lookup per byte", NULL),
	IMPL("slice16", DIX_GUARD_CRC32C, crc32c_slice16, NULL, NULL, 20,
	     "portable slice-by-16", NULL),
#if defined(__x86_64__)
	IMPL("sse42", DIX_GUARD_CRC32C, crc32c_sse42, NULL, crc_x86_sse42_ok, 30,
	     "SSE4.2 crc32 instruction, one stream", "sse4_2"),
	IMPL("pclmul", DIX_GUARD_CRC32C, crc32c_pclmul, NULL, crc_x86_pclmul_ok, 40,
	     "PCLMULQDQ folding, 8 x 128-bit lanes", NEEDS_PCLMUL),
	IMPL("vpclmul", DIX_GUARD_CRC32C, crc32c_vpclmul, crc32c_vpclmul_multi, crc_x86_vpclmul_ok, 50,
	     "AVX-512 VPCLMULQDQ folding, 4 x 512-bit lanes", NEEDS_VPCLMUL),
	IMPL("vpclmul256", DIX_GUARD_CRC32C, crc32c_pclmul, crc32c_vpclmul256_multi, crc_x86_vpclmul256_ok, 45,
	     "AVX2 VPCLMULQDQ, 8 sectors in flight (single buffers: pclmul)", NEEDS_VPCLMUL256),
#endif
#ifdef HAVE_ISAL
	IMPL("isal", DIX_GUARD_CRC32C, crc32c_isal, NULL, NULL, 60,
	     "ISA-L crc32_iscsi (its own CPU dispatch)", NULL),
#endif

	IMPL("reference", DIX_GUARD_CRC64, crc64_reference, NULL, NULL, 1, REF_DESC, NULL),
	IMPL("byte", DIX_GUARD_CRC64, crc64_byte, NULL, NULL, 10,
	     "portable, one table lookup per byte", NULL),
	IMPL("slice16", DIX_GUARD_CRC64, crc64_slice16, NULL, NULL, 20,
	     "portable slice-by-16", NULL),
#if defined(__x86_64__)
	IMPL("pclmul", DIX_GUARD_CRC64, crc64_pclmul, NULL, crc_x86_pclmul_ok, 40,
	     "PCLMULQDQ folding, 8 x 128-bit lanes", NEEDS_PCLMUL),
	IMPL("vpclmul", DIX_GUARD_CRC64, crc64_vpclmul, crc64_vpclmul_multi, crc_x86_vpclmul_ok, 50,
	     "AVX-512 VPCLMULQDQ folding, 4 x 512-bit lanes", NEEDS_VPCLMUL),
	IMPL("vpclmul256", DIX_GUARD_CRC64, crc64_pclmul, crc64_vpclmul256_multi, crc_x86_vpclmul256_ok, 45,
	     "AVX2 VPCLMULQDQ, 8 sectors in flight (single buffers: pclmul)", NEEDS_VPCLMUL256),
#endif
#ifdef HAVE_ISAL_CRC64_NVME
	/* never built here (ISA-L 2.30): rank 60 is unmeasured, see above */
	IMPL("isal", DIX_GUARD_CRC64, crc64_isal, NULL, NULL, 60,
	     "ISA-L crc64_rocksoft_refl (its own CPU dispatch)", NULL),
#endif
};

#define NR_IMPLS	ARRAY_SIZE(impl_table)

const struct crc_impl *crc_impls(size_t *nr)
{
	crc_tables_init();
	*nr = NR_IMPLS;
	return impl_table;
}

int crc_impl_ok(const struct crc_impl *impl)
{
	return !impl->supported || impl->supported();
}

/* ---- self-test and dispatch ---- */

/*
 * One lock for the self-tests and the choice: the first crc_best() of a
 * process runs them while the other workers wait, then every call is one
 * acquire load.  @picked is reset only by crc_test_register().
 */
static pthread_mutex_t pick_lock = PTHREAD_MUTEX_INITIALIZER;
static int picked;
static const struct crc_impl *best[DIX_GUARD_NR];
static const struct crc_impl *best_multi[DIX_GUARD_NR];
static const struct crc_impl *forced[DIX_GUARD_NR];
static const struct crc_impl *test_impl;	/* crc_test_register() */

/* self-test verdicts: 0 not run, 1 passed, -1 failed; [NR_IMPLS]: test_impl */
static signed char verdict[NR_IMPLS + 1];
static char verdict_why[NR_IMPLS + 1][160];
static bool said[NR_IMPLS + 1];	/* its refusal was printed */

static size_t impl_index(const struct crc_impl *c)
{
	return c == test_impl ? NR_IMPLS : (size_t)(c - impl_table);
}

/* The verdict on @c, testing it the first time; pick_lock held. */
static int selftest_locked(const struct crc_impl *c)
{
	size_t i = impl_index(c);

	if (!verdict[i]) {
		crc_tables_init();
		verdict_why[i][0] = '\0';
		verdict[i] = crc_selftest_impl(c, verdict_why[i],
					       sizeof(verdict_why[i])) ? -1 : 1;
	}
	return verdict[i];
}

int crc_impl_selftest(const struct crc_impl *c, char *why, size_t wlen)
{
	int v;

	pthread_mutex_lock(&pick_lock);
	if (c != test_impl && (c < impl_table || c >= impl_table + NR_IMPLS)) {
		/* not one of ours: test it, remember nothing */
		why[0] = '\0';
		v = crc_selftest_impl(c, why, wlen);
		pthread_mutex_unlock(&pick_lock);
		return v;
	}
	v = selftest_locked(c);
	snprintf(why, wlen, "%s", verdict_why[impl_index(c)]);
	pthread_mutex_unlock(&pick_lock);
	return v > 0 ? 0 : -1;
}

/*
 * The best of guard @g (with a many-buffer variant if @multi) that passes
 * its self-test, tried from the highest rank down; each one refused is
 * said once, naming what replaces it.  NULL only for @multi.
 */
static const struct crc_impl *pick_one(enum dix_guard g, int multi)
{
	static const char *const paths[DIX_GUARD_NR][2] = {
		[DIX_GUARD_CRC16] = { "crc16", "crc16 intervals" },
		[DIX_GUARD_IP] = { "ip", "ip intervals" },
		[DIX_GUARD_CRC32C] = { "crc32c", "crc32c intervals" },
		[DIX_GUARD_CRC64] = { "crc64", "crc64 intervals" },
	};
	const struct crc_impl *refused[NR_IMPLS + 1], *c;
	size_t nref = 0, i;
	int below = INT_MAX;

	for (;;) {
		c = NULL;
		for (i = 0; i <= NR_IMPLS; i++) {
			const struct crc_impl *t = i < NR_IMPLS ? &impl_table[i] : test_impl;

			if (!t || t->guard != g || (multi && !t->multi) ||
			    t->rank >= below || !crc_impl_ok(t))
				continue;
			if (!c || t->rank > c->rank)
				c = t;
		}
		if (!c || selftest_locked(c) > 0)
			break;
		refused[nref++] = c;
		below = c->rank;
	}
	/*
	 * every single-buffer one refused, the reference included (which
	 * only a miscompiled build could do): the reference is still the
	 * definition, so it is what stays
	 */
	for (i = 0; !c && !multi && i < NR_IMPLS; i++)
		if (impl_table[i].guard == g && impl_table[i].rank == 1)
			c = &impl_table[i];
	/*
	 * one line per refused implementation, from the single-buffer pick
	 * that comes first; a refused multi falls back to crc_best()
	 */
	for (i = 0; i < nref; i++) {
		size_t k = impl_index(refused[i]);

		if (said[k])
			continue;
		said[k] = true;
		selftest_refuse(paths[g][multi], refused[i]->name,
				c ? c->name : best[g]->name, verdict_why[k]);
	}
	return c;
}

static void pick_locked(void)
{
	int g;

	for (g = 0; g < DIX_GUARD_NR; g++) {
		best[g] = pick_one(g, 0);
		best_multi[g] = pick_one(g, 1);
	}
	__atomic_store_n(&picked, 1, __ATOMIC_RELEASE);
}

static void pick_best(void)
{
	if (__atomic_load_n(&picked, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&pick_lock);
	if (!picked)
		pick_locked();
	pthread_mutex_unlock(&pick_lock);
}

const struct crc_impl *crc_best(enum dix_guard g)
{
	pick_best();
	return forced[g] ? forced[g] : best[g];
}

/*
 * For the intervals of a PI buffer a many-buffer variant wins even over a
 * faster single-buffer implementation: a lone 512-byte CRC is bound by the
 * latency of its final reduction, four interleaved ones are not (crcbench's
 * PI rows show both choices side by side).
 */
const struct crc_impl *crc_best_intervals(enum dix_guard g)
{
	pick_best();
	if (forced[g])
		return forced[g];
	return best_multi[g] ? best_multi[g] : best[g];
}

void crc_update_many(const struct crc_impl *c, uint64_t init, const void *base,
		     size_t stride, size_t len, size_t n, uint64_t *out)
{
	const unsigned char *p = base;
	size_t i;

	if (c->multi) {
		c->multi(init, base, stride, len, n, out);
		return;
	}
	for (i = 0; i < n; i++, p += stride)
		out[i] = c->update(init, p, len);
}

int crc_force(enum dix_guard g, const char *name)
{
	char why[160];
	size_t i;

	crc_tables_init();
	if (!name) {
		forced[g] = NULL;
		return 0;
	}
	for (i = 0; i <= NR_IMPLS; i++) {
		const struct crc_impl *c = i < NR_IMPLS ? &impl_table[i] : test_impl;

		if (!c || c->guard != g || strcmp(c->name, name))
			continue;
		if (!crc_impl_ok(c))
			return -ENOTSUP;
		if (crc_impl_selftest(c, why, sizeof(why)))
			return -EILSEQ;
		forced[g] = c;
		return 0;
	}
	return -ENOENT;
}

void crc_test_register(const struct crc_impl *c)
{
	int g;

	pthread_mutex_lock(&pick_lock);
	test_impl = c;
	verdict[NR_IMPLS] = 0;
	said[NR_IMPLS] = false;
	for (g = 0; g < DIX_GUARD_NR; g++)
		forced[g] = NULL;
	/* the next crc_best() chooses, as the first one of a process does */
	__atomic_store_n(&picked, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pick_lock);
}

uint64_t crc_compute(enum dix_guard g, const void *buf, size_t len)
{
	return crc_final(g, crc_best(g)->update(crc_init(g), buf, len));
}

unsigned int crc_guard_bits(enum dix_guard g)
{
	switch (g) {
	case DIX_GUARD_CRC32C:
		return 32;
	case DIX_GUARD_CRC64:
		return 64;
	default:
		return 16;
	}
}

static const char *const guard_names[DIX_GUARD_NR] = {
	[DIX_GUARD_CRC16] = "crc16",
	[DIX_GUARD_IP] = "ip",
	[DIX_GUARD_CRC32C] = "crc32c",
	[DIX_GUARD_CRC64] = "crc64",
};

const char *crc_guard_name(enum dix_guard g)
{
	return (unsigned int)g < DIX_GUARD_NR ? guard_names[g] : "?";
}

int crc_guard_parse(const char *s, enum dix_guard *g)
{
	unsigned int i;

	if (!strcasecmp(s, "crc") || !strcasecmp(s, "t10dif") ||
	    !strcasecmp(s, "crc16-t10dif")) {
		*g = DIX_GUARD_CRC16;
		return 0;
	}
	if (!strcasecmp(s, "crc64-nvme")) {
		*g = DIX_GUARD_CRC64;
		return 0;
	}
	for (i = 0; i < DIX_GUARD_NR; i++) {
		if (!strcasecmp(s, guard_names[i])) {
			*g = i;
			return 0;
		}
	}
	return -EINVAL;
}
