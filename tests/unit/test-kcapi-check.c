// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-kcapi-check.c - the kcapi engine's checks of a kernel result, on
 * results made here (this host need not have AF_ALG): an AEAD tag the
 * kernel got wrong on encrypt, and the kernel refusing the tag of a
 * decrypt (EBADMSG), are each an Err of kind verify naming the request,
 * its algorithm, direction and TFM; a correct result passes; EBADMSG of a
 * plain cipher stays an I/O error; --alg's wrappers resolve to the row inside
 * (outermost first; pcrypt around AEADs only).  The engine's own check and reference
 * code is linked from libdix.a (nothing here opens a TFM).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "engines/kcapi/kc.h"

#include "tap.h"

#define BS	4096u

static struct dix_opts o;

struct fix {
	struct kc k;
	struct kc_tfm t, *owner;
	struct dix_io io, *prev;
	unsigned char *in, *out, *iv;
};

/* The engine's state for one slot, request @req of @alg in direction @dir. */
static void fix_init(struct fix *f, const char *alg, int dir, uint64_t req)
{
	memset(f, 0, sizeof(*f));
	o.seed = 42;
	o.verify = VERIFY_STRICT;	/* the known answer too */
	f->k.a = kc_find(alg);
	f->k.o = &o;
	f->k.verify = 1;
	f->k.bs = BS;
	kc_derive(o.seed, WHAT_KEY, f->k.key, sizeof(f->k.key));
	f->k.evp = EVP_CIPHER_CTX_new();
	f->in = calloc(1, BS + KC_EXTRA);
	f->out = calloc(1, BS + KC_EXTRA);
	f->iv = calloc(1, 16);
	f->k.ref = calloc(1, BS + KC_EXTRA);
	f->k.mac = calloc(1, BS + KC_EXTRA);
	f->k.in = &f->in;
	f->k.out = &f->out;
	f->k.iv = &f->iv;
	f->t.id = 3;
	f->owner = &f->t;
	f->k.owner = &f->owner;
	f->k.prev = &f->prev;
	f->io.buf = calloc(1, BS);
	f->io.offset = req * BS;
	f->io.len = BS;
	f->io.dir = dir;
	f->io.errkind = DIX_ERR_NR;
	kc_derive(7, req, f->io.buf, BS);
	if (!f->k.a || !f->k.evp || !f->in || !f->out || !f->iv ||
	    !f->k.ref || !f->k.mac || !f->io.buf ||
	    kc_prepare(&f->k, &f->io, NULL))
		abort();
}

static void fix_free(struct fix *f)
{
	free(f->in);
	free(f->out);
	free(f->iv);
	free(f->k.ref);
	free(f->k.mac);
	free(f->io.buf);
	EVP_CIPHER_CTX_free(f->k.evp);
}

/*
 * What a correct kernel returns for an AEAD encrypt: the associated data,
 * the ciphertext and the tag (OpenSSL's, computed apart from the engine's
 * own check of it).
 */
static void kernel_encrypt(struct fix *f)
{
	const struct kc_alg *a = f->k.a;

	memcpy(f->out, f->in, a->assoclen);
	if (kc_evp_crypt(&f->k, 1, f->iv, f->in, f->in + a->assoclen, BS,
		      f->out + a->assoclen, NULL))
		abort();
}

static size_t outlen(const struct fix *f)
{
	size_t inl, outl;

	kc_lens(&f->k, &f->io, &inl, &outl);
	return outl;
}

static void test_encrypt_tag(const char *alg)
{
	const struct kc_alg *a;
	struct fix f;
	char want[200];

	fix_init(&f, alg, DIX_WRITE, 5);
	a = f.k.a;
	kernel_encrypt(&f);
	kc_finish(&f.k, &f.io, outlen(&f), outlen(&f), 0);
	is_int(f.io.errkind, DIX_ERR_NR, "a correct tag passes");
	is_int(f.io.res, BS, "  and the request completes");

	fix_free(&f);

	/* the kernel's tag with one bit wrong */
	fix_init(&f, alg, DIX_WRITE, 5);
	kernel_encrypt(&f);
	f.out[a->assoclen + BS + a->taglen - 1] ^= 0x10;
	kc_finish(&f.k, &f.io, outlen(&f), outlen(&f), 0);
	ok(f.io.errkind == DIX_ERR_VERIFY && f.io.res < 0,
	   "%s: a wrong tag from the kernel is an Err of kind verify", alg);
	snprintf(want, sizeof(want), "request 5 (%s encrypt, TFM 3, %u bytes): ",
		 alg, BS);
	ok(!strncmp(f.io.detail, want, strlen(want)),
	   "  naming the request, direction and TFM: %s", f.io.detail);
	ok(strstr(f.io.detail, "the tag does not authenticate") != NULL,
	   "  and the tag");
	fix_free(&f);
}

