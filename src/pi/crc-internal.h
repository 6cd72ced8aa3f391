/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc-internal.h - what crc.c (portable code, table, dispatch) and
 * crc-x86.c (PCLMULQDQ / SSE4.2 / AVX2 code) share.  Not for other users:
 * they go through crc.h.
 */
#ifndef DIX_CRC_INTERNAL_H
#define DIX_CRC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct crc_impl;

/* Generator polynomials, x^n term implied. */
#define CRC16_T10DIF_POLY	0x8bb7u			/* MSB first */
#define CRC32C_POLY		0x1edc6f41u		/* used reflected */
#define CRC64_NVME_POLY		0xad93d23594c93659ull	/* used reflected */

/*
 * The portable slice-by-16 updates (raw state, see crc.h).  crc-x86.c
 * finishes its folded 16-byte remainder and the short tail with them.
 * crc_tables_init() must have run (crc_impls()/crc_best() make sure).
 */
uint64_t crc16_slice16(uint64_t state, const void *buf, size_t len);
uint64_t crc32c_slice16(uint64_t state, const void *buf, size_t len);
uint64_t crc64_slice16(uint64_t state, const void *buf, size_t len);
uint64_t ipcsum_portable(uint64_t state, const void *buf, size_t len);

/*
 * crc-selftest.c: the references, written from the definitions one bit
 * (IP: one 16-bit word) at a time, and the self-test that holds every
 * implementation to them before the dispatch may choose it.
 */
uint64_t crc16_reference(uint64_t state, const void *buf, size_t len);
uint64_t crc32c_reference(uint64_t state, const void *buf, size_t len);
uint64_t crc64_reference(uint64_t state, const void *buf, size_t len);
uint64_t ipcsum_reference(uint64_t state, const void *buf, size_t len);
/**
 * crc_selftest_impl() - known answers, the reference over 50 lengths at
 * varied start addresses and splits, and the many-buffer variant (if any)
 * against the single update.  Not thread-safe: crc.c calls it under its
 * dispatch lock.
 * Return: 0, or -1 with what was wrong in @why.
 */
int crc_selftest_impl(const struct crc_impl *c, char *why, size_t wlen);

/** crc_tables_init() - build the lookup tables once (thread-safe). */
void crc_tables_init(void);

#if defined(__x86_64__)
/* crc-x86.c: each needs the CPU feature its *_ok() reports. */
int crc_x86_pclmul_ok(void);
int crc_x86_vpclmul_ok(void);
int crc_x86_sse42_ok(void);
int crc_x86_avx2_ok(void);
uint64_t crc16_pclmul(uint64_t state, const void *buf, size_t len);
uint64_t crc32c_pclmul(uint64_t state, const void *buf, size_t len);
uint64_t crc64_pclmul(uint64_t state, const void *buf, size_t len);
uint64_t crc16_vpclmul(uint64_t state, const void *buf, size_t len);
uint64_t crc32c_vpclmul(uint64_t state, const void *buf, size_t len);
uint64_t crc64_vpclmul(uint64_t state, const void *buf, size_t len);
void crc16_vpclmul_multi(uint64_t init, const void *base, size_t stride,
			 size_t len, size_t n, uint64_t *out);
void crc32c_vpclmul_multi(uint64_t init, const void *base, size_t stride,
			  size_t len, size_t n, uint64_t *out);
void crc64_vpclmul_multi(uint64_t init, const void *base, size_t stride,
			 size_t len, size_t n, uint64_t *out);
int crc_x86_vpclmul256_ok(void);
void crc16_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
			    size_t len, size_t n, uint64_t *out);
void crc32c_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
			     size_t len, size_t n, uint64_t *out);
void crc64_vpclmul256_multi(uint64_t init, const void *base, size_t stride,
			    size_t len, size_t n, uint64_t *out);
uint64_t crc32c_sse42(uint64_t state, const void *buf, size_t len);
uint64_t ipcsum_avx2(uint64_t state, const void *buf, size_t len);
/** crc_x86_init() - compute the folding constants (after the tables). */
void crc_x86_init(void);
#endif

#endif
