// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kload.c - the kernel crypto API loaded from inside the kernel: the
 * dixkload module (kmod/) runs the requests, this engine starts it, reads
 * its counters and hands them to the job (DIX_ENG_KERNEL, engine.h).
 *
 * Why a module: AF_ALG (the kcapi engine) loses its asynchronous requests
 * on every maintained kernel (6.1.0-57's algif_skcipher completes AIO
 * inside io_submit; 7.2 removes AIO on sockets, masks async drivers and
 * 7.3 restricts what binds), so the 2023 thread's question (how many
 * requests in flight does QAT need?) can only be asked where dm-crypt,
 * IPsec and kTLS ask it: in the kernel.  The options are the kcapi
 * engine's where they mean the same: --alg, --tfms, --iodepth (requests
 * in flight per TFM), --submit sync (the thread's module: one kernel
 * thread per request slot, each waiting for its request) or async (every
 * slot submitted at once, resubmitted from its completion callback, with
 * CRYPTO_TFM_REQ_MAY_BACKLOG as dm-crypt does), --rw write = encrypt, read
 * = decrypt, rw/randrw = both (the TFMs split by --rwmixread, one load per
 * direction, so each direction's latency is its own), --bs the request
 * size, --rebind.  The rows are this engine's own, the same names, fields,
 * defaults and bounds as kcapi's: test-kload.c checks they stay the same,
 * so neither engine's build depends on the other's library.
 *
 * Every result is checked by the module against a software TFM
 * (--verify off: none); a wrong one is an Err of kind verify naming its
 * TFM and request.  The in-flight figures are the module's own
 * (inflight_max, inflight_ns), reported through the run's depth meter.
 *
 * The engine's other files (kload/kl.h lists them): kload/alg.c (--alg),
 * kload/sys.c (the module and its device), kload/tally.c (the counters'
 * differences).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "engines/engine.h"
#include "engines/kload/kl.h"
#include "kernel/cryptobind.h"
#include "kernel/qat.h"
#include "lib/depth.h"
#include "lib/util.h"

static const char *const submit_names[] = { "sync", "async", NULL };
static const char *const rebind_names[] = { "auto", "off", NULL };

#define KL_REFUSAL	"does not load the kernel crypto API"
#define OFF(f)		((long)offsetof(struct dix_opts, f))

static const struct dix_option kl_options[] = {
	{
		.name = "alg", .type = OPT_STR, .off = OFF(alg),
		.metavar = "NAME", .refusal = KL_REFUSAL,
		.help = "the algorithm, the load: X, cryptd(X), pcrypt(X) or a registered driver of X (xts-aes-aesni), X one of: xts(aes), cbc(aes), ctr(aes), gcm(aes), rfc4106(gcm(aes)), crc32c, crct10dif, sha256, hmac(sha256)",
	},
	{
		.name = "tfms", .type = OPT_UINT, .off = OFF(tfms),
		.def = "1", .min = 1, .max = 4096, .metavar = "N",
		.refusal = KL_REFUSAL,
		.help = "transforms the module allocates (at most 256); --iodepth is per transform",
	},
	{
		.name = "submit", .type = OPT_ENUM, .off = OFF(submit),
		.def = "sync", .allowed = submit_names, .metavar = "MODE",
		.refusal = KL_REFUSAL,
		.help = "sync (a kernel thread per request in flight, each waiting for its request: the 2023 thread's module) or async (resubmitted from the completion callback)",
	},
	{
		.name = "rebind", .type = OPT_ENUM, .off = OFF(rebind),
		.def = "auto", .allowed = rebind_names, .metavar = "MODE",
		.refusal = KL_REFUSAL,
		.help = "auto reopens the transforms when the kernel selects another driver; off keeps them",
	},
	{
		.name = "test-corrupt-every", .type = OPT_UINT,
		.off = OFF(kload_corrupt), .def = "0", .min = 0,
		.max = UINT32_MAX, .metavar = "N", .refusal = KL_REFUSAL,
		.help = "test only: the module corrupts every Nth result before its check, to prove the check counts (needs the module loaded with allow_corrupt=1; 0: never)",
	},
	{
		.name = "verify-every", .type = OPT_UINT, .off = OFF(verify_every),
		.def = "1", .min = 1, .max = 1000000000, .metavar = "N",
		.refusal = KL_REFUSAL,
		.help = "with --verify on, the module checks every Nth request against its reference (1: every one, the default for correctness runs); N > 1 leaves the CPU to the driver under test, which a driver change alters",
	},
	{ .name = NULL },
};

/*
 * START refused: the errno, and the module's own reason, which it keeps
 * for STATS after a failed START (sid's kernel without cryptd: "is cryptd
 * in this kernel? CONFIG_CRYPTO_CRYPTD").
 */
static void kl_refused(struct dix_eng_ctx *ctx, struct kl_load *ld, int r)
{
	const struct dix_opts *o = ctx->o;
	struct dixkload_stats *st = calloc(1, sizeof(*st));
	int n;

	n = snprintf(ctx->errmsg, sizeof(ctx->errmsg),
		     "%s: the module refused the load (%s x %llu in flight, %u TFMs): %s%s",
		     o->alg, submit_names[o->submit],
		     (unsigned long long)o->iodepth, ld->ntfm, strerror(-r),
		     r == -EPERM && o->kload_corrupt ?
		     " (--test-corrupt-every needs the module loaded with allow_corrupt=1)" :
		     r == -ENOENT ? " (no such algorithm or driver in this kernel)" : "");
	if (st && n > 0 && (size_t)n < sizeof(ctx->errmsg) &&
	    !kl_sys->ioctl(ld->fd, DIXKLOAD_IOC_STATS, st) && st->why[0])
		snprintf(ctx->errmsg + n, sizeof(ctx->errmsg) - n,
			 "; the module: %.*s", (int)sizeof(st->why), st->why);
	free(st);
}

/* The module's limits, the kernel's of this interface (dixkload_uapi.h). */
static int kl_check(const struct dix_opts *o, char *err, size_t len)
{
	struct kl_alg a;
	char names[200];

	kl_alg_names(names, sizeof(names));
	if (!o->alg) {
		snprintf(err, len, "--engine kload needs --alg NAME (one of: %s)",
			 names);
		return -EINVAL;
	}
	if (strlen(o->alg) >= sizeof(((struct dixkload_cfg *)0)->alg)) {
		snprintf(err, len, "--alg %s: longer than the module takes (127 bytes)",
			 o->alg);
		return -EINVAL;
	}
	if (kl_resolve(o->alg, &a, err, len))
		return -EINVAL;
	if (o->bs < 16 || o->bs > DIXKLOAD_MAX_REQ || o->bs % a.align) {
		snprintf(err, len,
			 "--bs %llu: the module takes requests of 16 B to 1 MiB%s",
			 (unsigned long long)o->bs, a.align > 1 ?
			 ", in whole blocks of 16 bytes" : "");
		return -EINVAL;
	}
	if (o->tfms > DIXKLOAD_MAX_TFMS || o->iodepth > DIXKLOAD_MAX_INFLIGHT) {
		snprintf(err, len,
			 "--tfms %llu --iodepth %llu: the module takes at most %u TFMs and %u requests in flight per TFM",
			 (unsigned long long)o->tfms,
			 (unsigned long long)o->iodepth, DIXKLOAD_MAX_TFMS,
			 DIXKLOAD_MAX_INFLIGHT);
		return -EINVAL;
	}
	if (o->jobs != 1) {
		snprintf(err, len,
			 "--jobs %llu: the kload engine's load runs in the kernel, --tfms x --iodepth requests from one job (--submit sync: that many kernel threads); use --jobs 1",
			 (unsigned long long)o->jobs);
		return -EINVAL;
	}
	if (rw_reads(o->rw) && rw_writes(o->rw) && o->tfms < 2) {
		snprintf(err, len,
			 "--rw %s with --tfms 1: the kload engine runs one load per direction, each on TFMs of its own (--rwmixread shares them out); use --tfms 2 or more",
			 rw_names[o->rw]);
		return -EINVAL;
	}
	if (o->inject.n) {
		snprintf(err, len,
			 "--inject: the kload engine injects nothing itself; the module's own check is proven with --test-corrupt-every N");
		return -EINVAL;
	}
	return 0;
}

/* Set once per run by kl_setup(), read by the workers. */
static struct {
	struct kl_alg a;
	char note[40];
} kl_run;

static int kl_setup(const struct dix_opts *o, char *name, size_t len)
{
	if (kl_resolve(o->alg, &kl_run.a, name, len))
		return -EINVAL;
	if (kl_module_ready(kl_run.note, sizeof(kl_run.note), name, len))
		return -ENOENT;
	cryptobind_init(o->alg, o->tfms, o->rebind);
	snprintf(name, len, "%s", o->alg);
	return 0;
}

/**
 * struct kl - one worker's loads.
 * @ld/@nld: one load per direction the run does
 * @gen: the cryptobind generation the TFMs were opened at
 * @old: the driver before a reopen, for its note
 */
struct kl {
	struct kl_load ld[KL_LOADS];
	int nld;
	unsigned int gen;
	char old[128];
};

static void kl_opened(const struct kl_load *ld)
{
	unsigned int i;

	for (i = 0; i < ld->ntfm; i++)
		cryptobind_opened(ld->tfm0 + i, ld->last.driver);
}

static int kl_start(struct dix_eng_ctx *ctx, struct kl_load *ld,
		    unsigned int dir)
{
	const struct dix_opts *o = ctx->o;
	struct dixkload_cfg cfg;
	int r;

	memset(&cfg, 0, sizeof(cfg));
	cfg.abi = DIXKLOAD_ABI;
	cfg.kind = kl_run.a.kind;
	cfg.dir = dir;
	cfg.submit = o->submit == SUBMIT_ASYNC ? DIXKLOAD_ASYNC : DIXKLOAD_SYNC;
	snprintf(cfg.alg, sizeof(cfg.alg), "%s", o->alg);
	cfg.tfms = ld->ntfm;
	cfg.inflight = o->iodepth;
	cfg.req_size = o->bs;
	cfg.keylen = kl_run.a.keylen;
	kl_key(o->seed, cfg.key, cfg.keylen);
	/* --verify-every N: 1 request in N, by its number in the load */
	cfg.check_every = o->verify == VERIFY_OFF ? 0 :
			  (o->verify_every ? (uint32_t)o->verify_every : 1);
	cfg.seed = o->seed + ld->tfm0;
	/* async as dm-crypt submits: a full driver queues, it does not refuse */
	if (cfg.submit == DIXKLOAD_ASYNC)
		cfg.flags |= DIXKLOAD_F_BACKLOG;
	if (o->kload_corrupt) {
		cfg.flags |= DIXKLOAD_F_CORRUPT;
		cfg.corrupt_every = o->kload_corrupt;
	}
	ld->fd = kl_sys->open();
	if (ld->fd < 0) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "/dev/" DIXKLOAD_DEVNAME ": %s", strerror(-ld->fd));
		return ld->fd;
	}
	r = kl_sys->ioctl(ld->fd, DIXKLOAD_IOC_START, &cfg);
	if (r) {
		kl_refused(ctx, ld, r);
		return r;
	}
	/* the counters' origin, and the driver the kernel gave the TFMs */
	r = kl_sys->ioctl(ld->fd, DIXKLOAD_IOC_STATS, &ld->last);
	if (r) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "/dev/" DIXKLOAD_DEVNAME ": reading its counters failed: %s",
			 strerror(-r));
		return r;
	}
	if (ld->last.state == DIXKLOAD_FAILED) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: the module stopped the load: %.200s", o->alg,
			 ld->last.why);
		return -EIO;
	}
	/*
	 * The counters' origin is START (they are cumulative from it), so the
	 * first tally takes what this snapshot already holds too; its clock,
	 * read microseconds after START, is where the in-flight span begins.
	 */
	ld->t0_ns = ld->last.now_ns;
	snprintf(ld->driver, sizeof(ld->driver), "%s", ld->last.driver);
	kl_opened(ld);
	{
		struct dixkload_stats *z = &ld->last;
		uint64_t t0 = z->now_ns;
		char drv[128], ref[128];

		memcpy(drv, z->driver, sizeof(drv));
		memcpy(ref, z->ref_driver, sizeof(ref));
		memset(z, 0, sizeof(*z));
		z->now_ns = t0;
		memcpy(z->driver, drv, sizeof(drv));
		memcpy(z->ref_driver, ref, sizeof(ref));
	}
	return 0;
}

