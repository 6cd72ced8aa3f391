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
 * FS_IOC_GETLBMD_CAP, read into the target's description when it was
 * opened (device/devdesc.c).  Both need a recent kernel
 * (IORING_FEAT_RW_ATTR, Linux 6.14; the query, Linux 6.17); init() says so
 * on older ones.  A
 * failed check only comes back as -EILSEQ: which tag failed is not told.
 *
 * The target's file descriptor is registered with the ring, and so is each
 * slot's buffer the first time it is used (a sparse table of --iodepth
 * entries), so the kernel neither looks up the file nor pins the pages per
 * I/O: the same work fio does with --registerfiles --fixedbufs.  Either
 * registration failing (old kernel, memory-lock limit) leaves the plain
 * path.  --sqpoll and --hipri set up the ring with IORING_SETUP_SQPOLL and
 * IORING_SETUP_IOPOLL, else it defers completion work to the waits
 * (uring_params()); reads of targets that cannot be read without blocking
 * go to io_uring's workers at once (uring_target_blocks()).  Completions
 * are reaped in batches (uringq.c).
 */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/utsname.h>

#include "device/devdesc.h"
#include "engines/engine.h"
#include "conf/options.h"
#include "proto/uring_pi.h"
#include "engines/uringq.h"
#include "lib/util.h"

/*
 * @fixed_file: the target is registered file 0
 * @fixed_bufs: a sparse buffer table of --iodepth entries is registered
 * @reg_len: bytes of slot i's buffer registered at index i (0: none yet)
 * @reg_buf: the buffer registered at index i
 * @async: the target cannot be read without blocking: IOSQE_ASYNC
 */
struct uring_data {
	struct uringq q;
	struct io_uring_attr_pi *pi;	/* per slot with --pi app, else NULL */
	int fixed_file;
	int fixed_bufs;
	uint32_t *reg_len;
	void **reg_buf;
	int async;
};

/*
 * The ring's setup flags: --sqpoll / --hipri, else a ring only this job's
 * thread submits to (it is created there) whose completions are posted
 * when the thread waits for them (DEFER_TASKRUN, Linux 6.1), not by a
 * wake-up per completion: 4 KiB reads on tmpfs, QD32, 1.04-1.9x the IOPS
 * of a plain ring in five paired runs here (median 1.25x).  uring_setup() falls back to a plain
 * ring where the kernel does not know the flags.
 */
#define URING_QUIET_FLAGS (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

static void uring_params(const struct dix_eng_ctx *ctx,
			 struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	if (ctx->o && ctx->o->sqpoll) {
		p->flags |= IORING_SETUP_SQPOLL;
		p->sq_thread_idle = 1000;	/* ms before the thread sleeps */
	}
	if (ctx->o && ctx->o->hipri)
		p->flags |= IORING_SETUP_IOPOLL;
	if (!p->flags)
		p->flags = URING_QUIET_FLAGS;
}

/* uringq_init() with @p, or without the optional flags on older kernels */
static int uring_setup(struct uring_data *d, unsigned int depth,
		       struct io_uring_params *p)
{
	int r = uringq_init(&d->q, depth, p);

	if (r == -EINVAL && p->flags == URING_QUIET_FLAGS) {
		memset(p, 0, sizeof(*p));
		r = uringq_init(&d->q, depth, p);
	}
	return r;
}

/*
 * Whether the target can be read without blocking (FMODE_NOWAIT): where it
 * cannot (tmpfs, some filesystems), io_uring first tries every read inline,
 * fails, and hands it to a worker thread; IOSQE_ASYNC goes to the worker
 * at once.  Asked with one RWF_NOWAIT read of the first block, which
 * EOPNOTSUPP answers only in that case.  On tmpfs, 4 KiB random reads at
 * QD32: 1.13-1.75x the IOPS of trying inline first, in three paired runs
 * here (perf showed every read failing inline, then punted).
 */
