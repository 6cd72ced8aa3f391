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
 * setup failure (1) over a failed action (4); else 0.
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
 * precedence dixload(1) documents: 3 > 2 > 1 > 4 > 0.
 */
int exit_worst(int a, int b);

/**
 * run_nothing_measured() - @status, or 1 (said in one line) for a load
 * that ran to its end without completing a request.
 */
int run_nothing_measured(const struct dix_totals *t, int status);

#endif
