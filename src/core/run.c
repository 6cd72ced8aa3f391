// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - start the workers, run the meter on absolute deadlines, stop on
 * runtime / coverage / signal / --max-errors, drain, and summarise.
 *
 * The meter thread (main) sleeps in ppoll() on an eventfd until the next
 * deadline; workers finishing and signal handlers write the eventfd, so the
 * run ends promptly instead of at the next tick.
 *
 * Preconditioning (precond.h) comes first, with the same workers and the
 * same stop handling; the run's clock (t = 0, --runtime, the times of
 * scheduled actions) starts only after it, and its I/O is taken out of the
 * counters the meter and the summary read.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "kernel/hotload.h"
#include "core/job.h"
#include "verify/journal.h"
#include "core/mpijob.h"
#include "core/run.h"
#include "core/runreport.h"
#include "lib/util.h"

static struct dix_run *sig_run;
static volatile sig_atomic_t sig_count;

double run_elapsed(const struct dix_run *r)
{
	return dix_now() - r->t0;
}

static void wake(struct dix_run *r)
{
	uint64_t one = 1;
	ssize_t n;

	if (r->wake_fd >= 0)
		n = write(r->wake_fd, &one, sizeof(one));
	(void)n;
}

void run_request_stop(struct dix_run *r)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	wake(r);
}

void run_worker_done(struct dix_run *r)
{
	wake(r);
}

static void on_signal(int sig)
{
	int saved = errno;

	sig_count++;
	if (sig_run)
		run_request_stop(sig_run);
	/* a second signal while draining: the user really wants out */
	if (sig_count > 2) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

static void install_signals(struct dix_run *r)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sig_run = r;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void run_event(struct dix_run *r, const struct dix_event *ev)
{
	struct dix_event *e;

	pthread_mutex_lock(&r->lock);
	r->events = xrealloc(r->events, (r->nevents + 1) * sizeof(*r->events));
	e = &r->events[r->nevents++];
	dix_event_copy(e, ev);
	/* under MPI every event names its host (rank 0 prints them all) */
	if (!e->host && r->mpi)
		e->host = xstrdup(dix_mpi_host(r->mpi));
	if (ev->kind == EV_ACTION && ev->ok == 0)
		r->action_failed = 1;
	runreport_event(r, e);
	pthread_mutex_unlock(&r->lock);
}

/* The control thread's event sink: events go into the run. */
static void emit_event(void *ctx, const struct dix_event *ev)
{
	run_event(ctx, ev);
}

static void sum_counters(struct dix_worker *w, int n, struct dix_counters *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++)
		counters_add(c, &w[i].c);
}

void (*run_result_hook)(const struct dix_run *r,
			const struct dix_totals *t);

/*
 * Close the interval ending at @now: the total, and with several devices
 * each device's own over the same instant (their meters share the start
 * and the period, so the rows of one interval cover the same time).
 */
static void take_sample(struct dix_run *r, struct meter *m, double now)
{
	struct meter_sample s, *ds = NULL;
	struct dix_counters c;
	struct cpu_snap cs;
	int i;

	if (r->ndevs > 1) {
		struct dix_counters dc;

		/* the total is the sum of the rows, read once: the workers
		 * count on while this runs, and a second read of them gave
		 * a total one op off its rows (sanitized build, 3 files) */
		memset(&c, 0, sizeof(c));
		ds = xcalloc(r->ndevs, sizeof(*ds));
		for (i = 0; i < r->ndevs; i++) {
			struct dix_dev *d = &r->devs[i];

			sum_counters(d->workers, d->nworkers, &dc);
			counters_add(&c, &dc);
			meter_sample(&d->m, now, &dc, &ds[i]);
		}
	} else {
		sum_counters(r->workers, r->nworkers, &c);
	}
	if (meter_sample(m, now, &c, &s)) {
		free(ds);
		return;
	}
	cpu_read(&cs);
	cpu_between(&r->cpu_last, &cs, &s.cpu);
	r->cpu_last = cs;
	pthread_mutex_lock(&r->lock);
	sample_log_add(&r->samples, &s);
	for (i = 0; ds && i < r->ndevs; i++) {
		ds[i].cpu = s.cpu;	/* the machine's: not per device */
		sample_log_add(&r->devs[i].samples, &ds[i]);
	}
	runreport_interval(r, &s, ds, NULL, 0);
	pthread_mutex_unlock(&r->lock);
	free(ds);
}

