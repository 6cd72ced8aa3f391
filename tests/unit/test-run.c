// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-run.c - the run around the workers, driven through the null
 * engine: the start gate (no worker's I/O before every setup is over and
 * the gate opened, however slow one setup is; a failed setup does not hold
 * the gate), and the meter's intervals on an injected clock (rates over the
 * time that passed, a late tick one longer interval, the events kept in
 * the order and at the times they were given).
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf/options.h"
#include "core/dev.h"
#include "core/gate.h"
#include "core/job-counts.h"
#include "core/job.h"
#include "core/meterloop.h"
#include "core/totals.h"
#include "core/run.h"
#include "engines/engine.h"
#include "engines/null.h"
#include "lib/util.h"
#include "tap.h"

#define KIB	1024ull
#define JOBS	3

/* One device of @JOBS workers, the run around them, as run_load() makes it. */
struct bed {
	struct dix_opts o;
	struct dix_run r;
	struct dix_dev d;
	struct dix_worker w[JOBS];
};

/* The null engine's test bed: what these tests set and what it counted. */
static struct null_bed nb = NULL_BED_INIT;

/* Fresh "devices" and a fresh bed. */
static void bed_reset(void)
{
	null_reset();
	null_bed_reset(&nb);
}

static void bed_open(struct bed *b, const char *path, uint64_t size,
		     const char *const *opts)
{
	uint64_t slice = size / JOBS / (4 * KIB) * (4 * KIB);
	char err[256];
	int i;

	memset(b, 0, sizeof(*b));
	opts_init(&b->o);
	for (i = 0; opts && opts[i]; i += 2)
		if (opt_set(&b->o, opts[i], opts[i + 1], err, sizeof(err)))
			ok(0, "--%s %s: %s", opts[i], opts[i + 1], err);
	b->d.path = (char *)path;
	b->d.t.path = path;
	snprintf(b->d.t.name, sizeof(b->d.t.name), "%s", path);
	b->d.t.fd = -1;
	b->d.t.lbs = 4096;
	b->d.t.size = size;
	b->d.size = size;
	b->d.workers = b->w;
	b->d.nworkers = JOBS;
	b->r.o = &b->o;
	b->r.devs = &b->d;
	b->r.ndevs = 1;
	b->r.eng = engine_find("null");
	b->r.eng_bed = &nb;	/* the null engine's settings and counts */
	b->r.workers = b->w;
	b->r.nworkers = JOBS;
	b->r.wake_fd = -1;
	pthread_mutex_init(&b->r.lock, NULL);
	pthread_mutex_init(&b->r.errlog_lock, NULL);
	pthread_mutex_init(&b->r.gate_lock, NULL);
	pthread_cond_init(&b->r.gate_cv, NULL);
	for (i = 0; i < JOBS; i++) {
		b->w[i].id = i;
		b->w[i].run = &b->r;
		b->w[i].dev = &b->d;
		b->w[i].start = i * slice;
		b->w[i].end = (i + 1) * slice;
	}
}

static void bed_close(struct bed *b)
{
	int i;

	for (i = 0; i < JOBS; i++)
		tracker_free(&b->w[i].ext);
	sample_log_free(&b->r.samples);
	for (i = 0; i < b->r.nevents; i++)
		dix_event_clear(&b->r.events[i]);
	free(b->r.events);
	opts_free(&b->o);
	pthread_mutex_destroy(&b->r.lock);
	pthread_mutex_destroy(&b->r.errlog_lock);
	pthread_mutex_destroy(&b->r.gate_lock);
	pthread_cond_destroy(&b->r.gate_cv);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

static uint64_t ops(const struct bed *b)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < JOBS; i++)
		n += b->w[i].c.ops[DIX_READ] + b->w[i].c.ops[DIX_WRITE];
	return n;
}

/*
 * The start gate: one job's setup takes 300 ms (a crypto engine opening
 * its transforms); the run waits for it, and no job does I/O before the
 * gate opens, so the first interval is not the others' head start.
 */
