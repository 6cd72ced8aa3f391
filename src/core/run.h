/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h - one run of the load: the workers, the meter loop, the events
 * that happen meanwhile and what is reported at the end.
 */
#ifndef DIX_RUN_H
#define DIX_RUN_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "core/dev.h"
#include "report/sink.h"
#include "engines/engine.h"
#include "lib/event.h"
#include "report/meter.h"
#include "conf/options.h"
#include "core/precond.h"
#include "lib/stats.h"
#include "device/devdesc.h"

struct dix_worker;
struct ctl;

/**
 * struct dix_run - shared state of a run.
 * @o: effective options
 * @devs: the opened targets, each with its region, preconditioning,
 *	workers, meter and transitions (dev.h)
 * @ndevs: entries in @devs (1 unless several --dev were given)
 * @eng: the engine
 * @workers: @nworkers worker threads, --jobs per device in device order
 * @stop: set to end the load (runtime over, signal, --max-errors)
 * @t0: monotonic time the load started
 * @samples: every meter interval (all devices together)
 * @events: every event, in time order
 * @transitions: results of the transition analysis
 * @lock: serialises output and the event list
 * @action_failed: a scheduled action failed (exit status 4)
 * @wake_fd: eventfd that wakes the meter loop (workers done, signals)
 * @ctl: state of the control thread (hot-load actions, kernel watch)
 * @errlog: the --error-log file, or NULL
 * @errlog_lock: keeps the lines of @errlog whole
 * @extents_closed: bad extents closed by the workers so far (the first
 *	--max-report of them are printed while running)
 * @started: the measured load started (0: stopped or failed while
 *	preconditioning)
 * @cpu_first: CPU reading when the load started
 * @cpu_last: CPU reading at the last meter sample
 * @mpi: the MPI job this rank belongs to (mpijob.h), or NULL
 * @silent: print nothing on stdout (an MPI rank other than 0: rank 0
 *	prints the job's lines)
 * @sinks: where the run's records go (runreport.h)
 * @gate_lock/@gate_cv/@gate_open: the start gate (run_worker_ready()):
 *	the workers of a phase wait there after their setup until the run's
 *	clock has started
 */
struct dix_run {
	struct dix_opts *o;
	struct dix_dev *devs;
	int ndevs;
	const struct dix_engine *eng;
	struct dix_worker *workers;
	int nworkers;
	int stop;
	double t0;
	double t_end;
	struct sample_log samples;
	struct dix_event *events;
	int nevents;
	struct dix_transition *transitions;
	int ntransitions;
	pthread_mutex_t lock;
	int action_failed;
	int wake_fd;
	struct ctl *ctl;
	FILE *errlog;
	pthread_mutex_t errlog_lock;
	struct journal *journal;	/* --journal (journal.h), or NULL */
	int journal_write;		/* recording writes, not checking */
	uint64_t journal_batches, journal_records;
	double journal_sync_s;		/* writing + fdatasync time */
	uint64_t extents_closed;
	int started;
	struct cpu_snap cpu_first;
	struct cpu_snap cpu_last;
	struct dix_mpi *mpi;
	int silent;
	struct dix_sinks sinks;
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cv;
	int gate_open;
};

/**
 * run_load() - run the load described by @r->o on @r->devs with @r->eng,
 * printing meter lines and the summary.
 * Return: the exit status (enum dix_exit).
 */
int run_load(struct dix_run *r);

/**
 * run_free() - release what run_load() kept in @r for the report: the
 * workers, samples, events and transitions (the devices' too).  @r->o
 * and the devices' targets stay the caller's.
 */
void run_free(struct dix_run *r);

struct dix_totals;

/**
 * run_result_hook - when set, called with every run's totals just before
 * its summary is printed (dixload sweep keeps its figures from it).
 */
extern void (*run_result_hook)(const struct dix_run *r,
			       const struct dix_totals *t);

/** run_elapsed() - seconds since the load started. */
double run_elapsed(const struct dix_run *r);

/**
 * run_event() - record and print an event (thread-safe).  The strings are
 * copied.  A failed EV_ACTION makes the exit status at least 4.
 */
void run_event(struct dix_run *r, const struct dix_event *ev);

/**
 * run_worker_ready() - worker @w's setup is over (@ok: it succeeded, and
 * it will do I/O).  When @ok, waits until the run's clock has started.
 */
struct dix_worker;
void run_worker_ready(struct dix_run *r, struct dix_worker *w, int ok);

/** run_worker_done() - a worker has finished (wakes the meter loop). */
void run_worker_done(struct dix_run *r);

/** run_request_stop() - ask the load to end (thread-safe, signal-safe). */
void run_request_stop(struct dix_run *r);

#endif
