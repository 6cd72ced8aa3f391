// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sg.c - SCSI pass-through engine (SG_IO): READ(16)/WRITE(16), or
 * READ(32)/WRITE(32) on a Type 2 medium, with the protection information
 * interleaved after each logical block in the data buffer, as a
 * DIF-formatted SAS/FC disk expects it.
 *
 * --pi app: RDPROTECT/WRPROTECT = 1.  dixload's tuples (separate layout,
 *	from the job) are interleaved into a bounce buffer per queue slot on
 *	writes and taken apart again on reads; the disk checks guard and ref
 *	tag (app tag as configured) and says which one failed in the sense.
 * --pi off or kernel: RDPROTECT/WRPROTECT = 0, plain data; a PI-formatted
 *	disk generates and checks its own PI (the block layer's DIX path is
 *	not involved in pass-through, so "kernel" means the same as "off").
 *
 * Sense: ASC 0x10 ASCQ 1/2/3 -> guard/app/ref (res -EILSEQ with errkind),
 * RECOVERED ERROR -> success with io->recovered, anything else -> -EIO.
 * Every failure carries the status and sense decoded with sg3_utils' tables
 * in io->detail, for the job's error message.
 *
 * Three ways to the disk, chosen at init and named in a note ("sg path: ..."):
 * inline	--iodepth 1: SG_IO on the block device in the worker's own
 *		thread.  Measured in the 6.1 VM (scsi_debug delay=0, 4k
 *		randread): handing each command to a pool thread ran at 0.48x
 *		fio's inline SG_IO; the two context switches per command were
 *		the difference.
 * async	--iodepth > 1: the sg driver's v3 interface on the disk's
 *		/dev/sgN (sgnode.c): write() of an sg_io_hdr per command,
 *		poll(), read() of the completions, all in the worker's thread.
 *		The node is opened once per queue slot (up to SG_FD_MAX times):
 *		each open file has one reserved buffer, and a command that
 *		finds it taken allocates and frees its own pages.  Measured in
 *		the 6.1 VM, 4k randread QD8: 1435-3172 IOPS with the eight
 *		commands on one open file, 4447-6325 with one file each.
 *		The driver copies the data between the user's buffer and its
 *		own (SG_IO on the block device maps the user's pages), so this
 *		path is taken for commands of up to SG_ASYNC_MAX bytes only.
 * threads	--iodepth > 1 with larger commands, or without an sg node
 *		(module not loaded, no permission to create the node; then
 *		with a warning): blocking SG_IO on the block device, one thread
 *		per queue slot (threadq.c).
 * Every command but the asynchronous ones goes through the target's
 * transport (struct dix_devdesc.sgio), and the asynchronous ones through
 * the run's test bed's interface or the kernel's (sg.h), so the unit test
 * can stand in for the disk on every path.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/byteorder.h"
#include "engines/engine.h"
#include "engines/passthru.h"
#include "conf/options.h"
#include "device/devdesc.h"
#include "engines/sg.h"
#include "engines/sgnode.h"
#include "engines/threadq.h"
#include "lib/util.h"

#define DIF_TUPLE	SGIO_DIF_TUPLE
/* The sg driver's limit of commands per open file (SG_MAX_QUEUE in sg.c). */
#define SG_FD_QUEUE	16
/* Open files per worker: one per slot up to here (RLIMIT_NOFILE is 1024). */
#define SG_FD_MAX	256
/*
 * The largest command (data and tuples) for the asynchronous path.  Measured
 * in the 6.1 VM, randread QD8, async/threads IOPS: 4k 1.06-1.47, 16k
 * 0.75-0.83, 64k 0.65-0.73, 256k 0.62-0.95; 512 KiB preconditioning writes
 * ran at 12 MB/s async, 23-29 on threads.  The copy outweighs the two
 * context switches beyond a few KiB.
 */
#define SG_ASYNC_MAX	8192

static int sg_async_open(int blkfd, char *node, size_t nlen, char *why,
			 size_t wlen)
{
	struct stat st;

	if (fstat(blkfd, &st) || !S_ISBLK(st.st_mode)) {
		snprintf(why, wlen, "the target is not a block device");
		return -ENOTBLK;
	}
	return sg_node_open("/sys", "/dev", st.st_rdev, node, nlen, why, wlen);
}

static int sg_async_submit(int fd, struct sg_io_hdr *h)
{
	ssize_t n;

	do
		n = write(fd, h, sizeof(*h));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == sizeof(*h) ? 0 : -EIO;
}

static int sg_async_reap(int fd, struct sg_io_hdr *h)
{
	ssize_t n;

	do
		n = read(fd, h, sizeof(*h));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	return n == sizeof(*h) ? 1 : -EIO;
}

static int sg_async_poll(struct pollfd *p, unsigned int n, int timeout)
{
	int r = poll(p, n, timeout);

	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	return r;
}

static void sg_async_close(int fd)
{
	close(fd);
}

static const struct dix_sg_async_ops sg_async_kernel = {
	.open = sg_async_open,
	.submit = sg_async_submit,
	.reap = sg_async_reap,
	.poll = sg_async_poll,
	.close = sg_async_close,
};


enum sg_path { SG_INLINE, SG_ASYNC, SG_THREADS };

struct sg_slot {
	uint8_t *bounce;	/* data + interleaved PI (--pi app) */
	size_t cap;
	/* async: the command while it is in the driver */
	struct sg_io_hdr h;
	uint8_t cdb[32];
	uint8_t sense[SGIO_SENSE_LEN];
	size_t xfer;
	void *buf;
};

struct sg_data {
	enum sg_path path;
	sgio_fn *sgio;		/* the target's transport (devdesc.h) */
	const struct dix_sg_async_ops *async;	/* the driver's, or a bed's */
	struct threadq q;
	int fd;
	const char *name;
	uint32_t lbs;
	unsigned int prot;	/* RDPROTECT/WRPROTECT field */
	int cdb32;		/* Type 2 with PI in the buffer: 32-byte CDBs */
	struct sg_slot *slot;
	unsigned int nslot;
	unsigned int timeout_ms;	/* of every command (--timeout) */
	/* async */
	int sgfd[SG_FD_MAX];
	unsigned int nsgfd;
	unsigned int per_fd;		/* slots per open file */
	unsigned int fd_inflight[SG_FD_MAX];
	unsigned int inflight;
	struct pollfd pfd[SG_FD_MAX];
	struct dix_io **ready;
};

static uint8_t *sg_bounce(struct sg_data *d, unsigned int idx, size_t len)
{
	struct sg_slot *s = &d->slot[idx];

	if (aligned_grow((void **)&s->bounce, &s->cap, len) < 0)
		return NULL;
	return s->bounce;
}

/*
 * Build the command of @io into @h (with @cdb and @sense): bounce buffer and
 * interleaved tuples for --pi app.  *@xfer is the wire transfer, *@bufp the
 * buffer on the wire.  Return: 0, or -errno with io->res set.
 */
static int sg_prepare(struct sg_data *d, struct dix_io *io,
		      struct sg_io_hdr *h, uint8_t *cdb, uint8_t *sense,
		      size_t *xfer, void **bufp)
{
	uint32_t nblk = io->len / d->lbs;
	uint64_t lba = io->offset / d->lbs;
	int wr = io->dir == DIX_WRITE, cdb_len;
	uint32_t per = d->lbs + (d->prot ? DIF_TUPLE : 0);
	void *buf = io->buf;

	*xfer = (size_t)nblk * per;
	if (d->prot) {
		if (io->idx >= d->nslot || !io->meta ||
		    io->meta_len < nblk * DIF_TUPLE) {
			io->res = -EINVAL;
			return io->res;
		}
		buf = sg_bounce(d, io->idx, *xfer);
		if (!buf) {
			io->res = -ENOMEM;
			return io->res;
		}
		if (wr)
			pi_interleave(buf, io->buf, io->meta, d->lbs, DIF_TUPLE,
				      nblk);
	}
	memset(cdb, 0, 32);
	if (d->cdb32) {
		/* variable-length READ(32) 0x0009 / WRITE(32) 0x000b */
		cdb[0] = 0x7f;
		cdb[7] = 0x18;
		put_be16(cdb + 8, wr ? 0x000b : 0x0009);
		cdb[10] = d->prot << 5;
		put_be64(cdb + 12, lba);
		put_be32(cdb + 20, (uint32_t)io->ref);
		put_be16(cdb + 24, io->app);
		put_be16(cdb + 26, 0xffff);
		put_be32(cdb + 28, nblk);
		cdb_len = 32;
	} else {
		cdb[0] = wr ? 0x8a : 0x88;
		cdb[1] = d->prot << 5;
		put_be64(cdb + 2, lba);
		put_be32(cdb + 10, nblk);
		cdb_len = 16;
	}
	sgio_hdr(h, cdb, cdb_len, wr ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV, buf,
		 *xfer, sense, d->timeout_ms);
	*bufp = buf;
	return 0;
}

/*
 * The result of @io's completed command @h (@xfer bytes on the wire from
 * @buf): io->res, errkind, recovered, detail, status; tuples de-interleaved
 * for a protected read.
 */
static void sg_finish(struct sg_data *d, struct dix_io *io,
		      const struct sg_io_hdr *h, size_t xfer, void *buf)
{
	uint32_t per = d->lbs + (d->prot ? DIF_TUPLE : 0);
	int kind, r;

	r = sgio_outcome(h, io->detail, sizeof(io->detail), &kind, io->status,
			 sizeof(io->status));
	if (r < 0) {
		io->res = r;
		io->errkind = kind;
		return;
	}
	io->detail[0] = '\0';	/* a recovered error is no failure */
	io->status[0] = '\0';
	io->recovered = r == 1;
	if (h->resid > 0 && (size_t)h->resid <= xfer)
		xfer -= h->resid;
	io->res = (int32_t)(xfer / per * d->lbs);
	if (io->dir != DIX_WRITE && d->prot)
		pi_deinterleave(buf, io->buf, io->meta, d->lbs, DIF_TUPLE,
				io->res / d->lbs);
}

/* One READ/WRITE with blocking SG_IO: inline, or in a pool thread. */
static void sg_run(void *arg, struct dix_io *io)
{
	struct sg_data *d = arg;
	uint8_t cdb[32], sense[SGIO_SENSE_LEN];
	struct sg_io_hdr h;
	size_t xfer;
	void *buf;
	int r;

	if (sg_prepare(d, io, &h, cdb, sense, &xfer, &buf))
		return;
	r = d->sgio(d->fd, &h);
	if (r < 0) {
		io->res = r;
		return;
	}
	sg_finish(d, io, &h, xfer, buf);
}

static void sg_free(struct sg_data *d)
{
	unsigned int i;

	for (i = 0; i < d->nsgfd; i++)
		d->async->close(d->sgfd[i]);
	for (i = 0; i < d->nslot; i++)
		free(d->slot[i].bounce);
	free(d->slot);
	free(d->ready);
	free(d);
}

/*
 * --iodepth > 1: the disk's sg node, opened once per slot, or per
 * SG_FD_QUEUE slots at most when there are more slots than SG_FD_MAX.
 * Return: 0, or -errno with the reason in @why (then nothing is open).
 */
static int sg_async_setup(struct dix_eng_ctx *ctx, struct sg_data *d,
			  char *node, size_t nlen, char *why, size_t wlen)
{
	unsigned int n, i;
	int fd;

	d->per_fd = (d->nslot + SG_FD_MAX - 1) / SG_FD_MAX;
	if (d->per_fd > SG_FD_QUEUE) {
		snprintf(why, wlen, "more than %u slots", SG_FD_MAX * SG_FD_QUEUE);
		return -EINVAL;
	}
	n = (d->nslot + d->per_fd - 1) / d->per_fd;
	for (i = 0; i < n; i++) {
		fd = d->async->open(ctx->fd, node, nlen, why, wlen);
		if (fd < 0) {
			while (d->nsgfd)
				d->async->close(d->sgfd[--d->nsgfd]);
			return fd;
		}
		d->sgfd[d->nsgfd++] = fd;
	}
	d->ready = xcalloc(d->nslot, sizeof(*d->ready));
	return 0;
}

/* eng_once() bits: the thread fallback is told once per run, not per worker */
#define SG_SAID_THREADS	0x1

/* Choose and set up the path (see the top of this file). */
static int sg_path_setup(struct dix_eng_ctx *ctx, struct sg_data *d)
{
	char node[128] = "", why[256] = "";
	uint64_t wire;
	int r;

	if (d->nslot == 1) {
		d->path = SG_INLINE;
		snprintf(ctx->note, sizeof(ctx->note),
			 "sg path: inline (SG_IO on %.100s)", d->name);
		return 0;
	}
	wire = ctx->io_size / d->lbs * (d->lbs + (d->prot ? DIF_TUPLE : 0));
	if (wire > SG_ASYNC_MAX) {
		d->path = SG_THREADS;
		snprintf(ctx->note, sizeof(ctx->note),
			 "sg path: threads (%llu-byte commands: SG_IO maps them, the sg node would copy them)",
			 (unsigned long long)wire);
		goto threads;
	}
	if (!sg_async_setup(ctx, d, node, sizeof(node), why, sizeof(why))) {
		d->path = SG_ASYNC;
		snprintf(ctx->note, sizeof(ctx->note),
			 "sg path: async (%.100s, %u open file%s)", node,
			 d->nsgfd, d->nsgfd == 1 ? "" : "s");
		return 0;
	}
	d->path = SG_THREADS;
	snprintf(ctx->note, sizeof(ctx->note),
		 "sg path: threads (no sg node: %.120s)", why);
	if (eng_once(ctx, SG_SAID_THREADS))
		dix_warn("sg: %s: no sg node (%s); --iodepth %u runs one thread per queue slot",
			 d->name, why, d->nslot);
threads:
	r = threadq_init(&d->q, d->nslot, sg_run, d);
	if (r)
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "cannot start %u I/O threads: %s", d->nslot,
			 strerror(-r));
	return r;
}

