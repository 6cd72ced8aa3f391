// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alg.c - the kcapi engine's algorithms: the table of what it drives, what
 * each request is made of (key, IV and associated data derived from --seed
 * and the request number), and the references its results are checked
 * against.
 *
 * The references share nothing with the kernel: OpenSSL's libcrypto for
 * ciphers, AEADs, sha256 and hmac(sha256), dixload's own CRC library for
 * crc32c and crct10dif.  They live with the table because each row names
 * its reference (@evp, @ref): adding an algorithm is one row here and, if
 * OpenSSL composes it differently from the kernel, its composition here
 * (as authenc's).  authenc(hmac(sha256),cbc(aes)) takes AES-128 and a
 * 32-byte HMAC key in the kernel's rtattr key blob (authenc_key.c), the
 * whole 32-byte tag.
 */
#include "config.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

#include "conf/options.h"
#include "engines/kcapi/kc.h"
#include "kernel/cryptoname.h"
#include "kernel/kwatch.h"
#include "lib/byteorder.h"
#include "pi/crc.h"

#define SKC(n, k, iv, al, e, c) { .name = n, .type = KC_SKCIPHER, .keylen = k, \
	.ivlen = iv, .align = al, .evp = e, .ref = REF_EVP, .chain = c }
#define AEAD(n, k, iv) { .name = n, .type = KC_AEAD, .keylen = k, .ivlen = iv, \
	.taglen = 16, .assoclen = 16, .align = 1, .evp = EVP_aes_128_gcm, \
	.ref = REF_EVP }
#define HASH(n, k, d, r) { .name = n, .type = KC_HASH, .keylen = k, \
	.align = 1, .digest = d, .ref = r }

static const struct kc_alg kc_algs[] = {
	SKC("xts(aes)", 32, 16, 16, EVP_aes_128_xts, CH_NONE),
	SKC("cbc(aes)", 16, 16, 16, EVP_aes_128_cbc, CH_CBC),
	SKC("ctr(aes)", 16, 16, 1, EVP_aes_128_ctr, CH_CTR),
	AEAD("gcm(aes)", 16, 12),
	AEAD("rfc4106(gcm(aes))", 20, 8),
	/*
	 * encrypt-then-MAC: the tag is HMAC-SHA256 (all 32 bytes) over the
	 * associated data and the ciphertext; the IV is CBC's, and CBC leaves
	 * the last ciphertext block in the socket's IV like cbc(aes)
	 */
	{ .name = "authenc(hmac(sha256),cbc(aes))", .type = KC_AEAD,
	  .keylen = 16, .authkeylen = 32, .ivlen = 16, .taglen = 32,
	  .assoclen = 16, .align = 16, .evp = EVP_aes_128_cbc,
	  .ref = REF_EVP, .chain = CH_CBC },
	HASH("crc32c", 0, 4, REF_CRC32C),
	HASH("crct10dif", 0, 2, REF_CRC16),
	HASH("sha256", 0, 32, REF_SHA256),
	HASH("hmac(sha256)", 32, 32, REF_HMAC),
};

/* splitmix64: keys, IVs and associated data from --seed. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void kc_derive(uint64_t seed, uint64_t what, unsigned char *p, size_t n)
{
	uint64_t s = mix(seed ^ mix(what));
	size_t i;

	for (i = 0; i < n; i += 8) {
		uint64_t v = mix(s + i);
		size_t k = n - i < 8 ? n - i : 8;

		memcpy(p + i, &v, k);
	}
}

const struct kc_alg *kc_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kc_algs) / sizeof(kc_algs[0]); i++)
		if (!strcmp(kc_algs[i].name, name))
			return &kc_algs[i];
	return NULL;
}

/*
 * The kernel's wrappers of an algorithm: same results, another way of
 * getting them (cryptd: every request through a queue to a kernel worker,
 * the shape of an offload engine; pcrypt: AEAD requests spread over CPUs
 * by padata), so each is checked against its child's references.
 */
static const struct {
	const char *tmpl;
	int aead_only;
} kc_wrappers[] = {
	{ "cryptd", 0 },
	{ "pcrypt", 1 },
};

/* @name is TMPL(INNER): the wrapper's index with INNER in @inner, or -1. */
static int unwrap(const char *name, char *inner, size_t len)
{
	size_t i, n, l = strlen(name);

	for (i = 0; i < sizeof(kc_wrappers) / sizeof(kc_wrappers[0]); i++) {
		n = strlen(kc_wrappers[i].tmpl);
		if (l > n + 2 && !strncmp(name, kc_wrappers[i].tmpl, n) &&
		    name[n] == '(' && name[l - 1] == ')' &&
		    l - n - 2 < len) {
			memcpy(inner, name + n + 1, l - n - 2);
			inner[l - n - 2] = '\0';
			return (int)i;
		}
	}
	return -1;
}

