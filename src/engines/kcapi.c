// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcapi.c - the kernel crypto API as the load, through AF_ALG (libkcapi).
 *
 * The QAT question ("what number of requests should be in flight?") as a
 * dixload run: --tfms transforms (TFMs, each an AF_ALG socket bound to the
 * driver the kernel selected when it was opened), --iodepth requests per
 * TFM, --submit sync (one request per system call: what the kernel module
 * of the 2023 thread did) or async (libkcapi's AIO path: the queued
 * requests of a TFM go to the kernel in one io_submit, at most
 * --iodepth-batch of them, and the call returns when all completed).
 * libkcapi's AIO call waits for its own batch, so each TFM has a thread
 * making its calls (tfm_thread()): all --tfms of a job are in the kernel
 * at once, while the job thread checks the results of those that are
 * done and hands them their next requests.
 *
 * Directions: --rw write = encrypt, read = decrypt, rw/randrw = both by
 * --rwmixread (random or sequential means nothing here).  Hashes digest
 * every request; the direction only picks the meter column (W or R) that
 * counts it.  MB/s counts the bytes of the requests (plaintext for an AEAD,
 * its associated data and tag not counted).  Keys, IVs and associated data
 * derive from --seed and the request number (offset / --bs).
 * authenc(hmac(sha256),cbc(aes)) takes AES-128 and a 32-byte HMAC key in
 * the kernel's rtattr key blob (authenc_key.c), the whole 32-byte tag.
 *
 * Every result is checked (--verify on, the default) against an
 * implementation that shares nothing with the kernel: OpenSSL's libcrypto
 * for ciphers, AEADs, sha256 and hmac(sha256), dixload's own CRC library
 * for crc32c and crct10dif.  Ciphers get the round trip on every request
 * (OpenSSL's inverse of the kernel's output gives the input back) and the
 * known answer (OpenSSL's result of the same operation equals the
 * kernel's) on one in KAT_EVERY (why: see there).  A mismatch is an Err of kind
 * verify naming the request, its TFM and direction.
 */
#include "config.h"

#include <errno.h>
#include <kcapi.h>
#include <pthread.h>
#include <stdarg.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engines/authenc_key.h"
#include "lib/byteorder.h"
#include "pi/crc.h"
#include "kernel/cryptobind.h"
#include "engines/engine.h"
#include "conf/options.h"
#include "lib/util.h"

enum kc_type { KC_SKCIPHER, KC_AEAD, KC_HASH };
enum kc_ref { REF_EVP, REF_CRC32C, REF_CRC16, REF_SHA256, REF_HMAC };
/*
 * How the kernel leaves the IV of an AF_ALG socket after a request.  The
 * socket keeps one IV, and libkcapi's AIO call sends it once for its whole
 * batch, so request i of a batch runs with whatever request i-1 left in
 * it (measured: every request but a batch's first failed the check when
 * given the batch's IV).  What is left depends on the driver, not only on
 * the mode: cbc leaves the last ciphertext block and ctr the advanced
 * counter (every driver), xts(ecb(aes-generic)) leaves the IV alone, but
 * xts-aes-aesni leaves its running tweak E_K2(IV) x alpha^blocks (6.1,
 * measured: 15 of every 16 requests failed after the rebind until this
 * was modelled).  So the check tries these candidates in turn, the one
 * that last worked on the TFM first; a wrong result matching any of them
 * by chance is a 2^-128 event.  The AEADs leave their IV alone.
 */
enum kc_chain { CH_NONE, CH_CBC, CH_CTR };
enum { IV_STD, IV_SAME, IV_XTS_TWEAK, IV_NCAND };

/**
 * struct kc_alg - one algorithm the engine drives.
 * @name: the kernel's name (--alg)
 * @type: skcipher, aead or hash
 * @keylen: key bytes (for rfc4106 the 4-byte salt included; for authenc
 *	the cipher's key)
 * @authkeylen: authenc: the MAC's key bytes (0: not an authenc AEAD)
 * @ivlen: IV bytes the kernel takes
 * @taglen: AEAD tag bytes
 * @assoclen: AEAD associated data bytes (rfc4106: its last 8 are the IV,
 *	as ESP lays it out)
 * @align: --bs must be a multiple of this
 * @digest: hash output bytes
 * @evp: OpenSSL's cipher for the check
 * @ref: how hashes are checked
 * @chain: what the kernel leaves in the socket's IV after a request
 */
struct kc_alg {
	const char *name;
	enum kc_type type;
	unsigned int keylen, authkeylen, ivlen, taglen, assoclen, align,
		     digest;
	const EVP_CIPHER *(*evp)(void);
	enum kc_ref ref;
	enum kc_chain chain;
};

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

/* Room after a request for an AEAD's associated data and tag. */
#define KC_EXTRA	64

/* One libkcapi AIO call of a TFM: @n requests of one direction. */
struct kc_call {
	int dir;
	unsigned int n;
	struct dix_io **v;
	ssize_t r;			/* libkcapi's total, or -errno */
};

enum { TFM_IDLE, TFM_RUN, TFM_DONE, TFM_STOP };

/**
 * struct kc_tfm - one transform and, with --submit async, its thread.
 * @pend: queued, not yet handed to the thread (the job thread's)
 * @work/@nwork: the requests handed over, in call order
 * @call/@ncall: the AIO calls they make (one per direction and
 *	aio_max requests)
 * @res: hashes: each request's own result (no AIO digest in libkcapi)
 * @iin/@iout: the iovecs of @work
 * @state: TFM_IDLE (the job thread owns everything), TFM_RUN (the thread
 *	owns @h and @call until it sets TFM_DONE), TFM_STOP; under kc.lock
 */
struct kc_tfm {
	struct kcapi_handle *h;
	unsigned int id;		/* 0 .. --tfms-1 across all jobs */
	unsigned int gen;		/* cryptobind generation at open */
	int cand;			/* the IV candidate that last matched */
	struct dix_io **pend[DIX_DIR_NR];	/* queued, not submitted */
	unsigned int npend[DIX_DIR_NR];
	struct dix_io **work;
	unsigned int nwork;
	struct kc_call *call;
	unsigned int ncall;
	ssize_t *res;
	struct iovec *iin, *iout;
	int state;
	int started;
	pthread_cond_t go;
	pthread_t th;
	struct kc *k;
};

struct kc {
	const struct kc_alg *a;
	const struct dix_opts *o;
	int async, verify;
	uint32_t bs;
	unsigned int ntfm, iodepth, rr;
	unsigned int aio_max;		/* requests per AIO call */
	struct kc_tfm *tfm;
	uint8_t key[64];
	unsigned char **in, **out;	/* per slot: AEAD input, result */
	unsigned char **iv;		/* per slot: the IV it was given */
	unsigned char *ref;		/* OpenSSL's result, the round trip */
	struct kc_tfm **owner;		/* per slot: the TFM it went to */
	struct dix_io **prev;		/* per slot: the request before it in
					 * its AIO batch (its IV is inherited) */
	EVP_CIPHER_CTX *evp;
	unsigned char *mac;		/* authenc: associated data || ciphertext */
	struct dix_io **ready;
	int nready;
	pthread_mutex_t lock;		/* the TFMs' states */
	pthread_cond_t fin;		/* a TFM's calls are done */
	int nrun;			/* TFMs in TFM_RUN or TFM_DONE */
	int locked;			/* lock and fin were initialised */
};

/* splitmix64: keys, IVs and associated data from --seed. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void derive(uint64_t seed, uint64_t what, unsigned char *p, size_t n)
{
	uint64_t s = mix(seed ^ mix(what));
	size_t i;

	for (i = 0; i < n; i += 8) {
		uint64_t v = mix(s + i);
		size_t k = n - i < 8 ? n - i : 8;

		memcpy(p + i, &v, k);
	}
}

#define WHAT_KEY	(1ull << 62)
#define WHAT_AAD	(1ull << 61)

static const struct kc_alg *kc_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kc_algs) / sizeof(kc_algs[0]); i++)
		if (!strcmp(kc_algs[i].name, name))
			return &kc_algs[i];
	return NULL;
}

/**
 * alg_names() - the algorithms the engine drives, "a, b, c", into @out.
 */
static void alg_names(char *out, size_t len)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < sizeof(kc_algs) / sizeof(kc_algs[0]) && n < len; i++)
		n += snprintf(out + n, len - n, "%s%s", i ? ", " : "",
			      kc_algs[i].name);
}

