// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_uring.c - io_uring engine (liburing).  Like libaio, queue() fills a
 * submission entry and commit() submits the batch with one system call.
 */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "engine.h"
#include "util.h"

struct uring_data {
	struct io_uring ring;
	struct dix_io **ready;
	int nready;
};

static int uring_init(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = xcalloc(1, sizeof(*d));
	int r = io_uring_queue_init(ctx->depth, &d->ring, 0);

	if (r) {
		free(d);
		return r;
	}
	d->ready = xcalloc(ctx->depth, sizeof(*d->ready));
	ctx->priv = d;
	return 0;
}

static int uring_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct uring_data *d = ctx->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);

	if (!sqe)
		return -EBUSY;	/* cannot happen: the ring has depth entries */
	if (io->dir == DIX_WRITE)
		io_uring_prep_write(sqe, ctx->fd, io->buf, io->len, io->offset);
	else
		io_uring_prep_read(sqe, ctx->fd, io->buf, io->len, io->offset);
	io_uring_sqe_set_data(sqe, io);
	return DIX_Q_QUEUED;
}

static int uring_commit(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = ctx->priv;
	int r;

	do {
		r = io_uring_submit(&d->ring);
	} while (r == -EINTR || r == -EAGAIN);
	return r < 0 ? r : 0;
}

static int uring_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct uring_data *d = ctx->priv;
	struct io_uring_cqe *cqe;
	unsigned int head;
	int r, n = 0;

	if (min) {
		do {
			r = io_uring_wait_cqe(&d->ring, &cqe);
		} while (r == -EINTR);
		if (r)
			return r;
	}
	io_uring_for_each_cqe(&d->ring, head, cqe) {
		struct dix_io *io = io_uring_cqe_get_data(cqe);

		io->res = cqe->res;
		d->ready[n++] = io;
		if (n == (int)ctx->depth)
			break;
	}
	io_uring_cq_advance(&d->ring, n);
	d->nready = n;
	return n;
}

static struct dix_io *uring_event(struct dix_eng_ctx *ctx, int i)
{
	struct uring_data *d = ctx->priv;

	return d->ready[i];
}

static void uring_cleanup(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = ctx->priv;

	if (!d)
		return;
	io_uring_queue_exit(&d->ring);
	free(d->ready);
	free(d);
	ctx->priv = NULL;
}

const struct dix_engine engine_io_uring = {
	.name = "io_uring",
	.help = "io_uring via liburing, --iodepth I/Os in flight per job, batched submission",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
