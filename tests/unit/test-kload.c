// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-kload.c - the kload engine against a fake dixkload module (its
 * calls go through struct kl_sys): the module's latency buckets are
 * dixload's at every bucket edge; the options are the kcapi engine's where
 * they share a name; whole runs through run_load() count exactly what the
 * fake completed (ops, bytes, wrong results: exit 3 with the TFM and
 * request named, driver errors with their errno); the module's in-flight
 * figures reach the depth meter; and the error paths (module missing, of
 * another ABI, a refused START, a load the module stopped) say why.
 * The real module is tested in the VM (tests/vm/kload-*.sh).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/options.h"
#include "conf/profile.h"
#include "core/dev.h"
#include "core/job.h"
#include "core/run.h"
#include "device/devdesc.h"
#include "engines/engine.h"
#include "engines/kload/kl.h"
#include "lib/depth.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "tap.h"

/* ---- the fake module ---- */

#define FAKE_FILES	8
#define FAKE_STEP	100	/* requests per TFM per STATS */
#define FAKE_LAT	5000	/* ns, each request */
#define FAKE_CHECK_NS	1500	/* ns, each check */

static struct fake {
	int need;		/* what need() returns */
	int abi;		/* the module's ABI */
	int enotty;		/* its STATS is of another size */
	int start_err;		/* START fails with this */
	const char *start_why;	/* and the module says this */
	int fail_after;		/* the load fails after this many STATS */
	int errno_every;	/* a driver error every Nth request (EIO) */
	int open_files;
	struct {
		int open, started, stopped, reopened, calls;	/* calls: STATS */
		struct dixkload_cfg cfg;
		struct dixkload_stats st;
	} f[FAKE_FILES];
} fk;

static int fake_need(const char *name, char *msg, size_t len)
{
	if (strcmp(name, "dixkload"))
		return -EINVAL;
	if (fk.need < 0)
		snprintf(msg, len, "module dixkload not found in /lib/modules/test");
	return fk.need;
}

static int fake_open(void)
{
	int i;

	for (i = 0; i < FAKE_FILES; i++)
		if (!fk.f[i].open) {
			memset(&fk.f[i], 0, sizeof(fk.f[i]));
			fk.f[i].open = 1;
			fk.open_files++;
			return 100 + i;
		}
	return -EMFILE;
}

static void fake_close(int fd)
{
	fk.f[fd - 100].open = 0;
	fk.open_files--;
}

/* One STATS: the load advances by FAKE_STEP requests on each TFM. */
static void fake_advance(int i)
{
	struct dixkload_stats *s = &fk.f[i].st;
	const struct dixkload_cfg *c = &fk.f[i].cfg;
	uint64_t n = (uint64_t)FAKE_STEP * c->tfms, now;

	s->now_ns += 10000000;	/* 10 ms */
	s->requests += n;
	s->lat[dixkload_bucket_of(FAKE_LAT)] += n;
	now = (uint64_t)c->tfms * c->inflight;
	s->inflight_now = now;
	s->inflight_max = now;
	s->inflight_ns += now * 10000000;
	/* cumulative formulas: the counts are exact whatever the calls */
	if (c->flags & DIXKLOAD_F_CORRUPT) {
		s->mismatches = s->requests / c->corrupt_every;
		if (s->mismatches && !s->first_bad_req) {
			s->first_bad_tfm = 1;
			s->first_bad_req = c->corrupt_every;
		}
	}
	if (fk.errno_every) {
		s->errors = s->requests / fk.errno_every;
		s->last_errno = EIO;
	}
	s->checked = c->check_every ? s->requests / c->check_every : 0;
	/* the module's clock of its checks: FAKE_CHECK_NS each */
	s->check_ns = s->checked * FAKE_CHECK_NS;
	s->bytes = (s->requests - s->errors) * c->req_size;
	if (fk.fail_after && fk.f[i].calls > fk.fail_after) {
		s->state = DIXKLOAD_FAILED;
		snprintf(s->why, sizeof(s->why), "xts-aes-test: -ENOSPC on every retry");
	}
}

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	int i = fd - 100;

	if (i < 0 || i >= FAKE_FILES || !fk.f[i].open)
		return -EBADF;
	switch (req) {
	case DIXKLOAD_IOC_START:
		if (fk.start_err) {
			/* the module keeps its reason for STATS (dixkload_ctl.c) */
			fk.f[i].st.state = DIXKLOAD_FAILED;
			snprintf(fk.f[i].st.why, sizeof(fk.f[i].st.why), "%s",
				 fk.start_why);
			return fk.start_err;
		}
		fk.f[i].cfg = *(struct dixkload_cfg *)arg;
		fk.f[i].started = 1;
		fk.f[i].st.abi = DIXKLOAD_ABI;
		fk.f[i].st.state = DIXKLOAD_RUNNING;
		fk.f[i].st.now_ns = 1000000000;
		snprintf(fk.f[i].st.driver, sizeof(fk.f[i].st.driver),
			 "xts-aes-test");
		snprintf(fk.f[i].st.ref_driver, sizeof(fk.f[i].st.ref_driver),
			 "xts(ecb(aes-generic))");
		return 0;
	case DIXKLOAD_IOC_STATS:
		if (fk.enotty)
			return -ENOTTY;
		if (!fk.f[i].started && fk.f[i].st.state != DIXKLOAD_FAILED) {
			memset(arg, 0, sizeof(struct dixkload_stats));
			((struct dixkload_stats *)arg)->abi = fk.abi;
			return 0;
		}
		/* the first snapshot, just after START, finds nothing done */
		if (!fk.f[i].stopped && fk.f[i].st.state == DIXKLOAD_RUNNING &&
		    fk.f[i].calls++)
			fake_advance(i);
		memcpy(arg, &fk.f[i].st, sizeof(fk.f[i].st));
		return 0;
	case DIXKLOAD_IOC_STOP:
		fk.f[i].stopped = 1;
		fk.f[i].st.inflight_now = 0;
		fk.f[i].st.state = DIXKLOAD_STOPPED;
		return 0;
	case DIXKLOAD_IOC_REOPEN:
		fk.f[i].reopened++;
		return 0;
	}
	return -ENOTTY;
}