/*
 * authenc's keys in k->key: the cipher's first (where OpenSSL's cipher
 * check takes it from, as for the other algorithms), the MAC's at 32.
 */
#define AUTHKEY_OFF	32

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

static void tfm_close(struct kc *k, struct kc_tfm *t)
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

/*
 * Open (or reopen) TFM @t: the kernel binds it to the driver it selects
 * now, which is then recorded for the binding notes.
 */
static int tfm_open(struct kc *k, struct kc_tfm *t, char *err, size_t len)
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
		t->h = NULL;
		if (r == -ENOENT && !strcmp(k->a->name, "crct10dif"))
			snprintf(err, len,
				 "crct10dif: no such algorithm (ENOENT): since Linux 6.14/6.15 the T10-DIF CRC is a plain library, not in the crypto API, so this engine cannot reach the PI CRC there");
		else if (r == -ENOENT)
			snprintf(err, len,
				 "%s: no such algorithm or AF_ALG type (ENOENT): load its driver (e.g. crc32c_generic), and af_alg with algif_skcipher / algif_aead / algif_hash",
				 k->a->name);
		else if (r == -EAFNOSUPPORT)
			snprintf(err, len,
				 "%s: this kernel has no AF_ALG sockets (CONFIG_CRYPTO_USER_API_SKCIPHER/AEAD/HASH, module af_alg)",
				 k->a->name);
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
		tfm_close(k, t);
		return r;
	}
	cryptobind_opened(t->id, cryptobind_lookup(k->a->name, drv, sizeof(drv),
						   &prio, &refcnt) ? NULL : drv);
	return 0;
}