static int kl_init(struct dix_eng_ctx *ctx)
{
	const struct dix_opts *o = ctx->o;
	unsigned int nread = 0, i;
	char checks[200];
	struct kl *k;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	ctx->priv = k;
	ctx->depth = 1;		/* no I/O slots: the requests are the kernel's */
	k->gen = cryptobind_generation();
	if (rw_reads(o->rw) && rw_writes(o->rw)) {
		nread = (o->tfms * o->rwmixread + 50) / 100;
		nread = nread < 1 ? 1 : nread >= o->tfms ? o->tfms - 1 : nread;
	} else if (rw_reads(o->rw)) {
		nread = o->tfms;
	}
	if (nread) {
		k->ld[k->nld].dir = DIX_READ;
		k->ld[k->nld].tfm0 = 0;
		k->ld[k->nld++].ntfm = nread;
	}
	if (nread < o->tfms) {
		k->ld[k->nld].dir = DIX_WRITE;
		k->ld[k->nld].tfm0 = nread;
		k->ld[k->nld++].ntfm = o->tfms - nread;
	}
	for (i = 0; i < (unsigned int)k->nld; i++)
		k->ld[i].fd = -1;
	for (i = 0; i < (unsigned int)k->nld; i++) {
		struct kl_load *ld = &k->ld[i];
		unsigned int dir = kl_run.a.kind == DIXKLOAD_AHASH ?
				   DIXKLOAD_DIGEST : ld->dir == DIX_READ ?
				   DIXKLOAD_DECRYPT : DIXKLOAD_ENCRYPT;

		r = kl_start(ctx, ld, dir);
		if (r)
			return r;
	}
	ctx->check_every = o->verify == VERIFY_OFF ? 0 :
			   o->verify_every ? o->verify_every : 1;
	if (!ctx->check_every)
		snprintf(checks, sizeof(checks), "nothing checked (--verify off)");
	else if (ctx->check_every == 1)
		snprintf(checks, sizeof(checks), "every result checked against %.127s",
			 k->ld[0].last.ref_driver);
	else
		snprintf(checks, sizeof(checks), "1 result in %llu checked against %.127s (--verify-every)",
			 (unsigned long long)ctx->check_every,
			 k->ld[0].last.ref_driver);
	snprintf(ctx->note, sizeof(ctx->note),
		 "%.200s%skload: %llu TFMs x %llu in flight, %s, on %.127s, %s",
		 kl_run.note, kl_run.note[0] ? "; " : "",
		 (unsigned long long)o->tfms, (unsigned long long)o->iodepth,
		 submit_names[o->submit], k->ld[0].driver, checks);
	if (ctx->job == 0)
		qat_note_append(ctx->note, sizeof(ctx->note));
	return 0;
}

