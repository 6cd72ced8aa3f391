// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme.c - NVMe passthrough engine (libnvme): Read/Write commands built by
 * dixload, so the protection information settings are dixload's own.
 *
 * --pi app: PRACT=0 and PRCHK guard|app|ref (no ref check on Type 3); the
 *	tuples travel in the separate metadata buffer (io->meta), or, on a
 *	namespace formatted with extended LBAs, interleaved after each block
 *	in a bounce buffer.  cdw14 (with cdw3 for 48/80-bit ref tags) carries
 *	io->ref, cdw15 the app tag and its mask.
 * --pi off or kernel: PRACT=1 with PRCHK guard|ref (guard on Type 3), as
 *	Linux's own driver does: the controller inserts PI on writes and checks
 *	and strips it on reads.  When the metadata is larger than the tuple
 *	the rest still moves, so a zeroed scratch buffer goes along.  There is
 *	no block layer in the path, so "kernel" means the same as "off".
 *
 * End-to-end check failures come back as status 0x282 guard, 0x283 app,
 * 0x284 ref (DNR and More bits masked) and are reported by kind with
 * res = -EILSEQ; other statuses are io errors.  Every failed command's status
 * is decoded in io->detail for the job's error message.
 *
 * Queue depth: io_uring passthrough (IORING_OP_URING_CMD, NVME_URING_CMD_IO)
 * on the namespace's generic char device /dev/ngXnY, when it is there and
 * the kernel takes 128-byte SQEs (Linux 5.19+); otherwise one thread per
 * queue slot issuing NVME_IOCTL_IO_CMD on the block device.  On Linux 6.1+
 * the ring is the io_uring engine's (only the job's thread submits,
 * completions are posted when it waits) with the generic device as
 * registered file 0 and each slot's buffer registered the first time it
 * is used: the work fio does with --registerfiles --fixedbufs, which the
 * plain ring cost per command (nvme_uring_setup()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libnvme.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "device/devdesc.h"
#include "engines/engine.h"
#include "engines/passthru.h"
#include "proto/nvme_parse.h"
#include "conf/options.h"
#include "engines/threadq.h"
#ifdef HAVE_LIBURING
#include "engines/uringq.h"
#endif
#include "lib/util.h"

/* cdw12 PRINFO bits */
#define PRINFO_PRACT		(1u << 29)
#define PRINFO_PRCHK_GUARD	(1u << 28)
#define PRINFO_PRCHK_APP	(1u << 27)
#define PRINFO_PRCHK_REF	(1u << 26)

/* status: SCT << 8 | SC; above them CRD, More and DNR */
#define NVME_STATUS_CODE(st)	((st) & 0x7ff)
#define NVME_ST_GUARD		0x282
#define NVME_ST_APP		0x283
#define NVME_ST_REF		0x284

/* eng_once() bits: the thread fallback is told once per run */
#define NVME_SAID_THREADS	0x1

struct nvme_slot {
	uint8_t *bounce;	/* extended LBAs: data with metadata after each block */
	size_t bcap;
	uint8_t *scratch;	/* metadata that must move but carries no PI of ours */
	size_t scap;
};

struct nvme_data {
	int fd;			/* namespace block device: ioctls */
	int ngfd;		/* generic char device for io_uring, or -1 */
	const char *name;
	__u32 nsid;
	uint32_t lbs;		/* data bytes per logical block */
	__u32 timeout_ms;	/* --timeout; 0: the kernel's io_timeout */
	unsigned int ms;	/* metadata bytes per logical block */
	bool ext;		/* extended LBAs */
	uint32_t ref_hi_mask;	/* ref tag bits 32.. that go in cdw3 */
	bool app;		/* --pi app */
	uint32_t prinfo;	/* PRINFO bits of every command */
	bool xfer_meta;		/* metadata moves with the data */
	struct nvme_slot *slot;
	unsigned int nslot;
	bool uring;
#ifdef HAVE_LIBURING
	struct uringq uq;
	bool fixed_file;	/* ngfd is registered file 0 */
	void **reg_buf;		/* per slot: its registered buffer, or NULL */
	size_t *reg_len;	/* per slot: that buffer's registered bytes */
#endif
	struct threadq q;
};

static uint8_t *grow(uint8_t **p, size_t *cap, size_t len, bool zero)
{
	int r = aligned_grow((void **)p, cap, len);

	if (r < 0)
		return NULL;
	if (r > 0 && zero)
		memset(*p, 0, len);
	return *p;
}

/*
 * The command for @io.  Writes to an extended-LBA namespace are interleaved
 * into the slot's bounce buffer here.  Return: 0 or -errno.
 */
static int nvme_build(struct nvme_data *d, struct dix_io *io,
		      struct nvme_passthru_cmd *c)
{
	struct nvme_slot *s = &d->slot[io->idx];
	uint32_t nlb = io->len / d->lbs;
	uint64_t slba = io->offset / d->lbs;
	uint64_t ref = d->app ? io->ref : slba;
	uint16_t app = d->app ? io->app : 0;
	uint16_t mask = d->app ? 0xffff : 0;
	size_t mlen = (size_t)nlb * d->ms;
	const uint8_t *meta = NULL;

	if (!nlb || io->len % d->lbs || io->offset % d->lbs ||
	    io->idx >= d->nslot)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->opcode = io->dir == DIX_WRITE ? nvme_cmd_write : nvme_cmd_read;
	c->nsid = d->nsid;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (nlb - 1) | d->prinfo;
	c->cdw14 = (uint32_t)ref;
	c->cdw3 = (uint32_t)(ref >> 32) & d->ref_hi_mask;
	c->cdw15 = app | (uint32_t)mask << 16;
	c->addr = (uintptr_t)io->buf;
	c->data_len = io->len;
	c->timeout_ms = d->timeout_ms;
	if (!d->xfer_meta)
		return 0;
	if (d->app) {
		if (!io->meta || io->meta_len < mlen)
			return -EINVAL;
		meta = io->meta;
	} else {
		meta = grow(&s->scratch, &s->scap, mlen, true);
		if (!meta)
			return -ENOMEM;
		if (io->dir == DIX_WRITE)
			memset(s->scratch, 0, mlen);
	}
	if (!d->ext) {
		c->metadata = (uintptr_t)meta;
		c->metadata_len = mlen;
		return 0;
	}
	if (!grow(&s->bounce, &s->bcap, (size_t)nlb * (d->lbs + d->ms), false))
		return -ENOMEM;
	if (io->dir == DIX_WRITE)
		pi_interleave(s->bounce, io->buf, meta, d->lbs, d->ms, nlb);
	c->addr = (uintptr_t)s->bounce;
	c->data_len = nlb * (d->lbs + d->ms);
	return 0;
}

/*
 * Account the outcome @st of @io's command: 0 success, > 0 NVMe status,
 * < 0 -errno.  Reads from an extended-LBA namespace are taken apart here.
 */
static void nvme_finish(struct nvme_data *d, struct dix_io *io, int st)
{
	struct nvme_slot *s = &d->slot[io->idx];

	if (st < 0) {
		io->res = st;
		return;
	}
	if (st > 0) {
		switch (NVME_STATUS_CODE(st)) {
		case NVME_ST_GUARD:
			io->errkind = DIX_ERR_GUARD;
			break;
		case NVME_ST_APP:
			io->errkind = DIX_ERR_APP;
			break;
		case NVME_ST_REF:
			io->errkind = DIX_ERR_REF;
			break;
		default:
			io->errkind = DIX_ERR_NR;
			break;
		}
		io->res = io->errkind == DIX_ERR_NR ? -EIO : -EILSEQ;
		snprintf(io->detail, sizeof(io->detail), "NVMe status 0x%x: %s",
			 st, nvme_status_to_string(st, false));
		snprintf(io->status, sizeof(io->status), "NVMe status 0x%x",
			 st);
		return;
	}
	io->res = io->len;
	if (io->dir != DIX_READ || !d->ext || !d->xfer_meta)
		return;
	pi_deinterleave(s->bounce, io->buf, d->app ? io->meta : NULL, d->lbs,
			d->ms, io->len / d->lbs);
}

/* ---- one thread per slot: NVME_IOCTL_IO_CMD ---- */

static void nvme_run(void *arg, struct dix_io *io)
{
	struct nvme_data *d = arg;
	struct nvme_passthru_cmd c;
	int r = nvme_build(d, io, &c);

	if (r) {
		io->res = r;
		return;
	}
	do {
		r = nvme_submit_io_passthru(d->fd, &c, NULL);
	} while (r < 0 && errno == EINTR);
	nvme_finish(d, io, r < 0 ? -errno : r);
}

/* ---- io_uring passthrough on the generic char device ---- */

#ifdef HAVE_LIBURING
_Static_assert(offsetof(struct nvme_passthru_cmd, result) ==
	       offsetof(struct nvme_uring_cmd, rsvd2),
	       "nvme_uring_cmd is nvme_passthru_cmd without the result");

/*
 * /dev/ngXnY of the namespace open as @fd: the generic device shares the
 * block device's name after "nvme", and its sysfs dev numbers must match
 * the node's.  Return: an open descriptor, or -errno.
 */
static int nvme_open_generic(int fd, char *why, size_t len)
{
	char link[PATH_MAX], sys[128], node[64], want[32], got[32];
	struct stat st, nst;
	const char *base;
	ssize_t n;
	int g;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISCHR(st.st_mode)) {	/* --dev was the generic device */
		g = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		return g < 0 ? -errno : g;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	n = readlink(sys, link, sizeof(link) - 1);
	if (n < 0) {
		snprintf(why, len, "%.100s: %s", sys, strerror(errno));
		return -ENODEV;
	}
	link[n] = '\0';
	base = basename(link);
	if (strncmp(base, "nvme", 4) || strlen(base) > 32) {
		snprintf(why, len, "%.40s is not an NVMe namespace name", base);
		return -ENODEV;
	}
	snprintf(node, sizeof(node), "/dev/ng%s", base + 4);
	snprintf(sys, sizeof(sys), "/sys/class/nvme-generic/ng%s/dev", base + 4);
	if (read_sysfs_str(sys, want, sizeof(want))) {
		snprintf(why, len, "the kernel has no generic device ng%s",
			 base + 4);
		return -ENODEV;
	}
	if (stat(node, &nst) || !S_ISCHR(nst.st_mode)) {
		snprintf(why, len, "%s is missing", node);
		return -ENODEV;
	}
	snprintf(got, sizeof(got), "%u:%u", major(nst.st_rdev),
		 minor(nst.st_rdev));
	if (strcmp(got, want)) {
		snprintf(why, len, "%s is %s, the kernel's ng%s is %s", node,
			 got, base + 4, want);
		return -ENODEV;
	}
	g = open(node, O_RDWR | O_CLOEXEC);
	if (g < 0) {
		snprintf(why, len, "%s: %s", node, strerror(errno));
		return -errno;
	}
	return g;
}

/*
 * The ring: 128-byte SQEs and 32-byte CQEs for the command and its result,
 * and where the kernel takes them (6.1+) the io_uring engine's quiet flags;
 * a kernel that takes those knows IORING_URING_CMD_FIXED as well (6.1), so
 * the file and a sparse table of one buffer per slot are registered then.
 * Measured in the 6.1 guest on the QEMU NVMe (scripts/bench-vm, 4 KiB at
 * QD32, instructions per I/O scaled by the busy share): reads 6872-7202 in
 * three runs against fio's 6332-6345 with --registerfiles --fixedbufs, and
 * 5928 with these (fio 6360); writes 12823-12977 -> 11839.
 */
#define NVME_QUIET_FLAGS (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

static void nvme_uring_register(struct nvme_data *d)
{
	d->fixed_file = !io_uring_register_files(&d->uq.ring, &d->ngfd, 1);
	if (io_uring_register_buffers_sparse(&d->uq.ring, d->nslot))
		return;
	d->reg_buf = xcalloc(d->nslot, sizeof(*d->reg_buf));
	d->reg_len = xcalloc(d->nslot, sizeof(*d->reg_len));
}

/*
 * Slot @idx's data at @addr as its registered buffer, registering it (or
 * again, larger or moved: an extended-LBA bounce buffer grows) first.
 * Return: true to use it, false for a plain command.
 */
static bool nvme_fixed_buf(struct nvme_data *d, unsigned int idx, __u64 addr,
			   __u32 len)
{
	struct iovec iov;

	if (!d->reg_buf)
		return false;
	if (d->reg_buf[idx] == (void *)(uintptr_t)addr && d->reg_len[idx] >= len)
		return true;
	iov.iov_base = (void *)(uintptr_t)addr;
	iov.iov_len = len;
	if (io_uring_register_buffers_update_tag(&d->uq.ring, idx, &iov, NULL,
						 1) != 1) {
		/* not a system call per command from now on */
		free(d->reg_buf);
		free(d->reg_len);
		d->reg_buf = NULL;
		d->reg_len = NULL;
		return false;
	}
	d->reg_buf[idx] = iov.iov_base;
	d->reg_len[idx] = len;
	return true;
}

static int nvme_uring_setup(struct dix_eng_ctx *ctx, struct nvme_data *d,
			    char *why, size_t len)
{
	struct io_uring_params p;
	int r;

	d->ngfd = nvme_open_generic(d->fd, why, len);
	if (d->ngfd < 0)
		return d->ngfd;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32 | NVME_QUIET_FLAGS;
	r = uringq_init(&d->uq, ctx->depth, &p);
	if (!r) {
		nvme_uring_register(d);
	} else if (r == -EINVAL) {	/* before 6.1 */
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
		r = uringq_init(&d->uq, ctx->depth, &p);
	}
	if (r) {
		snprintf(why, len,
			 "io_uring with 128-byte SQEs unavailable (%s; Linux 5.19+ needed)",
			 strerror(-r));
		close(d->ngfd);
		d->ngfd = -1;
		return r;
	}
	d->uring = true;
	return 0;
}

static int nvme_uring_queue(struct nvme_data *d, struct dix_io *io)
{
	struct nvme_passthru_cmd c;
	struct io_uring_sqe *sqe;
	int r = nvme_build(d, io, &c);

	if (r)
		return r;
	sqe = io_uring_get_sqe(&d->uq.ring);
	if (!sqe)
		return -EBUSY;	/* cannot happen: the ring has depth entries */
	memset(sqe, 0, 2 * sizeof(*sqe));	/* one 128-byte entry */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = d->fixed_file ? 0 : d->ngfd;
	if (d->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (nvme_fixed_buf(d, io->idx, c.addr, c.data_len)) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (__u16)io->idx;
	}
	sqe->cmd_op = NVME_URING_CMD_IO;
	memcpy(sqe->cmd, &c, sizeof(struct nvme_uring_cmd));
	io_uring_sqe_set_data(sqe, io);
	return DIX_Q_QUEUED;
}

static int nvme_uring_getevents(struct nvme_data *d, unsigned int min)
{
	int i, n = uringq_getevents(&d->uq, min);

	for (i = 0; i < n; i++) {
		struct dix_io *io = uringq_event(&d->uq, i);

		/* the CQE's result: 0, the NVMe status, or -errno */
		nvme_finish(d, io, io->res);
	}
	return n;
}
#endif

/* ---- the namespace's format ---- */

/* The namespace's format from its description (device/devdesc_nvme.c). */
static int nvme_format(struct dix_eng_ctx *ctx, struct nvme_data *d)
{
	const struct devdesc_nvme *dn = &ctx->desc->nvme;
	const struct nvme_ns_format *f = &dn->f;
	const struct nvme_nvm_ns *n = &dn->n;
	int r;

	r = devdesc_nvme_failure(dn, d->name, ctx->errmsg,
				 sizeof(ctx->errmsg));
	if (r)
		return r;
	d->nsid = dn->nsid;
	d->lbs = f->data_size;
	d->ms = f->metadata_size;
	d->ext = f->extended_lba;
	/* 48-bit (64b guard) and 80-bit (32b guard) ref tags continue in cdw3 */
	if (f->protection_type && n->guard_bits == 64)
		d->ref_hi_mask = 0xffff;
	else if (f->protection_type && n->guard_bits == 32)
		d->ref_hi_mask = 0xffffffff;
	if (ctx->lbs && ctx->lbs != d->lbs) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: the namespace has %u-byte blocks, the kernel says %u",
			 d->name, d->lbs, ctx->lbs);
		return -EINVAL;
	}
	if (ctx->pi_mode == PI_APP) {
		if (!dn->has_pi) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: --pi app needs a namespace formatted with protection information (DPS type 0, %u bytes of metadata)",
				 d->name, d->ms);
			return -EINVAL;
		}
		if (n->sts) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: storage tags (%u bits) are not supported",
				 d->name, n->sts);
			return -EOPNOTSUPP;
		}
		if (!dn->pif_ok) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: unsupported PI format: %u-bit guard, %u bytes of metadata per %u-byte block",
				 d->name, n->guard_bits, d->ms, d->lbs);
			return -EOPNOTSUPP;
		}
		ctx->pif = dn->pif;
		d->app = true;
		d->prinfo = PRINFO_PRCHK_GUARD | PRINFO_PRCHK_APP;
		if (f->protection_type != 3)
			d->prinfo |= PRINFO_PRCHK_REF;
		d->xfer_meta = true;
		return 0;
	}
	if (f->protection_type) {
		d->prinfo = PRINFO_PRACT | PRINFO_PRCHK_GUARD;
		if (f->protection_type != 3)
			d->prinfo |= PRINFO_PRCHK_REF;
		/* PRACT moves no metadata when it is exactly the tuple */
		d->xfer_meta = d->ms > n->pi_size;
	} else {
		d->xfer_meta = d->ms > 0;
	}
	return 0;
}

