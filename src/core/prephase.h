/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prephase.h - the preconditioning pass of a run (precond.h decides it).
 */
#ifndef DIX_PREPHASE_H
#define DIX_PREPHASE_H

#include "core/runstate.h"

/**
 * run_precondition() - write the region of every device that
 * preconditions with its workers in their preconditioning pass; progress
 * on a terminal every half second.  Then clear every worker's counters,
 * so the load starts from zero.
 * @pre_c: the pass's own counters (its errors decide the exit status when
 *	the load does not start)
 * @setup_failed: set when a worker could not run
 * Return: 0 when the load may start; 1 when it must not: stopped (signal,
 * --max-errors), an error, or a worker that could not run.
 */
int run_precondition(struct dix_run *r, struct dix_counters *pre_c,
		     int *setup_failed);

#endif
