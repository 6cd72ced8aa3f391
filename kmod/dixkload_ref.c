// SPDX-License-Identifier: GPL-2.0
/*
 * dixkload_ref.c - dixkload's own software reference (see dixkload_ref.h).
 *
 * The modes are written here over the kernel's AES library (lib/crypto,
 * built in on Debian's kernels: CONFIG_CRYPTO_LIB_AES=y), and the CRCs
 * bit by bit from their polynomials: the crypto API is not asked, so a
 * wrong result of any driver it selects (xts(ecb(aes-generic)) included)
 * cannot agree with itself.  On 6.1 the only other synchronous xts(aes) of
 * a guest without aesni_intel is the driver under test; that is why.
 *
 * The AES library's API changed (7.x: struct aes_key, aes_preparekey());
 * Kbuild tests the headers for it and defines DK_AES_KEY_API.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/err.h>
#include <crypto/aes.h>
#include <crypto/sha2.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#include "dixkload_ref.h"

enum dk_ref_alg { REF_XTS, REF_CBC, REF_CTR, REF_CRC32C, REF_T10DIF, REF_SHA256 };

#ifdef DK_AES_KEY_API
typedef struct aes_key dk_aes;
static int dk_aes_key(dk_aes *k, const u8 *key, unsigned int len)
{
	return aes_preparekey(k, key, len);
}
#else
typedef struct crypto_aes_ctx dk_aes;
static int dk_aes_key(dk_aes *k, const u8 *key, unsigned int len)
{
	return aes_expandkey(k, key, len);
}
#endif

struct dk_ref {
	enum dk_ref_alg alg;
	dk_aes k1, k2;		/* XTS: data and tweak keys; else k1 */
	char name[64];
};

static const struct {
	const char *cra;
	enum dk_ref_alg alg;
	const char *what;
} dk_refs[] = {
	{ "xts(aes)", REF_XTS, "dixkload: XTS over the AES library" },
	{ "cbc(aes)", REF_CBC, "dixkload: CBC over the AES library" },
	{ "ctr(aes)", REF_CTR, "dixkload: CTR over the AES library" },
	{ "crc32c", REF_CRC32C, "dixkload: bitwise CRC32C" },
	{ "crct10dif", REF_T10DIF, "dixkload: bitwise CRC-T10DIF" },
	{ "sha256", REF_SHA256, "dixkload: the SHA-256 library" },
};

struct dk_ref *dk_ref_new(const char *cra, const u8 *key, unsigned int keylen)
{
	struct dk_ref *r;
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(dk_refs); i++)
		if (!strcmp(cra, dk_refs[i].cra))
			break;
	if (i == ARRAY_SIZE(dk_refs))
		return NULL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->alg = dk_refs[i].alg;
	strscpy(r->name, dk_refs[i].what, sizeof(r->name));
	switch (r->alg) {
	case REF_XTS:
		if (keylen % 2)
			err = -EINVAL;
		else
			err = dk_aes_key(&r->k1, key, keylen / 2) ?:
			      dk_aes_key(&r->k2, key + keylen / 2, keylen / 2);
		break;
	case REF_CBC:
	case REF_CTR:
		err = dk_aes_key(&r->k1, key, keylen);
		break;
	default:
		/* unkeyed; a keyed crc32c (its seed) is not ours */
		if (keylen)
			err = -EINVAL;
	}
	if (err) {
		kfree_sensitive(r);
		return ERR_PTR(err);
	}
	return r;
}

void dk_ref_free(struct dk_ref *r)
{
	kfree_sensitive(r);
}

const char *dk_ref_name(const struct dk_ref *r)
{
	return r->name;
}

static void xor16(u8 *d, const u8 *a, const u8 *b)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		d[i] = a[i] ^ b[i];
}

/* the XTS tweak times alpha in GF(2^128), little-endian (IEEE 1619) */
static void xts_next(u8 *t)
{
	unsigned int i, carry = t[15] >> 7;

	for (i = 15; i > 0; i--)
		t[i] = (t[i] << 1) | (t[i - 1] >> 7);
	t[0] = (t[0] << 1) ^ (carry ? 0x87 : 0);
}

static void ctr_next(u8 *c)
{
	int i;

	for (i = 15; i >= 0; i--)
		if (++c[i])
			break;
}

void dk_ref_cipher(const struct dk_ref *r, int decrypt, const u8 *iv,
		   const u8 *in, u8 *out, unsigned int len)
{
	u8 t[16], x[16], prev[16];
	unsigned int off;

	memcpy(t, iv, 16);
	if (r->alg == REF_XTS)
		aes_encrypt(&r->k2, t, t);
	for (off = 0; off + 16 <= len; off += 16) {
		const u8 *p = in + off;
		u8 *o = out + off;

		switch (r->alg) {
		case REF_XTS:
			xor16(x, p, t);
			if (decrypt)
				aes_decrypt(&r->k1, x, x);
			else
				aes_encrypt(&r->k1, x, x);
			xor16(o, x, t);
			xts_next(t);
			break;
		case REF_CBC:
			if (decrypt) {
				memcpy(prev, p, 16);
				aes_decrypt(&r->k1, x, p);
				xor16(o, x, t);
				memcpy(t, prev, 16);
			} else {
				xor16(x, p, t);
				aes_encrypt(&r->k1, o, x);
				memcpy(t, o, 16);
			}
			break;
		case REF_CTR:
			aes_encrypt(&r->k1, x, t);
			xor16(o, p, x);
			ctr_next(t);
			break;
		default:
			return;
		}
	}
	memzero_explicit(x, sizeof(x));
}

static u32 crc32c_bits(const u8 *p, unsigned int len)
{
	u32 crc = ~0u;
	unsigned int i, b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return ~crc;
}

static u16 t10dif_bits(const u8 *p, unsigned int len)
{
	u16 crc = 0;
	unsigned int i, b;

	for (i = 0; i < len; i++) {
		crc ^= (u16)p[i] << 8;
		for (b = 0; b < 8; b++)
			crc = (crc << 1) ^ ((crc & 0x8000) ? 0x8bb7 : 0);
	}
	return crc;
}

unsigned int dk_ref_digest(const struct dk_ref *r, const u8 *in,
			   unsigned int len, u8 *out)
{
	switch (r->alg) {
	case REF_CRC32C:
		/* the crypto API's crc32c: the final value little-endian */
		put_unaligned_le32(crc32c_bits(in, len), out);
		return 4;
	case REF_T10DIF: {
		/* crct10dif: the CRC as a CPU-order u16 */
		u16 c = t10dif_bits(in, len);

		memcpy(out, &c, 2);
		return 2;
	}
	case REF_SHA256:
		sha256(in, len, out);
		return SHA256_DIGEST_SIZE;
	default:
		return 0;
	}
}