static const struct kl_sys fake_sys = {
	.need = fake_need, .open = fake_open, .ioctl = fake_ioctl,
	.close = fake_close,
};

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.abi = DIXKLOAD_ABI;
	kl_sys = &fake_sys;
}

static uint64_t fake_total(uint64_t *mism, uint64_t *errs)
{
	uint64_t n = 0;
	int i;

	*mism = *errs = 0;
	for (i = 0; i < FAKE_FILES; i++) {
		n += fk.f[i].st.requests;
		*mism += fk.f[i].st.mismatches;
		*errs += fk.f[i].st.errors;
	}
	return n;
}

/* ---- the buckets ---- */

static void test_buckets(void)
{
	/* 2^64 ns is the histogram's reach: the buckets above it stay empty */
	unsigned int top = lat_bucket_of(UINT64_MAX), b, bad = 0;
	uint64_t lo, hi;

	is_int(DIXKLOAD_LAT_BUCKETS, LAT_BUCKETS, "the module has dixload's bucket count");
	for (b = 0; b <= top; b++) {
		uint64_t v[4];
		int i;

		if (lat_bucket_bounds(b, &lo, &hi)) {
			bad++;
			continue;
		}
		v[0] = lo;
		v[1] = hi;
		v[2] = lo ? lo - 1 : 0;
		v[3] = hi < UINT64_MAX ? hi + 1 : hi;
		for (i = 0; i < 4; i++)
			if (dixkload_bucket_of(v[i]) != lat_bucket_of(v[i]))
				bad++;
		if (dixkload_bucket_of(lo) != b || dixkload_bucket_of(hi) != b)
			bad++;
	}
	ok(top > 900 && bad == 0,
	   "dixkload_bucket_of() == lat_bucket_of() at both edges of each of the %u buckets a latency can reach, and beside them (%u differ)",
	   top + 1, bad);
	is_int(dixkload_bucket_of(UINT64_MAX), top, "the same top bucket");
}

/* ---- the options ---- */

static void test_options(void)
{
	const struct dix_engine *kl = engine_find("kload"), *kc = engine_find("kcapi");
	const struct dix_option *a, *b;
	int shared = 0, diff = 0, i;

	ok(kl && (kl->flags & DIX_ENG_KERNEL) && kl->tally && !kl->queue,
	   "kload is a DIX_ENG_KERNEL engine with tally()");
	if (!kc) {
		skip_dep("the kcapi engine is not built (libkcapi): its rows cannot be compared");
		return;
	}
	for (a = kl->options; a->name; a++)
		for (b = kc->options; b->name; b++) {
			if (strcmp(a->name, b->name))
				continue;
			shared++;
			if (a->type != b->type || a->off != b->off ||
			    (a->def || b->def ? !a->def || !b->def ||
			     strcmp(a->def, b->def) : 0) ||
			    a->min != b->min || a->max != b->max ||
			    !a->allowed != !b->allowed)
				diff++;
			for (i = 0; a->allowed && b->allowed &&
			     (a->allowed[i] || b->allowed[i]); i++)
				if (!a->allowed[i] || !b->allowed[i] ||
				    strcmp(a->allowed[i], b->allowed[i]))
					diff++;
		}
	is_int(shared, 5, "kload shares --alg, --tfms, --submit, --rebind, --verify-every with kcapi");
	is_int(diff, 0, "each shared row has kcapi's type, field, default, bounds and values");
}

