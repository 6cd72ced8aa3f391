/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-journal.h - a worker's side of --journal (verify/journal.h): the
 * intents of its writes made stable before they can reach the device, the
 * acknowledgement of each completed write, and in the check pass the
 * versions its reads find, held against what the journal allows.
 */
#ifndef DIX_JOB_JOURNAL_H
#define DIX_JOB_JOURNAL_H

#include <stdint.h>

#include "core/job-ctx.h"
#include "verify/journal.h"
#include "verify/verify.h"

/**
 * journal_refuses() - --journal check pass: an intact block @blk (or one
 * without a header: !@present) that is not a version the journal allows
 * at @off is a bad block of kind verify.
 * Return: 1 when it was recorded, 0 when the journal allows it.
 */
int journal_refuses(struct wctx *x, const unsigned char *blk, uint64_t off,
		    int present);

/**
 * journal_failed() - --journal: write and sync the records so far.  A
 * journal that cannot be written cannot promise anything after a crash:
 * the worker fails and the run stops.
 * Return: 0, or -errno (the worker's error is set).
 */
int journal_failed(struct wctx *x);

/**
 * journal_acked() - the write @io completed: its sequence number (in its
 * header) is acknowledged.  Inline: once per completed write.
 */
static inline void journal_acked(struct wctx *x, const struct dix_io *io)
{
	uint64_t seed;
	uint32_t seq;

	verify_header_id(io->buf, &seed, &seq);
	journal_ack(x->r->journal, io->offset, io->len, seq);
}

#endif
