// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-job.c - the depth loop (core/job-loop.c) driven through the null
 * engine: one worker of a hand-built run, its completions reordered and
 * failed on purpose, held to what the loop promises: nothing it has in
 * flight overlaps a write, it submits --iodepth-batch at a time and keeps
 * --iodepth in flight, an I/O error is retried once (a success then
 * counts as recovered), an integrity failure never, a corrupted block read
 * back is caught, an injected PI fault is caught by the device or is an
 * error, and --rate / --rate-iops hold.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf/options.h"
#include "core/job.h"
#include "core/run.h"
#include "engines/engine.h"
#include "engines/null.h"
#include "lib/util.h"
#include "tap.h"

#define KIB	1024ull

/* One device, one worker, the run around them: what worker_main() reads. */
struct bed {
	struct dix_opts o;
	struct dix_run r;
	struct dix_dev d;
	struct dix_worker w;
};

/* The null engine's test bed: what these tests set and what it counted. */
static struct null_bed nb = NULL_BED_INIT;

/* Fresh "devices" and a fresh bed. */
static void bed_reset(void)
{
	null_reset();
	null_bed_reset(&nb);
}

static void set_opts(struct dix_opts *o, const char *const *opts)
{
	char err[256];
	int i;

	/* a refused option fails the test; one taken says nothing */
	for (i = 0; opts && opts[i]; i += 2)
		if (opt_set(o, opts[i], opts[i + 1], err, sizeof(err)))
			ok(0, "--%s %s: %s", opts[i], opts[i + 1], err);
}

/*
 * A run of one worker over [0, @size) of the null "device" @path with
 * @lbs-byte blocks; @opts, @more: option name, value, ..., NULL (the null
 * engine's own among them: the parse takes every engine's).
 */
static void bed_open2(struct bed *b, const char *path, uint64_t size,
		      uint32_t lbs, const char *const *opts,
		      const char *const *more)
{
	memset(b, 0, sizeof(*b));
	opts_init(&b->o);
	set_opts(&b->o, opts);
	set_opts(&b->o, more);
	b->d.path = (char *)path;
	b->d.t.path = path;
	snprintf(b->d.t.name, sizeof(b->d.t.name), "%s", path);
	b->d.t.fd = -1;
	b->d.t.lbs = lbs;
	b->d.t.size = size;
	b->d.size = size;
	b->d.workers = &b->w;
	b->d.nworkers = 1;
	b->r.o = &b->o;
	b->r.devs = &b->d;
	b->r.ndevs = 1;
	b->r.eng = engine_find("null");
	b->r.eng_bed = &nb;	/* the null engine's settings and counts */
	b->r.workers = &b->w;
	b->r.nworkers = 1;
	b->r.wake_fd = -1;
	pthread_mutex_init(&b->r.lock, NULL);
	pthread_mutex_init(&b->r.errlog_lock, NULL);
	pthread_mutex_init(&b->r.gate_lock, NULL);
	pthread_cond_init(&b->r.gate_cv, NULL);
	b->r.gate_open = 1;	/* the load's clock runs: no start gate */
	b->r.t0 = dix_now();
	b->w.run = &b->r;
	b->w.dev = &b->d;
	b->w.start = 0;
	b->w.end = size;
}

static void bed_open(struct bed *b, const char *path, uint64_t size,
		     uint32_t lbs, const char *const *opts)
{
	bed_open2(b, path, size, lbs, opts, NULL);
}

static void bed_close(struct bed *b)
{
	int i;

	tracker_free(&b->w.ext);
	/* the notes a setup reported (--pi app's format) */
	for (i = 0; i < b->r.nevents; i++)
		dix_event_clear(&b->r.events[i]);
	free(b->r.events);
	opts_free(&b->o);
	pthread_mutex_destroy(&b->r.lock);
	pthread_mutex_destroy(&b->r.errlog_lock);
	pthread_mutex_destroy(&b->r.gate_lock);
	pthread_cond_destroy(&b->r.gate_cv);
}

/* The worker's run, in this thread; the seconds it took. */
static double bed_run(struct bed *b)
{
	double t = dix_now();

	worker_main(&b->w);
	if (b->w.err)
		printf("# worker failed: %s\n", b->w.errmsg);
	return dix_now() - t;
}

struct stopper {
	struct dix_run *r;
	long ms;
};