/*
 * --rebind auto and the kernel selects another driver: every load drains
 * and reallocates its TFMs, and the note names the drivers before and
 * after (the kernel may give the same one back: then it says so).
 */
static int kl_rebind(struct dix_eng_ctx *ctx, struct kl *k)
{
	int i, r;

	k->gen = cryptobind_generation();
	snprintf(k->old, sizeof(k->old), "%s", k->ld[0].driver);
	for (i = 0; i < k->nld; i++) {
		struct kl_load *ld = &k->ld[i];

		r = kl_sys->ioctl(ld->fd, DIXKLOAD_IOC_REOPEN, NULL);
		if (r) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "reopening TFMs %u-%u (--rebind auto): %s",
				 ld->tfm0, ld->tfm0 + ld->ntfm - 1,
				 strerror(-r));
			return r;
		}
	}
	return 0;
}

static int kl_tally(struct dix_eng_ctx *ctx, struct dix_eng_tally *t,
		    int final)
{
	struct kl *k = ctx->priv;
	struct dixkload_stats *st = malloc(sizeof(*st));
	uint64_t now = 0, max, area, span;
	int i, r, ended = 0, rebound = 0;

	if (!st)
		return -ENOMEM;
	if (!final && k->gen != cryptobind_generation()) {
		r = kl_rebind(ctx, k);
		if (r)
			goto out;
		rebound = 1;
	}
	for (i = 0; final && i < k->nld; i++) {
		r = kl_sys->ioctl(k->ld[i].fd, DIXKLOAD_IOC_STOP, NULL);
		if (r) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "stopping the load: %s", strerror(-r));
			goto out;
		}
	}
	for (i = 0; i < k->nld; i++) {
		struct kl_load *ld = &k->ld[i];

		r = kl_sys->ioctl(ld->fd, DIXKLOAD_IOC_STATS, st);
		if (r) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "/dev/" DIXKLOAD_DEVNAME ": reading its counters failed: %s",
				 strerror(-r));
			goto out;
		}
		kl_account(ld, st, t);
		now += st->inflight_now;
		/*
		 * A load the module stopped is a failure of the load, counted
		 * as one io error (the run's exit says so), and the run stops.
		 */
		if (st->state == DIXKLOAD_FAILED && !ended) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: the module stopped the load: %.200s",
				 ctx->o->alg, st->why);
			t->errors[DIX_ERR_IO]++;
			if (t->first_kind == DIX_ERR_NR) {
				t->first_kind = DIX_ERR_IO;
				t->first_dir = ld->dir;
				snprintf(t->first_cause, sizeof(t->first_cause),
					 "the module stopped the load");
				snprintf(t->first_detail,
					 sizeof(t->first_detail), "%.250s",
					 st->why);
			}
			ended = 1;
		}
		if (strcmp(ld->driver, st->driver)) {
			snprintf(ld->driver, sizeof(ld->driver), "%s",
				 st->driver);
			kl_opened(ld);
		}
	}
	if (rebound)
		snprintf(t->note, sizeof(t->note),
			 "kload: TFMs 0-%llu reopened (--rebind auto): %.100s -> %.100s%s",
			 (unsigned long long)ctx->o->tfms - 1, k->old,
			 k->ld[0].driver, strcmp(k->old, k->ld[0].driver) ? "" :
			 " (the kernel gave the same driver back)");
	/* the module's checks, for the summary's share (engine.h) */
	ctx->check_ns = 0;
	for (i = 0; i < k->nld; i++)
		ctx->check_ns += k->ld[i].check_ns;
	kl_depth(k->ld, k->nld, now, &max, &area, &span);
	if (ctx->inflight)
		depth_report(ctx->inflight, max, area, span);
	r = ended;