static void wait_until(struct dix_run *r, double deadline)
{
	double left = deadline - dix_now();
	struct pollfd pfd = { .fd = r->wake_fd, .events = POLLIN };
	struct timespec ts;
	uint64_t v;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (ppoll(&pfd, 1, &ts, NULL) > 0 &&
	    read(r->wake_fd, &v, sizeof(v)) < 0)
		return;
}

/*
 * Sum the workers up.  Their extents move into one list and are merged, so
 * an extent that crosses the boundary of two workers' slices is one.
 */
static void gather_dev(struct dix_run *r, struct dix_dev *d,
		       struct dix_totals *t)
{
	size_t n = 0, i;
	int w;

	memset(t, 0, sizeof(*t));
	sum_counters(d->workers, d->nworkers, &t->c);
	for (w = 0; w < d->nworkers; w++)
		n += d->workers[w].ext.n;
	t->ext = xcalloc(n ? n : 1, sizeof(*t->ext));
	for (w = 0; w < d->nworkers; w++) {
		struct dix_worker *wk = &d->workers[w];

		lat_merge(&t->lat[DIX_READ], &wk->lat[DIX_READ]);
		lat_merge(&t->lat[DIX_WRITE], &wk->lat[DIX_WRITE]);
		/* a worker without errors has no array: memcpy() from NULL is
		 * undefined even for 0 bytes (UBSan, sanitized file-meter.sh) */
		if (wk->ext.n)
			memcpy(t->ext + t->next, wk->ext.v,
			       wk->ext.n * sizeof(*t->ext));
		t->next += wk->ext.n;
		t->ext_dropped += wk->ext.dropped;
		t->ext_dropped_blocks += wk->ext.dropped_blocks;
		free(wk->ext.v);	/* the details moved to t->ext */
		memset(&wk->ext, 0, sizeof(wk->ext));
	}
	t->next = extents_merge(t->ext, t->next);
	for (i = 0; i < t->next; i++)
		t->ext_blocks += t->ext[i].count;
	t->unwritten = t->c.unwritten;
	t->elapsed = r->t_end - r->t0;
}

/*
 * Every device's totals into @dt (r->ndevs of them) and their sum into
 * @t.  The sum's bad extents stay with the devices (an LBA means nothing
 * without its device); it counts them.  One device: @t is a copy of
 * @dt[0] whose extents are its own (@dt[0] then holds none).
 */
static void gather(struct dix_run *r, struct dix_totals *dt,
		   struct dix_totals *t)
{
	int i, d;

	for (i = 0; i < r->ndevs; i++)
		gather_dev(r, &r->devs[i], &dt[i]);
	if (r->ndevs == 1) {
		*t = dt[0];
		dt[0].ext = NULL;
		dt[0].next = 0;
		return;
	}
	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->ndevs; i++) {
		counters_add(&t->c, &dt[i].c);
		for (d = 0; d < DIX_DIR_NR; d++)
			lat_merge(&t->lat[d], &dt[i].lat[d]);
		t->ext_blocks += dt[i].ext_blocks;
		t->ext_dropped += dt[i].ext_dropped;
		t->ext_dropped_blocks += dt[i].ext_dropped_blocks;
		t->unwritten += dt[i].unwritten;
	}
	t->elapsed = r->t_end - r->t0;
}

static void totals_free(struct dix_totals *t)
{
	size_t i;

	for (i = 0; i < t->next; i++)
		extent_free(&t->ext[i]);
	free(t->ext);
	t->ext = NULL;
	t->next = 0;
}

/*
 * --error-log: created (truncated) before the load, so a path that cannot
 * be written is a setup error, not a surprise after a long run.
 */