static void *stop_after(void *arg)
{
	struct stopper *s = arg;
	struct timespec ts = { s->ms / 1000, s->ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
	run_request_stop(s->r);
	return NULL;
}

/* A --runtime load (passes over the slice until stopped) for @ms. */
static void bed_run_for(struct bed *b, long ms)
{
	struct stopper s = { &b->r, ms };
	pthread_t th;

	pthread_create(&th, NULL, stop_after, &s);
	bed_run(b);
	pthread_join(th, NULL);
}

static uint64_t errors(const struct bed *b)
{
	return counters_errors(&b->w.c);
}

/* Write the whole slice once (sequential, the job's headers). */
static void fill(const char *path, uint64_t size, uint32_t lbs,
		 const char *const *more)
{
	const char *opts[32] = { "rw", "write", "bs", "4k", "iodepth", "8",
				 "seed", "11" };
	struct bed b;
	int i = 8;

	while (more && *more && i < 30)
		opts[i++] = *more++;
	opts[i] = NULL;
	bed_open(&b, path, size, lbs, opts);
	bed_run(&b);
	ok(!b.w.err && b.w.c.ops[DIX_WRITE] == size / (4 * KIB) && !errors(&b),
	   "%s: %llu KiB written", path, (unsigned long long)(size / KIB));
	bed_close(&b);
}

/*
 * Ordering: the engine completes a random part of what is in flight in a
 * random order, on a region small enough that a randrw load at depth 32
 * keeps picking blocks it has in flight.  The loop must hold back every
 * I/O that overlaps a write in flight (the engine counts none), and the
 * data it reads back must be what it wrote.
 */
static void test_ordering(void)
{
	static const char *const opts[] = {
		"rw", "randrw", "bs", "4k", "iodepth", "32", "runtime", "1",
		"seed", "3", NULL };
	static const char *const shuffle[] = { "complete", "shuffle", NULL };
	static const char *const reverse[] = { "complete", "reverse", NULL };
	struct null_stats st;
	struct bed b;

	bed_reset();
	fill("order", 64 * KIB, 512, NULL);
	bed_reset();
	/* the overlap count itself: two writes to one block, both in flight */
	{
		struct dix_eng_ctx ctx = { .depth = 2, .lbs = 512, .path = "x",
					  .bed = &nb };
		const struct dix_engine *e = engine_find("null");
		struct dix_io io[2] = {
			{ .offset = 0, .len = 4096, .dir = DIX_WRITE, .idx = 0 },
			{ .offset = 2048, .len = 512, .dir = DIX_WRITE, .idx = 1 },
		};
		static unsigned char buf[2][4096];

		nb.conf.watch = 1;
		io[0].buf = buf[0];
		io[1].buf = buf[1];
		e->init(&ctx);
		e->queue(&ctx, &io[0]);
		e->queue(&ctx, &io[1]);
		e->commit(&ctx);
		is_int(e->getevents(&ctx, 1), 2, "null: both complete (FIFO)");
		ok(e->event(&ctx, 0) == &io[0] && e->event(&ctx, 1) == &io[1],
		   "null FIFO: in the order queued");
		e->cleanup(&ctx);
		st = null_bed_stats(&nb);
		is_int(st.overlaps, 1, "null: two overlapping writes in flight are counted");
		is_int(st.reordered, 0, "null FIFO: nothing overtaken");
	}
	bed_reset();
	fill("order", 64 * KIB, 512, NULL);
	nb.conf.watch = 1;
	bed_open2(&b, "order", 64 * KIB, 512, opts, shuffle);
	bed_run_for(&b, 300);
	st = null_bed_stats(&nb);
	ok(!b.w.err, "shuffled randrw at depth 32 ran");
	ok(b.w.c.ops[DIX_READ] > 1000 && b.w.c.ops[DIX_WRITE] > 1000,
	   "it did reads and writes (%llu, %llu)",
	   (unsigned long long)b.w.c.ops[DIX_READ],
	   (unsigned long long)b.w.c.ops[DIX_WRITE]);
	ok(st.reordered > 100, "completions overtook each other (%llu times)",
	   (unsigned long long)st.reordered);
	is_int(st.overlaps, 0, "no I/O went out over a write in flight");
	is_int(errors(&b), 0, "every block read back is intact");
	is_int(b.w.c.unwritten, 0, "and was written");
	bed_close(&b);

	/* reversed: every batch overtakes; the data still checks */
	bed_open2(&b, "order", 64 * KIB, 512, opts, reverse);
	bed_run_for(&b, 200);
	ok(null_bed_stats(&nb).reordered > st.reordered && !errors(&b) &&
	   !b.w.err, "reversed completions: overtaken, no errors");
	bed_close(&b);
	bed_reset();
}

/*
 * Batching and depth: --iodepth-batch I/Os per commit (at most
 * --iodepth), --iodepth in flight, every block of the slice once.
 */
static void test_batching(void)
{
	static const struct { const char *depth, *batch; unsigned int want; }
	cases[] = { { "32", "4", 4 }, { "32", "1", 1 }, { "8", "16", 8 },
		    { "1", "4", 1 } };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *opts[] = { "rw", "randwrite", "bs", "4k",
				       "iodepth", cases[i].depth,
				       "iodepth-batch", cases[i].batch,
				       "verify", "off", NULL };
		unsigned int depth = atoi(cases[i].depth);
		struct null_stats st;
		struct bed b;

		bed_reset();
		bed_open(&b, "batch", 1024 * KIB, 4096, opts);
		bed_run(&b);
		st = null_bed_stats(&nb);
		is_int(b.w.c.ops[DIX_WRITE], 256, "every 4k block of 1 MiB once");
		is_int(st.max_batch, cases[i].want,
		       "--iodepth-batch, at most --iodepth, per commit");
		is_int(st.max_inflight, depth, "--iodepth in flight");
		/* full batches but the last of a pass */
		ok(st.commits <= 256 / cases[i].want + depth,
		   "iodepth %s batch %s: %llu commits for 256 I/Os",
		   cases[i].depth, cases[i].batch,
		   (unsigned long long)st.commits);
		bed_close(&b);
	}

	/* a synchronous completion (inside queue()) needs no commit */
	{
		const char *opts[] = { "rw", "write", "bs", "4k", "iodepth",
				       "4", "complete", "inline", NULL };
		struct bed b;

		bed_reset();
		bed_open(&b, "inline", 256 * KIB, 4096, opts);
		bed_run(&b);
		is_int(b.w.c.ops[DIX_WRITE], 64, "inline completions: all done");
		is_int(null_bed_stats(&nb).commits, 0, "nothing left to commit");
		bed_close(&b);
	}
	bed_reset();
}