/* The algorithm name of registered driver @drv (/proc/crypto) into @out. */
static int driver_alg(const char *drv, char *out, size_t len)
{
	struct kw_state s;
	int i, r = -ENOENT;

	if (kw_snapshot(&s, "/proc", "/sys") == 0)
		for (i = 0; i < s.ncrypto; i++)
			if (!strcmp(s.crypto[i].driver, drv) &&
			    strcmp(s.crypto[i].name, drv)) {
				snprintf(out, len, "%s", s.crypto[i].name);
				r = 0;
				break;
			}
	kw_free(&s);
	return r;
}

static int resolve(const char *top, const char *name, struct kc_spec *out,
		   int depth, char *err, size_t len)
{
	char inner[KW_NAME_LEN], names[200], hint[300];
	const struct kc_alg *a = kc_find(name);
	int w, r;

	if (a) {
		out->a = *a;
		out->base = a->name;
		snprintf(out->inner, sizeof(out->inner), "%s", name);
		return 0;
	}
	if (depth > 4) {
		snprintf(err, len, "--alg: '%s' nests too deep", name);
		return -EINVAL;
	}
	w = unwrap(name, inner, sizeof(inner));
	if (w >= 0) {
		r = resolve(top, inner, out, depth + 1, err, len);
		if (r)
			return r;
		if (kc_wrappers[w].aead_only && out->a.type != KC_AEAD) {
			snprintf(err, len, "--alg '%s': %s wraps AEADs only (gcm(aes), rfc4106(gcm(aes)), authenc(hmac(sha256),cbc(aes))), and %s is not one",
				 name, kc_wrappers[w].tmpl, inner);
			return -EINVAL;
		}
		/* the outermost first: it holds the ones inside */
		memmove(out->wrap + 1, out->wrap,
			sizeof(out->wrap) - sizeof(out->wrap[0]));
		out->wrap[0] = kc_wrappers[w].tmpl;
		out->nwrap++;
		return 0;
	}
	/* a driver name: what its algorithm is, if the kernel has it now */
	if (driver_alg(name, inner, sizeof(inner)) == 0) {
		r = resolve(top, inner, out, depth + 1, err, len);
		if (r == 0) {
			out->driver = 1;
			snprintf(out->inner, sizeof(out->inner), "%s", name);
		}
		return r;
	}
	kc_alg_names(names, sizeof(names));
	snprintf(err, len, "--alg '%s'%s%s%s is not one this engine drives (%s; cryptd(X) or pcrypt(X) of one, or a driver of one registered in /proc/crypto)%s",
		 top, top != name ? ": '" : "", top != name ? name : "",
		 top != name ? "'" : "", names,
		 crypto_name_hint(name, hint, sizeof(hint)));
	return -EINVAL;
}

int kc_resolve(const char *name, struct kc_spec *out, char *err, size_t len)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = resolve(name, name, out, 0, err, len);
	if (r)
		return r;
	if (out->nwrap > KC_MAX_WRAP) {
		snprintf(err, len, "--alg '%s': at most %d wrappers", name,
			 KC_MAX_WRAP);
		return -EINVAL;
	}
	out->a.name = name;
	return 0;
}

void kc_alg_names(char *out, size_t len)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < sizeof(kc_algs) / sizeof(kc_algs[0]) && n < len; i++)
		n += snprintf(out + n, len - n, "%s%s", i ? ", " : "",
			      kc_algs[i].name);
}

/*
 * authenc(hmac(sha256),cbc(aes)) from its parts, as the kernel composes
 * it: encrypt is AES-CBC, then the tag = HMAC-SHA256(MAC key, associated
 * data || ciphertext); decrypt checks the tag first.  Arguments as for
 * kc_evp_crypt().
 */
static int authenc_crypt(struct kc *k, int enc, const unsigned char *iv,
			 const unsigned char *aad, const unsigned char *in,
			 size_t len, unsigned char *out,
			 const unsigned char *tag)
{
	const struct kc_alg *a = k->a;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdl = sizeof(md);
	int ol = 0, fl = 0;

	memcpy(k->mac, aad, a->assoclen);
	if (!enc) {
		memcpy(k->mac + a->assoclen, in, len);
		if (!HMAC(EVP_sha256(), k->key + AUTHKEY_OFF, a->authkeylen,
			  k->mac, a->assoclen + len, md, &mdl))
			return -EINVAL;
		if (CRYPTO_memcmp(md, tag, a->taglen))
			return -EBADMSG;
	}
	if (!EVP_CipherInit_ex(k->evp, a->evp(), NULL, k->key, iv, enc))
		return -EINVAL;
	EVP_CIPHER_CTX_set_padding(k->evp, 0);
	if (!EVP_CipherUpdate(k->evp, out, &ol, in, len) ||
	    !EVP_CipherFinal_ex(k->evp, out + ol, &fl))
		return -EINVAL;
	if (!enc)
		return 0;
	memcpy(k->mac + a->assoclen, out, len);
	if (!HMAC(EVP_sha256(), k->key + AUTHKEY_OFF, a->authkeylen, k->mac,
		  a->assoclen + len, md, &mdl))
		return -EINVAL;
	memcpy(out + len, md, a->taglen);
	return 0;
}