static int sg_init(struct dix_eng_ctx *ctx)
{
	const struct dix_sg_bed *bed = ctx->bed;
	struct sg_data *d = xcalloc(1, sizeof(*d));
	const struct devdesc_scsi *s;
	const struct scsi_readcap16 *rc;
	int r;

	d->fd = ctx->fd;
	d->sgio = ctx->desc->sgio ? ctx->desc->sgio : sgio_kernel;
	d->async = bed && bed->async ? bed->async : &sg_async_kernel;
	d->name = ctx->path ? ctx->path : "target";
	d->nslot = ctx->depth ? ctx->depth : 1;
	d->slot = xcalloc(d->nslot, sizeof(*d->slot));
	d->timeout_ms = passthru_timeout_ms(ctx->o, SGIO_TIMEOUT_MS);
	/* the disk's block length and format: its description (device/) */
	s = &ctx->desc->scsi;
	r = devdesc_scsi_rc_failure(s, d->name, ctx->errmsg,
				    sizeof(ctx->errmsg));
	if (r)
		goto fail;
	rc = &s->rc;
	d->lbs = rc->block_length;
	if (ctx->lbs && ctx->lbs != d->lbs) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: READ CAPACITY(16) says %u-byte blocks, the kernel %u",
			 d->name, d->lbs, ctx->lbs);
		r = -EINVAL;
		goto fail;
	}
	if (ctx->pi_mode == PI_APP) {
		if (!s->has_pi) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: --pi app needs a medium formatted with protection information (READ CAPACITY(16) PROT_EN=0)",
				 d->name);
			r = -EINVAL;
			goto fail;
		}
		/*
		 * scsi_debug takes a protected WRITE through pass-through as
		 * plain data of the CDB's length: the tuples would be stored
		 * as data and reads come back short.
		 */
		if (s->scsi_debug) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: scsi_debug does not take PI interleaved in a pass-through buffer (it would store the tuples as data): use --pi off here, or --engine io_uring --pi app",
				 d->name);
			r = -EOPNOTSUPP;
			goto fail;
		}
		if (rc->p_i_exponent) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: %u protection intervals per logical block (P_I_EXPONENT %u) are not supported by the sg engine",
				 d->name, 1u << rc->p_i_exponent,
				 rc->p_i_exponent);
			r = -EOPNOTSUPP;
			goto fail;
		}
		d->prot = 1;
		d->cdb32 = rc->protection_type == 2;
		ctx->pif = s->pif;
	}
	/* SG_IO is never split; with --pi app the tuples travel in its
	 * buffer after each block */
	ctx->max_io = eng_max_io(ctx->max_xfer, d->lbs,
				 d->prot ? DIF_TUPLE : 0);
	r = sg_path_setup(ctx, d);
	if (r)
		goto fail;
	ctx->priv = d;
	return 0;
