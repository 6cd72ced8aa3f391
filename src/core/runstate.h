/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runstate.h - the state one run shares between its parts: the meter
 * loop, the start gate, the workers, the event store and the report.
 *
 * A header of its own, with no functions, so each part of the run (one
 * file per concern: runstop, runevent, gate, prephase, meterloop, totals,
 * runfiles, exitstatus, runreport) reads the state without including the
 * run that calls it: no circle of modules.
 */
#ifndef DIX_RUNSTATE_H
#define DIX_RUNSTATE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/options.h"
#include "core/dev.h"
#include "core/precond.h"
#include "device/devdesc.h"
#include "engines/engine.h"
#include "lib/depth.h"
#include "lib/event.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "report/meter.h"
#include "report/sink.h"

struct dix_worker;
struct ctl;
struct dix_run;
struct dix_totals;

/**
 * struct dix_run_hook - what a caller of the run is told of it.
 * @result: when set, called with the run's totals just before its summary
 *	is printed (dixload sweep keeps a point's figures from it), with @arg
 * @arg: the caller's, handed back to @result
 *
 * A value of the run it is given to (struct dix_run.hook): another run in
 * the process, after it or beside it, has its own or none.
 */
struct dix_run_hook {
	void (*result)(const struct dix_run *r, const struct dix_totals *t,
		       void *arg);
	void *arg;
};

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
 * @lat_iv: the latencies of the interval the meter is closing, per
 *	direction (the meter thread's; kept over a take that yields no
 *	sample, so no latency is lost between intervals)
 * @mpi: the MPI job this rank belongs to (mpijob.h), or NULL
 * @silent: print nothing on stdout (an MPI rank other than 0: rank 0
 *	prints the job's lines)
 * @sinks: where the run's records go (runreport.h)
 * @output: --output's stream (the caller opens and closes it), or NULL;
 *	written on every rank, silent or not
 * @metrics: --metrics' endpoint (report/sink.h; the caller opens and
 *	frees it), or NULL; rank 0's only
 * @gate_lock/@gate_cv/@gate_open: the start gate (run_worker_ready()):
 *	the workers of a phase wait there after their setup until the run's
 *	clock has started
 * @err: the run's last dix_err() on the thread that runs it (its setup
 *	failures), what an MPI rank tells the job when it cannot go on
 * @hook: what the caller asked to be told of this run (zero: nothing)
 * @eng_said: what the run's engine instances said once (eng_once())
 * @eng_bed: a test bed's context for the engine (engine.h, @bed), NULL
 *	in dixload itself
 * @inflight: the requests actually in flight over the load (lib/depth.h),
 *	the run's one meter: every worker's engine context points to it
 *	(dix_eng_ctx.inflight); started when the gate opens, read when the
 *	workers are joined (@inflight_on says it was started)
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
	struct lat_hist lat_iv[DIX_DIR_NR];
	struct dix_mpi *mpi;
	int silent;
	struct dix_sinks sinks;
	FILE *output;
	void *metrics;
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cv;
	int gate_open;
	struct dix_errbuf err;
	struct dix_run_hook hook;
	unsigned int eng_said;
	void *eng_bed;
	struct dix_depth inflight;
	int inflight_on;
};

#endif
