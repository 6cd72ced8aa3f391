// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc-selftest.c - the self-test every guard implementation passes before
 * the dispatch (crc.c) may choose it, the way the kernel's crypto API tests
 * an algorithm when it is registered (crypto/testmgr.c): known-answer
 * vectors, then a comparison with a reference over varied lengths, start
 * addresses and segment splits, and for a many-buffer variant a comparison
 * with the implementation's own (just checked) single-buffer update.
 *
 * The references are written from the definitions, one bit (or, for the
 * IP checksum, one 16-bit word) at a time, and share nothing with the
 * table or folding code they judge: a wrong table, a wrong folding
 * constant, a compiler that miscompiles an intrinsic, or a CPU whose
 * instruction is broken all show as a mismatch here, on the machine that
 * runs the code.  They are also the dispatch's last resort ("reference"
 * in the table), which needs no test: it is what the tests compare with.
 *
 * Cost: the reference walks one 4160-byte buffer once per guard (its
 * state is kept at every length tested, so a length costs no reference
 * run of its own), and the implementation runs over 50 lengths at
 * rotating start addresses.  Measured on the machine of crc.c's table,
 * shared with other builds: 0.27-0.35 ms for a process's first dispatch
 * (the four guards, their interval variants included): the bit-at-a-time
 * walks 30-40 us each for the CRCs, the many-buffer comparisons (0.6 MB
 * through each variant and its update) most of the rest; beside the 0.16
 * ms the lookup tables took already.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pi/crc.h"
#include "pi/crc-internal.h"

/* ---- the references (raw state in, raw state out, like crc.h) ---- */

uint64_t crc16_reference(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint16_t crc = state;
	int b;

	while (len--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ CRC16_T10DIF_POLY)
					     : (uint16_t)(crc << 1);
	}
	return crc;
}

uint64_t crc32c_reference(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = state;
	int b;

	while (len--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1));
	}
	return crc;
}

uint64_t crc64_reference(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t crc = state;
	int b;

	while (len--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x9a6c9329ac4bc9b5ull & -(crc & 1));
	}
	return crc;
}

/*
 * RFC 1071: big-endian 16-bit words with end-around carry, a lone last
 * byte padded with a zero.  The raw state is the folded sum (crc.h).
 */
uint64_t ipcsum_reference(uint64_t state, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t sum = (uint16_t)state;

	for (; len >= 2; len -= 2, p += 2) {
		sum += (p[0] << 8) | p[1];
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len) {
		sum += p[0] << 8;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return sum;
}

static crc_update_fn crc_reference(enum dix_guard g)
{
	switch (g) {
	case DIX_GUARD_CRC16:
		return crc16_reference;
	case DIX_GUARD_IP:
		return ipcsum_reference;
	case DIX_GUARD_CRC32C:
		return crc32c_reference;
	default:
		return crc64_reference;
	}
}

/* ---- the test ---- */

/*
 * Lengths around every loop bound of the folding code (16-byte blocks,
 * 8 x 16 = 128 bytes of 128-bit lanes, 4 x 64 = 256 bytes of 512-bit
 * lanes, the 512-byte sector, a 4 KiB page and a 4 KiB interval with its
 * 8-byte tuple), ascending: the reference keeps its state at each.
 */
static const unsigned short lens[] = {
	0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 95,
	127, 128, 129, 191, 255, 256, 257, 300, 383, 384, 385, 511, 512, 513,
	520, 640, 767, 1023, 1024, 1025, 1536, 2047, 2048, 2049, 3000, 4095,
	4096, 4097, 4104, 4111, 4159, 4160,
};
#define NLENS	(sizeof(lens) / sizeof(lens[0]))
#define MAXLEN	4160u
#define SLACK	64u	/* start addresses tried: base + 0 .. 63 */

/* the many-buffer cases: sizes of a PI interval's guarded bytes, counts */
static const unsigned short mlens[] = { 16, 100, 128, 200, 512, 514, 520, 4096, 4104 };
static const unsigned char mcounts[] = { 1, 3, 4, 5, 8, 9 };

/* 16-byte aligned scratch, so "+ k" below is a known misalignment */
static unsigned char data[MAXLEN + SLACK] __attribute__((aligned(64)));

static void fill(unsigned char *p, size_t len)
{
	uint64_t x = 0x243f6a8885a308d3ull;	/* pi's hex digits: any start */
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 24);
	}
}