fail:
	sg_free(d);
	return r;
}

/* Hand @io's command to the sg driver; it completes in sg_getevents(). */
static int sg_async_queue(struct sg_data *d, struct dix_io *io)
{
	struct sg_slot *s;
	int r;

	if (io->idx >= d->nslot)
		return -EINVAL;
	s = &d->slot[io->idx];
	if (sg_prepare(d, io, &s->h, s->cdb, s->sense, &s->xfer, &s->buf))
		return io->res;
	s->h.pack_id = (int)io->idx;
	s->h.usr_ptr = io;
	r = d->async->submit(d->sgfd[io->idx / d->per_fd], &s->h);
	if (r < 0)
		return r;
	d->fd_inflight[io->idx / d->per_fd]++;
	d->inflight++;
	return DIX_Q_QUEUED;
}

static int sg_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct sg_data *d = ctx->priv;

	if (io->len % d->lbs || io->offset % d->lbs)
		return -EINVAL;
	switch (d->path) {
	case SG_INLINE:
		sg_run(d, io);
		return DIX_Q_COMPLETED;
	case SG_ASYNC:
		return sg_async_queue(d, io);
	default:
		threadq_queue(&d->q, io);
		return DIX_Q_QUEUED;
	}
}

static int sg_commit(struct dix_eng_ctx *ctx)
{
	struct sg_data *d = ctx->priv;

	if (d->path == SG_THREADS)
		threadq_commit(&d->q);
	return 0;
}

