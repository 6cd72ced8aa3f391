/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc.h - what the kcapi engine's files share: the algorithm description,
 * a TFM and the engine's per-worker state, and the calls between the
 * engine's concerns.
 *
 * The engine (src/engines/kcapi.c, one DIX_ENGINES entry) is split by
 * concern into src/engines/kcapi/: alg.c (the algorithm table, key/IV
 * derivation, the OpenSSL and CRC references), tfm.c (opening a TFM and
 * rebinding it), check.c (the checks of a kernel result, the IV-chain
 * model included), aio.c (--submit async: one thread per TFM) and need.c
 * (the modules a load needs before its first TFM).
 * kcapi.c itself holds the engine's options and their checks, sets each
 * worker up and submits synchronously.  Nothing
 * outside the engine (and its unit test) includes this header.
 */
#ifndef DIX_ENGINES_KCAPI_KC_H
#define DIX_ENGINES_KCAPI_KC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <openssl/evp.h>

#include "engines/engine.h"
#include "engines/kcapi/era.h"

struct kcapi_handle;

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

/* The most wrappers an --alg may stack (cryptd(pcrypt(gcm(aes)))). */
#define KC_MAX_WRAP	4

/**
 * struct kc_spec - what --alg names.
 * @a: the table's row of the algorithm inside, its checks and references,
 *	with @a.name the kernel's name as given (what AF_ALG binds to)
 * @wrap/@nwrap: the wrapper templates around it, outermost first
 *	("cryptd", "pcrypt"), each a template instance the load makes
 * @driver: a driver name was given, not an algorithm name
 * @base: the table's name of the algorithm inside ("xts(aes)")
 * @inner: what the innermost wrapper wraps, as given: @base or a driver
 */
struct kc_spec {
	struct kc_alg a;
	const char *base;
	char inner[128];
	const char *wrap[KC_MAX_WRAP + 1];
	int nwrap;
	int driver;
};

/* Room after a request for an AEAD's associated data and tag. */
#define KC_EXTRA	64

/*
 * authenc's keys in k->key: the cipher's first (where OpenSSL's cipher
 * check takes it from, as for the other algorithms), the MAC's at 32.
 */
#define AUTHKEY_OFF	32

/* What kc_derive() derives besides a request's IV (its request number). */
#define WHAT_KEY	(1ull << 62)
#define WHAT_AAD	(1ull << 61)

/* One libkcapi AIO call of a TFM: @n requests of one direction. */
struct kc_call {
	int dir;
	unsigned int n;
	struct dix_io **v;
	ssize_t r;			/* libkcapi's total, or -errno */
};

enum { TFM_IDLE, TFM_RUN, TFM_DONE, TFM_STOP };

struct kc;

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
 * @lane: with a deferring driver, which of its TFM's op sockets this is
 *	(0: the one that opened the TFM; see kc_lanes())
 */