static void test_gate(void)
{
	static const char *const opts[] = { "rw", "randwrite", "bs", "4k",
					    "iodepth", "4", NULL };
	struct null_stats st;
	double t_start, t_ready, t_open;
	struct bed b;
	int i, ready;

	bed_reset();
	nb.conf.slow_ms = 300;
	nb.conf.slow_job = 2;
	bed_open(&b, "gate", 3 * 256 * KIB, opts);
	t_start = dix_now();
	is_int(run_start_workers(&b.r, 0), 0, "three workers started");
	run_gate_wait(&b.r, 0);
	t_ready = dix_now();
	ok(t_ready - t_start >= 0.29,
	   "the gate waited for the slow setup (%.3f s)", t_ready - t_start);
	for (ready = 0, i = 0; i < JOBS; i++)
		ready += b.w[i].ready;
	is_int(ready, JOBS, "every worker is ready");
	/* held at the gate: nothing done however long the run takes */
	sleep_ms(100);
	is_int(ops(&b), 0, "no I/O while the gate is shut");
	ok(!run_all_done(&b.r, 0), "the workers wait, not finished");
	t_open = dix_now();
	b.r.t0 = t_open;
	run_gate_open(&b.r);
	run_join_workers(&b.r);
	st = null_bed_stats(&nb);
	is_int(ops(&b), 3 * 64, "then each covered its slice");
	ok(st.first_io >= t_open, "the first I/O came after the gate opened (%.3f s after)",
	   st.first_io - t_open);
	is_int(run_worker_failures(&b.r), 0, "no worker failed");
	bed_close(&b);

	/* a setup that fails is ready at once and does not hold the others */
	bed_reset();
	{
		static const char *const pi[] = { "rw", "write", "bs", "4k",
						  "pi", "app", NULL };

		bed_open(&b, "gate", 3 * 256 * KIB, pi);
		t_start = dix_now();
		run_start_workers(&b.r, 0);
		run_gate_wait(&b.r, 0);
		ok(dix_now() - t_start < 5, "failed setups: the gate does not wait");
		run_gate_open(&b.r);
		run_join_workers(&b.r);
		is_int(run_worker_failures(&b.r), 1, "their failure is reported");
		is_int(ops(&b), 0, "no I/O");
		bed_close(&b);
	}
	bed_reset();
}

/*
 * @ops I/Os of @w in @dir, @bytes in all, as the worker counts them
 * (account_done()): I/Os of bytes / ops each, its io_size, latencies @ns,
 * @ns + 1 ... ns: the histogram's count is what the meter reads as ops
 * and bytes (job-counts.c).
 */
static void io_done(struct dix_worker *w, int dir, uint64_t bytes,
		    uint64_t ops, uint64_t ns)
{
	uint64_t i;

	w->io_size = bytes / ops;
	for (i = 0; i < ops; i++)
		lat_add(&w->lat[dir], ns + i);
}

/*
 * The meter on an injected clock: counters and latencies as the workers
 * left them, the intervals closed at times the test chooses.  A rate is bytes over the
 * time that passed, not over the period; a tick that comes late closes
 * one longer interval; a tick that does not move time closes nothing.
 */
static void test_clock(void)
{
	struct dix_event ev = { .kind = EV_NOTE, .ok = -1, .duration = -1 };
	const struct meter_sample *s;
	struct meter m;
	struct bed b;

	bed_reset();
	bed_open(&b, "clock", 3 * 256 * KIB, NULL);
	cpu_read(&b.r.cpu_last);
	meter_init(&m, 1000.0, 1.0);

	io_done(&b.w[0], DIX_READ, 1000000, 250, 1000);
	run_take_sample(&b.r, &m, 1001.0);
	io_done(&b.w[1], DIX_WRITE, 3000000, 750, 2000);
	io_done(&b.w[2], DIX_READ, 2000000, 500, 3000);
	run_take_sample(&b.r, &m, 1003.5);	/* two deadlines late */
	run_take_sample(&b.r, &m, 1003.5);	/* no time: no interval */

	is_int(b.r.samples.n, 2, "two intervals kept");
	if (b.r.samples.n == 2) {
		s = &b.r.samples.s[0];
		ok(fabs(s->t - 1.0) < 1e-9 && fabs(s->dt - 1.0) < 1e-9,
		   "the first at t=1 s, 1 s long (%.3f, %.3f)", s->t, s->dt);
		ok(fabs(s->read_bps - 1e6) < 1e-3, "1 MB read in it: 1 MB/s");
		ok(fabs(s->iops - 250) < 1e-6, "250 IOPS");
		ok(s->lat[DIX_READ].n == 250 && !s->lat[DIX_WRITE].n &&
		   s->lat[DIX_READ].max == 1249,
		   "its latencies: the 250 reads, the largest 1249 ns");
		s = &b.r.samples.s[1];
		ok(fabs(s->t - 3.5) < 1e-9 && fabs(s->dt - 2.5) < 1e-9,
		   "the late tick: one interval to t=3.5 s, 2.5 s long (%.3f, %.3f)",
		   s->t, s->dt);
		ok(fabs(s->read_bps - 2e6 / 2.5) < 1e-3 &&
		   fabs(s->write_bps - 3e6 / 2.5) < 1e-3,
		   "its rates over the 2.5 s that passed (R %.0f, W %.0f)",
		   s->read_bps, s->write_bps);
		ok(fabs(s->iops - 1250 / 2.5) < 1e-6, "500 IOPS of all workers");
		ok(s->lat[DIX_READ].n == 500 && s->lat[DIX_WRITE].n == 750 &&
		   s->lat[DIX_READ].max == 3499 && s->lat[DIX_WRITE].max == 2749,
		   "its latencies: only those since the first, summed over workers");
	}

	/* events keep the times they were given, in the order given */
	ev.t = 1.7;
	ev.what = "first";
	run_event(&b.r, &ev);
	ev.t = 3.2;
	ev.what = "second";
	run_event(&b.r, &ev);
	is_int(b.r.nevents, 2, "two events kept");
	if (b.r.nevents == 2) {
		ok(b.r.events[0].t == 1.7 && !strcmp(b.r.events[0].what, "first"),
		   "the first at 1.7 s");
		ok(b.r.events[1].t == 3.2 && !strcmp(b.r.events[1].what, "second"),
		   "the second at 3.2 s");
		ok(b.r.events[0].what != ev.what, "their text copied");
	}
	bed_close(&b);
	bed_reset();
}

