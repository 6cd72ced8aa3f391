/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-extents.h - what a worker reports of the failures it finds: every
 * bad block or failed I/O becomes a bad extent (verify/extent.h), counted,
 * written to --error-log at once and handed to the worker's tracker, which
 * prints it on stderr when it closes (up to --max-report extents for the
 * whole run); a retried I/O gets a note instead.  Off the hot path: only
 * a failure calls in here.
 */
#ifndef DIX_JOB_EXTENTS_H
#define DIX_JOB_EXTENTS_H

#include <stdint.h>

#include "core/job-ctx.h"
#include "verify/extent.h"

/**
 * job_extent_closed() - the tracker's callback (tracker_init()): extent
 * @e closed; printed while fewer than --max-report extents have been
 * printed in the whole run.  @arg is the struct wctx.
 */
void job_extent_closed(const struct bad_extent *e, void *arg);

/**
 * record_bad() - count, log and track the bad extent @b (its detail is
 * taken over); asks the run to stop at --max-errors.
 */
void record_bad(struct wctx *x, struct bad_extent *b);

/**
 * bad_init() - @b as a bad extent of kind @kind over @count LBAs from byte
 * @offset, for @cause (interned).
 */
void bad_init(const struct wctx *x, struct bad_extent *b, int kind,
	      uint64_t offset, uint64_t count, const char *cause);

/**
 * failure_extent() - the failed @io as a bad extent of kind @kind over its
 * blocks, in @b.
 */
void failure_extent(const struct wctx *x, const struct dix_io *io, int kind,
		    struct bad_extent *b);

/**
 * print_note() - print a note about a failure that is retried, unless
 * NOTE_PRINT_LIMIT were printed by this worker.
 */
void print_note(struct wctx *x, const char *msg);

/**
 * errlog_flush() - the --error-log lines written since the last flush
 * reach the file (called when the I/O they belong to is released, while
 * x->logged says there are some).
 */
void errlog_flush(struct wctx *x);

#endif