/* ---- whole runs ---- */

struct res {
	int st;
	uint64_t ops[DIX_DIR_NR], bytes[DIX_DIR_NR], err[DIX_ERR_NR];
	uint64_t check_ns, check_every;
	int check_kernel;
	char out[8192];
};

/* crypto_main()'s run, on the fake module; stderr captured into @res->out */
static void run(const char *const *opts, struct res *res)
{
	struct dix_devdesc t;
	struct dix_opts o;
	struct dix_dev d;
	struct dix_run r;
	char err[640], load[640];
	FILE *f;
	int i, e, k;

	memset(res, 0, sizeof(*res));
	opts_init(&o);
	o.opt_engine = "kload";
	opt_set(&o, "engine", "kload", err, sizeof(err));
	for (i = 0; opts[i]; i += 2)
		if (opt_set(&o, opts[i], opts[i + 1], err, sizeof(err)))
			ok(0, "--%s %s: %s", opts[i], opts[i + 1], err);
	o.seed_set = 1;
	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	r.eng = engine_find("kload");
	if (r.eng->check(&o, load, sizeof(load)) ||
	    r.eng->setup(&o, load, sizeof(load))) {
		res->st = -1;
		snprintf(res->out, sizeof(res->out), "%s", load);
		opts_free(&o);
		return;
	}
	devdesc_open_crypto(&t, "kload:test", load, o.size ? o.size : 1ull << 30,
			    o.bs);
	d.t = t;
	d.path = "kload:test";
	d.size = o.size;
	o.precondition = PRECOND_OFF;
	r.o = &o;
	r.devs = &d;
	r.ndevs = 1;
	r.wake_fd = -1;
	fflush(stdout);
	fflush(stderr);
	f = tmpfile();
	e = dup(2);
	k = dup(1);
	dup2(fileno(f), 2);
	dup2(fileno(f), 1);
	res->st = run_load(&r);
	fflush(stdout);
	fflush(stderr);
	dup2(e, 2);
	dup2(k, 1);
	close(e);
	close(k);
	rewind(f);
	res->out[fread(res->out, 1, sizeof(res->out) - 1, f)] = '\0';
	fclose(f);
	for (i = 0; i < r.nworkers; i++) {
		for (k = 0; k < DIX_DIR_NR; k++) {
			res->ops[k] += r.workers[i].c.ops[k];
			res->bytes[k] += r.workers[i].c.bytes[k];
		}
		for (k = 0; k < DIX_ERR_NR; k++)
			res->err[k] += r.workers[i].c.errors[k];
		res->check_ns += r.workers[i].check_ns;
		res->check_every = r.workers[i].check_every;
		res->check_kernel |= r.workers[i].check_kernel;
	}
	run_free(&r);
	opts_free(&o);
}