/*
 * run_load() whole, with its lines on a file: @opts on a fresh file of the
 * null engine.  Return: the exit status; *@r kept for the caller (freed
 * with run_done()).
 */
static int load(struct dix_run *r, struct dix_opts *o, const char *dev,
		const char *const *opts)
{
	char err[256];
	int i, st, out;
	FILE *f;

	memset(r, 0, sizeof(*r));
	opts_init(o);
	o->opt_engine = "null";
	for (i = 0; opts[i]; i += 2)
		if (opt_set(o, opts[i], opts[i + 1], err, sizeof(err)))
			ok(0, "--%s %s: %s", opts[i], opts[i + 1], err);
	opt_set(o, "dev", dev, err, sizeof(err));
	r->o = o;
	r->eng = engine_find("null");
	r->wake_fd = -1;
	if (devs_open(o, r->eng, NULL, -1, NULL, &r->devs, &r->ndevs))
		return -1;
	/* the meter lines and the summary go to a file, TAP stays on stdout */
	fflush(stdout);
	out = dup(1);
	f = tmpfile();
	dup2(fileno(f), 1);
	st = run_load(r);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	fclose(f);
	return st;
}

static void run_done(struct dix_run *r, struct dix_opts *o)
{
	run_free(r);
	devs_close(r->devs, r->ndevs);
	opts_free(o);
}

/* The whole run through the null engine: the meter, the stop, the verdict. */
static void test_load(void)
{
	static const char *const ok_opts[] = {
		"rw", "randrw", "bs", "4k", "iodepth", "8", "jobs", "2",
		"size", "1m", "runtime", "0.5", "interval", "100",
		"complete", "shuffle", "seed", "9", NULL };
	static const char *const bad_opts[] = {
		"rw", "write", "bs", "4k", "iodepth", "8", "jobs", "2",
		"size", "1m", "interval", "0", "fail-every", "8",
		"fail-errno", "eilseq", NULL };
	char dev[] = "/tmp/test-run.XXXXXX";
	struct dix_opts o;
	struct dix_run r;
	int fd = mkstemp(dev), st;
	uint64_t n = 0;
	int i;

	if (fd < 0) {
		ok(0, "a file for --dev");
		return;
	}
	close(fd);
	unlink(dev);	/* created again, with --size, by the run */
	bed_reset();
	st = load(&r, &o, dev, ok_opts);
	is_int(st, DIX_EXIT_OK, "a 0.5 s randrw run through null: exit 0");
	for (i = 0; i < r.nworkers; i++)
		n += r.workers[i].c.ops[DIX_READ] + r.workers[i].c.ops[DIX_WRITE];
	ok(n > 100, "it did I/O (%llu)", (unsigned long long)n);
	ok(r.t_end - r.t0 >= 0.5 && r.t_end - r.t0 < 5,
	   "it stopped at --runtime (%.3f s)", r.t_end - r.t0);
	ok(r.samples.n >= 2 && r.samples.n <= 6,
	   "one interval per 100 ms (%zu)", r.samples.n);
	for (i = 1; i < (int)r.samples.n; i++)
		if (r.samples.s[i].t <= r.samples.s[i - 1].t)
			break;
	ok(i >= (int)r.samples.n, "the intervals in time order");
	run_done(&r, &o);

	/* every 8th write refused with EILSEQ: integrity errors, exit 3 */
	bed_reset();
	st = load(&r, &o, dev, bad_opts);
	is_int(st, DIX_EXIT_INTEGRITY, "EILSEQ every 8th: exit 3");
	for (n = 0, i = 0; i < r.nworkers; i++)
		n += r.workers[i].c.errors[DIX_ERR_UNKNOWN];
	/* 1 MiB: 256 writes, 128 a job */
	is_int(n, 2 * (128 / 8), "one integrity error per 8 writes of each job");
	run_done(&r, &o);
	unlink(dev);
	bed_reset();
}