/*
 * The most requests of @inl bytes one AIO call can carry.  libkcapi sends
 * the data of every request of the call before the kernel consumes any,
 * and an AF_ALG socket holds at most its send buffer (sk_sndbuf, from
 * net.core.wmem_default, rounded down to pages) of unconsumed data: beyond
 * that sendmsg() sleeps for room that never comes (measured, 6.1: 112
 * requests of 4 KiB in one call hung; 32 ran).  libkcapi does not expose
 * the socket to raise SO_SNDBUF on it.
 */
static unsigned int aio_limit(size_t inl, unsigned long *sndbuf)
{
	unsigned long wmem = 212992, pages;
	FILE *f = fopen("/proc/sys/net/core/wmem_default", "re");

	if (f) {
		if (fscanf(f, "%lu", &wmem) != 1)
			wmem = 212992;
		fclose(f);
	}
	*sndbuf = wmem;
	pages = wmem / 4096 ? wmem / 4096 : 1;
	pages /= (inl + 4095) / 4096;
	return pages ? pages : 1;
}

static int start_threads(struct kc *k, char *err, size_t len);
static void stop_threads(struct kc *k);

static int kc_init(struct dix_eng_ctx *ctx)
{
	const struct dix_opts *o = ctx->o;
	struct kc *k;
	unsigned int i, depth;
	char names[256];
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	ctx->priv = k;
	k->o = o;
	k->a = kc_find(o->alg);
	if (!k->a) {
		alg_names(names, sizeof(names));
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--alg '%s' is not one this engine drives (%s)",
			 o->alg, names);
		return -EINVAL;
	}
	k->bs = o->bs;
	if (k->bs % k->a->align) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--bs %u: %s takes whole blocks of %u bytes",
			 k->bs, k->a->name, k->a->align);
		return -EINVAL;
	}
	k->async = o->submit == SUBMIT_ASYNC;
	k->verify = o->verify != VERIFY_OFF;
	/* --inject tag@N (the only rule crypto_main() lets through) */
	if (o->inject.n && k->a->type != KC_AEAD) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--inject tag@N: %s has no authentication tag (the AEADs have: gcm(aes), rfc4106(gcm(aes)), authenc(hmac(sha256),cbc(aes)))",
			 k->a->name);
		return -EINVAL;
	}
	if (o->inject.n && k->async) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--inject tag@N needs --submit sync: libkcapi gives one status per AIO call, so a rejected tag would fail the other requests of its call too");
		return -EINVAL;
	}
	if (o->inject.n && !rw_reads(o->rw)) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--inject tag@N corrupts decrypts, and --rw %s only encrypts (use read, randread, rw or randrw)", rw_names[o->rw]);
		return -EINVAL;
	}
	k->ntfm = o->tfms / ctx->jobs;
	k->iodepth = o->iodepth;
	/* sync: a request completes inside its call, one slot per TFM */
	depth = k->async ? k->ntfm * k->iodepth : k->ntfm;
	ctx->depth = depth;
	if (k->async) {
		unsigned long sndbuf;

		k->aio_max = aio_limit(k->bs + k->a->assoclen + k->a->taglen,
				       &sndbuf);
		if (k->a->type != KC_HASH && ctx->job == 0 &&
		    k->aio_max < k->iodepth && k->aio_max < o->iodepth_batch)
			dix_warn("kcapi: an AF_ALG socket holds %lu bytes of unconsumed data (net.core.wmem_default): one AIO call carries at most %u requests of %u bytes, so at most %u of the --iodepth %u are in flight on a TFM",
				 sndbuf, k->aio_max, k->bs, k->aio_max,
				 k->iodepth);
	}
	derive(o->seed, WHAT_KEY, k->key, sizeof(k->key));
	k->tfm = calloc(k->ntfm, sizeof(*k->tfm));
	k->in = calloc(depth, sizeof(*k->in));
	k->out = calloc(depth, sizeof(*k->out));
	k->iv = calloc(depth, sizeof(*k->iv));
	k->ready = calloc(depth, sizeof(*k->ready));
	k->owner = calloc(depth, sizeof(*k->owner));
	k->prev = calloc(depth, sizeof(*k->prev));
	k->evp = EVP_CIPHER_CTX_new();
	if (!k->tfm || !k->in || !k->out || !k->iv || !k->ready ||
	    !k->owner || !k->prev || !k->evp ||
	    posix_memalign((void **)&k->ref, 4096, k->bs + KC_EXTRA) ||
	    !(k->mac = malloc(k->bs + KC_EXTRA)))
		return -ENOMEM;
	for (i = 0; i < depth; i++)
		if (posix_memalign((void **)&k->in[i], 4096, k->bs + KC_EXTRA) ||
		    posix_memalign((void **)&k->out[i], 4096, k->bs + KC_EXTRA) ||
		    !(k->iv[i] = calloc(1, 16)))
			return -ENOMEM;
	for (i = 0; i < k->ntfm; i++) {
		struct kc_tfm *t = &k->tfm[i];

		t->id = ctx->job * k->ntfm + i;
		t->pend[DIX_READ] = calloc(k->iodepth, sizeof(struct dix_io *));
		t->pend[DIX_WRITE] = calloc(k->iodepth, sizeof(struct dix_io *));
		t->work = calloc(k->iodepth, sizeof(*t->work));
		t->call = calloc(2 * k->iodepth, sizeof(*t->call));
		t->res = calloc(k->iodepth, sizeof(*t->res));
		t->iin = calloc(k->iodepth, sizeof(*t->iin));
		t->iout = calloc(k->iodepth, sizeof(*t->iout));
		if (!t->pend[DIX_READ] || !t->pend[DIX_WRITE] || !t->work ||
		    !t->call || !t->res || !t->iin || !t->iout)
			return -ENOMEM;
		t->k = k;
		r = tfm_open(k, t, ctx->errmsg, sizeof(ctx->errmsg));
		if (r)
			return r;
	}
	return k->async ? start_threads(k, ctx->errmsg, sizeof(ctx->errmsg)) :
	       0;
}