static int uring_target_blocks(const struct dix_eng_ctx *ctx)
{
	size_t len = ctx->lbs > 4096 ? ctx->lbs : 4096;
	struct iovec iov;
	void *buf;
	int r;

	if (posix_memalign(&buf, len, len))
		return 0;
	iov.iov_base = buf;
	iov.iov_len = ctx->lbs ? ctx->lbs : 512;
	r = preadv2(ctx->fd, &iov, 1, 0, RWF_NOWAIT) < 0 && errno == EOPNOTSUPP;
	free(buf);
	return r;
}

/*
 * --hipri polls for completions, which only a block queue with poll queues
 * can serve (queue/io_poll = 1); anything else fails every I/O with
 * EOPNOTSUPP, so say so before the load.  A file is judged by the device
 * holding its filesystem (none for tmpfs).
 */
static int uring_can_poll(struct dix_eng_ctx *ctx)
{
	static const char *const rel[] = { "queue/io_poll", "../queue/io_poll" };
	char path[128], v = '0';
	struct stat st;
	unsigned int i;
	dev_t dev;
	FILE *f = NULL;

	if (fstat(ctx->fd, &st))
		return -errno;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	for (i = 0; i < 2 && !f; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s",
			 major(dev), minor(dev), rel[i]);
		f = fopen(path, "r");
	}
	if (f) {
		if (fread(&v, 1, 1, f) != 1)
			v = '0';
		fclose(f);
	}
	if (v == '1')
		return 0;
	snprintf(ctx->errmsg, sizeof(ctx->errmsg),
		 "--hipri: %s cannot poll for completions (%s; NVMe needs nvme.poll_queues=N)",
		 ctx->path, f ? "its queue/io_poll is 0" :
		 S_ISBLK(st.st_mode) ? "no queue/io_poll in sysfs" :
		 "its filesystem has no block device");
	return -EOPNOTSUPP;
}

/* Register the target and make room for the buffers; either may fail. */
static void uring_register(struct dix_eng_ctx *ctx, struct uring_data *d)
{
	d->fixed_file = !io_uring_register_files(&d->q.ring, &ctx->fd, 1);
	/* PI attributes carry their own pages: keep their I/O plain */
	if (d->pi)
		return;
	d->fixed_bufs = !io_uring_register_buffers_sparse(&d->q.ring,
							  ctx->depth);
	if (d->fixed_bufs) {
		d->reg_len = xcalloc(ctx->depth, sizeof(*d->reg_len));
		d->reg_buf = xcalloc(ctx->depth, sizeof(*d->reg_buf));
	}
}

/*
 * Slot @io->idx's buffer as registered buffer @io->idx, registering it (or
 * again, larger or moved) first.  Return: 0 to use it, -1 for a plain I/O.
 */
static int uring_fixed_buf(struct uring_data *d, const struct dix_io *io)
{
	struct iovec iov;

	if (!d->fixed_bufs)
		return -1;
	if (d->reg_buf[io->idx] == io->buf && d->reg_len[io->idx] >= io->len)
		return 0;
	iov.iov_base = io->buf;
	iov.iov_len = io->len;
	if (io_uring_register_buffers_update_tag(&d->q.ring, io->idx, &iov,
						 NULL, 1) != 1) {
		d->fixed_bufs = 0;	/* not a system call per I/O from now */
		return -1;
	}
	d->reg_buf[io->idx] = io->buf;
	d->reg_len[io->idx] = io->len;
	return 0;
}

static const char *kernel_release(struct utsname *u)
{
	return uname(u) ? "unknown" : u->release;
}

