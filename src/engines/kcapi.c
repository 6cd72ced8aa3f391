// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcapi.c - the kernel crypto API as the load, through AF_ALG (libkcapi):
 * the engine as the engine table sees it, its options and their checks,
 * the per-worker set-up and the synchronous submission.
 *
 * The QAT question ("what number of requests should be in flight?") as a
 * dixload run: --tfms transforms (TFMs, each an AF_ALG socket bound to the
 * driver the kernel selected when it was opened), --iodepth requests per
 * TFM, --submit sync (one request per system call: what the kernel module
 * of the 2023 thread did) or async (libkcapi's AIO path, one thread per
 * TFM: kcapi/aio.c).
 *
 * Directions: --rw write = encrypt, read = decrypt, rw/randrw = both by
 * --rwmixread (random or sequential means nothing here).  Hashes digest
 * every request; the direction only picks the meter column (W or R) that
 * counts it.  MB/s counts the bytes of the requests (plaintext for an AEAD,
 * its associated data and tag not counted).  Keys, IVs and associated data
 * derive from --seed and the request number (offset / --bs).
 *
 * The engine is one file per concern (kcapi/kc.h lists them): the
 * algorithms and their references (kcapi/alg.c), TFMs (kcapi/tfm.c), the
 * checks of every result (kcapi/check.c), --submit async (kcapi/aio.c).
 */
#include "config.h"

#include <errno.h>
#include <kcapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "engines/engine.h"
#include "engines/kcapi/kc.h"
#include "kernel/cryptobind.h"
#include "kernel/qat.h"
#include "lib/depth.h"
#include "lib/util.h"

static const char *const submit_names[] = { "sync", "async", NULL };
static const char *const rebind_names[] = { "auto", "off", NULL };

#define KC_REFUSAL	"does not load the kernel crypto API"
#define OFF(f)		((long)offsetof(struct dix_opts, f))

static const struct dix_option kc_options[] = {
	{
		.name = "alg", .type = OPT_STR, .off = OFF(alg),
		.metavar = "NAME", .refusal = KC_REFUSAL,
		.help = "the algorithm, the load: X, cryptd(X), pcrypt(X) (AEADs) or a registered driver of X (xts-aes-aesni), X one of: xts(aes), cbc(aes), ctr(aes), gcm(aes), rfc4106(gcm(aes)), authenc(hmac(sha256),cbc(aes)), crc32c, crct10dif, sha256, hmac(sha256)",
	},
	{
		.name = "tfms", .type = OPT_UINT, .off = OFF(tfms),
		.def = "1", .min = 1, .max = 4096, .metavar = "N",
		.refusal = KC_REFUSAL,
		.help = "transforms opened, a multiple of --jobs; --iodepth is per transform",
	},
	{
		.name = "submit", .type = OPT_ENUM, .off = OFF(submit),
		.def = "sync", .allowed = submit_names, .metavar = "MODE",
		.refusal = KC_REFUSAL,
		.help = "sync (one request per system call) or async (AIO, --iodepth-batch per call)",
	},
	{
		.name = "rebind", .type = OPT_ENUM, .off = OFF(rebind),
		.def = "auto", .allowed = rebind_names, .metavar = "MODE",
		.refusal = KC_REFUSAL,
		.help = "auto reopens the transforms when the kernel selects another driver; off keeps them",
	},
	{
		.name = "verify-every", .type = OPT_UINT, .off = OFF(verify_every),
		.def = "1", .min = 1, .max = 1000000000, .metavar = "N",
		.refusal = KC_REFUSAL,
		.help = "with --verify on, check every Nth request against the reference (1: every one, the default for correctness runs); N > 1 leaves more of dixload's CPU to the kernel's work, which a driver change alters (the summary gives the checks' share)",
	},
	{ .name = NULL },
};

/*
 * The options against each other and the run's, before anything opens: a
 * TFM that cannot be set up would otherwise fail only in the workers.
 */
static int kc_check(const struct dix_opts *o, char *err, size_t len)
{
	const struct kc_alg *a;
	struct kc_spec sp;
	char names[200];

	kc_alg_names(names, sizeof(names));
	if (!o->alg) {
		snprintf(err, len, "--engine kcapi needs --alg NAME (one of: %s)",
			 names);
		return -EINVAL;
	}
	if (kc_resolve(o->alg, &sp, err, len))
		return -EINVAL;
	a = &sp.a;
	if (o->bs % a->align) {
		snprintf(err, len, "--bs %llu: %s takes whole blocks of %u bytes",
			 (unsigned long long)o->bs, a->name, a->align);
		return -EINVAL;
	}
	if (o->tfms % o->jobs) {
		snprintf(err, len,
			 "--tfms %llu is not a multiple of --jobs %llu (each job holds --tfms / --jobs TFMs)",
			 (unsigned long long)o->tfms,
			 (unsigned long long)o->jobs);
		return -EINVAL;
	}
	return 0;
}

