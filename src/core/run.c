// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - one run, start to end: the workers assigned, preconditioning,
 * the start gate, the control thread, the meter loop, the drain and the
 * summary.  Each of those is a file of its own (gate, prephase,
 * meterloop, totals, runfiles, exitstatus, runreport); this one holds
 * their order, which is the contract: the run's clock starts only when
 * every worker's setup is over, and the summary comes after the workers
 * and the control thread have stopped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/exitstatus.h"
#include "core/job.h"
#include "core/meterloop.h"
#include "core/mpijob.h"
#include "core/prephase.h"
#include "core/run.h"
#include "core/runfiles.h"
#include "core/runreport.h"
#include "core/runstop.h"
#include "core/totals.h"
#include "kernel/hotload.h"
#include "lib/util.h"

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

/*
 * A job cut short (a rank lost): no collective can complete, so rank 0
 * reports the intervals it reduced, each other rank its own figures (to
 * its --output: it prints nothing on stdout), and each says why.  The
 * status is at least 1, a job whose figures are not whole; the errors the
 * figures hold still win (3, 2).
 * Return: the exit status.
 */
static int report_cut(struct dix_run *r, struct dix_totals *tot,
		      struct dix_totals *dt, int status)
{
	struct dix_rank_row *rows;
	struct dix_totals job;

	if (!dix_mpi_cut_totals(r->mpi, &job, &rows)) {
		tot = &job;
		dt = NULL;
		status = counters_status(&job.c);
	} else {
		tot->cut = dix_mpi_cut(r->mpi);
	}
	status = exit_worst(status, DIX_EXIT_USAGE);
	pthread_mutex_lock(&r->lock);
	runreport_summary(r, tot, dt, status);
	pthread_mutex_unlock(&r->lock);
	free(rows);
	return status;
}

/*
 * The summary: this process's, or under MPI the job's, which rank 0
 * reports with a row per rank (every rank gets the job's status).
 * Return: the exit status.
 */
static int report_summary(struct dix_run *r, struct dix_totals *tot,
			  struct dix_totals *dt, int status)
{
	struct dix_rank_row *rows;
	struct dix_totals job;
	uint64_t bad = tot->next + tot->ext_dropped;
	int k;

	if (!r->mpi) {
		pthread_mutex_lock(&r->lock);
		runreport_summary(r, tot, dt, status);
		pthread_mutex_unlock(&r->lock);
		return status;
	}
	if (dix_mpi_cut(r->mpi))
		return report_cut(r, tot, dt, status);
	/* several devices: the extents stay with each (run_gather()) */
	for (k = 0; r->ndevs > 1 && k < r->ndevs; k++)
		bad += dt[k].next + dt[k].ext_dropped;
	status = dix_mpi_summary(r->mpi, tot, bad, status, &job, &rows);
	if (rows) {
		pthread_mutex_lock(&r->lock);
		runreport_summary(r, &job, NULL, status);
		pthread_mutex_unlock(&r->lock);
		free(rows);
	}
	return status;
}