static int errlog_open(struct dix_run *r)
{
	const char *path = r->o->error_log;

	pthread_mutex_init(&r->errlog_lock, NULL);
	if (!path)
		return 0;
	r->errlog = fopen(path, "we");
	if (!r->errlog) {
		dix_err("--error-log %s: cannot write: %s", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Everything written reaches the file: at the end, and after a signal. */
/*
 * --journal: a run that writes records into it (created before the load,
 * so a bad path fails before any I/O); a read-only run checks against it.
 */
static int journal_open(struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	char err[512];

	if (!o->journal)
		return 0;
	r->journal_write = rw_writes(o->rw);
	/* records name byte offsets of one target, written by one process */
	if (r->ndevs > 1 || r->mpi) {
		dix_err("--journal %s: one device in one process only (%s)",
			o->journal, r->mpi ? "MPI ranks would share the file" :
			"several --dev would share offsets");
		return -1;
	}
	if (!r->journal_write && o->verify == VERIFY_OFF) {
		dix_err("--journal %s with --rw %s checks the version of every block read: it needs --verify on or strict",
			o->journal, rw_names[o->rw]);
		return -1;
	}
	if (r->journal_write ?
	    journal_create(&r->journal, o->journal, o->seed, r->devs[0].t.lbs, err,
			   sizeof(err)) :
	    journal_load(&r->journal, o->journal, err, sizeof(err))) {
		dix_err("%s", err);
		return -1;
	}
	return 0;
}

static void journal_finish(struct dix_run *r)
{
	uint64_t batches, records, ns;

	if (!r->journal)
		return;
	if (r->journal_write) {
		journal_stats(r->journal, &batches, &records, &ns);
		r->journal_batches = batches;
		r->journal_records = records;
		r->journal_sync_s = ns / 1e9;
		fprintf(stderr, "dixload: --journal %s: %llu records, %llu synced batches, %.3f s writing and syncing them\n",
			r->o->journal, (unsigned long long)records,
			(unsigned long long)batches, ns / 1e9);
	}
	if (journal_close(r->journal))
		dix_err("--journal %s: writing failed: the journal is incomplete",
			r->o->journal);
	r->journal = NULL;
}

static void errlog_close(struct dix_run *r)
{
	if (r->errlog && fclose(r->errlog))
		dix_err("--error-log %s: %s", r->o->error_log,
			strerror(errno));
	r->errlog = NULL;
}

/*
 * A load that ran to its end and completed no request has figures of 0
 * that measure nothing: its --runtime ended before the first request came
 * back, or the device never answered.  Exit 0 would read as a load that
 * ran at 0 MB/s and passed, so it is exit status 1, said in one line.
 * Stopped by SIGINT/SIGTERM, the user asked for the end: no error.
 */
static int nothing_measured(const struct dix_totals *t, int status)
{
	uint64_t ops = 0;
	int d;

	for (d = 0; d < DIX_DIR_NR; d++)
		ops += t->c.ops[d];
	if (ops || status != DIX_EXIT_OK || sig_count)
		return status;
	dix_err("no request completed in the %.3f s the load ran, so its figures measure nothing (a --runtime shorter than one request, or a device that did not answer)",
		t->elapsed);
	return DIX_EXIT_USAGE;
}

static int exit_status(struct dix_run *r, const struct dix_totals *t,
		       int setup_failed)
{
	uint64_t integ = 0;
	int k;

	for (k = 0; k < DIX_ERR_NR; k++)
		if (dix_errkind_is_integrity(k))
			integ += t->c.errors[k];
	if (integ)
		return DIX_EXIT_INTEGRITY;
	if (t->c.errors[DIX_ERR_IO])
		return DIX_EXIT_IO;
	if (setup_failed)
		return DIX_EXIT_USAGE;
	if (r->action_failed)
		return DIX_EXIT_ACTION;
	return DIX_EXIT_OK;
}

/* Setup failures of workers (printed); 1 when one never did any I/O. */
static int worker_failures(struct dix_run *r)
{
	int i, failed = 0;

	for (i = 0; i < r->nworkers; i++) {
		struct dix_worker *w = &r->workers[i];

		if (!w->err)
			continue;
		if (r->ndevs > 1)
			dix_err("%s: job %d: %s", w->dev->path, w->id,
				w->errmsg);
		else
			dix_err("job %d: %s", w->id, w->errmsg);
		if (!w->c.ops[0] && !w->c.ops[1])
			failed = 1;
	}
	return failed;
}

/* The workers of the current phase: preconditioning or the load. */
static int in_phase(const struct dix_worker *w, int pre)
{
	return !pre || w->precond;
}

static int all_done(struct dix_run *r, int pre)
{
	int i;

	for (i = 0; i < r->nworkers; i++)
		if (r->workers[i].started && in_phase(&r->workers[i], pre) &&
		    !__atomic_load_n(&r->workers[i].done, __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

static void join_workers(struct dix_run *r)
{
	int i;

	for (i = 0; i < r->nworkers; i++) {
		if (!r->workers[i].started)
			continue;
		pthread_join(r->workers[i].th, NULL);
		r->workers[i].started = 0;
	}
}

/*
 * The start gate.  A worker's setup (the engine's init: a kcapi TFM open
 * can load driver modules and instantiate templates, io_uring maps its
 * rings) is not the load, so the run's clock must not be running during
 * it: --runtime and the first interval would measure setup, and a run's
 * rates would be over a longer time than the load had.  So each worker
 * of a phase reports its setup done and waits here; the main thread waits
 * for all of them (wait_ready()), starts the clock, then opens the gate.
 */
void run_worker_ready(struct dix_run *r, struct dix_worker *w, int ok)
{
	pthread_mutex_lock(&r->gate_lock);
	w->ready = 1;
	pthread_cond_broadcast(&r->gate_cv);
	while (ok && !r->gate_open)
		pthread_cond_wait(&r->gate_cv, &r->gate_lock);
	pthread_mutex_unlock(&r->gate_lock);
}

/* Until every started worker of the phase has finished its setup. */
static void wait_ready(struct dix_run *r, int pre)
{
	int i, waiting;

	pthread_mutex_lock(&r->gate_lock);
	for (;;) {
		waiting = 0;
		for (i = 0; i < r->nworkers; i++)
			if (r->workers[i].started &&
			    in_phase(&r->workers[i], pre) &&
			    !r->workers[i].ready)
				waiting = 1;
		if (!waiting)
			break;
		pthread_cond_wait(&r->gate_cv, &r->gate_lock);
	}
	pthread_mutex_unlock(&r->gate_lock);
}

static void open_gate(struct dix_run *r)
{
	pthread_mutex_lock(&r->gate_lock);
	r->gate_open = 1;
	pthread_cond_broadcast(&r->gate_cv);
	pthread_mutex_unlock(&r->gate_lock);
}

/* After a phase's workers were joined: the next phase waits again. */
static void close_gate(struct dix_run *r)
{
	int i;

	pthread_mutex_lock(&r->gate_lock);
	r->gate_open = 0;
	for (i = 0; i < r->nworkers; i++)
		r->workers[i].ready = 0;
	pthread_mutex_unlock(&r->gate_lock);
}

/*
 * Start the workers of the phase; on failure stop the ones started
 * (returns -1).  The workers wait at the gate after their setup.
 */
static int start_workers(struct dix_run *r, int pre)
{
	int i;

	for (i = 0; i < r->nworkers; i++) {
		int e;

		if (!in_phase(&r->workers[i], pre))
			continue;
		e = pthread_create(&r->workers[i].th, NULL, worker_main,
				   &r->workers[i]);
		if (e) {
			dix_err("cannot start worker %d: %s", i, strerror(e));
			run_request_stop(r);
			return -1;
		}
		r->workers[i].started = 1;
	}
	return 0;
}

/* What one device's preconditioning did, from its workers' totals. */
static void precond_result(struct dix_run *r, struct dix_dev *d,
			   const struct dix_totals *t, int setup_failed)
{
	struct precond_result *res = &d->pres;
	int i;

	res->seconds = t->elapsed;
	res->bytes = t->c.bytes[DIX_WRITE];
	res->errors = counters_errors(&t->c);
	res->io_size = d->pre.io_size;
	for (i = 0; i < d->nworkers; i++)
		if (d->workers[i].io_size &&
		    d->workers[i].io_size < res->io_size)
			res->io_size = d->workers[i].io_size;
	res->complete = res->bytes == res->region && !res->errors &&
			!setup_failed;
	(void)r;
}

/*
 * Write the region of every device that preconditions (precond.h) with
 * its workers in their preconditioning pass; progress on a terminal every
 * half second.  Then clear every worker's counters, so the load starts
 * from zero.
 * @pre_c: the pass's own counters (its errors decide the exit status when
 *	the load does not start)
 * Return: 0 when the load may start; 1 when it must not: stopped (signal,
 * --max-errors), an error, or a worker that could not run.
 */
static int precondition(struct dix_run *r, struct dix_counters *pre_c,
			int *setup_failed)
{
	int tty = !r->o->quiet && isatty(STDERR_FILENO);
	double start, show;
	uint64_t region = 0;
	int i, k, stopped, complete = 1;

	memset(pre_c, 0, sizeof(*pre_c));
	for (k = 0; k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];

		if (!d->pre.on)
			continue;
		d->pres.ran = 1;
		for (i = 0; i < d->nworkers; i++) {
			d->workers[i].precond = 1;
			d->pres.region += d->workers[i].end -
					  d->workers[i].start;
		}
		region += d->pres.region;
	}
	if (start_workers(r, 1))
		*setup_failed = 1;
	wait_ready(r, 1);
	start = dix_now();
	show = start + 0.5;
	open_gate(r);
	while (!all_done(r, 1) && !__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		double now = dix_now();

		if (tty && now >= show) {
			struct dix_counters c;

			sum_counters(r->workers, r->nworkers, &c);
			runreport_precond_progress(r, c.bytes[DIX_WRITE],
						     region, now - start);
			while (show <= now)
				show += 0.5;
		}
		wait_until(r, tty ? show : now + 3600);
	}
	join_workers(r);
	close_gate(r);
	stopped = __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
	if (worker_failures(r))
		*setup_failed = 1;
	r->t0 = start;
	r->t_end = dix_now();
	pthread_mutex_lock(&r->lock);
	if (tty)
		runreport_precond_progress(r, 0, 0, -1);	/* clear the line */
	for (k = 0; k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];
		struct dix_totals t;

		if (!d->pre.on)
			continue;
		gather_dev(r, d, &t);
		counters_add(pre_c, &t.c);
		precond_result(r, d, &t, *setup_failed);
		complete &= d->pres.complete;
		totals_free(&t);
		runreport_precond(r, d);
	}
	pthread_mutex_unlock(&r->lock);
	if (!complete || stopped || *setup_failed)
		return 1;
	/* gather_dev() took the (empty) extent lists; the rest starts anew */
	for (i = 0; i < r->nworkers; i++) {
		struct dix_worker *w = &r->workers[i];

		memset(&w->c, 0, sizeof(w->c));
		memset(w->lat, 0, sizeof(w->lat));
		w->precond = 0;
		w->done = 0;
	}
	return 0;
}

/*
 * A worker that could not run (setup failure, no I/O): its message, for
 * the job's verdict under MPI; NULL when every worker runs.
 */
static const char *worker_failed(struct dix_run *r, char *buf, size_t len)
{
	int i;

	for (i = 0; i < r->nworkers; i++) {
		struct dix_worker *w = &r->workers[i];

		if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) && w->err &&
		    !w->c.ops[0] && !w->c.ops[1]) {
			snprintf(buf, len, "%s: job %d: %s", w->dev->path,
				 w->id, w->errmsg);
			return buf;
		}
	}
	return NULL;
}

/*
 * One interval of the job: this rank's sample and new events to rank 0,
 * which records the other ranks' events (they print before the line) and
 * reports the job's interval with a row per rank.
 * Return: the verdict (DIX_MPI_STOP: the job ends).
 */
static int mpi_tick(struct dix_run *r, const struct meter_sample *s,
		    int flags, const char *why)
{
	struct dix_mpi_gather g;
	int evlen, verdict, i;
	char *ev;

	pthread_mutex_lock(&r->lock);
	ev = dix_mpi_pack_events(r->mpi, r->events, r->nevents, &evlen);
	pthread_mutex_unlock(&r->lock);
	verdict = dix_mpi_tick(r->mpi, s, run_elapsed(r), flags, why, ev,
			       evlen, &g);
	free(ev);
	for (i = 0; i < g.nev; i++)
		run_event(r, &g.ev[i]);
	if (g.have) {
		pthread_mutex_lock(&r->lock);
		sample_log_add(&r->samples, &g.job);
		runreport_interval(r, &g.job, NULL, g.rows, g.nrows);
		pthread_mutex_unlock(&r->lock);
	}
	dix_mpi_gather_free(&g);
	return verdict;
}

/*
 * The meter loop of an MPI rank: one dix_mpi_tick() per deadline, on every
 * rank, until rank 0's verdict says stop.  A rank that stops on its own
 * ticks at once (the others learn it at their next deadline); a rank whose
 * workers finished keeps ticking (with nothing to add) until every rank
 * has, and its elapsed time ends when its workers did.
 */
static void mpi_loop(struct dix_run *r, struct meter *m, double end_at,
		     int setup_failed)
{
	double done_at = 0;

	for (;;) {
		double now = dix_now(), next;
		struct dix_counters c;
		struct meter_sample s;
		struct cpu_snap cs;
		char why[600];
		const char *failed;
		int flags = 0, have;

		if (end_at && now >= end_at)
			run_request_stop(r);
		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			flags |= DIX_MPI_STOP;
		if (all_done(r, 0)) {
			flags |= DIX_MPI_DONE;
			if (!done_at)
				done_at = now;
		}
		failed = worker_failed(r, why, sizeof(why));
		if (failed || setup_failed) {
			flags |= DIX_MPI_FAILED;
			if (!failed)
				failed = dix_last_err;
		}
		if (!(flags & (DIX_MPI_STOP | DIX_MPI_FAILED)) &&
		    now < meter_deadline(m)) {
			next = meter_deadline(m);
			if (end_at && end_at < next)
				next = end_at;
			wait_until(r, next);
			continue;
		}
		sum_counters(r->workers, r->nworkers, &c);
		have = !meter_sample(m, now, &c, &s);
		if (have) {
			cpu_read(&cs);
			cpu_between(&r->cpu_last, &cs, &s.cpu);
			r->cpu_last = cs;
		}
		if (mpi_tick(r, have ? &s : NULL, flags, failed) & DIX_MPI_STOP)
			break;
	}
	run_request_stop(r);
	if (done_at)
		r->t_end = done_at;
}

/* --jobs workers per device, each on an equal slice of its region. */
static void assign_workers(struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	int i, k;

	r->nworkers = o->jobs * r->ndevs;
	r->workers = xcalloc(r->nworkers, sizeof(*r->workers));
	for (k = 0; k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];
		/* equal slices, each a whole number of I/Os */
		uint64_t slice = d->size / o->bs / o->jobs * o->bs;

		d->workers = r->workers + k * o->jobs;
		d->nworkers = o->jobs;
		for (i = 0; i < d->nworkers; i++) {
			struct dix_worker *w = &d->workers[i];

			w->id = i;
			w->run = r;
			w->dev = d;
			w->start = o->offset + i * slice;
			w->end = w->start + slice;
		}
	}
}

/* The first block device's name, for the control thread's advice. */
static const char *first_blk(const struct dix_run *r)
{
	int k;

	for (k = 0; k < r->ndevs; k++)
		if (r->devs[k].t.is_blk)
			return r->devs[k].t.name;
	return NULL;
}

static void totals_free_all(struct dix_run *r, struct dix_totals *dt,
			    struct dix_totals *t)
{
	int k;

	for (k = 0; k < r->ndevs; k++)
		totals_free(&dt[k]);
	totals_free(t);
	free(dt);
}

int run_load(struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	struct dix_totals tot, *dt;
	struct meter m;
	double period = o->interval_ms / 1000.0, end_at = 0;
	int k, status, setup_failed = 0, ctl_started = 0, pre = 0;

	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->gate_lock, NULL);
	pthread_cond_init(&r->gate_cv, NULL);
	r->gate_open = 0;
	if (errlog_open(r))
		return DIX_EXIT_USAGE;
	if (journal_open(r)) {
		errlog_close(r);
		return DIX_EXIT_USAGE;
	}
	r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wake_fd < 0) {
		dix_err("eventfd: %s", strerror(errno));
		errlog_close(r);
		journal_finish(r);
		return DIX_EXIT_USAGE;
	}
	assign_workers(r);
	for (k = 0; k < r->ndevs; k++)
		pre |= r->devs[k].pre.on;

	install_signals(r);
	runreport_start(r);
	if (pre || r->mpi) {
		struct dix_counters pre_c;
		int failed = 0;

		memset(&pre_c, 0, sizeof(pre_c));
		if (pre)
			failed = precondition(r, &pre_c, &setup_failed);
		/* every rank starts, or none does */
		if (r->mpi && !dix_mpi_agree(r->mpi, !failed,
					     "preconditioning did not complete"))
			failed = 1;
		if (failed) {
			/* nothing measured: the summary says so; the exit
			 * status follows what the writes met */
			memset(&tot, 0, sizeof(tot));
			tot.c = pre_c;
			status = exit_status(r, &tot, setup_failed);
			if (r->mpi)
				status = dix_mpi_status(r->mpi, status);
			errlog_close(r);
			journal_finish(r);
			memset(&tot, 0, sizeof(tot));
			dt = xcalloc(r->ndevs, sizeof(*dt));
			pthread_mutex_lock(&r->lock);
			runreport_summary(r, &tot, dt, status);
			pthread_mutex_unlock(&r->lock);
			free(dt);
			goto out;
		}
	}
	r->started = 1;
	/* the clock starts when every worker's setup is over (the gate) */
	if (start_workers(r, 0))
		setup_failed = 1;
	wait_ready(r, 0);
	cpu_read(&r->cpu_first);
	r->cpu_last = r->cpu_first;
	r->t0 = r->mpi ? dix_mpi_start(r->mpi) : dix_now();
	r->t_end = 0;
	if (period > 0) {
		meter_init(&m, r->t0, period);
		for (k = 0; k < r->ndevs; k++)
			meter_init(&r->devs[k].m, r->t0, period);
	}
	if (o->runtime > 0)
		end_at = r->t0 + o->runtime;
	/* a --runtime over already: no worker starts a request after it */
	if (end_at && dix_now() >= end_at)
		run_request_stop(r);
	open_gate(r);
	/* under MPI the lowest rank of each host runs its actions and watch */
	if (!setup_failed && (!r->mpi || dix_mpi_leader(r->mpi))) {
		struct dix_event_sink sink = {
			.emit = emit_event, .ctx = r, .t0 = r->t0,
		};
		int c;

		r->ctl = control_start(o, first_blk(r), &sink, &c);
		if (c == 0) {
			ctl_started = 1;
		} else if (c < 0) {
			/* scheduled actions would silently never run */
			dix_err("cannot start the control thread: %s",
				strerror(-c));
			setup_failed = 1;
			run_request_stop(r);
		}
	}

	if (r->mpi)
		mpi_loop(r, &m, end_at, setup_failed);
	while (!r->mpi && !all_done(r, 0)) {
		double now = dix_now(), next = INFINITY;

		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			break;
		if (end_at && now >= end_at) {
			run_request_stop(r);
			break;
		}
		if (period > 0 && now >= meter_deadline(&m)) {
			take_sample(r, &m, now);
			continue;
		}
		if (period > 0)
			next = meter_deadline(&m);
		if (end_at && end_at < next)
			next = end_at;
		if (isinf(next))
			next = now + 3600;
		wait_until(r, next);
	}
	/* a runtime end that coincides with a tick still gets its sample */
	if (!r->mpi && period > 0 && dix_now() >= meter_deadline(&m) - 1e-3)
		take_sample(r, &m, dix_now());

	join_workers(r);
	if (!r->mpi || !r->t_end)
		r->t_end = dix_now();
	if (ctl_started) {
		control_stop(r->ctl);
		r->ctl = NULL;
	}
	/*
	 * The tail after the last tick (a region covered before the next
	 * deadline, or draining after a stop): a sample of its own when it is
	 * at least half a period, so no rate is computed over a sliver.  Its
	 * I/O is always in the summary.
	 */
	if (!r->mpi && period > 0 && r->t_end - m.last >= period / 2)
		take_sample(r, &m, r->t_end);

	if (worker_failures(r))
		setup_failed = 1;
	if (r->extents_closed > o->max_report)
		dix_err("%llu more bad extent%s not printed (--max-report %llu)%s%s%s",
			(unsigned long long)(r->extents_closed - o->max_report),
			r->extents_closed - o->max_report == 1 ? " was" : "s were",
			(unsigned long long)o->max_report,
			r->errlog ? "; --error-log " : "",
			r->errlog ? o->error_log : "",
			r->errlog ? " holds every bad block" : "");
	errlog_close(r);
	journal_finish(r);
	dt = xcalloc(r->ndevs, sizeof(*dt));
	gather(r, dt, &tot);
	{
		struct cpu_snap end;

		cpu_read(&end);
		cpu_between(&r->cpu_first, &end, &tot.cpu);
		for (k = 0; k < r->ndevs; k++)
			dt[k].cpu = tot.cpu;	/* the machine's and dixload's */
	}
	if (run_result_hook)
		run_result_hook(r, &tot);
	runreport_analyse(r);
	status = exit_status(r, &tot, setup_failed);
	status = nothing_measured(&tot, status);
	if (r->mpi) {
		/* rank 0 prints the job's summary; every rank gets its status */
		struct dix_rank_row *rows;
		struct dix_totals job;
		uint64_t bad = tot.next + tot.ext_dropped;

		/* several devices: the extents stay with each (gather()) */
		for (k = 0; r->ndevs > 1 && k < r->ndevs; k++)
			bad += dt[k].next + dt[k].ext_dropped;
		status = dix_mpi_summary(r->mpi, &tot, bad, status, &job,
					 &rows);
		if (rows) {
			pthread_mutex_lock(&r->lock);
			runreport_summary(r, &job, NULL, status);
			pthread_mutex_unlock(&r->lock);
			free(rows);
		}
	} else {
		pthread_mutex_lock(&r->lock);
		runreport_summary(r, &tot, dt, status);
		pthread_mutex_unlock(&r->lock);
	}
	totals_free_all(r, dt, &tot);
out:
	runreport_close(r);
	sig_run = NULL;
	close(r->wake_fd);
	r->wake_fd = -1;
	return status;
}

void run_free(struct dix_run *r)
{
	int i;

	for (i = 0; i < r->nevents; i++)
		dix_event_clear(&r->events[i]);
	free(r->events);
	r->events = NULL;
	r->nevents = 0;
	free(r->transitions);
	r->transitions = NULL;
	r->ntransitions = 0;
	sample_log_free(&r->samples);
	for (i = 0; i < r->ndevs; i++) {
		sample_log_free(&r->devs[i].samples);
		free(r->devs[i].transitions);
		r->devs[i].transitions = NULL;
		r->devs[i].ntransitions = 0;
		r->devs[i].workers = NULL;
		r->devs[i].nworkers = 0;
	}
	free(r->workers);
	r->workers = NULL;
	r->nworkers = 0;
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->gate_lock);
	pthread_cond_destroy(&r->gate_cv);
}