/*
 * The TFM binding watch (kernel/cryptobind.h) and the load's name.  What
 * the TFMs bind to stays in this call: each worker's init names it again
 * (kc_need_wrappers() with reg 0), so nothing of one run waits in the
 * process for the next (a sweep point, another job).
 */
static int kc_setup(const struct dix_opts *o, char *name, size_t len)
{
	char made[KC_MAX_WRAP + 1][128], bind[128];
	struct kc_spec sp;
	int i, n;

	/*
	 * libkcapi prints its own "AF_ALG: bind failed (errno: -2)" on
	 * stderr before the engine can say why; the engine's messages name
	 * the algorithm, the errno and the kernel change behind it
	 */
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	/* before any worker opens a TFM; kc_check() resolved --alg */
	if (kc_resolve(o->alg, &sp, name, len))
		return -EINVAL;
	kc_need_load(&sp.a, o->alg);
	if (kc_need_wrappers(&sp, bind, sizeof(bind), made, &n, name, len, 1))
		return -EINVAL;
	cryptobind_init(bind, o->tfms, o->rebind);
	for (i = 0; i < n; i++)
		cryptobind_made(made[i]);
	snprintf(name, len, "%s", o->alg);
	return 0;
}

/*
 * What io_submit() does with the TFMs' requests here (kcapi/probe.c),
 * before the load: the run counts what was in flight by it, and job 0's
 * note (the start of the run) says it, with the kernel's version.
 */
static void kc_async_probe(struct dix_eng_ctx *ctx, struct kc *k)
{
	unsigned int n = k->per < k->aio_max ? k->per : k->aio_max;
	struct kc_era e;
	size_t l = strlen(ctx->note);

	kc_probe_aio(k, n, &k->probe);
	k->aio_inline = k->probe.err || k->probe.done == k->probe.n;
	if (ctx->job)
		return;
	kc_era_read(&e, k->a->name);
	if (l && l < sizeof(ctx->note) - 1)
		ctx->note[l++] = '\n';
	kc_era_async_note(&e, &k->probe, k->a->name, k->iodepth,
			  k->ntfm * (unsigned int)ctx->jobs, ctx->note + l,
			  sizeof(ctx->note) - l);
}

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int kc_sync(struct kc *k, struct dix_io *io);

/*
 * The checks' share of a request's CPU, measured before the load for the
 * start note: KC_CALIB requests of --bs through TFM 0, synchronously
 * (encrypt, or digest), each checked, the checks' CPU (kc_finish())
 * against the whole.  The kernel's work runs in the calling thread (its
 * system time), so the two are one clock.  Nothing is counted: the meter
 * is not the load's yet, and the check time restarts at 0.  With the share
 * s, a driver that did its part in no time at all would raise MB/s by at
 * most 1 / s while every result is checked: on sid's xts(ecb(aes-lib))
 * that bound was near 1 (1.02x measured checked, 2.65x with --verify off).
 */
#define KC_CALIB	16
#define KC_CALIB_WARM	4