struct kc_tfm {
	struct kcapi_handle *h;
	unsigned int lane;
	unsigned int id;		/* 0 .. --tfms-1 across all jobs */
	unsigned int gen;		/* cryptobind generation at open */
	int cand;			/* the IV candidate that last matched */
	int failed;			/* its last AIO call failed (kc_tfm_renew()) */
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

/*
 * @bind: the driver name a wrapper's TFMs bind to (kc_need_wrappers()),
 * the worker's own: the run, not the process, holds what a run set up
 * @depth: the run's meter of requests in flight (dix_eng_ctx.inflight),
 * NULL when the run does not measure
 * @aio_inline: the probe found io_submit() completing every request inside
 * the call: an AIO call holds 1 request in flight, not its n
 */
struct kc {
	const struct kc_alg *a;		/* &spec.a */
	char bind[128];
	struct dix_depth *depth;
	int aio_inline;
	struct kc_probe probe;
	struct kc_spec spec;
	const struct dix_opts *o;
	int async, verify;
	uint64_t every;			/* --verify-every */
	uint64_t check_ns;		/* CPU in the checks (kc_finish()) */
	char calib_bad[256];		/* the calibration's first wrong result */
	uint32_t bs;
	unsigned int ntfm, iodepth, rr;	/* ntfm: entries of @tfm */
	unsigned int lanes;		/* op sockets per TFM (kc_lanes()) */
	unsigned int per;		/* slots per entry of @tfm */
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

/* The request number of @io: keys, IVs and associated data derive from it. */
static inline uint64_t req_no(const struct kc *k, const struct dix_io *io)
{
	return io->offset / k->bs;
}

/* The TFM the request in a slot went to. */
static inline struct kc_tfm *slot_tfm(struct kc *k, const struct dix_io *io)
{
	return k->owner[io->idx];
}

/* The kernel's input and output lengths for @io (AEAD: associated data and tag). */
static inline void kc_lens(const struct kc *k, const struct dix_io *io,
			   size_t *inl, size_t *outl)
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

/* alg.c: the table, the derivations, the references */

/** kc_find() - the algorithm named @name, or NULL when the engine has none. */
const struct kc_alg *kc_find(const char *name);

/**
 * kc_resolve() - what --alg @name is: an algorithm of the table, the
 * kernel's cryptd(X) or pcrypt(X) (AEADs only) around one, or the name of
 * a registered driver of one (/proc/crypto: "xts-aes-aesni"); each is
 * checked against X's references.  @out->a.name points to @name.
 * Return: 0, or -EINVAL with @err saying why and what is accepted.
 */
int kc_resolve(const char *name, struct kc_spec *out, char *err, size_t len);

/** kc_alg_names() - the algorithms the engine drives, "a, b, c", into @out. */
void kc_alg_names(char *out, size_t len);

/**
 * kc_derive() - @n bytes into @p from --seed @seed and @what (a request
 * number, or it ORed with WHAT_KEY / WHAT_AAD): the same bytes every run
 * with the same seed, and nothing shared between requests.
 */
void kc_derive(uint64_t seed, uint64_t what, unsigned char *p, size_t n);

/**
 * kc_evp_crypt() - OpenSSL's result of the cipher on @in (@len bytes)
 * into @out; AEADs: @aad (assoclen bytes; rfc4106: the first 8 are
 * authenticated, the last 8 are the IV) and the tag after @out (encrypt)
 * or taken from @tag (decrypt).
 * Return: 0, -EBADMSG when OpenSSL rejects an AEAD tag, -EINVAL when
 * OpenSSL fails otherwise.
 */
int kc_evp_crypt(struct kc *k, int enc, const unsigned char *iv,
		 const unsigned char *aad, const unsigned char *in,
		 size_t len, unsigned char *out, const unsigned char *tag);

/**
 * kc_ref_digest() - the reference digest of @len bytes at @buf into @want
 * (k->a->digest bytes, at most 32): dixload's CRCs or OpenSSL, never the
 * kernel.
 */
void kc_ref_digest(struct kc *k, const void *buf, size_t len,
		   unsigned char *want);

/**
 * kc_prepare() - the kernel's input for the request in slot @io: its IV
 * (@iv when given: an AIO call's requests share the first one's; else
 * derived) and, for an AEAD, associated data then the plaintext or
 * OpenSSL's ciphertext and tag.  Return: 0, or kc_evp_crypt()'s error.
 */
int kc_prepare(struct kc *k, struct dix_io *io, const unsigned char *iv);

/* tfm.c: opening a TFM and rebinding it */

/**
 * kc_tfm_open() - open (or reopen) TFM @t with the algorithm's key; the
 * kernel binds it to the driver it selects now, recorded for the binding
 * notes.  Return: 0, or -errno with the reason in @err.
 */
int kc_tfm_open(struct kc *k, struct kc_tfm *t, char *err, size_t len);

/**
 * kc_tfm_lane() - open @t as another op socket of @lead's TFM (same kernel
 * TFM, key and driver: accept() on its socket), for a deferring driver.
 * Return: 0, or -errno with the reason in @err.
 */
int kc_tfm_lane(struct kc *k, struct kc_tfm *t, struct kc_tfm *lead,
		char *err, size_t len);

/**
 * kc_tfm_renew() - give @t a new op socket (and AIO context) on the same
 * TFM, in place of its handle.  libkcapi 1.4's AIO call never returns on
 * a handle whose earlier AIO call failed (CVE-2026-71227, fixed in 1.5.1:
 * _kcapi_aio_read_all() waits for the failed call's events forever,
 * busy), so an AIO call after a failure gets a new handle.
 * Return: 0 or -errno (the old handle is kept).
 */
int kc_tfm_renew(struct kc *k, struct kc_tfm *t);

/** kc_tfm_close() - close @t's handle (none open: nothing). */
void kc_tfm_close(struct kc *k, struct kc_tfm *t);

/**
 * kc_maybe_rebind() - reopen @t when --rebind auto asked for it since it
 * was opened.  Return: 0, or -errno with the reason in @io's detail.
 */
int kc_maybe_rebind(struct kc *k, struct kc_tfm *t, struct dix_io *io);

/* check.c: the checks of a kernel result */

/**
 * kc_finish() - the kernel's result of @io is in: set io->res and, with
 * --verify, check it.  @res: its bytes or -errno; @want: the bytes a
 * complete result has; @call_n: requests of the AIO call @io was in (0: a
 * call of its own), whose one status libkcapi returns for all of them.
 * A failed check leaves -EBADMSG and DIX_ERR_VERIFY in @io.
 */
void kc_finish(struct kc *k, struct dix_io *io, ssize_t res, ssize_t want,
	       unsigned int call_n);

/* need.c: the modules a load needs before its first TFM */

/**
 * kc_need_load() - once per run, before any TFM opens: load the AF_ALG
 * type of @a's kind (and af_alg) and crypto_user unless they are there;
 * @alg is --alg as given, for the note.
 */
void kc_need_load(const struct kc_alg *a, const char *alg);

/**
 * kc_need_wrappers() - once per run, before any TFM opens: register the
 * instances of @sp's wrappers (innermost first, each named by its driver,
 * TMPL(child's driver), through crypto_user NEWALG), the driver name the
 * TFMs bind to into @bind (@sp's --alg unchanged without wrappers), and
 * the instances this call made (not those already registered) into
 * @made/@nmade, for cryptobind_made().  @reg 0: register nothing, only
 * name what an earlier call registered (a worker's init after the run's
 * setup); a wrapper not registered then is -ENOENT.
 * Return: 0, or -errno with @err saying why.
 */
int kc_need_wrappers(const struct kc_spec *sp, char *bind, size_t blen,
		     char (*made)[128], int *nmade, char *err, size_t elen,
		     int reg);

/** kc_need_note() - what kc_need_load() loaded, for the run's note ("": nothing). */
const char *kc_need_note(void);

/** kc_need_why() - why a module could not be loaded ("": every one is there). */
const char *kc_need_why(void);

/* aio.c: --submit async */

/**
 * kc_aio_limit() - the most requests of @inl bytes one AIO call can carry
 * (an AF_ALG socket's send buffer, which it also stores in @sndbuf).
 */
unsigned int kc_aio_limit(size_t inl, unsigned long *sndbuf);

/**
 * kc_lanes() - op sockets per TFM for --submit async: --iodepth when the
 * driver's name says it defers its requests (a wrapper: cryptd, pcrypt),
 * else 1 (kcapi.c then asks kc_probe_defers() of any other driver).
 */
unsigned int kc_lanes(const struct kc *k);

/** kc_start_threads() - one thread per TFM.  Return: 0 or -errno (@err). */
int kc_start_threads(struct kc *k, char *err, size_t len);

/** kc_stop_threads() - stop and join them (none started: nothing). */
void kc_stop_threads(struct kc *k);

/** kc_commit() - the engine's commit(): hand idle TFMs their queues. */
int kc_commit(struct dix_eng_ctx *ctx);

/** kc_getevents() - the engine's getevents(): see struct dix_engine. */
int kc_getevents(struct dix_eng_ctx *ctx, unsigned int min);

#endif
