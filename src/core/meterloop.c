// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meterloop.c - the meter loop: the run's intervals on absolute deadlines
 * (meter.h), one process's or, under MPI, the job's, where every rank
 * ticks together and rank 0 reports what it gathered.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gate.h"
#include "core/job.h"
#include "core/meterloop.h"
#include "core/mpijob.h"
#include "core/runevent.h"
#include "core/runreport.h"
#include "core/runstop.h"
#include "core/totals.h"
#include "lib/util.h"

/* The quantiles of the interval's histograms @iv into @s. */
static void lat_close(struct meter_sample *s, struct lat_hist *iv)
{
	int d;

	for (d = 0; d < DIX_DIR_NR; d++)
		lat_quantiles(&iv[d], &s->lat[d]);
}

/*
 * Close the interval ending at @now: the total, and with several devices
 * each device's own over the same instant (their meters share the start
 * and the period, so the rows of one interval cover the same time).
 * The latencies are taken with the counters (run_sample_counters()); the
 * total's histogram is the devices' summed, as its counters are.
 */
void run_take_sample(struct dix_run *r, struct meter *m, double now)
{
	struct meter_sample s, *ds = NULL;
	struct dix_counters c;
	struct cpu_snap cs;
	int i, d;

	if (r->ndevs > 1) {
		struct dix_counters dc;

		/* the total is the sum of the rows, read once: the workers
		 * count on while this runs, and a second read of them gave
		 * a total one op off its rows (sanitized build, 3 files) */
		memset(&c, 0, sizeof(c));
		ds = xcalloc(r->ndevs, sizeof(*ds));
		for (i = 0; i < r->ndevs; i++) {
			struct dix_dev *dv = &r->devs[i];
			struct lat_hist iv[DIX_DIR_NR];

			memset(iv, 0, sizeof(iv));
			run_sample_counters(dv->workers, dv->nworkers, &dc, iv);
			for (d = 0; d < DIX_DIR_NR; d++) {
				lat_merge(&dv->lat_iv[d], &iv[d]);
				lat_merge(&r->lat_iv[d], &iv[d]);
			}
			counters_add(&c, &dc);
			meter_sample(&dv->m, now, &dc, &ds[i]);
		}
	} else {
		run_sample_counters(r->workers, r->nworkers, &c, r->lat_iv);
	}
	if (meter_sample(m, now, &c, &s)) {
		free(ds);
		return;
	}
	cpu_read(&cs);
	cpu_between(&r->cpu_last, &cs, &s.cpu);
	r->cpu_last = cs;
	lat_close(&s, r->lat_iv);
	for (i = 0; ds && i < r->ndevs; i++)
		lat_close(&ds[i], r->devs[i].lat_iv);
	pthread_mutex_lock(&r->lock);
	sample_log_add(&r->samples, &s);
	for (i = 0; ds && i < r->ndevs; i++) {
		ds[i].cpu = s.cpu;	/* the machine's: not per device */
		sample_log_add(&r->devs[i].samples, &ds[i]);
	}
	runreport_interval(r, &s, ds, NULL, 0, r->lat_iv);
	pthread_mutex_unlock(&r->lock);
	memset(r->lat_iv, 0, sizeof(r->lat_iv));
	for (i = 0; ds && i < r->ndevs; i++)
		memset(r->devs[i].lat_iv, 0, sizeof(r->devs[i].lat_iv));
	free(ds);
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

const char *run_failure(struct dix_run *r, int setup_failed, char *buf,
			size_t len)
{
	const char *failed = worker_failed(r, buf, len);

	/* the run's own message, or none: never another run's (util.h) */
	if (!failed && setup_failed)
		failed = r->err.msg[0] ? r->err.msg :
			 "setup failed (the reason is on this rank's stderr)";
	return failed;
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
	verdict = dix_mpi_tick(r->mpi, s, s ? r->lat_iv : NULL,
			       run_elapsed(r), flags, why, ev, evlen, &g);
	if (s)
		memset(r->lat_iv, 0, sizeof(r->lat_iv));
	free(ev);
	for (i = 0; i < g.nev; i++)
		run_event(r, &g.ev[i]);
	if (g.have) {
		pthread_mutex_lock(&r->lock);
		sample_log_add(&r->samples, &g.job);
		runreport_interval(r, &g.job, NULL, g.rows, g.nrows, g.lat);
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
void run_mpi_loop(struct dix_run *r, struct meter *m, double end_at,
		  int setup_failed)
{
	double done_at = 0;

	for (;;) {
		double now = dix_now(), next;
		struct dix_counters c;
		struct meter_sample s;
		struct cpu_snap cs;
		char why[1200];
		const char *failed;
		int flags = 0, have;

		if (end_at && now >= end_at)
			run_request_stop(r);
		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			flags |= DIX_MPI_STOP;
		if (run_all_done(r, 0)) {
			flags |= DIX_MPI_DONE;
			if (!done_at)
				done_at = now;
		}
		failed = run_failure(r, setup_failed, why, sizeof(why));
		if (failed)
			flags |= DIX_MPI_FAILED;
		if (!(flags & (DIX_MPI_STOP | DIX_MPI_FAILED)) &&
		    now < meter_deadline(m)) {
			next = meter_deadline(m);
			if (end_at && end_at < next)
				next = end_at;
			run_wait_until(r, next);
			continue;
		}
		run_sample_counters(r->workers, r->nworkers, &c, r->lat_iv);
		have = !meter_sample(m, now, &c, &s);
		if (have) {
			cpu_read(&cs);
			cpu_between(&r->cpu_last, &cs, &s.cpu);
			r->cpu_last = cs;
			lat_close(&s, r->lat_iv);
		}
		if (mpi_tick(r, have ? &s : NULL, flags, failed) & DIX_MPI_STOP)
			break;
	}
	run_request_stop(r);
	if (done_at)
		r->t_end = done_at;
}

/*
 * The meter loop of one process: a sample at each deadline until the
 * workers are done, a stop is asked or --runtime ends (@end_at, 0: none);
 * no meter with @period 0.  The interval the end falls in is closed by
 * run_meter_tail(), after the workers have drained: a runtime end that
 * coincides with a tick gets its sample there, with the drain in it.
 */
void run_meter_loop(struct dix_run *r, struct meter *m, double period,
		    double end_at)
{
	while (!run_all_done(r, 0)) {
		double now = dix_now(), next = INFINITY;

		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			break;
		if (end_at && now >= end_at) {
			run_request_stop(r);
			break;
		}
		if (period > 0 && now >= meter_deadline(m)) {
			run_take_sample(r, m, now);
			continue;
		}
		if (period > 0)
			next = meter_deadline(m);
		if (end_at && end_at < next)
			next = end_at;
		if (isinf(next))
			next = now + 3600;
		run_wait_until(r, next);
	}
}

/* Whether a completion (or an error) came after the meter's last sample. */
static int tail_has_io(struct dix_run *r, const struct meter *m)
{
	struct dix_counters c;
	uint64_t now = 0, then = 0;
	int d;

	run_sum_counters(r->workers, r->nworkers, &c);
	for (d = 0; d < DIX_DIR_NR; d++) {
		now += c.ops[d];
		then += m->prev.ops[d];
	}
	return now != then || counters_errors(&c) != counters_errors(&m->prev);
}

/*
 * The end of the load, after the workers are joined: the interval it falls
 * in (the region covered before the next deadline, a --runtime's end with
 * the drain after it, a stop) is closed at @r->t_end, so the intervals and
 * the --lat-log hold every completion the summary counts (one that left
 * out the 0.4 s after the last tick of a 2.4 s run at 1 s intervals held
 * 77 % of the I/Os, and compare with its own run's JSON gave write p99.9
 * +25.9 %).
 * Shorter than half a period it is still an interval when it holds I/O:
 * its rates are over its own measured dt, which its record gives.
 */
void run_meter_tail(struct dix_run *r, struct meter *m, double period)
{
	if (period > 0 &&
	    (r->t_end - m->last >= period / 2 || tail_has_io(r, m)))
		run_take_sample(r, m, r->t_end);
}
