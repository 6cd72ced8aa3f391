// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - the kcapi engine's checks of a kernel result, the model of the
 * IV an AIO batch's requests inherit included.
 *
 * Every result is checked (--verify on, the default) against the
 * references of alg.c.  Ciphers get the round trip on every request
 * (OpenSSL's inverse of the kernel's output gives the input back) and the
 * known answer (OpenSSL's result of the same operation equals the
 * kernel's) on one in KAT_EVERY (why: see there).  A mismatch is an Err
 * of kind verify naming the request, its TFM and direction; so is the
 * kernel refusing the tag of a decrypt it was given OpenSSL's ciphertext
 * for.  The checks run in the job thread, which owns OpenSSL's context.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "conf/options.h"
#include "engines/kcapi/kc.h"
#include "lib/util.h"

/* The request failed its check: an Err of kind verify naming it. */
static void mismatch(struct kc *k, struct dix_io *io, const char *what,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void mismatch(struct kc *k, struct dix_io *io, const char *what,
		     const char *fmt, ...)
{
	const char *dir = k->a->type == KC_HASH ? "digest" :
			  io->dir == DIX_WRITE ? "encrypt" : "decrypt";
	char more[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(more, sizeof(more), fmt, ap);
	va_end(ap);
	io->res = -EBADMSG;
	io->errkind = DIX_ERR_VERIFY;
	snprintf(io->status, sizeof(io->status), "%s", what);
	snprintf(io->detail, sizeof(io->detail),
		 "request %llu (%s %s, TFM %u, %u bytes): %s",
		 (unsigned long long)req_no(k, io), k->a->name, dir,
		 slot_tfm(k, io)->id, io->len, more);
}

static size_t first_diff(const unsigned char *a, const unsigned char *b,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			break;
	return i;
}

/* Check a hash result against dixload's CRCs or OpenSSL. */
static void check_hash(struct kc *k, struct dix_io *io)
{
	const unsigned char *got = k->out[io->idx];
	unsigned char want[32];
	size_t d;

	kc_ref_digest(k, io->buf, io->len, want);
	d = first_diff(got, want, k->a->digest);
	if (d == k->a->digest)
		return;
	if (k->a->digest <= 4) {
		char g[12], w[12];
		unsigned int i;

		for (i = 0; i < k->a->digest; i++) {
			sprintf(g + 2 * i, "%02x", got[i]);
			sprintf(w + 2 * i, "%02x", want[i]);
		}
		mismatch(k, io, "digest mismatch",
			 "kernel digest bytes %s, dixload's %s gives %s", g,
			 k->a->name, w);
	} else {
		mismatch(k, io, "digest mismatch",
			 "kernel digest differs from OpenSSL's %s at byte %zu",
			 k->a->name, d);
	}
}

/*
 * Every KAT_EVERY-th request (by number) also gets the known-answer check.
 * Measured in the 6.1 VM (TCG, xts(aes) 4 KiB, async, 4 TFMs x QD16):
 * no checks 6.28 MB/s, round trip and known answer on every request
 * 3.42 MB/s: OpenSSL's AES-NI is emulated under TCG like the kernel's, so
 * each OpenSSL pass costs about what the kernel's request costs.  The
 * round trip alone already pins the kernel's output (for a fixed key and
 * IV a cipher is a permutation, and OpenSSL's inverse is independent of
 * the kernel), so the second pass on every request buys little: it runs
 * on one request in 16, which still catches a systematically wrong driver
 * within its first 16 requests.  --verify strict runs it on every request.
 * Measured again with the host busy: no checks 15-21 MB/s, the round trip
 * on every request and the known answer on one in 16 5-7 MB/s: under TCG
 * OpenSSL's emulated AES-NI costs more than the kernel's aes-generic, so a
 * driver comparison under TCG wants --verify off as well (then nothing is
 * checked: say so when reporting figures).
 */
#define KAT_EVERY	16

/*
 * Candidate @c for the IV request @io inherited from @prev, its batch
 * predecessor, into @iv (see enum kc_chain).  Return: 0, or -1 when @c
 * does not apply.
 */
static int cand_iv(struct kc *k, const struct dix_io *prev, int c,
		   unsigned char *iv)
{
	unsigned char t[16];
	uint64_t add;
	int i, len = 0;
	size_t b;

	memcpy(iv, k->iv[prev->idx], k->a->ivlen);
	switch (c) {
	case IV_SAME:
		return 0;
	case IV_STD:
		if (k->a->chain == CH_CBC) {	/* the last ciphertext block */
			unsigned int ad = k->a->type == KC_AEAD ?
					  k->a->assoclen : 0;
			const unsigned char *ct =
				prev->dir == DIX_WRITE ? k->out[prev->idx] + ad :
				ad ? k->in[prev->idx] + ad :
				(unsigned char *)prev->buf;

			memcpy(iv, ct + prev->len - 16, 16);
			return 0;
		}
		if (k->a->chain != CH_CTR)
			return -1;
		/* the 128-bit big-endian counter, one per block */
		add = (prev->len + 15) / 16;
		for (i = 15; i >= 0 && add; i--) {
			add += iv[i];
			iv[i] = add & 0xff;
			add >>= 8;
		}
		return 0;
	default:
		if (k->a->evp != EVP_aes_128_xts)
			return -1;
		/* T = E_K2(IV), then one multiplication by alpha per block */
		if (!EVP_EncryptInit_ex(k->evp, EVP_aes_128_ecb(), NULL,
					k->key + 16, NULL))
			return -1;
		EVP_CIPHER_CTX_set_padding(k->evp, 0);
		if (!EVP_EncryptUpdate(k->evp, t, &len, iv, 16) || len != 16)
			return -1;
		for (b = 0; b < prev->len / 16; b++) {
			int carry = t[15] >> 7;

			for (i = 15; i > 0; i--)
				t[i] = (t[i] << 1) | (t[i - 1] >> 7);
			t[0] = (t[0] << 1) ^ (carry ? 0x87 : 0);
		}
		memcpy(iv, t, 16);
		return 0;
	}
}

/*
 * The round trip: OpenSSL's inverse of the kernel's output (the tag must
 * authenticate) gives the input back.  Return: 0 when it does, -EBADMSG
 * when OpenSSL rejects the tag, else the first differing byte + 1 in *@d
 * and 1.
 */
static int round_trip(struct kc *k, struct dix_io *io, size_t *d)
{
	const struct kc_alg *a = k->a;
	int enc = io->dir == DIX_WRITE, r;
	unsigned int ad = a->type == KC_AEAD ? a->assoclen : 0;
	const unsigned char *in = a->type == KC_AEAD ?
				  k->in[io->idx] + ad : io->buf;
	const unsigned char *got = k->out[io->idx] + ad;

	r = kc_evp_crypt(k, !enc, k->iv[io->idx], k->in[io->idx], got,
			 io->len, k->ref, enc ? got + io->len : NULL);
	if (r)
		return r;
	*d = first_diff(k->ref, in, io->len);
	return *d < io->len;
}

/*
 * A request that inherited its IV in an AIO batch: find which candidate
 * the kernel used (see enum kc_chain); k->iv of the slot is set to it, or
 * to the first candidate when none gives the input back.
 */
static void resolve_iv(struct kc *k, struct dix_io *io)
{
	struct kc_tfm *t = slot_tfm(k, io);
	const struct dix_io *prev = k->prev[io->idx];
	unsigned char first[16] = { 0 };
	int i, c, have = 0;
	size_t d;

	for (i = 0; i < IV_NCAND; i++) {
		c = (t->cand + i) % IV_NCAND;
		if (cand_iv(k, prev, c, k->iv[io->idx]))
			continue;
		if (!have) {
			memcpy(first, k->iv[io->idx], sizeof(first));
			have = 1;
		}
		if (round_trip(k, io, &d) == 0) {
			t->cand = c;
			return;
		}
	}
	memcpy(k->iv[io->idx], first, sizeof(first));
}

/*
 * Check a cipher result: the round trip (OpenSSL's inverse of the
 * kernel's output gives the input back; an AEAD's tag must authenticate)
 * on every request, the known answer (OpenSSL's result of the same
 * operation equals the kernel's, tag included) on every KAT_EVERY-th.
 */
static void check_cipher(struct kc *k, struct dix_io *io)
{
	const struct kc_alg *a = k->a;
	int enc = io->dir == DIX_WRITE;
	unsigned int ad = a->type == KC_AEAD ? a->assoclen : 0;
	const unsigned char *in = a->type == KC_AEAD ?
				  k->in[io->idx] + ad : io->buf;
	const unsigned char *aad = k->in[io->idx];
	const unsigned char *got = k->out[io->idx] + ad;
	size_t n = io->len, d = 0, cmp = n + (enc ? a->taglen : 0);
	int r;

	if (k->prev[io->idx])
		resolve_iv(k, io);
	r = round_trip(k, io, &d);
	if (r < 0) {
		mismatch(k, io, "round trip",
			 "OpenSSL's inverse rejects the kernel's output (%s)",
			 r == -EBADMSG ? "the tag does not authenticate" :
			 strerror(-r));
		return;
	}
	if (r) {
		mismatch(k, io, "round trip",
			 "OpenSSL's inverse of the kernel's output differs from the input at byte %zu",
			 d);
		return;
	}
	if (k->o->verify != VERIFY_STRICT && req_no(k, io) % KAT_EVERY)
		return;
	/* known answer: encrypt also compares the tag */
	r = kc_evp_crypt(k, enc, k->iv[io->idx], aad, in, n, k->ref,
			 enc ? NULL : in + n);
	if (r) {
		mismatch(k, io, "known answer",
			 "OpenSSL rejects the request (%s)", strerror(-r));
		return;
	}
	d = first_diff(got, k->ref, cmp);
	if (d < cmp)
		mismatch(k, io, "known answer",
			 "the kernel's output differs from OpenSSL's at byte %zu%s",
			 d, d >= n ? " (the tag)" : "");
}

void kc_finish(struct kc *k, struct dix_io *io, ssize_t res, ssize_t want,
	       unsigned int call_n)
{
	struct timespec a, b;

	/*
	 * An AEAD decrypt is given OpenSSL's ciphertext and tag, so the
	 * kernel refusing the tag (EBADMSG) is its driver failing the check,
	 * an integrity error, not an I/O error to retry (a retry that passed
	 * would have been counted as recovered).  The check is the
	 * kernel's own, so it counts with --verify off too.
	 */
	if (res == -EBADMSG && k->a->type == KC_AEAD && io->dir == DIX_READ) {
		if (call_n > 1)
			mismatch(k, io, "tag rejected",
				 "the kernel rejects the AIO call of %u requests this one was in (EBADMSG: a tag does not authenticate; libkcapi gives one status per call)",
				 call_n);
		else
			mismatch(k, io, "tag rejected",
				 "the kernel rejects the tag OpenSSL computed (EBADMSG)");
		return;
	}
	if (res < 0) {
		io->res = res;
		snprintf(io->detail, sizeof(io->detail),
			 "request %llu (%s, TFM %u): %s",
			 (unsigned long long)req_no(k, io), k->a->name,
			 slot_tfm(k, io)->id, dix_io_strerror((int)-res));
		return;
	}
	if (res != want) {
		io->res = res < (ssize_t)io->len ? res : 0;
		return;
	}
	io->res = io->len;
	if (!k->verify || (k->every > 1 && req_no(k, io) % k->every))
		return;
	/* the reference's CPU: the share the summary gives (engine.h) */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	if (k->a->type == KC_HASH)
		check_hash(k, io);
	else
		check_cipher(k, io);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	k->check_ns += (uint64_t)((b.tv_sec - a.tv_sec) * 1000000000ll +
				  (b.tv_nsec - a.tv_nsec));
}