static int mismatch(char *why, size_t wlen, const char *what, size_t len,
		    size_t off, uint64_t got, uint64_t want)
{
	snprintf(why, wlen, "%s of %zu bytes at +%zu: 0x%llx, want 0x%llx",
		 what, len, off, (unsigned long long)got, (unsigned long long)want);
	return -1;
}

/* many-buffer input: 5 buffers of the largest size, each 3 bytes apart */
#define MBUF	(5u * (4104u + 3u) + 1u)
static unsigned char mbuf[MBUF];

int crc_selftest_impl(const struct crc_impl *c, char *why, size_t wlen)
{
	/* the published check values of "123456789"; IP: by hand, test-crc */
	static const uint64_t check[DIX_GUARD_NR] = {
		[DIX_GUARD_CRC16] = 0xd0db,
		[DIX_GUARD_IP] = 0xf62a,
		[DIX_GUARD_CRC32C] = 0xe3069283,
		[DIX_GUARD_CRC64] = 0xae8b14860a799888ull,
	};
	/* the caller holds the dispatch's lock: these statics are its */
	static unsigned char src[MAXLEN];
	static int have_src, have_want[DIX_GUARD_NR];
	static uint64_t wants[DIX_GUARD_NR][NLENS];
	const enum dix_guard g = c->guard;
	const uint64_t init = crc_init(g);
	const uint64_t *want = wants[g];
	uint64_t st, mst, out[9];
	size_t i, k, off;

	if (!have_src) {
		fill(src, MAXLEN);
		fill(mbuf, MBUF);
		have_src = 1;
	}
	st = crc_final(g, c->update(init, "123456789", 9));
	if (st != check[g])
		return mismatch(why, wlen, "check value \"123456789\"", 9, 0, st, check[g]);

	/* the reference's states at every tested length: one walk per guard */
	if (!have_want[g]) {
		crc_update_fn ref = crc_reference(g);

		/*
		 * an IP segment but the last must be even (crc.h): the sum
		 * of each length on its own, which is cheap at 2 bytes a step
		 */
		st = init;
		for (i = 0, k = 0; i < NLENS; k = lens[i++]) {
			if (g == DIX_GUARD_IP)
				st = ref(init, src, lens[i]);
			else
				st = ref(st, src + k, lens[i] - k);
			wants[g][i] = st;
		}
		have_want[g] = 1;
	}

	/* each length at another start address, 0..63 bytes past 64-aligned */
	for (i = 0; i < NLENS; i++) {
		off = (i * 23) % SLACK;
		memcpy(data + off, src, lens[i]);
		st = c->update(init, data + off, lens[i]);
		if (st != want[i])
			return mismatch(why, wlen, crc_guard_name(g), lens[i], off,
					crc_final(g, st), crc_final(g, want[i]));
	}

	/* two segments: the state carried across a split (even, for IP) */
	memcpy(data + 5, src, MAXLEN);
	for (k = 2; k < MAXLEN; k = k * 3 + 2) {
		k &= ~(size_t)1;
		st = c->update(c->update(init, data + 5, k), data + 5 + k, MAXLEN - k);
		if (st != want[NLENS - 1]) {
			snprintf(why, wlen, "%u bytes updated in two parts, split at "
				 "byte %zu: 0x%llx, want 0x%llx", MAXLEN, k,
				 (unsigned long long)crc_final(g, st),
				 (unsigned long long)crc_final(g, want[NLENS - 1]));
			return -1;
		}
	}

	if (!c->multi)
		return 0;
	/*
	 * The many-buffer variant against the single update just checked:
	 * each buffer its own bytes (a stride of len + 3, so the buffers of
	 * one call start at different misalignments), from a state that is
	 * not the initial one, counts around the four-at-a-time step.
	 */
	mst = c->update(init, src, 5);
	for (i = 0; i < sizeof(mlens) / sizeof(mlens[0]); i++) {
		for (k = 0; k < sizeof(mcounts) / sizeof(mcounts[0]); k++) {
			size_t len = mlens[i], n = mcounts[k], stride = len + 3, j;

			if (stride * n + 1 > MBUF)
				continue;
			c->multi(mst, mbuf + 1, stride, len, n, out);
			for (j = 0; j < n; j++) {
				st = c->update(mst, mbuf + 1 + j * stride, len);
				if (out[j] != st) {
					snprintf(why, wlen, "many-buffer CRC of buffer %zu of %zu "
						 "(%zu bytes each): 0x%llx, want 0x%llx",
						 j, n, len, (unsigned long long)crc_final(g, out[j]),
						 (unsigned long long)crc_final(g, st));
					return -1;
				}
			}
		}
	}
	return 0;
}
