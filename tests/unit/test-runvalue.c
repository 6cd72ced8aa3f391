// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-runvalue.c - a run is a value: two runs in one process, one after
 * the other as dixload sweep's points are, each with its own options, see
 * nothing of each other.  Held here: two whole runs (run_load(), as
 * run_main() makes them) on the null engine with different options, each
 * with its own result hook and test bed, and a third with neither; each
 * hook is called for its own run only, each bed counts its own run's I/O
 * only, and each run's once-per-run word is its own: the sg engine's
 * thread-fallback warning is printed once for each run that needs it,
 * not once per process; run A's device-mapper watch is not run B's.  And
 * the failure a
 * run reports is its own, never an earlier run's message nor another
 * thread's.
 *
 * One after the other, not side by side: a process has one set of signal
 * handlers, and core/runstop.c's stop-signal state (which run a SIGINT
 * stops) is the process's for that reason; a signal handler has no
 * argument to carry a run in.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/options.h"
#include "core/dev.h"
#include "core/meterloop.h"
#include "core/run.h"
#include "core/totals.h"
#include "engines/engine.h"
#include "engines/null.h"
#include "kernel/dmbind.h"
#ifdef HAVE_SGUTILS
#include "engines/sg.h"
#endif
#include "lib/util.h"
#include "capture.h"
#include "tap.h"

/* What a run's result hook saw. */
struct seen {
	int calls;
	const struct dix_run *run;
	uint64_t ops;
	uint64_t bs;
};

static void on_result(const struct dix_run *r, const struct dix_totals *t,
		      void *arg)
{
	struct seen *s = arg;

	s->calls++;
	s->run = r;
	s->ops = t->c.ops[DIX_READ] + t->c.ops[DIX_WRITE];
	s->bs = r->o->bs;
}

/*
 * One run as run_main() makes it: @opts (name, value, ..., NULL) on the
 * null engine over the file @path; @hook and @bed may be NULL.  The run's
 * word of what its engine said once into *@said.
 * Return: the exit status, -1 when the run could not be made.
 */
