/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exitstatus.h - a run's exit status from what it met (enum dix_exit).
 */
#ifndef DIX_EXITSTATUS_H
#define DIX_EXITSTATUS_H

#include "core/runstate.h"
#include "report/record.h"

/**
 * run_exit_status() - integrity errors (3) over I/O errors (2) over a
 * setup failure (1) over a load stopped by a signal (6,
 * run_stop_signal()) over a failed action (4); else 0.
 */
int run_exit_status(struct dix_run *r, const struct dix_totals *t,
		    int setup_failed);

/**
 * counters_status() - what errors in @c alone give: integrity errors (3)
 * over I/O errors (2); else 0.
 */
int counters_status(const struct dix_counters *c);

/**
 * exit_worst() - of two exit statuses the one that wins, by the
 * precedence dixload(1) documents: 3 > 2 > 1 > 6 > 4 > 5 > 0 (@a when
 * they rank the same).
 */
int exit_worst(int a, int b);

/**
 * exit_rank() - where status @s stands in that order: 0 for 0 (and for a
 * number that is no status of dixload's), 6 for 3; so the larger wins
 * (an MPI_MAX reduction picks the job's status with it).
 */
int exit_rank(int s);

/** exit_of_rank() - the status of rank @rank (exit_rank()'s inverse). */
int exit_of_rank(int rank);

/**
 * run_nothing_measured() - @status, or 1 (said in one line) for a load
 * that ran to its end without completing a request.
 */
int run_nothing_measured(const struct dix_totals *t, int status);

#endif
