/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-setup.h - a worker's setup and tear-down: its engine instance, its
 * I/O slots and buffers (and --pi app metadata), the in-flight tracking
 * and the offset generator, sized from the phase (load or preconditioning)
 * and from what the engine reported at init().
 */
#ifndef DIX_JOB_SETUP_H
#define DIX_JOB_SETUP_H

#include "core/job-ctx.h"

/**
 * worker_setup() - set up @x for its worker (x->w, x->r, x->o and x->eng
 * set by the caller).
 * Return: 0, or -errno with x->w->errmsg saying why (what was set up is
 * released by worker_teardown(), which must be called either way).
 */
int worker_setup(struct wctx *x);

/**
 * worker_teardown() - close what is still open of the bad extents (printed
 * and kept for the summary), clean up the engine instance (which waits
 * for what is still in flight) and free the slots.
 */
void worker_teardown(struct wctx *x);

#endif