/*
 * Retry: an I/O error is retried once and the success counts as
 * recovered; a second failure is an error; an integrity failure (EILSEQ)
 * is never retried.
 */
static void test_retry(void)
{
	const char *opts[] = { "rw", "write", "bs", "4k", "iodepth", "1",
			       "verify", "off", NULL };
	const char *every5[] = { "fail-every", "5", NULL };
	const char *always[] = { "fail-every", "1", NULL };
	const char *eilseq[] = { "fail-every", "4", "fail-errno", "eilseq",
				 NULL };
	struct bed b;

	/*
	 * Depth 1, every 5th completion fails: the retry comes next and
	 * succeeds.  After c completions c - c / 5 writes are done, so the
	 * 100th is completion 124, and 24 of them failed.
	 */
	bed_reset();
	bed_open2(&b, "retry", 400 * KIB, 4096, opts, every5);
	bed_run(&b);
	is_int(b.w.c.ops[DIX_WRITE], 100, "EIO every 5th: all 100 writes done");
	is_int(b.w.c.recovered, 24, "24 recovered by their retry");
	is_int(errors(&b), 0, "no error");
	is_int(b.w.c.submitted, 124, "124 submitted, retries included");
	bed_close(&b);

	/* every I/O fails: the retry fails too, one error each */
	bed_reset();
	bed_open2(&b, "retry", 40 * KIB, 4096, opts, always);
	bed_run(&b);
	is_int(b.w.c.ops[DIX_WRITE], 0, "EIO always: nothing done");
	is_int(b.w.c.errors[DIX_ERR_IO], 10, "10 io errors");
	is_int(b.w.c.recovered, 0, "none recovered");
	is_int(b.w.c.submitted, 20, "each tried twice");
	bed_close(&b);

	/* EILSEQ is an integrity failure: counted at once, not retried */
	bed_reset();
	bed_open2(&b, "retry", 400 * KIB, 4096, opts, eilseq);
	bed_run(&b);
	is_int(b.w.c.errors[DIX_ERR_UNKNOWN], 25, "EILSEQ every 4th: 25 integrity errors");
	is_int(b.w.c.ops[DIX_WRITE], 75, "the others done");
	is_int(b.w.c.submitted, 100, "none retried");
	is_int(b.w.c.recovered, 0, "none recovered");
	bed_close(&b);
	bed_reset();
}

