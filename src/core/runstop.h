/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runstop.h - how a run is told to stop and how its meter loop sleeps:
 * SIGINT/SIGTERM, the workers' end and --runtime all write one eventfd.
 */
#ifndef DIX_RUNSTOP_H
#define DIX_RUNSTOP_H

#include "core/runstate.h"

/** run_elapsed() - seconds since the load started. */
double run_elapsed(const struct dix_run *r);

/** run_request_stop() - ask the load to end (thread-safe, signal-safe). */
void run_request_stop(struct dix_run *r);

/** run_worker_done() - a worker has finished (wakes the meter loop). */
void run_worker_done(struct dix_run *r);

/**
 * run_signals_on() - SIGINT and SIGTERM stop @r (a third one kills the
 * process), SIGPIPE is ignored, under MPI SIGCONT's time is kept
 * (run_signal_lead()); run_signals_off() forgets @r again.
 */
void run_signals_on(struct dix_run *r);
void run_signals_off(void);

/** run_signalled() - whether a stop signal arrived. */
int run_signalled(void);

/**
 * run_stop_signal() - the signal that stopped @r before its end: SIGINT or
 * SIGTERM (the first that came), with in *@at (when not NULL) its time in
 * seconds from @r->t0: the load's start, or preconditioning's when the
 * load never started (@r->started 0); 0 before that.
 * Return: the signal's number; 0 when none came, or it came after the
 * load's own end (--runtime over, region covered), so the load is whole.
 */
int run_stop_signal(const struct dix_run *r, double *at);

/**
 * run_signal_lead() - under MPI, the seconds from the last SIGCONT to the
 * first stop signal after it: mpirun's kill sequence is SIGCONT, SIGTERM,
 * SIGKILL, as far apart each (Open MPI 4.1: odls_base_sigkill_timeout,
 * 1 s; Open MPI 5: PRRTE's fixed 0.25 s), so this is also how long after
 * its SIGTERM the SIGKILL comes.
 * Return: that time, or 0 (no stop signal, or no SIGCONT before it).
 */
double run_signal_lead(void);

/**
 * run_wait_until() - sleep until the monotonic time @deadline, or until
 * something writes @r->wake_fd (a stop, a worker's end).
 */
void run_wait_until(struct dix_run *r, double deadline);

#endif