/* Read what open file @i holds complete into d->ready.  Return: -errno or 0. */
static int sg_async_drain(struct sg_data *d, unsigned int i, unsigned int *n)
{
	struct sg_io_hdr h;
	int r;

	while (d->fd_inflight[i] &&
	       (r = d->async->reap(d->sgfd[i], &h)) != 0) {
		struct dix_io *io = h.usr_ptr;
		struct sg_slot *s;

		if (r < 0)
			return r;
		if (!io || io->idx >= d->nslot || h.pack_id != (int)io->idx ||
		    io->idx / d->per_fd != i)
			return -EPROTO;
		s = &d->slot[io->idx];
		sg_finish(d, io, &h, s->xfer, s->buf);
		d->ready[(*n)++] = io;
		d->fd_inflight[i]--;
		d->inflight--;
	}
	return 0;
}

/*
 * Collect completions until at least @min are in (or nothing is left in
 * flight): poll the open files with commands in the driver, read the ready
 * ones.  Return: how many, or -errno.
 */
static int sg_async_getevents(struct sg_data *d, unsigned int min)
{
	unsigned int i, k, n = 0;
	int r;

	while (d->inflight) {
		for (i = k = 0; i < d->nsgfd; i++)
			if (d->fd_inflight[i]) {
				d->pfd[k].fd = d->sgfd[i];
				d->pfd[k].events = POLLIN;
				d->pfd[k].revents = 0;
				k++;
			}
		r = d->async->poll(d->pfd, k, n >= min ? 0 : -1);
		if (r <= 0)
			return r < 0 ? r : (int)n;
		for (i = k = 0; i < d->nsgfd; i++) {
			if (!d->fd_inflight[i])
				continue;
			if (d->pfd[k++].revents & (POLLIN | POLLERR | POLLHUP)) {
				r = sg_async_drain(d, i, &n);
				if (r < 0)
					return r;
			}
		}
		if (n >= min)
			break;
	}
	return n;
}