/*
 * Verify: what was written reads back intact; a device that flips a bit
 * on the way back is caught block by block; never-written blocks are
 * counted, and bad with --verify strict.
 */
static void test_verify(void)
{
	const char *rd[] = { "rw", "read", "bs", "4k", "iodepth", "8",
			     "verify", "on", NULL };
	const char *flip7[] = { "flip-every", "7", NULL };
	const char *strict[] = { "rw", "randread", "bs", "4k", "iodepth", "8",
				 "verify", "strict", NULL };
	struct bed b;

	bed_reset();
	fill("verify", 512 * KIB, 512, NULL);
	bed_open(&b, "verify", 512 * KIB, 512, rd);
	bed_run(&b);
	is_int(b.w.c.ops[DIX_READ], 128, "128 reads");
	is_int(errors(&b), 0, "what was written reads back intact");
	is_int(b.w.c.unwritten, 0, "every block has its header");
	bed_close(&b);

	/* one bit of every 7th read flipped: one bad block each (of 8) */
	bed_open2(&b, "verify", 512 * KIB, 512, rd, flip7);
	bed_run(&b);
	is_int(b.w.c.errors[DIX_ERR_VERIFY], 128 / 7, "every flipped read caught, one block each");
	is_int(errors(&b), 128 / 7, "and nothing else");
	/* 28 KiB apart: none merges with the next */
	is_int(b.w.ext.n, 128 / 7, "each a bad extent of its own");
	bed_close(&b);

	/* --verify off does not look */
	{
		const char *off[] = { "rw", "read", "bs", "4k", "verify", "off",
				      NULL };

		bed_open2(&b, "verify", 512 * KIB, 512, off, flip7);
		bed_run(&b);
		is_int(errors(&b), 0, "--verify off: the flips go unseen");
		bed_close(&b);
	}

	/* a store nobody wrote: zeros, no header */
	bed_reset();
	bed_open(&b, "fresh", 64 * KIB, 512, rd);
	bed_run(&b);
	is_int(b.w.c.unwritten, 128, "fresh store: 128 blocks never written");
	is_int(errors(&b), 0, "not an error with --verify on");
	bed_close(&b);
	bed_open(&b, "fresh", 64 * KIB, 512, strict);
	bed_run(&b);
	is_int(b.w.c.errors[DIX_ERR_VERIFY], 128, "--verify strict: each a bad block");
	bed_close(&b);
	bed_reset();
}

/* crc16 Type 1, 512-byte intervals, 8 bytes of PI each, kept apart. */
static void pi_format(struct pi_format *f)
{
	memset(f, 0, sizeof(*f));
	f->guard = DIX_GUARD_CRC16;
	f->type = PI_TYPE1;
	f->interval = 512;
	f->ms = 8;
}

/*
 * Inject (--pi app): a write carrying a wrong tuple refused by the device
 * is caught; accepted, it is an integrity failure.  A read whose tuple
 * dixload breaks in the buffer must be caught by its own check.
 */
static void test_inject(void)
{
	const char *wr[] = { "rw", "write", "bs", "4k", "iodepth", "8",
			     "pi", "app", "inject", "guard@4", NULL };
	const char *rd[] = { "rw", "read", "bs", "4k", "iodepth", "8",
			     "pi", "app", "inject", "app@5", "verify", "off",
			     NULL };
	const char *rdflip[] = { "rw", "read", "bs", "4k", "iodepth", "8",
				 "pi", "app", "verify", "off", "flip-every",
				 "10", NULL };
	const char *const pi[] = { "pi", "app", NULL };
	struct bed b;

	/* a device that checks PI on writes refuses the 25 broken ones */
	bed_reset();
	pi_format(&nb.conf.pif);
	nb.conf.check_pi = 1;
	bed_open(&b, "inject", 400 * KIB, 512, wr);
	bed_run(&b);
	ok(!b.w.err, "--pi app writes ran");
	is_int(b.w.c.injected[DIX_ERR_GUARD], 25, "guard@4: 25 of 100 writes broken");
	is_int(b.w.c.caught[DIX_ERR_GUARD], 25, "the device refused each (caught)");
	is_int(errors(&b), 0, "no error");
	bed_close(&b);

	/* one that does not check lets them through: integrity failures */
	bed_reset();
	pi_format(&nb.conf.pif);
	bed_open(&b, "inject", 400 * KIB, 512, wr);
	bed_run(&b);
	is_int(b.w.c.caught[DIX_ERR_GUARD], 0, "unchecked: nothing caught");
	is_int(b.w.c.errors[DIX_ERR_GUARD], 25, "25 guard faults got through");
	bed_close(&b);

	/* reads: dixload breaks every 5th read's tuple and catches it */
	bed_reset();
	pi_format(&nb.conf.pif);
	nb.conf.check_pi = 1;
	fill("inject", 400 * KIB, 512, pi);
	bed_open(&b, "inject", 400 * KIB, 512, rd);
	bed_run(&b);
	is_int(b.w.c.injected[DIX_ERR_APP], 20, "app@5: 20 of 100 reads broken");
	is_int(b.w.c.caught[DIX_ERR_APP], 20, "dixload's read check caught each");
	is_int(errors(&b), 0, "the stored tuples are intact");
	bed_close(&b);

	/* data flipped on the way back: the guard no longer matches */
	bed_open(&b, "inject", 400 * KIB, 512, rdflip);
	bed_run(&b);
	is_int(b.w.c.errors[DIX_ERR_GUARD], 10, "every flipped read is a guard error");
	bed_close(&b);

	/* --pi app without a format on the device is refused at setup */
	bed_reset();
	bed_open(&b, "inject", 400 * KIB, 512, pi);
	bed_run(&b);
	ok(b.w.err == -EINVAL && strstr(b.w.errmsg, "protection format"),
	   "--pi app on a null device without a format: refused");
	bed_close(&b);
	bed_reset();
}