int kc_evp_crypt(struct kc *k, int enc, const unsigned char *iv,
		 const unsigned char *aad, const unsigned char *in,
		 size_t len, unsigned char *out, const unsigned char *tag)
{
	const struct kc_alg *a = k->a;
	unsigned char nonce[12];
	const unsigned char *n = iv;
	unsigned int adlen = a->assoclen;
	int ol = 0, fl = 0;

	if (a->authkeylen)
		return authenc_crypt(k, enc, iv, aad, in, len, out, tag);
	if (a->type == KC_AEAD && a->keylen == 20) {	/* rfc4106 */
		memcpy(nonce, k->key + 16, 4);
		memcpy(nonce + 4, iv, 8);
		n = nonce;
		adlen -= 8;
	}
	if (!EVP_CipherInit_ex(k->evp, a->evp(), NULL, NULL, NULL, enc))
		return -EINVAL;
	if (a->type == KC_AEAD)
		EVP_CIPHER_CTX_ctrl(k->evp, EVP_CTRL_GCM_SET_IVLEN, 12, NULL);
	if (!EVP_CipherInit_ex(k->evp, NULL, NULL, k->key, n, enc))
		return -EINVAL;
	EVP_CIPHER_CTX_set_padding(k->evp, 0);
	if (a->type == KC_AEAD) {
		if (adlen && !EVP_CipherUpdate(k->evp, NULL, &ol, aad, adlen))
			return -EINVAL;
		if (!enc)
			EVP_CIPHER_CTX_ctrl(k->evp, EVP_CTRL_GCM_SET_TAG,
					    a->taglen, (void *)tag);
	}
	if (!EVP_CipherUpdate(k->evp, out, &ol, in, len))
		return -EINVAL;
	if (!EVP_CipherFinal_ex(k->evp, out + ol, &fl))
		return -EBADMSG;
	if (a->type == KC_AEAD && enc)
		EVP_CIPHER_CTX_ctrl(k->evp, EVP_CTRL_GCM_GET_TAG, a->taglen,
				    out + len);
	return 0;
}

void kc_ref_digest(struct kc *k, const void *buf, size_t len,
		   unsigned char *want)
{
	unsigned int wl = 32;

	switch (k->a->ref) {
	case REF_CRC32C:
		put_le32(want, crc_compute(DIX_GUARD_CRC32C, buf, len));
		break;
	case REF_CRC16:
		/* the kernel's shash stores the u16 in CPU (little) order */
		put_le16(want, crc_compute(DIX_GUARD_CRC16, buf, len));
		break;
	case REF_SHA256:
		SHA256(buf, len, want);
		break;
	default:
		HMAC(EVP_sha256(), k->key, k->a->keylen, buf, len, want, &wl);
	}
}

/*
 * Async batches share the first request's IV because libkcapi takes one
 * IV per call.  A decrypt's input is OpenSSL's ciphertext and tag of the
 * job's buffer: the kernel must get something that authenticates.
 */
int kc_prepare(struct kc *k, struct dix_io *io, const unsigned char *iv)
{
	const struct kc_alg *a = k->a;
	unsigned char *in = k->in[io->idx];
	uint64_t req = req_no(k, io);
	int r;

	if (iv)
		memcpy(k->iv[io->idx], iv, a->ivlen);
	else
		kc_derive(k->o->seed, req, k->iv[io->idx], a->ivlen);
	if (a->type != KC_AEAD)
		return 0;
	kc_derive(k->o->seed, WHAT_AAD | req, in, a->assoclen);
	if (a->keylen == 20)	/* rfc4106: the IV ends the associated data */
		memcpy(in + a->assoclen - 8, k->iv[io->idx], 8);
	if (io->dir == DIX_WRITE) {
		memcpy(in + a->assoclen, io->buf, io->len);
		return 0;
	}
	/* decrypt input: ciphertext || tag of the job's buffer */
	r = kc_evp_crypt(k, 1, k->iv[io->idx], in, io->buf, io->len,
			 in + a->assoclen, NULL);
	if (r)
		return r;
	/* --inject tag@N: one bit of the tag, which the kernel must refuse */
	if (io->injected == DIX_ERR_VERIFY)
		in[a->assoclen + io->len + req % a->taglen] ^=
			1u << (req % 8);
	return 0;
}
