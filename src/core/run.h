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

#include "engine.h"
#include "meter.h"
#include "options.h"
#include "stats.h"
#include "target.h"

struct dix_worker;

enum dix_event_kind {
	EV_ACTION,	/* something dixload did: modprobe, sysfs write, exec */
	EV_CHANGE,	/* something dixload saw change in the kernel */
	EV_NOTE,	/* information: e.g. "module already loaded" */
};

/**
 * struct dix_event - an event between meter lines.
 * @t: seconds since the start of the load
 * @kind: enum dix_event_kind
 * @what: what happened ("modprobe crct10dif_pclmul",
 *	"crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul")
 * @ok: 1 succeeded, 0 failed, -1 not an action
 * @duration: seconds the action took (< 0: not applicable)
 * @detail: error text or other detail, or NULL
 * @json: extra JSON members, starting with ',' (e.g. ",\"crypto_added\":[]"),
 *	or NULL
 * @label: short label for the plot marker, or NULL (then @what is used)
 */
struct dix_event {
	double t;
	int kind;
	char *what;
	int ok;
	double duration;
	char *detail;
	char *json;
	char *label;
};

/**
 * struct dix_transition - throughput before and after an event.
 * @event: index in run->events
 * @at: the event's time
 * @change_at: change point found in the throughput (seconds), or NAN
 * @before: mean total bytes/s over the steady state before
 * @after: mean total bytes/s over the steady state after
 * @before_sd: standard deviation before
 * @after_sd: standard deviation after
 * @nbefore: intervals in @before
 * @nafter: intervals in @after
 * @ratio: @after / @before
 * @significant: the difference is beyond the noise of both sides
 */
struct dix_transition {
	int event;
	double at;
	double change_at;
	double before, after;
	double before_sd, after_sd;
	int nbefore, nafter;
	double ratio;
	int significant;
};

/**
 * struct dix_run - shared state of a run.
 * @o: effective options
 * @t: the opened target
 * @eng: the engine
 * @workers: @nworkers worker threads
 * @stop: set to end the load (runtime over, signal, --max-errors)
 * @t0: monotonic time the load started
 * @samples: every meter interval
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
 */
struct dix_run {
	struct dix_opts *o;
	struct dix_target *t;
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
	void *ctl;
	FILE *errlog;
	pthread_mutex_t errlog_lock;
	uint64_t extents_closed;
};

/**
 * run_load() - run the load described by @r->o on @r->t with @r->eng,
 * printing meter lines and the summary.
 * Return: the exit status (enum dix_exit).
 */
int run_load(struct dix_run *r);

/**
 * run_free() - release what run_load() kept in @r for the report: the
 * workers, samples, events and transitions.  @r->o and @r->t stay the
 * caller's.
 */
void run_free(struct dix_run *r);

/** run_elapsed() - seconds since the load started. */
double run_elapsed(const struct dix_run *r);

/**
 * run_event() - record and print an event (thread-safe).  The strings are
 * copied.  A failed EV_ACTION makes the exit status at least 4.
 */
void run_event(struct dix_run *r, const struct dix_event *ev);

/** run_worker_done() - a worker has finished (wakes the meter loop). */
void run_worker_done(struct dix_run *r);

/** run_request_stop() - ask the load to end (thread-safe, signal-safe). */
void run_request_stop(struct dix_run *r);

#endif
