/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uringq.h - an io_uring whose entries carry struct dix_io, shared by the
 * engines that submit through io_uring (io_uring.c: reads and writes;
 * nvme.c: NVMe passthrough commands).
 *
 * The engine fills submission entries from @ring itself (what goes in them
 * is the engine's business) with io_uring_sqe_set_data(sqe, io); its
 * commit(), getevents() and event() map onto uringq_submit(),
 * uringq_getevents() and uringq_event().
 */
#ifndef DIX_URINGQ_H
#define DIX_URINGQ_H

#include <liburing.h>

#include "engines/engine.h"

/**
 * struct uringq - the ring and its last batch of completions.
 * @ring: the ring, @depth entries; engines take SQEs from it directly
 * @ready: the I/Os collected by the last uringq_getevents()
 * @depth: entries in @ring and in @ready
 * @inflight: entries submitted and not yet collected
 */
struct uringq {
	struct io_uring ring;
	struct dix_io **ready;
	unsigned int depth;
	unsigned int inflight;
};

/**
 * uringq_init() - set up a ring of @depth entries.
 * @q: the ring
 * @depth: the most I/Os in flight
 * @p: setup flags in, features out (io_uring_queue_init_params()), or
 *	NULL for a plain ring
 *
 * Return: 0, or -errno from io_uring_setup (nothing is left to free).
 */
int uringq_init(struct uringq *q, unsigned int depth,
		struct io_uring_params *p);

/**
 * uringq_submit() - submit every entry filled since the last call.
 * @q: the ring
 *
 * Return: 0, or -errno when the kernel refused the batch.
 */
int uringq_submit(struct uringq *q);

/**
 * uringq_getevents() - collect completions.
 * @q: the ring
 * @min: wait for one completion first when non-zero (the job loop asks
 *	for at most one); 0 collects only what is there
 *
 * Each collected I/O gets the completion's result in io->res as the kernel
 * gave it: bytes or -errno for reads and writes, 0 / NVMe status / -errno
 * for passthrough commands, which the engine then turns into bytes.
 * Return: the number collected (see uringq_event()), or -errno.
 */
int uringq_getevents(struct uringq *q, unsigned int min);

/** uringq_event() - the @i-th I/O of the last uringq_getevents(). */
static inline struct dix_io *uringq_event(const struct uringq *q, int i)
{
	return q->ready[i];
}

/** uringq_exit() - tear the ring down and free @ready. */
void uringq_exit(struct uringq *q);

#endif