static int sg_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct sg_data *d = ctx->priv;

	switch (d->path) {
	case SG_INLINE:
		return 0;	/* everything completed in queue() */
	case SG_ASYNC:
		return sg_async_getevents(d, min);
	default:
		return threadq_getevents(&d->q, min);
	}
}

static struct dix_io *sg_event(struct dix_eng_ctx *ctx, int i)
{
	struct sg_data *d = ctx->priv;

	if (d->path == SG_ASYNC)
		return d->ready[i];
	return threadq_event(&d->q, i);
}

static void sg_cleanup(struct dix_eng_ctx *ctx)
{
	struct sg_data *d = ctx->priv;

	if (!d)
		return;
	if (d->path == SG_THREADS)
		threadq_destroy(&d->q);
	/* the driver writes into our buffers until a command is read back */
	while (d->path == SG_ASYNC && d->inflight &&
	       sg_async_getevents(d, d->inflight) > 0)
		;
	sg_free(d);
	ctx->priv = NULL;
}

static const struct dix_option sg_options[] = {
	PASSTHRU_OPT_TIMEOUT,
	{ .name = NULL },
};

const struct dix_engine engine_sg = {
	.version = DIX_ENGINE_VERSION,
	.name = "sg",
	.help = "SCSI pass-through (SG_IO) READ/WRITE(16), READ/WRITE(32) on Type 2; "
		"--pi app interleaves PI after each block (RDPROTECT/WRPROTECT=1), "
		"off/kernel sends none; which tag failed comes from the sense; "
		"--iodepth 1 issues SG_IO inline, deeper queues of commands up to 8 KiB "
		"use the sg driver's asynchronous interface on the disk's /dev/sgN "
		"(created if missing), else one thread per queue slot",
	.targets = DIX_TGT_SCSI,
	.app_pi = DIX_APP_PI_SCSI,
	.options = sg_options,
	.init = sg_init,
	.queue = sg_queue,
	.commit = sg_commit,
	.getevents = sg_getevents,
	.event = sg_event,
	.cleanup = sg_cleanup,
};
