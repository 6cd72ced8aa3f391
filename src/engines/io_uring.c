// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_uring.c - io_uring engine (liburing).  Like libaio, queue() fills a
 * submission entry and commit() submits the batch with one system call
 * (the ring itself is uringq.c's, shared with the nvme engine).
 *
 * --pi app: each read/write SQE carries a PI attribute (struct
 * io_uring_attr_pi: dixload's metadata buffer, the checks, the app tag and
 * the ref tag seed) that the block layer hands to an integrity-capable
 * device instead of generating PI itself.  The device's format comes from
 * FS_IOC_GETLBMD_CAP.  Both need a recent kernel (IORING_FEAT_RW_ATTR,
 * Linux 6.14; the query, Linux 6.17); init() says so on older ones.  A
 * failed check only comes back as -EILSEQ: which tag failed is not told.
 */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "engine.h"
#include "options.h"
#include "uring_pi.h"
#include "uringq.h"
#include "util.h"

struct uring_data {
	struct uringq q;
	struct io_uring_attr_pi *pi;	/* per slot with --pi app, else NULL */
};

static const char *kernel_release(struct utsname *u)
{
	return uname(u) ? "unknown" : u->release;
}

/* The device's PI format, as the block layer describes it. */
static int uring_pi_format(struct dix_eng_ctx *ctx)
{
	struct logical_block_metadata_cap cap;
	struct utsname u;
	struct stat st;
	int e;

	if (fstat(ctx->fd, &st) || !S_ISBLK(st.st_mode)) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: io_uring PI needs a block device with integrity metadata",
			 ctx->path);
		return -ENOTBLK;
	}
	memset(&cap, 0, sizeof(cap));
	if (ioctl(ctx->fd, FS_IOC_GETLBMD_CAP, &cap)) {
		e = errno;
		if (e == ENOTTY || e == EINVAL)
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: FS_IOC_GETLBMD_CAP failed (%s): this kernel (%s) cannot report the PI format; io_uring PI needs Linux 6.17 or later built with CONFIG_BLK_DEV_INTEGRITY",
				 ctx->path, strerror(e), kernel_release(&u));
		else
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: FS_IOC_GETLBMD_CAP failed: %s", ctx->path,
				 strerror(e));
		return -e;
	}
	if (!(cap.lbmd_flags & LBMD_PI_CAP_INTEGRITY) || !cap.lbmd_pi_size) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: the device carries no protection information (integrity metadata %u bytes, PI %u bytes)",
			 ctx->path, cap.lbmd_size, cap.lbmd_pi_size);
		return -EOPNOTSUPP;
	}
	switch (cap.lbmd_guard_tag_type) {
	case LBMD_PI_CSUM_IP:
		ctx->pif.guard = DIX_GUARD_IP;
		break;
	case LBMD_PI_CSUM_CRC16_T10DIF:
		ctx->pif.guard = DIX_GUARD_CRC16;
		break;
	case LBMD_PI_CSUM_CRC64_NVME:
		ctx->pif.guard = DIX_GUARD_CRC64;
		break;
	default:
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: unknown guard tag type %u", ctx->path,
			 cap.lbmd_guard_tag_type);
		return -EOPNOTSUPP;
	}
	/* the kernel shows Types 1 and 2 alike: the ref tag is checked */
	ctx->pif.type = cap.lbmd_flags & LBMD_PI_CAP_REFTAG ? PI_TYPE1 :
			PI_TYPE3;
	ctx->pif.interval = cap.lbmd_interval;
	ctx->pif.ms = cap.lbmd_size;
	ctx->pif.pi_first = cap.lbmd_pi_offset == 0 &&
			    cap.lbmd_size > cap.lbmd_pi_size;
	ctx->pif.interleaved = false;
	if (pi_format_check(&ctx->pif) ||
	    (!ctx->pif.pi_first &&
	     cap.lbmd_pi_offset + cap.lbmd_pi_size != cap.lbmd_size) ||
	    cap.lbmd_pi_size != pi_tuple_size(ctx->pif.guard)) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: unsupported PI layout: protection interval %u bytes, metadata %u bytes, PI %u bytes at byte %u of the metadata",
			 ctx->path, cap.lbmd_interval, cap.lbmd_size,
			 cap.lbmd_pi_size, cap.lbmd_pi_offset);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * --pi app: a ring on a kernel with read/write attributes, the format, and
 * a PI attribute per slot whose checks are set here once (queue() fills in
 * the per-I/O fields).
 */