/* Rate caps: the worker's I/Os take at least what the cap allows. */
static void test_rate(void)
{
	const char *iops[] = { "rw", "write", "bs", "4k", "iodepth", "8",
			       "rate-iops", "2000", "verify", "off", NULL };
	const char *mbs[] = { "rw", "read", "bs", "4k", "iodepth", "8",
			      "rate", "2", "verify", "off", NULL };
	const char *wonly[] = { "rw", "read", "bs", "4k", "iodepth", "8",
				"rate-iops", ",100", "verify", "off", NULL };
	struct bed b;
	double s;

	bed_reset();
	/* 400 I/Os at 2000/s: 0.2 s, less the 10 ms of slack the cap allows */
	bed_open(&b, "rate", 1600 * KIB, 4096, iops);
	s = bed_run(&b);
	is_int(b.w.c.ops[DIX_WRITE], 400, "--rate-iops 2000: 400 writes");
	ok(s >= 0.185, "they took %.3f s (>= 0.185)", s);
	bed_close(&b);

	/* 100 reads of 4 KiB at 2 MB/s: 0.2 s, less the slack */
	bed_open(&b, "rate", 400 * KIB, 4096, mbs);
	s = bed_run(&b);
	is_int(b.w.c.ops[DIX_READ], 100, "--rate 2: 100 reads");
	ok(s >= 0.185, "they took %.3f s (>= 0.185)", s);
	bed_close(&b);

	/* a cap on writes leaves reads alone: 1000 reads well under 1 s */
	bed_open(&b, "rate", 4000 * KIB, 4096, wonly);
	s = bed_run(&b);
	is_int(b.w.c.ops[DIX_READ], 1000, "--rate-iops ,100: 1000 reads");
	ok(s < 1.0, "reads uncapped: %.3f s for 1000 (a cap of 100/s would take 10)", s);
	bed_close(&b);
	bed_reset();
}

/*
 * The null engine's options: taken by the parse only for its run, with
 * their defaults from the table.
 */
static void test_options(void)
{
	struct dix_opts o;
	char err[256];

	opts_init(&o);
	is_int(o.complete, NULL_FIFO, "--complete: fifo by default");
	is_int(o.fail_every, 0, "--fail-every: none by default");
	o.opt_engine = "libaio";
	ok(opt_set(&o, "fail-every", "3", err, sizeof(err)) == -EINVAL &&
	   strstr(err, "null"), "--fail-every refused for libaio, naming null (%s)",
	   err);
	o.opt_engine = "null";
	is_int(opt_set(&o, "complete", "shuffle", err, sizeof(err)), 0,
	       "--complete shuffle for null");
	is_int(o.complete, NULL_SHUFFLE, "taken");
	is_int(opt_set(&o, "fail-errno", "ebadf", err, sizeof(err)), -EINVAL,
	       "--fail-errno: only the listed errnos");
	opts_free(&o);
}

int main(void)
{
	engine_options_register();
	test_options();
	test_ordering();
	test_batching();
	test_retry();
	test_verify();
	test_inject();
	test_rate();
	return tap_done();
}
