// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libaio.c - Linux native AIO engine.  queue() only prepares an iocb;
 * commit() hands the whole batch to one io_submit() so that a depth-32 load
 * costs one system call per batch, not per I/O.
 */
#include "config.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "lib/util.h"

struct aio_data {
	io_context_t ctx;
	struct iocb *iocbs;		/* one per slot */
	struct iocb **pending;		/* prepared, not yet submitted */
	unsigned int npending;
	struct io_event *events;
	int nevents;
};

static int aio_init(struct dix_eng_ctx *ctx)
{
	struct aio_data *d = xcalloc(1, sizeof(*d));
	int r;

	d->iocbs = xcalloc(ctx->depth, sizeof(*d->iocbs));
	d->pending = xcalloc(ctx->depth, sizeof(*d->pending));
	d->events = xcalloc(ctx->depth, sizeof(*d->events));
	r = io_setup(ctx->depth, &d->ctx);
	if (r) {
		free(d->iocbs);
		free(d->pending);
		free(d->events);
		free(d);
		return r;	/* libaio returns -errno */
	}
	ctx->priv = d;
	return 0;
}

static int aio_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct aio_data *d = ctx->priv;
	struct iocb *cb = &d->iocbs[io->idx];

	if (io->dir == DIX_WRITE)
		io_prep_pwrite(cb, ctx->fd, io->buf, io->len, io->offset);
	else
		io_prep_pread(cb, ctx->fd, io->buf, io->len, io->offset);
	cb->data = io;
	d->pending[d->npending++] = cb;
	return DIX_Q_QUEUED;
}

static int aio_commit(struct dix_eng_ctx *ctx)
{
	struct aio_data *d = ctx->priv;
	unsigned int done = 0;

	while (done < d->npending) {
		int r = io_submit(d->ctx, d->npending - done,
				  d->pending + done);

		if (r == -EAGAIN || r == -EINTR)
			continue;
		if (r < 0) {
			/* fail the rest individually so nothing is lost */
			memmove(d->pending, d->pending + done,
				(d->npending - done) * sizeof(*d->pending));
			d->npending -= done;
			return r;
		}
		done += r;
	}
	d->npending = 0;
	return 0;
}

static int aio_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct aio_data *d = ctx->priv;
	int r;

	do {
		r = io_getevents(d->ctx, min, ctx->depth, d->events, NULL);
	} while (r == -EINTR);
	d->nevents = r > 0 ? r : 0;
	return r;
}

static struct dix_io *aio_event(struct dix_eng_ctx *ctx, int i)
{
	struct aio_data *d = ctx->priv;
	struct io_event *ev = &d->events[i];
	struct dix_io *io = ev->data;

	/* res is bytes or -errno; res2 is unused by block devices */
	io->res = (long)ev->res;
	return io;
}

static void aio_cleanup(struct dix_eng_ctx *ctx)
{
	struct aio_data *d = ctx->priv;

	if (!d)
		return;
	io_destroy(d->ctx);
	free(d->iocbs);
	free(d->pending);
	free(d->events);
	free(d);
	ctx->priv = NULL;
}

const struct dix_engine engine_libaio = {
	.version = DIX_ENGINE_VERSION,
	.name = "libaio",
	.help = "Linux native AIO, --iodepth I/Os in flight per job, batched submission",
	.targets = DIX_TGT_BLOCK,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
	.cleanup = aio_cleanup,
};