/*
 * A worker counting I/Os of 4 KiB, every ODD_EVERY-th one of 1000 bytes
 * (worker_count_odd(), as a preconditioned slice's last write), until
 * told to stop: the meter's samples must see ops and bytes of one state.
 */
#define ODD_EVERY	1000
#define ODD_LEN		1000u

struct counting {
	struct dix_worker *w;
	int stop;
};

static void *count_ios(void *arg)
{
	struct counting *c = arg;
	uint64_t i;

	for (i = 1; !__atomic_load_n(&c->stop, __ATOMIC_RELAXED); i++) {
		if (i % ODD_EVERY)
			lat_add(&c->w->lat[DIX_READ], 100 + i % 5000);
		else
			worker_count_odd(c->w, DIX_READ, ODD_LEN, 100);
	}
	return NULL;
}

/* bytes of @n such I/Os */
static uint64_t counted_bytes(uint64_t n)
{
	return n * 4096 - n / ODD_EVERY * (4096 - ODD_LEN);
}

/*
 * The meter's view of a worker's I/Os is one state: its bytes are those of
 * the I/Os it counts, never an I/O or more apart, while the worker goes on
 * counting (the pair was read apart before: bytes, then the histograms).
 */
static void test_counts(void)
{
	struct counting c = { 0 };
	struct dix_counters sum;
	struct lat_hist iv[DIX_DIR_NR];
	uint64_t ops, bytes, lat_n = 0;
	int k, bad = 0, odd_seen = 0;
	pthread_t t;
	struct bed b;

	bed_reset();
	bed_open(&b, "counts", 3 * 256 * KIB, NULL);
	c.w = &b.w[0];
	b.w[0].io_size = 4096;
	memset(iv, 0, sizeof(iv));
	if (pthread_create(&t, NULL, count_ios, &c)) {
		ok(0, "counting thread started");
		bed_close(&b);
		return;
	}
	for (k = 0; k < 20000; k++) {
		run_sample_counters(b.w, 1, &sum, iv);
		ops = sum.ops[DIX_READ];
		bytes = sum.bytes[DIX_READ];
		if (bytes != counted_bytes(ops) && bad++ < 3)
			printf("#   sample %d: %llu ops, %llu bytes, want %llu\n", k,
			       (unsigned long long)ops, (unsigned long long)bytes,
			       (unsigned long long)counted_bytes(ops));
		odd_seen |= ops >= ODD_EVERY;
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	lat_n = lat_count(&iv[DIX_READ]);
	ok(!bad && odd_seen, "20000 samples while a worker counts: bytes always those of the ops (%d off, %llu I/Os)",
	   bad, (unsigned long long)ops);
	ok(lat_n == ops, "the samples' latencies count the ops (%llu, %llu)",
	   (unsigned long long)lat_n, (unsigned long long)ops);
	run_sum_counters(b.w, 1, &sum);
	ok(sum.bytes[DIX_READ] == counted_bytes(sum.ops[DIX_READ]),
	   "the sum once it stopped: %llu ops, %llu bytes",
	   (unsigned long long)sum.ops[DIX_READ],
	   (unsigned long long)sum.bytes[DIX_READ]);
	bed_close(&b);
	bed_reset();
}

int main(void)
{
	engine_options_register();
	test_gate();
	test_clock();
	test_counts();
	test_load();
	return tap_done();
}