static void nvme_free(struct nvme_data *d)
{
	unsigned int i;

	for (i = 0; i < d->nslot; i++) {
		free(d->slot[i].bounce);
		free(d->slot[i].scratch);
	}
	free(d->slot);
	free(d);
}

static int nvme_init(struct dix_eng_ctx *ctx)
{
	struct nvme_data *d = xcalloc(1, sizeof(*d));
	char why[256] = "dixload was built without liburing";
	int r;

	d->fd = ctx->fd;
	d->ngfd = -1;
	d->name = ctx->path ? ctx->path : "target";
	d->nslot = ctx->depth ? ctx->depth : 1;
	d->slot = xcalloc(d->nslot, sizeof(*d->slot));
	d->timeout_ms = passthru_timeout_ms(ctx->o, 0);	/* 0: the kernel's */
	r = nvme_format(ctx, d);
	if (r)
		goto fail;
	/*
	 * Measured under QEMU (max_hw_sectors_kb 512, max_segments 127):
	 * 512 KiB of data on an extended-LBA ms=8 namespace is a 520 KiB
	 * transfer and fails with EINVAL; so, now and then, does a plain
	 * 512 KiB one whose 128 user pages are not contiguous.
	 */
	ctx->max_io = eng_max_io(ctx->max_xfer, d->lbs,
				 d->ext && d->xfer_meta ? d->ms : 0);
#ifdef HAVE_LIBURING
	if (!nvme_uring_setup(ctx, d, why, sizeof(why)))
		goto ok;
#endif
	/* once per run (eng_once()), not per worker nor per process */
	if (d->nslot > 1) {
		if (eng_once(ctx, NVME_SAID_THREADS))
			dix_warn("nvme: %s: no io_uring passthrough (%s); --iodepth %u runs one thread per queue slot",
				 d->name, why, d->nslot);
	}
	r = threadq_init(&d->q, d->nslot, nvme_run, d);
	if (r) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "cannot start %u I/O threads: %s", d->nslot,
			 strerror(-r));
		goto fail;
	}