static void kc_cleanup(struct dix_eng_ctx *ctx)
{
	struct kc *k = ctx->priv;
	unsigned int i;

	if (!k)
		return;
	stop_threads(k);
	if (k->tfm)
		for (i = 0; i < k->ntfm; i++) {
			struct kc_tfm *t = &k->tfm[i];

			tfm_close(k, t);
			free(t->pend[0]);
			free(t->pend[1]);
			free(t->work);
			free(t->call);
			free(t->res);
			free(t->iin);
			free(t->iout);
		}
	for (i = 0; i < ctx->depth; i++) {
		if (k->in)
			free(k->in[i]);
		if (k->out)
			free(k->out[i]);
		if (k->iv)
			free(k->iv[i]);
	}
	free(k->in);
	free(k->out);
	free(k->iv);
	free(k->ref);
	free(k->mac);
	free(k->ready);
	free(k->owner);
	free(k->prev);
	free(k->tfm);
	EVP_CIPHER_CTX_free(k->evp);
	free(k);
	ctx->priv = NULL;
}

static uint64_t req_no(const struct kc *k, const struct dix_io *io)
{
	return io->offset / k->bs;
}

/* The TFM the request in a slot went to. */
static struct kc_tfm *slot_tfm(struct kc *k, const struct dix_io *io)
{
	return k->owner[io->idx];
}

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

/*
 * OpenSSL's result of the cipher on @in (@len bytes) into @out; AEADs:
 * @aad (assoclen bytes; rfc4106: the first 8 are authenticated, the last 8
 * are the IV) and the tag after @out (encrypt) or taken from @tag
 * (decrypt).  Return: 0, -EBADMSG when OpenSSL rejects an AEAD tag.
 */