static int uring_init_pi(struct dix_eng_ctx *ctx, struct uring_data *d)
{
	struct io_uring_params p;
	struct utsname u;
	uint16_t checks = IO_INTEGRITY_CHK_GUARD | IO_INTEGRITY_CHK_APPTAG;
	unsigned int i;
	int r;

	memset(&p, 0, sizeof(p));
	r = uringq_init(&d->q, ctx->depth, &p);
	if (r)
		return r;
	if (!(p.features & IORING_FEAT_RW_ATTR)) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "io_uring PI needs read/write attributes (IORING_FEAT_RW_ATTR, Linux 6.14 or later); this kernel is %s",
			 kernel_release(&u));
		uringq_exit(&d->q);
		return -EOPNOTSUPP;
	}
	r = uring_pi_format(ctx);
	if (r) {
		uringq_exit(&d->q);
		return r;
	}
	if (ctx->pif.type != PI_TYPE3)
		checks |= IO_INTEGRITY_CHK_REFTAG;
	d->pi = xcalloc(ctx->depth, sizeof(*d->pi));	/* rsvd stays 0 */
	for (i = 0; i < ctx->depth; i++)
		d->pi[i].flags = checks;
	return 0;
}

static int uring_init(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = xcalloc(1, sizeof(*d));
	int r;

	if (ctx->pi_mode == PI_APP)
		r = uring_init_pi(ctx, d);
	else
		r = uringq_init(&d->q, ctx->depth, NULL);
	if (r) {
		free(d);
		return r;
	}
	ctx->priv = d;
	return 0;
}

static int uring_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct uring_data *d = ctx->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->q.ring);

	if (!sqe)
		return -EBUSY;	/* cannot happen: the ring has depth entries */
	if (io->dir == DIX_WRITE)
		io_uring_prep_write(sqe, ctx->fd, io->buf, io->len, io->offset);
	else
		io_uring_prep_read(sqe, ctx->fd, io->buf, io->len, io->offset);
	if (d->pi) {
		struct io_uring_attr_pi *a = &d->pi[io->idx];

		a->app_tag = io->app;
		a->len = io->meta_len;
		a->addr = (uintptr_t)io->meta;
		a->seed = io->ref;
		uring_sqe_set_attr(sqe, a, IORING_RW_ATTR_FLAG_PI);
	}
	io_uring_sqe_set_data(sqe, io);
	return DIX_Q_QUEUED;
}

static int uring_commit(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = ctx->priv;

	return uringq_submit(&d->q);
}

/* the CQE's result is already bytes or -errno */
static int uring_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct uring_data *d = ctx->priv;

	return uringq_getevents(&d->q, min);
}

static struct dix_io *uring_event(struct dix_eng_ctx *ctx, int i)
{
	struct uring_data *d = ctx->priv;

	return uringq_event(&d->q, i);
}

static void uring_cleanup(struct dix_eng_ctx *ctx)
{
	struct uring_data *d = ctx->priv;

	if (!d)
		return;
	uringq_exit(&d->q);
	free(d->pi);
	free(d);
	ctx->priv = NULL;
}

const struct dix_engine engine_io_uring = {
	.version = DIX_ENGINE_VERSION,
	.name = "io_uring",
	.help = "io_uring via liburing, --iodepth I/Os in flight per job, batched submission; "
		"--pi app attaches dixload's PI to each read/write (Linux 6.14+ "
		"read/write attributes, format from FS_IOC_GETLBMD_CAP, 6.17+); "
		"a failed check shows as EILSEQ, the tag unnamed",
	.targets = DIX_TGT_BLOCK,
	.app_pi = DIX_APP_PI_KERNEL,
	.needs = "Linux 6.14+ for --pi app (read/write PI attributes)",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
