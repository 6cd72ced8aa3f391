// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libaio.c - Linux native AIO engine.  queue() only prepares an iocb;
 * commit() hands the whole batch to one io_submit() so that a depth-32 load
 * costs one system call per batch, not per I/O.
 *
 * Completions are read from the AIO ring in user space when it holds any
 * (the ring is mapped into the process and its layout is the kernel's ABI,
 * struct aio_ring in fs/aio.c; fio's --userspace_reap, libaio's own
 * io_getevents() always enters the kernel), io_getevents() only when it is
 * empty or holds fewer than asked for.  A device that completes inside
 * io_submit() (null_blk, tmpfs, a page-cache hit) then costs one system
 * call per round instead of two: 4 KiB reads on null_blk at QD1, 7385 ->
 * 6581 instructions per I/O (6.1 guest under icount, scripts/bench-vm).
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
	struct io_event *events;	/* io_getevents()' */
	struct dix_io **ready;		/* the last getevents()' I/Os */
};

static int aio_init(struct dix_eng_ctx *ctx)
{
	struct aio_data *d = xcalloc(1, sizeof(*d));
	int r;

	d->iocbs = xcalloc(ctx->depth, sizeof(*d->iocbs));
	d->pending = xcalloc(ctx->depth, sizeof(*d->pending));
	d->events = xcalloc(ctx->depth, sizeof(*d->events));
	d->ready = xcalloc(ctx->depth, sizeof(*d->ready));
	r = io_setup(ctx->depth, &d->ctx);
	if (r) {
		free(d->iocbs);
		free(d->pending);
		free(d->events);
		free(d->ready);
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

/* What io_submit() left of the batch (it took @done), or its failure. */
static __attribute__((noinline)) int aio_commit_rest(struct aio_data *d,
						     unsigned int done, int r)
{
	for (;;) {
		if (r == -EAGAIN || r == -EINTR) {
			/* try again */
		} else if (r < 0) {
			/* fail the rest individually so nothing is lost */
			memmove(d->pending, d->pending + done,
				(d->npending - done) * sizeof(*d->pending));
			d->npending -= done;
			return r;
		} else {
			done += r;
		}
		if (done >= d->npending)
			break;
		r = io_submit(d->ctx, d->npending - done, d->pending + done);
	}
	d->npending = 0;
	return 0;
}

/* The whole batch in one io_submit(), as it goes nearly always. */
static int aio_commit(struct dix_eng_ctx *ctx)
{
	struct aio_data *d = ctx->priv;
	int r = io_submit(d->ctx, d->npending, d->pending);

	if (__builtin_expect(r == (int)d->npending, 1)) {
		d->npending = 0;
		return 0;
	}
	return aio_commit_rest(d, 0, r);
}

/* the head of the kernel's AIO ring (fs/aio.c), its events follow */
struct aio_ring {
	unsigned int id, nr, head, tail, magic;
	unsigned int compat_features, incompat_features, header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1

/*
 * Up to @max completions from the ring without a system call (0 when there
 * are none or the ring is not the layout this knows), their I/Os with
 * their results into @ready.  The one reaper of this context is this
 * job's thread; the kernel reads the head back when it looks for room.
 */
static unsigned int aio_ring_reap(io_context_t actx, struct dix_io **ready,
				  unsigned int max)
{
	struct aio_ring *ring = (struct aio_ring *)actx;
	unsigned int head, tail, n = 0;

	if (ring->magic != AIO_RING_MAGIC || ring->incompat_features)
		return 0;
	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	if (head >= ring->nr || tail >= ring->nr)
		return 0;
	while (head != tail && n < max) {
		struct dix_io *io = ring->events[head].data;

		/* res is bytes or -errno; res2 is unused by block devices */
		io->res = (long)ring->events[head].res;
		ready[n++] = io;
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* The ring held fewer than @min (it had @n): wait in io_getevents(). */
static __attribute__((noinline)) int aio_getevents_wait(struct dix_eng_ctx *ctx,
							unsigned int min,
							unsigned int n)
{
	struct aio_data *d = ctx->priv;
	int r, i;

	do {
		r = io_getevents(d->ctx, min - n, ctx->depth - n, d->events,
				 NULL);
	} while (r == -EINTR);
	if (r < 0)
		return n ? (int)n : r;
	for (i = 0; i < r; i++) {
		struct dix_io *io = d->events[i].data;

		io->res = (long)d->events[i].res;
		d->ready[n + i] = io;
	}
	return (int)n + r;
}

static int aio_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct aio_data *d = ctx->priv;
	unsigned int n = aio_ring_reap(d->ctx, d->ready, ctx->depth);

	if (__builtin_expect(n >= min, 1))
		return (int)n;
	return aio_getevents_wait(ctx, min, n);
}

static struct dix_io *aio_event(struct dix_eng_ctx *ctx, int i)
{
	struct aio_data *d = ctx->priv;

	return d->ready[i];
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
	free(d->ready);
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