#ifdef HAVE_LIBURING
ok:
#endif
	ctx->priv = d;
	return 0;
fail:
	nvme_free(d);
	return r;
}

static int nvme_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct nvme_data *d = ctx->priv;

#ifdef HAVE_LIBURING
	if (d->uring)
		return nvme_uring_queue(d, io);
#endif
	threadq_queue(&d->q, io);
	return DIX_Q_QUEUED;
}

static int nvme_commit(struct dix_eng_ctx *ctx)
{
	struct nvme_data *d = ctx->priv;

#ifdef HAVE_LIBURING
	if (d->uring)
		return uringq_submit(&d->uq);
#endif
	threadq_commit(&d->q);
	return 0;
}

static int nvme_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct nvme_data *d = ctx->priv;

#ifdef HAVE_LIBURING
	if (d->uring)
		return nvme_uring_getevents(d, min);
#endif
	return threadq_getevents(&d->q, min);
}

static struct dix_io *nvme_event(struct dix_eng_ctx *ctx, int i)
{
	struct nvme_data *d = ctx->priv;

#ifdef HAVE_LIBURING
	if (d->uring)
		return uringq_event(&d->uq, i);
#endif
	return threadq_event(&d->q, i);
}

static void nvme_cleanup(struct dix_eng_ctx *ctx)
{
	struct nvme_data *d = ctx->priv;

	if (!d)
		return;
#ifdef HAVE_LIBURING
	if (d->uring) {
		uringq_exit(&d->uq);
		close(d->ngfd);
		free(d->reg_buf);
		free(d->reg_len);
	} else
#endif
		threadq_destroy(&d->q);
	nvme_free(d);
	ctx->priv = NULL;
}

static const struct dix_option nvme_options[] = {
	PASSTHRU_OPT_TIMEOUT,
	{ .name = NULL },
};

const struct dix_engine engine_nvme = {
	.version = DIX_ENGINE_VERSION,
	.name = "nvme",
	.help = "NVMe passthrough Read/Write (libnvme); --pi app: PRCHK guard|app|ref, "
		"PI in the metadata buffer or extended LBAs, failures named by NVMe status; "
		"off/kernel: PRACT=1; --iodepth overlaps through io_uring passthrough "
		"on /dev/ngXnY (Linux 5.19+), else one thread per queue slot",
	.targets = DIX_TGT_NVME,
	.app_pi = DIX_APP_PI_NVME,
	.needs = "/dev/ngXnY (Linux 5.19+) to overlap I/Os by io_uring passthrough",
	.options = nvme_options,
	.init = nvme_init,
	.queue = nvme_queue,
	.commit = nvme_commit,
	.getevents = nvme_getevents,
	.event = nvme_event,
	.cleanup = nvme_cleanup,
};