static void test_runs(void)
{
	static const char *const good[] = {
		"alg", "xts(aes)", "rw", "write", "bs", "4k", "tfms", "2",
		"iodepth", "16", "runtime", "0.3", "interval", "100",
		"seed", "7", NULL };
	static const char *const mixed[] = {
		"alg", "cbc(aes)", "rw", "randrw", "rwmixread", "25", "bs",
		"4k", "tfms", "4", "iodepth", "2", "runtime", "0.3",
		"interval", "100", NULL };
	static const char *const corrupt[] = {
		"alg", "xts(aes)", "rw", "write", "bs", "4k", "tfms", "2",
		"iodepth", "16", "runtime", "0.3", "interval", "100",
		"test-corrupt-every", "7", NULL };
	static const char *const sampled[] = {
		"alg", "xts(aes)", "rw", "write", "bs", "4k", "tfms", "2",
		"iodepth", "16", "runtime", "0.3", "interval", "100",
		"verify-every", "8", NULL };
	static const char *const sized[] = {
		"alg", "sha256", "rw", "write", "bs", "4k", "size", "40m",
		"interval", "0", NULL };
	uint64_t n, mism, errs;
	struct res res;

	fake_reset();
	run(good, &res);
	n = fake_total(&mism, &errs);
	is_int(res.st, DIX_EXIT_OK, "a 0.3 s xts(aes) load: exit 0");
	ok(n > 0 && res.ops[DIX_WRITE] == n && res.ops[DIX_READ] == 0,
	   "its ops are the module's requests, all encrypts (%llu of %llu)",
	   (unsigned long long)res.ops[DIX_WRITE], (unsigned long long)n);
	is_int(res.bytes[DIX_WRITE], n * 4096, "bytes: the requests x --bs");
	is_int(fk.f[0].cfg.tfms * fk.f[0].cfg.inflight, 32, "START asked 2 TFMs x 16");
	ok(fk.f[0].cfg.dir == DIXKLOAD_ENCRYPT && fk.f[0].cfg.submit == DIXKLOAD_SYNC &&
	   fk.f[0].cfg.check_every == 1 && fk.f[0].cfg.keylen == 64 &&
	   fk.f[0].cfg.req_size == 4096 && !strcmp(fk.f[0].cfg.alg, "xts(aes)"),
	   "encrypt, sync, every request checked, a 64-byte key, 4 KiB");
	ok(fk.f[0].stopped && fk.open_files == 0, "the load was stopped and its file closed");
	ok(strstr(res.out, "kload: 2 TFMs x 16 in flight, sync, on xts-aes-test, every result checked against xts(ecb(aes-generic))") != NULL,
	   "the note names the driver, the checks and the reference");
	is_int(res.check_ns, n * FAKE_CHECK_NS, "the checks' time is the module's (check_ns)");
	ok(res.check_every == 1 && res.check_kernel,
	   "every request checked, in the kernel: the share is of the machine's CPU");

	fake_reset();
	run(sampled, &res);
	n = fake_total(&mism, &errs);
	is_int(res.st, DIX_EXIT_OK, "--verify-every 8: exit 0");
	is_int(fk.f[0].cfg.check_every, 8, "START asked 1 check in 8");
	ok(strstr(res.out, "on xts-aes-test, 1 result in 8 checked against xts(ecb(aes-generic)) (--verify-every)") != NULL,
	   "the note says 1 result in 8 is checked");
	is_int(res.check_ns, n / 8 * FAKE_CHECK_NS, "the sampled checks' time");

	fake_reset();
	run(mixed, &res);
	n = fake_total(&mism, &errs);
	ok(fk.f[0].cfg.dir == DIXKLOAD_DECRYPT && fk.f[0].cfg.tfms == 1 &&
	   fk.f[1].cfg.dir == DIXKLOAD_ENCRYPT && fk.f[1].cfg.tfms == 3,
	   "randrw --rwmixread 25 on 4 TFMs: one decrypting, three encrypting");
	is_int(res.ops[DIX_READ], fk.f[0].st.requests, "decrypts: the first load's requests");
	is_int(res.ops[DIX_WRITE], fk.f[1].st.requests, "encrypts: the second load's");

	fake_reset();
	run(corrupt, &res);
	n = fake_total(&mism, &errs);
	is_int(res.st, DIX_EXIT_INTEGRITY, "every 7th result corrupted: exit 3");
	ok(mism > 0 && res.err[DIX_ERR_VERIFY] == mism,
	   "the wrong results counted exactly (%llu of %llu)",
	   (unsigned long long)res.err[DIX_ERR_VERIFY], (unsigned long long)mism);
	ok(fk.f[0].cfg.flags & DIXKLOAD_F_CORRUPT && fk.f[0].cfg.corrupt_every == 7,
	   "the module was asked to corrupt every 7th");
	ok(strstr(res.out, "TFM 1, request 7 on it, on xts-aes-test: the result differs from the software reference xts(ecb(aes-generic))") != NULL,
	   "the error names the TFM, the request and the reference");

	fake_reset();
	fk.errno_every = 500;
	run(good, &res);
	n = fake_total(&mism, &errs);
	ok(errs > 0 && res.err[DIX_ERR_IO] == errs && res.err[DIX_ERR_VERIFY] == 0,
	   "driver errors are io errors, counted exactly (%llu of %llu)",
	   (unsigned long long)res.err[DIX_ERR_IO], (unsigned long long)errs);
	ok(strstr(res.out, "the driver failed: EIO") != NULL, "and name the errno");

	fake_reset();
	run(sized, &res);
	n = fake_total(&mism, &errs);
	/* 40 MiB of 4 KiB: 10240 requests; the fake completes 100 a STATS */
	ok(res.st == DIX_EXIT_OK && n >= 10240 && n < 10240 + FAKE_STEP &&
	   res.ops[DIX_WRITE] == n && fk.f[0].cfg.dir == DIXKLOAD_DIGEST &&
	   fk.f[0].cfg.kind == DIXKLOAD_AHASH,
	   "--size 40m of sha256 digests: stops once 10240 are done, counts all (%llu)",
	   (unsigned long long)n);

	fake_reset();
	fk.fail_after = 3;
	run(good, &res);
	ok(res.st == DIX_EXIT_IO && res.err[DIX_ERR_IO] == 1 &&
	   strstr(res.out, "the module stopped the load: xts-aes-test: -ENOSPC on every retry"),
	   "a load the module stopped ends the run, one io error with its reason (exit %d)", res.st);
}