/*
 * authenc(hmac(sha256),cbc(aes)) from its parts, as the kernel composes
 * it: encrypt is AES-CBC, then the tag = HMAC-SHA256(MAC key, associated
 * data || ciphertext); decrypt checks the tag first.  Arguments as for
 * evp_crypt().
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

static int evp_crypt(struct kc *k, int enc, const unsigned char *iv,
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

/*
 * Prepare the request in slot @io: its IV (from --seed and the request
 * number; async batches share the first one's, libkcapi takes one IV per
 * call) and, for an AEAD, the kernel's input: associated data, then the
 * plaintext (encrypt) or OpenSSL's ciphertext and tag of the job's buffer
 * (decrypt: the kernel must get something that authenticates).
 */
static int prepare(struct kc *k, struct dix_io *io, const unsigned char *iv)
{
	const struct kc_alg *a = k->a;
	unsigned char *in = k->in[io->idx];
	uint64_t req = req_no(k, io);
	int r;

	if (iv)
		memcpy(k->iv[io->idx], iv, a->ivlen);
	else
		derive(k->o->seed, req, k->iv[io->idx], a->ivlen);
	if (a->type != KC_AEAD)
		return 0;
	derive(k->o->seed, WHAT_AAD | req, in, a->assoclen);
	if (a->keylen == 20)	/* rfc4106: the IV ends the associated data */
		memcpy(in + a->assoclen - 8, k->iv[io->idx], 8);
	if (io->dir == DIX_WRITE) {
		memcpy(in + a->assoclen, io->buf, io->len);
		return 0;
	}
	/* decrypt input: ciphertext || tag of the job's buffer */
	r = evp_crypt(k, 1, k->iv[io->idx], in, io->buf, io->len,
		      in + a->assoclen, NULL);
	if (r)
		return r;
	/* --inject tag@N: one bit of the tag, which the kernel must refuse */
	if (io->injected == DIX_ERR_VERIFY)
		in[a->assoclen + io->len + req % a->taglen] ^=
			1u << (req % 8);
	return 0;
}

