// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sync.c - pread/pwrite engine: one I/O at a time per worker.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "engines/engine.h"

static int sync_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	ssize_t r;

	do {
		if (io->dir == DIX_WRITE)
			r = pwrite(ctx->fd, io->buf, io->len, io->offset);
		else
			r = pread(ctx->fd, io->buf, io->len, io->offset);
	} while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (int32_t)r;
	return DIX_Q_COMPLETED;
}

const struct dix_engine engine_sync = {
	.version = DIX_ENGINE_VERSION,
	.name = "sync",
	.help = "pread/pwrite, one I/O in flight per job (--iodepth ignored)",
	.flags = DIX_ENG_SYNC,
	.targets = DIX_TGT_BLOCK,
	.queue = sync_queue,
};
