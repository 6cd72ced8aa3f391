/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gate.h - the workers of a phase (preconditioning or the load): started
 * together, held at the start gate until every one's setup is over, and
 * joined at the end.
 */
#ifndef DIX_GATE_H
#define DIX_GATE_H

#include "core/runstate.h"

struct dix_worker;

/**
 * run_worker_ready() - worker @w's setup is over (@ok: it succeeded, and
 * it will do I/O).  When @ok, waits until the run's clock has started.
 */
void run_worker_ready(struct dix_run *r, struct dix_worker *w, int ok);

/**
 * run_start_workers() - start the workers of the phase (@pre: the
 * preconditioning pass); on failure stop the ones started.
 * Return: 0, or -1 (printed).
 */
int run_start_workers(struct dix_run *r, int pre);

/** run_gate_wait() - until every started worker of the phase is ready. */
void run_gate_wait(struct dix_run *r, int pre);

/** run_gate_open() - let the waiting workers start their I/O. */
void run_gate_open(struct dix_run *r);

/** run_gate_close() - after a phase was joined: the next one waits again. */
void run_gate_close(struct dix_run *r);

/** run_all_done() - every started worker of the phase has finished. */
int run_all_done(struct dix_run *r, int pre);

/** run_join_workers() - join every started worker. */
void run_join_workers(struct dix_run *r);

/**
 * run_worker_failures() - print the workers' setup failures.
 * Return: 1 when one of them never did any I/O, else 0.
 */
int run_worker_failures(struct dix_run *r);

#endif