static int kc_calibrate(struct dix_eng_ctx *ctx, struct kc *k)
{
	struct dix_depth *d = k->depth;
	struct dix_io io;
	uint64_t t0 = 0, all;
	size_t l = strlen(ctx->note);
	double share;
	char every[48];
	int i, bad = 0;

	snprintf(every, sizeof(every), k->every == 1 ? "every request" :
		 "1 request in %llu", (unsigned long long)k->every);
	memset(&io, 0, sizeof(io));
	if (posix_memalign((void **)&io.buf, 4096, k->bs + KC_EXTRA))
		return 0;
	memset(io.buf, 0x5a, k->bs);
	io.len = k->bs;
	io.dir = DIX_WRITE;
	k->depth = NULL;
	/* the first calls pay OpenSSL's and the socket's first touches */
	for (i = -KC_CALIB_WARM; i < KC_CALIB; i++) {
		if (i == 0) {
			k->check_ns = 0;
			t0 = thread_ns();
		}
		io.offset = (uint64_t)(i + KC_CALIB_WARM) * k->bs;
		k->owner[0] = &k->tfm[0];
		io.detail[0] = '\0';
		kc_sync(k, &io);
		/* a wrong result is never dropped, not even here */
		if (io.res < 0 && io.errkind == DIX_ERR_VERIFY && !bad++)
			snprintf(k->calib_bad, sizeof(k->calib_bad), "%s",
				 io.detail);
	}
	if (bad)
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%d of the %d requests before the load (the checks' calibration) came back wrong; the first: %s",
			 bad, KC_CALIB + KC_CALIB_WARM, k->calib_bad);
	all = thread_ns() - t0;
	share = all ? (double)k->check_ns / (double)all : 0;
	k->check_ns = 0;
	k->depth = d;
	free(io.buf);
	if (l && l < sizeof(ctx->note) - 1)
		ctx->note[l++] = '\n';
	snprintf(ctx->note + l, sizeof(ctx->note) - l,
		 "kcapi: checks: %s (--verify-every %llu) against %s; in %d requests of %u bytes before the load (after %d not counted), checked as the load's are, the checks took %.0f %% of the CPU, the kernel's work included: %s%.1fx (the summary gives their share over the load)",
		 every, (unsigned long long)k->every,
		 k->a->ref == REF_CRC32C || k->a->ref == REF_CRC16 ?
		 "dixload's CRCs" : "OpenSSL", KC_CALIB, k->bs, KC_CALIB_WARM, share * 100,
		 "while they cost that, a faster driver can raise MB/s at most ",
		 share > 0 ? 1 / share : 0);
	return bad ? -EBADMSG : 0;
}

static int kc_init(struct dix_eng_ctx *ctx)
{
	const struct dix_opts *o = ctx->o;
	struct kc *k;
	unsigned int i, depth;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	ctx->priv = k;
	k->o = o;
	/* the algorithm and --bs passed kc_check() */
	if (kc_resolve(o->alg ? o->alg : "", &k->spec, ctx->errmsg,
		       sizeof(ctx->errmsg)))
		return -EINVAL;
	/* a wrapper's instance by its driver name, as kc_setup() made it */
	if (k->spec.nwrap) {
		char made[KC_MAX_WRAP + 1][128];
		int n;

		if (kc_need_wrappers(&k->spec, k->bind, sizeof(k->bind), made,
				     &n, ctx->errmsg, sizeof(ctx->errmsg), 0))
			return -ENOENT;
		k->spec.a.name = k->bind;
	}
	k->a = &k->spec.a;
	k->depth = ctx->inflight;
	k->bs = o->bs;
	k->async = o->submit == SUBMIT_ASYNC;
	k->verify = o->verify != VERIFY_OFF;
	k->every = o->verify_every ? o->verify_every : 1;
	ctx->check_every = k->verify ? k->every : 0;
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
	kc_derive(o->seed, WHAT_KEY, k->key, sizeof(k->key));
	/*
	 * A deferring driver: an entry (op socket, thread) per slot.  A
	 * wrapper says so by its name; any other driver (an offload card's,
	 * the model's xts-aes-dixoffload) by one request the kernel still
	 * holds when io_submit() returns: a second on its op socket would
	 * get EBUSY (aio.c), and its name cannot tell.
	 */
	k->lanes = kc_lanes(k);
	if (k->lanes == 1 && k->async && k->iodepth > 1 &&
	    k->a->type != KC_HASH && kc_probe_defers(k))
		k->lanes = k->iodepth;
	k->ntfm *= k->lanes;
	k->per = k->async ? k->iodepth / k->lanes : 1;
	/* the modules kc_setup() loaded: the run's note, once */
	if (ctx->job == 0) {
		snprintf(ctx->note, sizeof(ctx->note), "%s", kc_need_note());
		qat_note_append(ctx->note, sizeof(ctx->note));
	}
	if (k->async) {
		unsigned long sndbuf;

		k->aio_max = kc_aio_limit(k->bs + k->a->assoclen +
					  k->a->taglen, &sndbuf);
		if (k->a->type != KC_HASH && ctx->job == 0 && k->lanes == 1 &&
		    k->aio_max < k->iodepth && k->aio_max < o->iodepth_batch)
			dix_warn("kcapi: an AF_ALG socket holds %lu bytes of unconsumed data (net.core.wmem_default): one AIO call carries at most %u requests of %u bytes, so at most %u of the --iodepth %u are in flight on a TFM",
				 sndbuf, k->aio_max, k->bs, k->aio_max,
				 k->iodepth);
	}
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

		t->id = (ctx->job * k->ntfm + i) / k->lanes;
		t->lane = i % k->lanes;
		t->pend[DIX_READ] = calloc(k->per, sizeof(struct dix_io *));
		t->pend[DIX_WRITE] = calloc(k->per, sizeof(struct dix_io *));
		t->work = calloc(k->per, sizeof(*t->work));
		t->call = calloc(2 * k->per, sizeof(*t->call));
		t->res = calloc(k->per, sizeof(*t->res));
		t->iin = calloc(k->per, sizeof(*t->iin));
		t->iout = calloc(k->per, sizeof(*t->iout));
		if (!t->pend[DIX_READ] || !t->pend[DIX_WRITE] || !t->work ||
		    !t->call || !t->res || !t->iin || !t->iout)
			return -ENOMEM;
		t->k = k;
		r = t->lane ? kc_tfm_lane(k, t, t - t->lane, ctx->errmsg,
					  sizeof(ctx->errmsg)) :
		    kc_tfm_open(k, t, ctx->errmsg, sizeof(ctx->errmsg));
		if (r)
			return r;
	}
	if (k->async && k->a->type != KC_HASH)
		kc_async_probe(ctx, k);
	if (k->verify && ctx->job == 0 && kc_calibrate(ctx, k))
		return -EBADMSG;
	return k->async ? kc_start_threads(k, ctx->errmsg, sizeof(ctx->errmsg)) :
	       0;
}