out:
	free(st);
	return r;
}

static void kl_cleanup(struct dix_eng_ctx *ctx)
{
	struct kl *k = ctx->priv;
	int i;

	if (!k)
		return;
	/* closing the file stops its load and frees its TFMs */
	for (i = 0; i < k->nld; i++)
		if (k->ld[i].fd >= 0)
			kl_sys->close(k->ld[i].fd);
	free(k);
	ctx->priv = NULL;
}

const struct dix_engine engine_kload = {
	.version = DIX_ENGINE_VERSION,
	.name = "kload",
	.help = "the kernel crypto API loaded from inside the kernel by the dixkload module (kmod/; dixload loads it): --tfms transforms, --iodepth requests in flight per transform, --submit sync (kernel threads, each waiting: the 2023 thread's module) or async (callbacks); --rw write = encrypt, read = decrypt (hashes: digest); every result checked in the kernel against a software transform",
	.flags = DIX_ENG_KERNEL,
	.targets = DIX_TGT_CRYPTO,
	.app_pi = DIX_APP_PI_NONE,
	.needs = "the dixkload module (kmod/, or the dixload-dkms package) and the algorithm's driver",
	.options = kl_options,
	.check = kl_check,
	.setup = kl_setup,
	.init = kl_init,
	.tally = kl_tally,
	.cleanup = kl_cleanup,
};
