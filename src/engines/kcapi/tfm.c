// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tfm.c - the kcapi engine's transforms: opening a TFM (an AF_ALG socket)
 * with its key, and reopening it when --rebind auto asks.
 *
 * The kernel binds a TFM to the driver it selects when the TFM is opened
 * and keeps that binding for the TFM's life: a faster driver loaded
 * mid-run (the QAT or crct10dif-pclmul hot-load) is only used by TFMs
 * opened after it.  With --rebind auto the control thread bumps
 * cryptobind_generation() when the kernel's selection changed; a TFM
 * opened under an older generation is reopened before its next request,
 * and every open records which driver it got, for the run's binding
 * notes.  The error texts say what is
 * missing, because ENOENT alone names neither the module nor the kernel
 * change behind it.
 */
#include "config.h"

#include <errno.h>
#include <kcapi.h>
#include <stdio.h>
#include <string.h>

#include "engines/authenc_key.h"
#include "engines/kcapi/kc.h"
#include "kernel/cryptobind.h"

/* The kernel's key for the algorithm (authenc: the rtattr blob). */
static int tfm_setkey(struct kc *k, struct kc_tfm *t)
{
	unsigned char blob[AUTHENC_KEY_HDR + 64];
	int n;

	if (!k->a->keylen)
		return 0;
	switch (k->a->type) {
	case KC_SKCIPHER:
		return kcapi_cipher_setkey(t->h, k->key, k->a->keylen);
	case KC_AEAD:
		if (!k->a->authkeylen)
			return kcapi_aead_setkey(t->h, k->key, k->a->keylen);
		n = authenc_key(blob, sizeof(blob), k->key + AUTHKEY_OFF,
				k->a->authkeylen, k->key, k->a->keylen);
		return n < 0 ? -EINVAL : kcapi_aead_setkey(t->h, blob, n);
	default:
		return kcapi_md_setkey(t->h, k->key, k->a->keylen);
	}
}

void kc_tfm_close(struct kc *k, struct kc_tfm *t)
{
	if (!t->h)
		return;
	switch (k->a->type) {
	case KC_SKCIPHER:
		kcapi_cipher_destroy(t->h);
		break;
	case KC_AEAD:
		kcapi_aead_destroy(t->h);
		break;
	default:
		kcapi_md_destroy(t->h);
	}
	t->h = NULL;
}

int kc_tfm_open(struct kc *k, struct kc_tfm *t, char *err, size_t len)
{
	unsigned int flags = k->async ? KCAPI_INIT_AIO : 0;
	char drv[KW_NAME_LEN];
	int r, prio, refcnt;

	t->gen = cryptobind_generation();
	switch (k->a->type) {
	case KC_SKCIPHER:
		r = kcapi_cipher_init(&t->h, k->a->name, flags);
		break;
	case KC_AEAD:
		r = kcapi_aead_init(&t->h, k->a->name, flags);
		break;
	default:
		r = kcapi_md_init(&t->h, k->a->name, 0);
	}
	if (r) {
		char why[600];

		t->h = NULL;
		kc_explain(k->a->name, r, why, sizeof(why));
		if (why[0])
			snprintf(err, len, "%s", why);
		else if (r == -ENOENT && !strcmp(k->a->name, "crct10dif"))
			snprintf(err, len,
				 "crct10dif: no such algorithm (ENOENT): since Linux 6.14/6.15 the T10-DIF CRC is a plain library, not in the crypto API, so this engine cannot reach the PI CRC there");
		else if (r == -ENOENT)
			snprintf(err, len,
				 "%s: no such algorithm or AF_ALG type (ENOENT): load its driver (e.g. crc32c_generic), and af_alg with algif_skcipher / algif_aead / algif_hash%s%s",
				 k->a->name, *kc_need_why() ? "; " : "",
				 kc_need_why());
		else if (r == -EAFNOSUPPORT)
			snprintf(err, len,
				 "%s: this kernel has no AF_ALG sockets (CONFIG_CRYPTO_USER_API_SKCIPHER/AEAD/HASH, module af_alg)%s%s",
				 k->a->name, *kc_need_why() ? "; " : "",
				 kc_need_why());
		else
			snprintf(err, len, "%s: opening a TFM failed: %s",
				 k->a->name, strerror(-r));
		return r;
	}
	r = tfm_setkey(k, t);
	if (r == 0 && k->a->type == KC_AEAD) {
		r = kcapi_aead_settaglen(t->h, k->a->taglen);
		kcapi_aead_setassoclen(t->h, k->a->assoclen);
	}
	if (r) {
		snprintf(err, len, "%s: setting the key failed: %s",
			 k->a->name, strerror(-r));
		kc_tfm_close(k, t);
		return r;
	}
	cryptobind_opened(t->id, cryptobind_lookup(k->a->name, drv, sizeof(drv),
						   &prio, &refcnt) ? NULL : drv);
	return 0;
}

/*
 * The key and the AEAD's tag length belong to the TFM's socket, which the
 * lane shares; the associated data length is libkcapi's per handle.
 */
int kc_tfm_lane(struct kc *k, struct kc_tfm *t, struct kc_tfm *lead,
		char *err, size_t len)
{
	int r = kcapi_handle_reinit(&t->h, lead->h, KCAPI_INIT_AIO);

	if (r) {
		t->h = NULL;
		snprintf(err, len, "%s: opening op socket %u of TFM %u failed: %s",
			 k->a->name, t->lane, t->id, strerror(-r));
		return r;
	}
	t->gen = lead->gen;
	if (k->a->type == KC_AEAD)
		kcapi_aead_setassoclen(t->h, k->a->assoclen);
	return 0;
}

int kc_tfm_renew(struct kc *k, struct kc_tfm *t)
{
	struct kcapi_handle *h = NULL;
	int r = kcapi_handle_reinit(&h, t->h, KCAPI_INIT_AIO);

	if (r)
		return r;
	kc_tfm_close(k, t);
	t->h = h;
	if (k->a->type == KC_AEAD)
		kcapi_aead_setassoclen(t->h, k->a->assoclen);
	return 0;
}

int kc_maybe_rebind(struct kc *k, struct kc_tfm *t, struct dix_io *io)
{
	char err[200];
	int r;

	if (t->gen == cryptobind_generation())
		return 0;
	kc_tfm_close(k, t);
	r = kc_tfm_open(k, t, err, sizeof(err));
	if (r)
		snprintf(io->detail, sizeof(io->detail),
			 "reopening TFM %u (--rebind auto): %s", t->id, err);
	return r;
}