static void kc_cleanup(struct dix_eng_ctx *ctx)
{
	struct kc *k = ctx->priv;
	unsigned int i;

	if (!k)
		return;
	kc_stop_threads(k);
	ctx->check_ns = k->check_ns;
	if (k->tfm)
		for (i = 0; i < k->ntfm; i++) {
			struct kc_tfm *t = &k->tfm[i];

			kc_tfm_close(k, t);
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

/* One request, synchronously. */
static int kc_sync(struct kc *k, struct dix_io *io)
{
	struct kc_tfm *t = slot_tfm(k, io);
	unsigned char *in = k->a->type == KC_AEAD ? k->in[io->idx] : io->buf;
	unsigned char *out = k->out[io->idx];
	size_t inl, outl;
	ssize_t r;

	r = kc_maybe_rebind(k, t, io);
	if (r)
		return r;
	r = kc_prepare(k, io, NULL);
	if (r)
		return r;
	kc_lens(k, io, &inl, &outl);
	/* in flight from the call to its return: the kernel holds it */
	if (k->depth)
		depth_enter(k->depth, 1);
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
	if (k->depth)
		depth_leave(k->depth, 1);
	kc_finish(k, io, r, outl, 0);
	return DIX_Q_COMPLETED;
}

static int kc_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct kc *k = ctx->priv;
	struct kc_tfm *t;

	/*
	 * sync: the job reuses the slot just freed, so the TFMs take turns
	 * round robin; async: --iodepth slots per TFM, on one op socket or
	 * (a deferring driver, kc_lanes()) one each
	 */
	if (!k->async) {
		k->owner[io->idx] = &k->tfm[k->rr++ % k->ntfm];
		return kc_sync(k, io);
	}
	t = k->owner[io->idx] = &k->tfm[io->idx / k->per];
	t->pend[io->dir][t->npend[io->dir]++] = io;
	return DIX_Q_QUEUED;
}

static struct dix_io *kc_event(struct dix_eng_ctx *ctx, int i)
{
	struct kc *k = ctx->priv;

	return k->ready[i];
}

const struct dix_engine engine_kcapi = {
	.version = DIX_ENGINE_VERSION,
	.name = "kcapi",
	.help = "the kernel crypto API through AF_ALG (libkcapi) as the load, --iodepth requests in flight per transform; --rw write = encrypt, read = decrypt (hashes: digest); every result checked against OpenSSL or dixload's CRCs; --inject tag@N: a wrong AEAD tag in every Nth decrypt, which the kernel must refuse",
	.targets = DIX_TGT_CRYPTO,
	.app_pi = DIX_APP_PI_NONE,
	.needs = "AF_ALG (af_alg, algif_skcipher/aead/hash) and the algorithm's driver",
	.options = kc_options,
	.check = kc_check,
	.setup = kc_setup,
	.init = kc_init,
	.queue = kc_queue,
	.commit = kc_commit,
	.getevents = kc_getevents,
	.event = kc_event,
	.cleanup = kc_cleanup,
};