/* The device's PI format, as the block layer describes it (device/). */
static int uring_pi_format(struct dix_eng_ctx *ctx)
{
	const struct dix_devdesc *t = ctx->desc;
	char why[200];
	struct utsname u;
	int e = t->lbmd.err, r;

	if (!t->is_blk) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: io_uring PI needs a block device with integrity metadata",
			 ctx->path);
		return -ENOTBLK;
	}
	if (e) {
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
	r = devdesc_lbmd_pif(&t->lbmd, &ctx->pif, why, sizeof(why));
	if (r)
		snprintf(ctx->errmsg, sizeof(ctx->errmsg), "%s: %s", ctx->path,
			 why);
	return r;
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

	uring_params(ctx, &p);
	r = uring_setup(d, ctx->depth, &p);
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
	struct io_uring_params p;
	int r;

	if (ctx->o && ctx->o->hipri) {
		r = uring_can_poll(ctx);
		if (r) {
			free(d);
			return r;
		}
	}
	if (ctx->pi_mode == PI_APP) {
		r = uring_init_pi(ctx, d);
	} else {
		uring_params(ctx, &p);
		r = uring_setup(d, ctx->depth, &p);
	}
	if (r) {
		/* unless the PI setup already said what failed */
		if (!ctx->errmsg[0] && r == -EPERM && ctx->o && ctx->o->sqpoll)
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "--sqpoll: the kernel refused a polling thread (EPERM: needs CAP_SYS_NICE before Linux 5.11)");
		else if (!ctx->errmsg[0] && r == -EINVAL && ctx->o &&
			 (ctx->o->sqpoll || ctx->o->hipri))
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "--%s: this kernel's io_uring does not take the setup flag (EINVAL)",
				 ctx->o->sqpoll ? "sqpoll" : "hipri");
		free(d->pi);
		free(d);
		return r;
	}
	uring_register(ctx, d);
	d->async = !ctx->o || !ctx->o->hipri ? uring_target_blocks(ctx) : 0;
	ctx->priv = d;
	return 0;
}

static int uring_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct uring_data *d = ctx->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->q.ring);
	int fd = d->fixed_file ? 0 : ctx->fd;

	if (!sqe)
		return -EBUSY;	/* cannot happen: the ring has depth entries */
	if (!uring_fixed_buf(d, io)) {
		if (io->dir == DIX_WRITE)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len,
						  io->offset, (int)io->idx);
		else
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len,
						 io->offset, (int)io->idx);
	} else if (io->dir == DIX_WRITE) {
		io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	} else {
		io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	}
	if (d->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (d->async)
		sqe->flags |= IOSQE_ASYNC;
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
	free(d->reg_len);
	free(d->reg_buf);
	free(d);
	ctx->priv = NULL;
}

/* Polling is io_uring's: no other engine has a ring to poll. */
static const struct dix_option uring_options[] = {
	{
		.name = "sqpoll", .type = OPT_FLAG,
		.off = (long)offsetof(struct dix_opts, sqpoll),
		.help = "a kernel thread polls the submission queue (no submit system calls; it takes a CPU)",
		.refusal = "does not poll",
	},
	{
		.name = "hipri", .type = OPT_FLAG,
		.off = (long)offsetof(struct dix_opts, hipri),
		.help = "polled completions (needs a device with poll queues, e.g. nvme.poll_queues=N; refused elsewhere)",
		.refusal = "does not poll",
	},
	{ .name = NULL },
};

const struct dix_engine engine_io_uring = {
	.version = DIX_ENGINE_VERSION,
	.name = "io_uring",
	.help = "io_uring via liburing, --iodepth I/Os in flight per job, batched submission, "
		"registered file and buffers, --sqpoll and --hipri; "
		"--pi app attaches dixload's PI to each read/write (Linux 6.14+ "
		"read/write attributes, format from FS_IOC_GETLBMD_CAP, 6.17+); "
		"a failed check shows as EILSEQ, the tag unnamed",
	.targets = DIX_TGT_BLOCK,
	.app_pi = DIX_APP_PI_KERNEL,
	.needs = "Linux 6.14+ for --pi app (read/write PI attributes)",
	.options = uring_options,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