/* ---- the depth and the errors of setup ---- */

static void test_depth(void)
{
	const struct dix_engine *e = engine_find("kload");
	struct dix_eng_ctx ctx;
	struct dix_eng_tally t;
	struct lat_hist lat[DIX_DIR_NR];
	struct dix_depth d;
	struct dix_opts o;
	char err[640];
	uint64_t max;
	double mean;

	fake_reset();
	opts_init(&o);
	o.opt_engine = "kload";
	opt_set(&o, "alg", "xts(aes)", err, sizeof(err));
	opt_set(&o, "rw", "write", err, sizeof(err));
	opt_set(&o, "tfms", "7", err, sizeof(err));
	opt_set(&o, "iodepth", "16", err, sizeof(err));
	opt_set(&o, "submit", "async", err, sizeof(err));
	is_int(e->check(&o, err, sizeof(err)), 0, "7 TFMs x 16 async passes the check");
	is_int(e->setup(&o, err, sizeof(err)), 0, "setup");
	memset(&ctx, 0, sizeof(ctx));
	memset(lat, 0, sizeof(lat));
	depth_init(&d);
	ctx.o = &o;
	ctx.jobs = 1;
	ctx.inflight = &d;
	is_int(e->init(&ctx), 0, "init starts the load");
	ok(fk.f[0].cfg.submit == DIXKLOAD_ASYNC && (fk.f[0].cfg.flags & DIXKLOAD_F_BACKLOG),
	   "async asks for MAY_BACKLOG");
	memset(&t, 0, sizeof(t));
	t.lat[DIX_READ] = &lat[DIX_READ];
	t.lat[DIX_WRITE] = &lat[DIX_WRITE];
	t.first_kind = DIX_ERR_NR;
	e->tally(&ctx, &t, 0);
	e->tally(&ctx, &t, 1);
	is_int(lat_count(&lat[DIX_WRITE]), fk.f[0].st.requests, "the histogram holds every request");
	is_int(lat[DIX_WRITE].bucket[lat_bucket_of(FAKE_LAT)],
	       fk.f[0].st.requests, "each in the bucket of its latency");
	ok(lat[DIX_WRITE].max_ns <= FAKE_LAT &&
	   lat_bucket_of(lat[DIX_WRITE].max_ns) == lat_bucket_of(FAKE_LAT),
	   "the maximum: that bucket's lower bound (%llu ns)",
	   (unsigned long long)lat[DIX_WRITE].max_ns);
	is_int(depth_read(&d, &max, &mean), 0, "the depth meter has the module's figures");
	is_int(max, 112, "inflight_max: the module's 112");
	ok(mean > 111 && mean < 113, "inflight mean: its integral over its span (%.2f)", mean);
	e->cleanup(&ctx);
	depth_destroy(&d);

	/* setup's errors */
	fake_reset();
	fk.need = -ENOENT;
	ok(e->setup(&o, err, sizeof(err)) && strstr(err, "not installed") &&
	   strstr(err, "scripts/dixvm --kmod") && strstr(err, "dixload-dkms") &&
	   strstr(err, "M=$PWD/kmod"),
	   "no module: the error says how to build it (%.60s...)", err);
	fake_reset();
	fk.abi = DIXKLOAD_ABI + 1;
	ok(e->setup(&o, err, sizeof(err)) && strstr(err, "speaks DIXKLOAD_ABI 2, this dixload DIXKLOAD_ABI 1"),
	   "a module of another ABI is refused, both numbers named");
	fake_reset();
	fk.enotty = 1;
	ok(e->setup(&o, err, sizeof(err)) && strstr(err, "ENOTTY") &&
	   strstr(err, "DIXKLOAD_ABI 1"), "one whose ioctls differ too");
	fake_reset();
	fk.need = 1;
	is_int(e->setup(&o, err, sizeof(err)), 0, "a module loaded now");
	opt_set(&o, "test-corrupt-every", "3", err, sizeof(err));
	fk.start_err = -EPERM;
	memset(&ctx, 0, sizeof(ctx));
	ctx.o = &o;
	ctx.jobs = 1;
	ok(e->init(&ctx) == -EPERM && strstr(ctx.errmsg, "allow_corrupt=1"),
	   "a refused START with --test-corrupt-every names allow_corrupt=1");
	e->cleanup(&ctx);
	is_int(fk.open_files, 0, "and its file is closed");
	opt_set(&o, "test-corrupt-every", "0", err, sizeof(err));
	fk.start_err = -ENOENT;
	fk.start_why = "crypto_alloc_skcipher(cryptd(xts(ecb(aes-lib)))) for TFM 0: -2 (is cryptd in this kernel? CONFIG_CRYPTO_CRYPTD)";
	memset(&ctx, 0, sizeof(ctx));
	ctx.o = &o;
	ctx.jobs = 1;
	ok(e->init(&ctx) == -ENOENT &&
	   strstr(ctx.errmsg, "no such algorithm or driver in this kernel); the module: crypto_alloc_skcipher(cryptd(") &&
	   strstr(ctx.errmsg, "CONFIG_CRYPTO_CRYPTD"),
	   "a refused START gives the module's reason: %s", ctx.errmsg);
	e->cleanup(&ctx);
	opts_free(&o);

	/* the 2023 experiment's instance, named by its inner driver */
	opts_init(&o);
	o.opt_engine = "kload";
	opt_set(&o, "alg", "xts(ecb(aes-generic))", err, sizeof(err));
	opt_set(&o, "rw", "write", err, sizeof(err));
	is_int(e->check(&o, err, sizeof(err)), 0,
	       "--alg xts(ecb(aes-generic)): an xts instance the kernel builds on demand");
	opt_set(&o, "alg", "foo(aes)", err, sizeof(err));
	ok(e->check(&o, err, sizeof(err)) && strstr(err, "not an algorithm the kload engine drives"),
	   "a template of none of the table's algorithms is refused");
	opts_free(&o);

	/* the check's refusals */
	opts_init(&o);
	o.opt_engine = "kload";
	opt_set(&o, "alg", "xts(aes)", err, sizeof(err));
	opt_set(&o, "rw", "write", err, sizeof(err));
	opt_set(&o, "bs", "2m", err, sizeof(err));
	ok(e->check(&o, err, sizeof(err)) && strstr(err, "--bs 2097152"), "--bs above the module's 1 MiB");
	opt_set(&o, "bs", "4k", err, sizeof(err));
	opt_set(&o, "iodepth", "300", err, sizeof(err));
	ok(e->check(&o, err, sizeof(err)) && strstr(err, "at most 256"), "--iodepth above the module's bound");
	opts_free(&o);
}

/* the thread's module as a profile: N kernel threads, sync, 112 in all */
static void test_profile(void)
{
	const char *src = getenv("top_srcdir");
	const struct dix_engine *e = engine_find("kload");
	struct dix_opts o;
	char path[4096], err[640];
	int r;

	snprintf(path, sizeof(path), "%s/profiles/kload-thread.profile",
		 src ? src : ".");
	opts_init(&o);
	r = profile_load(path, &o, err, sizeof(err));
	ok(r == 0 && o.engine && !strcmp(o.engine, "kload") && o.alg &&
	   !strcmp(o.alg, "xts(aes)") && o.submit == SUBMIT_SYNC &&
	   o.tfms * o.iodepth == 112 && o.verify != VERIFY_OFF &&
	   o.verify_every == 16,
	   "profile kload-thread: xts(aes), sync kernel threads, 112 in flight in all, 1 result in 16 checked (%s)",
	   r ? err : "loaded");
	is_int(r ? -1 : e->check(&o, err, sizeof(err)), 0, "and the engine takes it");
	opts_free(&o);
}

int main(void)
{
	engine_options_register();
	test_profile();
	test_buckets();
	test_options();
	test_depth();
	test_runs();
	return tap_done();
}