static int one_run(const char *path, const char *const *opts,
		   const struct dix_run_hook *hook, struct null_bed *bed,
		   unsigned int *said)
{
	struct dix_opts o;
	struct dix_run r;
	char err[256];
	int i, status;

	opts_init(&o);
	for (i = 0; opts[i]; i += 2)
		if (opt_set(&o, opts[i], opts[i + 1], err, sizeof(err))) {
			ok(0, "--%s %s: %s", opts[i], opts[i + 1], err);
			opts_free(&o);
			return -1;
		}
	if (opt_set(&o, "dev", path, err, sizeof(err))) {
		ok(0, "--dev %s: %s", path, err);
		opts_free(&o);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	if (devs_open(&o, engine_find("null"), NULL, -1, "", &r.devs,
		      &r.ndevs)) {
		ok(0, "devs_open %s", path);
		opts_free(&o);
		return -1;
	}
	r.o = &o;
	r.eng = engine_find("null");
	r.wake_fd = -1;
	r.silent = 1;		/* the TAP stream is stdout */
	if (hook)
		r.hook = *hook;
	r.eng_bed = bed;
	status = run_load(&r);
	*said = r.eng_said;
	run_free(&r);
	devs_close(r.devs, r.ndevs);
	opts_free(&o);
	return status;
}

#ifdef HAVE_SGUTILS
/* A driver with no sg node to open: the engine takes its threads. */
static int no_node(int blkfd, char *node, size_t nlen, char *why, size_t wlen)
{
	(void)blkfd;
	(void)node;
	(void)nlen;
	snprintf(why, wlen, "no node here (test)");
	return -ENOENT;
}

static const struct dix_sg_async_ops no_node_ops = { .open = no_node };

/*
 * Two workers of one run at --iodepth 4 on a disk with no sg node; @arg is
 * the run's word.  The SCSI description is given, as devs_open() would
 * have asked it (a 512-byte disk without PI), so no command is sent.
 */
static void sg_two_workers(void *arg)
{
	static struct dix_sg_bed bed = { .async = &no_node_ops };
	struct dix_devdesc desc;
	struct dix_eng_ctx ctx[2];
	const struct dix_engine *sg = engine_find("sg");
	int i;

	memset(&desc, 0, sizeof(desc));
	desc.path = "disk";
	desc.fd = -1;
	desc.lbs = 512;
	desc.scsi.asked = true;
	desc.scsi.rc_ok = true;
	desc.scsi.rc.block_length = 512;
	desc.scsi.rc.last_lba = 2047;
	for (i = 0; i < 2; i++) {
		memset(&ctx[i], 0, sizeof(ctx[i]));
		ctx[i].fd = -1;
		ctx[i].depth = 4;
		ctx[i].lbs = 512;
		ctx[i].path = "disk";
		ctx[i].pi_mode = PI_OFF;
		ctx[i].io_size = 4096;
		ctx[i].job = i;
		ctx[i].jobs = 2;
		ctx[i].desc = &desc;
		ctx[i].said = arg;
		ctx[i].bed = &bed;
		if (sg->init(&ctx[i]))
			printf("# sg init: %s\n", ctx[i].errmsg);
	}
	for (i = 0; i < 2; i++)
		sg->cleanup(&ctx[i]);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}
#endif

/*
 * The sg engine's thread-fallback warning: once per run, not per worker,
 * and again for the second run of the process (a sweep's next point),
 * which the process-wide flag it was (sg_told) never printed.
 */
static void test_sg_note(void)
{
#ifdef HAVE_SGUTILS
	unsigned int run_a = 0, run_b = 0;
	const char *out;

	out = capture_stderr(sg_two_workers, &run_a);
	is_int(count(out, "no sg node"), 1, "sg, run A, two workers: the thread fallback told once");
	out = capture_stderr(sg_two_workers, &run_b);
	is_int(count(out, "no sg node"), 1, "sg, run B, two workers: told again, once (its own run)");
	ok(run_a && run_b, "sg: each run's own word records it");
#else
	skip_dep("sg note: dixload built without libsgutils2 (no sg engine)");
#endif
}

/*
 * The device-mapper watch: run A's mapping is watched in run A's, and run
 * B (its own watch, as devs_open() makes one per run) finds nothing of it.
 */
static void test_dm_watch(void)
{
	struct dmbind *a = dmbind_new(), *b = dmbind_new();
	static struct dmmap m;

	m.lv[0].major = 253;
	m.lv[0].minor = 7;
	snprintf(m.lv[0].name, sizeof(m.lv[0].name), "dixdm");
	/* lv[0] names the mapping; no level counted: no counter to read */
	dmbind_watch(a, &m);
	ok(dmbind_find(a, 253, 7) == &m, "dm: run A watches its mapping 253:7");
	ok(dmbind_find(b, 253, 7) == NULL, "dm: run B's watch has none of run A's");
	ok(dmbind_mismatches(b) == NULL, "dm: run B reports no mismatch count of run A's");
	dmbind_free(a);
	dmbind_free(b);
	ok(dmbind_find(NULL, 253, 7) == NULL, "dm: a run without mappings watches nothing");
}

static void test_two_runs(const char *dir)
{
	static const char *const a_opts[] = {
		"rw", "write", "bs", "4k", "size", "256k", "iodepth", "4",
		"interval", "0", NULL };
	static const char *const b_opts[] = {
		"rw", "randrw", "bs", "16k", "size", "512k", "iodepth", "2",
		"jobs", "2", "interval", "0", "runtime", "0.2", NULL };
	static struct null_bed bed_a = NULL_BED_INIT, bed_b = NULL_BED_INIT;
	struct seen sa = { 0 }, sb = { 0 };
	const struct dix_run_hook ha = { .result = on_result, .arg = &sa };
	const struct dix_run_hook hb = { .result = on_result, .arg = &sb };
	char pa[256], pb[256];
	unsigned int said_a = 1, said_b = 1, said_c = 1;
	struct null_stats st_a;
	int rc;

	snprintf(pa, sizeof(pa), "%s/a.img", dir);
	snprintf(pb, sizeof(pb), "%s/b.img", dir);
	bed_a.conf.watch = 1;
	rc = one_run(pa, a_opts, &ha, &bed_a, &said_a);
	is_int(rc, 0, "run A (write, 4k, one job) ends with 0");
	is_int(sa.calls, 1, "run A: its hook called once");
	ok(sa.bs == 4096 && sa.ops == 64,
	   "run A: its hook saw its own run (bs %llu, %llu I/Os)",
	   (unsigned long long)sa.bs, (unsigned long long)sa.ops);
	st_a = null_bed_stats(&bed_a);
	is_int(st_a.ios, 64, "run A: its bed counted its 64 I/Os");
	is_int(said_a, 0, "run A: its engine said nothing once (null)");

	rc = one_run(pb, b_opts, &hb, &bed_b, &said_b);
	ok(rc == 0, "run B (randrw, 16k, two jobs) ends with 0 (got %d)", rc);
	is_int(sa.calls, 1, "run B: run A's hook not called for it");
	is_int(sb.calls, 1, "run B: its own hook called once");
	ok(sb.bs == 16384 && sb.run != NULL && sb.ops > 0,
	   "run B: its hook saw its own options (bs %llu, %llu I/Os)",
	   (unsigned long long)sb.bs, (unsigned long long)sb.ops);
	ok(null_bed_stats(&bed_a).ios == st_a.ios,
	   "run B: nothing counted into run A's bed");
	ok(null_bed_stats(&bed_b).ios == sb.ops,
	   "run B: its bed counted its own I/Os only (%llu, hook %llu)",
	   (unsigned long long)null_bed_stats(&bed_b).ios,
	   (unsigned long long)sb.ops);
	ok(null_bed_stats(&bed_b).reordered == 0 && !bed_b.conf.watch,
	   "run B: run A's bed settings (watch) not in it");

	/* a run without hook nor bed: nobody hears of it */
	rc = one_run(pa, a_opts, NULL, NULL, &said_c);
	is_int(rc, 0, "run C (A's options, no hook, no bed) ends with 0");
	ok(sa.calls == 1 && sb.calls == 1, "run C: neither hook called");
	ok(null_bed_stats(&bed_a).ios == st_a.ios &&
	   null_bed_stats(&bed_b).ios == sb.ops, "run C: neither bed counted");
}

/*
 * Run A fails with a message; run B fails to set up without one of its
 * own (a rank whose workers could not all start).  The reason B gives the
 * other ranks must not be A's.
 */
static void test_errors(void)
{
	struct dix_run a, b;
	char why[600];
	const char *r;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	dix_err("run A: /nonexistent/a.img: cannot open: No such file or directory");
	r = run_failure(&b, 1, why, sizeof(why));
	ok(r != NULL, "run B's setup failed: it has a reason");
	ok(r && !strstr(r, "run A"),
	   "run B's reason is not run A's stale message (got '%s')", r ? r : "(null)");
	ok(run_failure(&b, 0, why, sizeof(why)) == NULL,
	   "run B without a failure gives no reason");
}

static void *other_thread(void *arg)
{
	(void)arg;
	dix_err("a worker of another run: its own message");
	return NULL;
}

/* A run's own message is its reason; another thread's never replaces it. */
static void test_own_error(void)
{
	struct dix_errbuf *prev;
	struct dix_run a;
	pthread_t th;
	char why[600];
	const char *r;

	memset(&a, 0, sizeof(a));
	prev = dix_errbuf_use(&a.err);
	dix_err("run A: cannot start the control thread: Resource temporarily unavailable");
	pthread_create(&th, NULL, other_thread, NULL);
	pthread_join(th, NULL);
	dix_errbuf_use(prev);
	r = run_failure(&a, 1, why, sizeof(why));
	ok(r && !strcmp(r, "run A: cannot start the control thread: Resource temporarily unavailable"),
	   "run A's reason is its own message (got '%s')", r ? r : "(null)");
	dix_err("after run A: nobody's");
	ok(!strstr(a.err.msg, "after"), "a message after run A is not run A's");
}

int main(void)
{
	char dir[] = "/tmp/dixload-runvalue-XXXXXX";
	char cmd[64];

	engine_options_register();
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_two_runs(dir);
	test_sg_note();
	test_dm_watch();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	test_errors();
	test_own_error();
	return tap_done();
}
