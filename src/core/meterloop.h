/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meterloop.h - the meter loop of a run, alone or as a rank of an MPI job.
 */
#ifndef DIX_METERLOOP_H
#define DIX_METERLOOP_H

#include "core/runstate.h"
#include "report/meter.h"

/**
 * run_take_sample() - close the interval ending at @now: the total and,
 * with several devices, each device's own over the same instant; keep
 * and report it.
 */
void run_take_sample(struct dix_run *r, struct meter *m, double now);

/**
 * run_meter_loop() - sample at each deadline of @m (@period seconds, 0:
 * no meter) until the workers are done, a stop is asked or @end_at
 * (0: no --runtime).
 */
void run_meter_loop(struct dix_run *r, struct meter *m, double period,
		    double end_at);

/**
 * run_meter_tail() - after the workers are joined: the interval after the
 * last tick, up to @r->t_end, when it is half a period or holds I/O (so
 * the intervals add up to the summary).
 */
void run_meter_tail(struct dix_run *r, struct meter *m, double period);

/**
 * run_failure() - why this run cannot go on, for the job's verdict under
 * MPI: a worker that could not run (its message, into @buf), else with
 * @setup_failed the run's own setup error; NULL when nothing failed.
 */
const char *run_failure(struct dix_run *r, int setup_failed, char *buf,
			size_t len);

/**
 * run_mpi_loop() - the meter loop of an MPI rank: one tick per deadline
 * with every rank until rank 0's verdict says stop (@setup_failed: this
 * rank's workers could not all start).
 */
void run_mpi_loop(struct dix_run *r, struct meter *m, double end_at,
		  int setup_failed);

#endif
