/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dixkload_ref.h - dixkload's own software reference: the transformations
 * it checks results against without the crypto API, so the reference can
 * never be the driver under test, nor a template instance over it.
 */
#ifndef DIXKLOAD_REF_H
#define DIXKLOAD_REF_H

#include <linux/types.h>

struct dk_ref;

/**
 * dk_ref_new() - a reference for the algorithm @cra (a cra_name:
 * xts(aes), cbc(aes), ctr(aes), crc32c, crct10dif, sha256) keyed with
 * @key.  Return: the reference, NULL when dixkload has none for @cra (the
 * caller then takes another driver of the crypto API), or an ERR_PTR.
 */
struct dk_ref *dk_ref_new(const char *cra, const u8 *key, unsigned int keylen);
void dk_ref_free(struct dk_ref *r);

/** dk_ref_name() - what the reference is, for the stats' ref_driver. */
const char *dk_ref_name(const struct dk_ref *r);

/** dk_ref_cipher() - @len bytes of @in into @out (a multiple of 16). */
void dk_ref_cipher(const struct dk_ref *r, int decrypt, const u8 *iv,
		   const u8 *in, u8 *out, unsigned int len);

/** dk_ref_digest() - the digest of @len bytes of @in; its size. */
unsigned int dk_ref_digest(const struct dk_ref *r, const u8 *in,
			   unsigned int len, u8 *out);

#endif