int run_load(struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	struct dix_totals tot, *dt;
	struct dix_errbuf *prev_err;
	struct meter m;
	double period = o->interval_ms / 1000.0, end_at = 0;
	int k, status, setup_failed = 0, ctl_started = 0, ctl_failed = 0, pre = 0;
	int inflight_ok = 0;
	uint64_t inflight_max = 0;
	double inflight_mean = 0;

	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->gate_lock, NULL);
	pthread_cond_init(&r->gate_cv, NULL);
	r->gate_open = 0;
	if (run_errlog_open(r))
		return DIX_EXIT_USAGE;
	if (run_journal_open(r)) {
		run_errlog_close(r);
		return DIX_EXIT_USAGE;
	}
	r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wake_fd < 0) {
		dix_err("eventfd: %s", strerror(errno));
		run_errlog_close(r);
		run_journal_finish(r);
		return DIX_EXIT_USAGE;
	}
	/* the last setup step, so no setup error leaves a file resized */
	if (devs_size(r->devs, r->ndevs)) {
		close(r->wake_fd);
		r->wake_fd = -1;
		run_errlog_close(r);
		run_journal_finish(r);
		return DIX_EXIT_USAGE;
	}
	assign_workers(r);
	/* from here to the end, this thread's messages are the run's */
	prev_err = dix_errbuf_use(&r->err);
	for (k = 0; k < r->ndevs; k++)
		pre |= r->devs[k].pre.on;

	run_signals_on(r);
	if (r->mpi)
		dix_mpi_watch(r->mpi, run_signalled, run_signal_lead);
	runreport_start(r);
	if (pre || r->mpi) {
		struct dix_counters pre_c;
		int failed = 0;

		memset(&pre_c, 0, sizeof(pre_c));
		if (pre)
			failed = run_precondition(r, &pre_c, &setup_failed);
		/* every rank starts, or none does */
		if (r->mpi && !dix_mpi_agree(r->mpi, !failed,
					     "preconditioning did not complete"))
			failed = 1;
		if (failed) {
			/* nothing measured: the summary says so; the exit
			 * status follows what the writes met */
			memset(&tot, 0, sizeof(tot));
			tot.c = pre_c;
			status = run_exit_status(r, &tot, setup_failed);
			if (r->mpi)
				status = dix_mpi_status(r->mpi, status);
			run_errlog_close(r);
			run_journal_finish(r);
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
	if (run_start_workers(r, 0))
		setup_failed = 1;
	run_gate_wait(r, 0);
	/*
	 * Under MPI the lowest rank of each host runs its actions and watch.
	 * The control thread is set up before the clock starts and released
	 * at t0 (control_go()): its first snapshot of the kernel's state is
	 * taken before the load, and its setup can neither delay an action
	 * nor fall inside the measured interval.
	 */
	if (!setup_failed && (!r->mpi || dix_mpi_leader(r->mpi))) {
		struct dix_event_sink sink = {
			.emit = run_event_emit, .ctx = r,
		};
		int c;

		r->ctl = control_start(o, first_blk(r),
				       r->ndevs ? r->devs[0].dm : NULL, &sink,
				       &c);
		if (c == 0) {
			ctl_started = 1;
		} else if (c < 0) {
			/* scheduled actions would silently never run */
			dix_err("cannot start the control thread: %s",
				strerror(-c));
			setup_failed = 1;
			ctl_failed = 1;
		}
	}
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
	/* a control thread that could not start stops the load at once */
	if (ctl_failed)
		run_request_stop(r);
	/* the workers wait at the gate: none has touched the meter yet, and
	 * its time starts with the load's */
	depth_init(&r->inflight);
	r->inflight_on = 1;
	run_gate_open(r);
	if (ctl_started)
		control_go(r->ctl, r->t0);

	if (r->mpi)
		run_mpi_loop(r, &m, end_at, setup_failed);
	else
		run_meter_loop(r, &m, period, end_at);

	run_join_workers(r);
	if (!r->mpi || !r->t_end)
		r->t_end = dix_now();
	/* at the load's end, before the drain's reports add time to it */
	if (r->inflight_on) {
		inflight_ok = !depth_read(&r->inflight, &inflight_max,
					  &inflight_mean);
		depth_destroy(&r->inflight);
		r->inflight_on = 0;
	}
	if (ctl_started) {
		control_stop(r->ctl);
		r->ctl = NULL;
	}
	if (!r->mpi)
		run_meter_tail(r, &m, period);

	if (run_worker_failures(r))
		setup_failed = 1;
	if (r->extents_closed > o->max_report)
		dix_err("%llu more bad extent%s not printed (--max-report %llu)%s%s%s",
			(unsigned long long)(r->extents_closed - o->max_report),
			r->extents_closed - o->max_report == 1 ? " was" : "s were",
			(unsigned long long)o->max_report,
			r->errlog ? "; --error-log " : "",
			r->errlog ? o->error_log : "",
			r->errlog ? " holds every bad block" : "");
	run_errlog_close(r);
	run_journal_finish(r);
	dt = xcalloc(r->ndevs, sizeof(*dt));
	run_gather(r, dt, &tot);
	tot.inflight_ok = inflight_ok;
	tot.inflight_max = inflight_max;
	tot.inflight_mean = inflight_mean;
	{
		struct cpu_snap end;

		cpu_read(&end);
		cpu_between(&r->cpu_first, &end, &tot.cpu);
		for (k = 0; k < r->ndevs; k++)
			dt[k].cpu = tot.cpu;	/* the machine's and dixload's */
	}
	if (r->hook.result)
		r->hook.result(r, &tot, r->hook.arg);
	runreport_analyse(r);
	status = run_exit_status(r, &tot, setup_failed);
	status = run_nothing_measured(&tot, status);
	status = report_summary(r, &tot, dt, status);
	run_totals_free_all(r, dt, &tot);
out:
	runreport_close(r);
	run_signals_off();
	close(r->wake_fd);
	r->wake_fd = -1;
	dix_errbuf_use(prev_err);
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