static void test_decrypt_rejected(const char *alg)
{
	struct fix f;
	char want[200];

	fix_init(&f, alg, DIX_READ, 9);
	kc_finish(&f.k, &f.io, -EBADMSG, outlen(&f), 0);
	ok(f.io.errkind == DIX_ERR_VERIFY && f.io.res == -EBADMSG,
	   "%s: the kernel refusing a decrypt's tag (EBADMSG) is an Err of kind verify, not an I/O error to retry",
	   alg);
	snprintf(want, sizeof(want),
		 "request 9 (%s decrypt, TFM 3, %u bytes): the kernel rejects the tag OpenSSL computed (EBADMSG)",
		 alg, BS);
	is_str(f.io.detail, want, "  naming the request");
	fix_free(&f);

	/* async: one status for the call, said so */
	fix_init(&f, alg, DIX_READ, 9);
	kc_finish(&f.k, &f.io, -EBADMSG, 0, 4);
	ok(f.io.errkind == DIX_ERR_VERIFY &&
	   strstr(f.io.detail, "request 9 (") &&
	   strstr(f.io.detail, "the AIO call of 4 requests this one was in"),
	   "%s: in an AIO call of 4: verify, the call named: %s", alg,
	   f.io.detail);
	fix_free(&f);
}

extern const struct dix_engine engine_kcapi;

/* --help's --alg line, the engine's row, names the table, all of it. */
static void test_alg_help(void)
{
	const struct dix_option *d = engine_kcapi.options;
	char names[256];
	const char *at;

	while (d->name && strcmp(d->name, "alg"))
		d++;
	if (!ok(d->name != NULL, "the kcapi engine has an --alg row"))
		return;
	kc_alg_names(names, sizeof(names));
	at = strstr(d->help, names);
	ok(at && !strcmp(at, names) && at > d->help && at[-1] == ' ',
	   "--alg's help ends in the table's algorithms (%s): %s", names,
	   d->help);
}

/* --alg's wrappers: the table's row inside, the wrappers outermost first */
static void test_resolve(void)
{
	struct kc_spec sp;
	char err[400];

	ok(kc_resolve("cryptd(xts(aes))", &sp, err, sizeof(err)) == 0 &&
	   sp.nwrap == 1 && !strcmp(sp.wrap[0], "cryptd") &&
	   !strcmp(sp.base, "xts(aes)") && !strcmp(sp.inner, "xts(aes)") &&
	   !strcmp(sp.a.name, "cryptd(xts(aes))") && sp.a.type == KC_SKCIPHER &&
	   sp.a.evp == EVP_aes_128_xts,
	   "cryptd(xts(aes)): xts(aes)'s row and references, bound by the name given");
	ok(kc_resolve("cryptd(pcrypt(gcm(aes)))", &sp, err, sizeof(err)) == 0 &&
	   sp.nwrap == 2 && !strcmp(sp.wrap[0], "cryptd") &&
	   !strcmp(sp.wrap[1], "pcrypt") && sp.a.type == KC_AEAD &&
	   sp.a.taglen == 16,
	   "cryptd(pcrypt(gcm(aes))): the outermost first, gcm(aes)'s tag");
	ok(kc_resolve("pcrypt(sha256)", &sp, err, sizeof(err)) == -EINVAL &&
	   strstr(err, "pcrypt wraps AEADs only"), "pcrypt(sha256) refused: %s", err);
	ok(kc_resolve("cryptd(", &sp, err, sizeof(err)) == -EINVAL &&
	   strstr(err, "is not one this engine drives"),
	   "a wrapper without its inside refused");
	ok(kc_resolve("sha256", &sp, err, sizeof(err)) == 0 && sp.nwrap == 0 &&
	   !sp.driver, "a table name: no wrapper");
}

int main(void)
{
	struct fix f;

	test_encrypt_tag("gcm(aes)");
	test_encrypt_tag("rfc4106(gcm(aes))");
	test_encrypt_tag("authenc(hmac(sha256),cbc(aes))");
	test_decrypt_rejected("gcm(aes)");
	test_decrypt_rejected("authenc(hmac(sha256),cbc(aes))");

	/* a plain cipher has no tag: its EBADMSG is the kernel's error */
	fix_init(&f, "cbc(aes)", DIX_READ, 2);
	kc_finish(&f.k, &f.io, -EBADMSG, BS, 0);
	ok(f.io.errkind == DIX_ERR_NR && f.io.res == -EBADMSG,
	   "cbc(aes): EBADMSG stays the kernel's error (kind left to the job)");
	fix_free(&f);
	test_alg_help();
	test_resolve();
	return tap_done();
}