/* Check a hash result against dixload's CRCs or OpenSSL. */
static void check_hash(struct kc *k, struct dix_io *io)
{
	const unsigned char *got = k->out[io->idx];
	unsigned char want[32];
	unsigned int wl = 32;
	size_t d;

	switch (k->a->ref) {
	case REF_CRC32C:
		put_le32(want, crc_compute(DIX_GUARD_CRC32C, io->buf, io->len));
		break;
	case REF_CRC16:
		/* the kernel's shash stores the u16 in CPU (little) order */
		put_le16(want, crc_compute(DIX_GUARD_CRC16, io->buf, io->len));
		break;
	case REF_SHA256:
		SHA256(io->buf, io->len, want);
		break;
	default:
		HMAC(EVP_sha256(), k->key, k->a->keylen, io->buf, io->len,
		     want, &wl);
	}
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
 * Check a cipher result: the round trip (OpenSSL's inverse of the
 * kernel's output gives the input back; an AEAD's tag must authenticate)
 * on every request, the known answer (OpenSSL's result of the same
 * operation equals the kernel's, tag included) on every KAT_EVERY-th.
 */
/*
 * Candidate @c for the IV request @io inherited from @prev, its batch
 * predecessor, into @iv.  Return: 0, or -1 when @c does not apply.
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

	r = evp_crypt(k, !enc, k->iv[io->idx], k->in[io->idx], got, io->len,
		      k->ref, enc ? got + io->len : NULL);
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
	r = evp_crypt(k, enc, k->iv[io->idx], aad, in, n, k->ref,
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

/*
 * The kernel's result of @io is in; @res: its bytes or -errno.  @call_n:
 * requests of the AIO call @io was in (0: a call of its own), whose one
 * status libkcapi returns for all of them.
 */
static void finish(struct kc *k, struct dix_io *io, ssize_t res,
		   ssize_t want, unsigned int call_n)
{
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
	if (!k->verify)
		return;
	if (k->a->type == KC_HASH)
		check_hash(k, io);
	else
		check_cipher(k, io);
}

/* The kernel's output length for @io (AEAD: associated data and tag). */
static void lens(const struct kc *k, const struct dix_io *io, size_t *inl,
		 size_t *outl)
{
	const struct kc_alg *a = k->a;

	*inl = *outl = io->len;
	if (a->type == KC_HASH) {
		*outl = a->digest;
	} else if (a->type == KC_AEAD) {
		*inl = a->assoclen + io->len +
		       (io->dir == DIX_WRITE ? 0 : a->taglen);
		*outl = a->assoclen + io->len +
			(io->dir == DIX_WRITE ? a->taglen : 0);
	}
}

/* Reopen @t when --rebind auto asked for it since it was opened. */
static int maybe_rebind(struct kc *k, struct kc_tfm *t, struct dix_io *io)
{
	char err[200];
	int r;

	if (t->gen == cryptobind_generation())
		return 0;
	tfm_close(k, t);
	r = tfm_open(k, t, err, sizeof(err));
	if (r)
		snprintf(io->detail, sizeof(io->detail),
			 "reopening TFM %u (--rebind auto): %s", t->id, err);
	return r;
}

/* One request, synchronously. */
static int kc_sync(struct kc *k, struct dix_io *io)
{
	struct kc_tfm *t = slot_tfm(k, io);
	unsigned char *in = k->a->type == KC_AEAD ? k->in[io->idx] : io->buf;
	unsigned char *out = k->out[io->idx];
	size_t inl, outl;
	ssize_t r;

	r = maybe_rebind(k, t, io);
	if (r)
		return r;
	r = prepare(k, io, NULL);
	if (r)
		return r;
	lens(k, io, &inl, &outl);
	switch (k->a->type) {
	case KC_SKCIPHER:
		r = io->dir == DIX_WRITE ?
		    kcapi_cipher_encrypt(t->h, in, inl, k->iv[io->idx], out,
					 outl, KCAPI_ACCESS_HEURISTIC) :
		    kcapi_cipher_decrypt(t->h, in, inl, k->iv[io->idx], out,
					 outl, KCAPI_ACCESS_HEURISTIC);
		break;
	case KC_AEAD:
		r = io->dir == DIX_WRITE ?
		    kcapi_aead_encrypt(t->h, in, inl, k->iv[io->idx], out,
				       outl, KCAPI_ACCESS_HEURISTIC) :
		    kcapi_aead_decrypt(t->h, in, inl, k->iv[io->idx], out,
				       outl, KCAPI_ACCESS_HEURISTIC);
		break;
	default:
		r = kcapi_md_digest(t->h, in, inl, out, outl);
	}
	finish(k, io, r, outl, 0);
	return DIX_Q_COMPLETED;
}

static int kc_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct kc *k = ctx->priv;
	struct kc_tfm *t;

	/*
	 * sync: the job reuses the slot just freed, so the TFMs take turns
	 * round robin; async: --iodepth slots per TFM
	 */
	if (!k->async) {
		k->owner[io->idx] = &k->tfm[k->rr++ % k->ntfm];
		return kc_sync(k, io);
	}
	t = k->owner[io->idx] = &k->tfm[io->idx / k->iodepth];
	t->pend[io->dir][t->npend[io->dir]++] = io;
	return DIX_Q_QUEUED;
}

/*
 * The kernel's part of one AIO call @c of TFM @t, in the TFM's thread:
 * nothing but libkcapi and the kernel (the checks and the buffers' setup
 * stay in the job thread).  Hashes: libkcapi has no AIO digest, so the
 * requests go one by one, each result in t->res.
 */
static void call_run(struct kc *k, struct kc_tfm *t, struct kc_call *c,
		     struct iovec *iin, struct iovec *iout)
{
	const unsigned char *iv = k->iv[c->v[0]->idx];
	unsigned int i;

	switch (k->a->type) {
	case KC_SKCIPHER:
		c->r = c->dir == DIX_WRITE ?
		       kcapi_cipher_encrypt_aio(t->h, iin, iout, c->n,
						iv, KCAPI_ACCESS_HEURISTIC) :
		       kcapi_cipher_decrypt_aio(t->h, iin, iout, c->n,
						iv, KCAPI_ACCESS_HEURISTIC);
		break;
	case KC_AEAD:
		c->r = c->dir == DIX_WRITE ?
		       kcapi_aead_encrypt_aio(t->h, iin, iout, c->n, iv,
					      KCAPI_ACCESS_HEURISTIC) :
		       kcapi_aead_decrypt_aio(t->h, iin, iout, c->n, iv,
					      KCAPI_ACCESS_HEURISTIC);
		break;
	default:
		for (i = 0; i < c->n; i++)
			t->res[iin - t->iin + i] =
				kcapi_md_digest(t->h, iin[i].iov_base,
						iin[i].iov_len,
						iout[i].iov_base,
						iout[i].iov_len);
		c->r = 0;
	}
}

/*
 * A TFM's thread: run the calls it is handed, one set at a time.  Each
 * TFM has one, so with --submit async the --tfms of a job really are in
 * the kernel at once: libkcapi's AIO call returns only when its own
 * batch completed, and a job thread making the calls itself made its
 * TFMs take turns (--jobs = --tfms was the workaround).  Measured (6.1,
 * TCG guest with 2 CPUs, xts(aes) 4 KiB, 4 TFMs x QD16, --verify off,
 * busy host): dixload's own CPU 96-100 % of one CPU in one job before,
 * 170-178 % with these threads, 193-196 % with --jobs 4.
 */
static void *tfm_thread(void *arg)
{
	struct kc_tfm *t = arg;
	struct kc *k = t->k;
	unsigned int i, off;

	pthread_mutex_lock(&k->lock);
	for (;;) {
		while (t->state != TFM_RUN && t->state != TFM_STOP)
			pthread_cond_wait(&t->go, &k->lock);
		if (t->state == TFM_STOP)
			break;
		pthread_mutex_unlock(&k->lock);
		for (i = 0, off = 0; i < t->ncall; off += t->call[i].n, i++)
			call_run(k, t, &t->call[i], t->iin + off,
				 t->iout + off);
		pthread_mutex_lock(&k->lock);
		t->state = TFM_DONE;
		pthread_cond_signal(&k->fin);
	}
	pthread_mutex_unlock(&k->lock);
	return NULL;
}

static int start_threads(struct kc *k, char *err, size_t len)
{
	unsigned int i;
	int r;

	if (pthread_mutex_init(&k->lock, NULL) ||
	    pthread_cond_init(&k->fin, NULL))
		return -ENOMEM;
	k->locked = 1;
	for (i = 0; i < k->ntfm; i++) {
		struct kc_tfm *t = &k->tfm[i];

		if (pthread_cond_init(&t->go, NULL))
			return -ENOMEM;
		t->state = TFM_IDLE;
		r = pthread_create(&t->th, NULL, tfm_thread, t);
		if (r) {
			pthread_cond_destroy(&t->go);
			snprintf(err, len, "kcapi: starting TFM %u's thread: %s",
				 t->id, strerror(r));
			return -r;
		}
		t->started = 1;
	}
	return 0;
}

/* Stop and join the TFMs' threads; a call in the kernel finishes first. */
static void stop_threads(struct kc *k)
{
	unsigned int i;

	if (!k->locked)
		return;
	for (i = 0; k->tfm && i < k->ntfm; i++) {
		struct kc_tfm *t = &k->tfm[i];

		if (!t->started)
			continue;
		pthread_mutex_lock(&k->lock);
		while (t->state == TFM_RUN)
			pthread_cond_wait(&k->fin, &k->lock);
		t->state = TFM_STOP;
		pthread_cond_signal(&t->go);
		pthread_mutex_unlock(&k->lock);
		pthread_join(t->th, NULL);
		pthread_cond_destroy(&t->go);
		t->started = 0;
	}
	pthread_cond_destroy(&k->fin);
	pthread_mutex_destroy(&k->lock);
	k->locked = 0;
}

/*
 * Hand idle TFM @t its queued requests: reopen it if --rebind auto asked,
 * prepare every request (IV, AEAD input), group them into AIO calls of
 * one direction and at most k->aio_max requests (see aio_limit()), and
 * wake its thread.  Runs in the job thread.
 */
static int dispatch(struct kc *k, struct kc_tfm *t)
{
	unsigned int i;
	size_t inl, outl;
	int r, d;

	if (!t->npend[DIX_READ] && !t->npend[DIX_WRITE])
		return 0;
	t->nwork = 0;
	t->ncall = 0;
	r = maybe_rebind(k, t, t->npend[DIX_READ] ? t->pend[DIX_READ][0] :
			 t->pend[DIX_WRITE][0]);
	if (r)
		return r;
	for (d = 0; d < DIX_DIR_NR; d++) {
		for (i = 0; i < t->npend[d]; i++) {
			struct dix_io *io = t->pend[d][i];
			struct kc_call *c;

			if (!t->ncall || t->call[t->ncall - 1].dir != d ||
			    t->call[t->ncall - 1].n == k->aio_max) {
				c = &t->call[t->ncall++];
				c->dir = d;
				c->n = 0;
				c->v = t->work + t->nwork;
			}
			c = &t->call[t->ncall - 1];
			/* the call sends its first request's IV only */
			r = prepare(k, io, c->n ? k->iv[c->v[0]->idx] : NULL);
			if (r)
				return r;
			lens(k, io, &inl, &outl);
			t->iin[t->nwork].iov_base = k->a->type == KC_AEAD ?
						    k->in[io->idx] : io->buf;
			t->iin[t->nwork].iov_len = inl;
			t->iout[t->nwork].iov_base = k->out[io->idx];
			t->iout[t->nwork].iov_len = outl;
			t->work[t->nwork++] = io;
			c->n++;
		}
		t->npend[d] = 0;
	}
	pthread_mutex_lock(&k->lock);
	t->state = TFM_RUN;
	k->nrun++;
	pthread_cond_signal(&t->go);
	pthread_mutex_unlock(&k->lock);
	return 0;
}

/*
 * TFM @t's calls are done: check every request (in the job thread, which
 * owns OpenSSL's context) and make them ready.
 */
static void collect(struct kc *k, struct kc_tfm *t)
{
	unsigned int i, j, w = 0;

	for (i = 0; i < t->ncall; i++) {
		struct kc_call *c = &t->call[i];

		for (j = 0; j < c->n; j++, w++) {
			struct dix_io *io = c->v[j];

			k->prev[io->idx] = j && (k->a->type == KC_SKCIPHER ||
						 k->a->chain != CH_NONE) ?
					   c->v[j - 1] : NULL;
			if (k->a->type == KC_HASH)
				finish(k, io, t->res[w], t->iout[w].iov_len, 0);
			else if (c->r < 0)	/* one failure fails the call */
				finish(k, io, c->r, 0, c->n);
			else
				finish(k, io, t->iout[w].iov_len,
				       t->iout[w].iov_len, c->n);
			k->ready[k->nready++] = io;
		}
	}
	t->ncall = 0;
	t->nwork = 0;
}

static int kc_commit(struct dix_eng_ctx *ctx)
{
	struct kc *k = ctx->priv;
	unsigned int i;
	int r, state;

	if (!k->async)
		return 0;
	for (i = 0; i < k->ntfm; i++) {
		pthread_mutex_lock(&k->lock);
		state = k->tfm[i].state;
		pthread_mutex_unlock(&k->lock);
		/* a busy TFM gets its queue when its calls are done */
		if (state != TFM_IDLE)
			continue;
		r = dispatch(k, &k->tfm[i]);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Wait until TFMs holding at least @min requests are done, check their
 * requests and hand each TFM what was queued for it meanwhile.
 */
static int kc_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct kc *k = ctx->priv;
	unsigned int i;
	int n, r;

	k->nready = 0;
	if (!k->async)
		return 0;
	for (;;) {
		int done = 0;

		pthread_mutex_lock(&k->lock);
		while (k->nrun && (unsigned int)k->nready < min) {
			for (i = 0; i < k->ntfm; i++)
				if (k->tfm[i].state == TFM_DONE)
					break;
			if (i < k->ntfm)
				break;
			pthread_cond_wait(&k->fin, &k->lock);
		}
		for (i = 0; i < k->ntfm; i++)
			if (k->tfm[i].state == TFM_DONE) {
				k->tfm[i].state = TFM_IDLE;
				k->nrun--;
				done++;
			}
		pthread_mutex_unlock(&k->lock);
		if (!done)
			break;
		for (i = 0; i < k->ntfm; i++) {
			struct kc_tfm *t = &k->tfm[i];

			if (!t->ncall)
				continue;
			pthread_mutex_lock(&k->lock);
			r = t->state;
			pthread_mutex_unlock(&k->lock);
			if (r != TFM_IDLE)
				continue;
			collect(k, t);
			r = dispatch(k, t);
			if (r)
				return r;
		}
		if ((unsigned int)k->nready >= min)
			break;
	}
	n = k->nready;
	return n;
}

static struct dix_io *kc_event(struct dix_eng_ctx *ctx, int i)
{
	struct kc *k = ctx->priv;

	return k->ready[i];
}

const struct dix_engine engine_kcapi = {
	.version = DIX_ENGINE_VERSION,
	.name = "kcapi",
	.help = "the kernel crypto API through AF_ALG (libkcapi): --alg xts(aes), cbc(aes), ctr(aes), gcm(aes), rfc4106(gcm(aes)), authenc(hmac(sha256),cbc(aes)), crc32c, crct10dif, sha256, hmac(sha256); --tfms, --iodepth per TFM, --submit sync|async; --rw write = encrypt, read = decrypt (hashes: digest); every result checked against OpenSSL or dixload's CRCs; --inject tag@N: a wrong AEAD tag in every Nth decrypt, which the kernel must refuse",
	.targets = DIX_TGT_CRYPTO,
	.app_pi = DIX_APP_PI_NONE,
	.needs = "AF_ALG (af_alg, algif_skcipher/aead/hash) and the algorithm's driver",
	.init = kc_init,
	.queue = kc_queue,
	.commit = kc_commit,
	.getevents = kc_getevents,
	.event = kc_event,
	.cleanup = kc_cleanup,
};
