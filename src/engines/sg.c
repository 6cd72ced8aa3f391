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
 * SG_IO blocks, so queue depth is one thread per slot (threadq.c); every
 * command goes through dix_sg_transport so the unit test can stand in for
 * the disk.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg_lib.h>

#include "byteorder.h"
#include "engine.h"
#include "options.h"
#include "scsi_parse.h"
#include "sg.h"
#include "threadq.h"
#include "util.h"

#define SG_SENSE_LEN	96
#define SG_TIMEOUT_MS	60000
#define DIF_TUPLE	8	/* T10 DIF: guard 2, app 2, ref 4 */

static int sg_ioctl_transport(int fd, struct sg_io_hdr *hdr)
{
	return ioctl(fd, SG_IO, hdr) < 0 ? -errno : 0;
}

int (*dix_sg_transport)(int fd, struct sg_io_hdr *hdr) = sg_ioctl_transport;

struct sg_slot {
	uint8_t *bounce;	/* data + interleaved PI (--pi app) */
	size_t cap;
};

struct sg_data {
	struct threadq q;
	int fd;
	const char *name;
	uint32_t lbs;
	unsigned int prot;	/* RDPROTECT/WRPROTECT field */
	int cdb32;		/* Type 2 with PI in the buffer: 32-byte CDBs */
	struct sg_slot *slot;
	unsigned int nslot;
};

static void sg_hdr(struct sg_io_hdr *h, uint8_t *cdb, int cdb_len, int dir,
		   void *buf, unsigned int len, uint8_t *sense)
{
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->cmdp = cdb;
	h->cmd_len = cdb_len;
	h->dxfer_direction = dir;
	h->dxferp = buf;
	h->dxfer_len = len;
	h->sbp = sense;
	h->mx_sb_len = SG_SENSE_LEN;
	h->timeout = SG_TIMEOUT_MS;
}

/*
 * "SCSI status Check Condition, Medium Error: Unrecovered read error (ASC
 * 0x11 ASCQ 0x00)", with the host status in front when there is one.
 */
static void sg_describe(const struct sg_io_hdr *h, const struct scsi_sense *s,
			int have_sense, char *out, size_t len)
{
	char st[32], key[32], asc[80], host[24] = "";

	if (h->host_status)
		snprintf(host, sizeof(host), "host status 0x%x, ",
			 h->host_status);
	sg_get_scsi_status_str(h->status, sizeof(st), st);
	if (!have_sense) {
		snprintf(out, len, "%sSCSI status %s (0x%x), driver status 0x%x, no sense data",
			 host, st, h->status, h->driver_status);
		return;
	}
	sg_get_sense_key_str(s->sense_key, sizeof(key), key);
	sg_get_asc_ascq_str(s->asc, s->ascq, sizeof(asc), asc);
	if (s->info_valid)
		snprintf(out, len, "%sSCSI status %s, %s: %s (ASC 0x%02x ASCQ 0x%02x) at LBA %llu",
			 host, st, key, asc, s->asc, s->ascq,
			 (unsigned long long)s->info);
	else
		snprintf(out, len, "%sSCSI status %s, %s: %s (ASC 0x%02x ASCQ 0x%02x)",
			 host, st, key, asc, s->asc, s->ascq);
}

/*
 * The outcome of a completed SG_IO: 0 success, 1 success with a recovered
 * error, or -errno with *kind set for protection information failures.
 * Unless it is 0, @msg describes the status and sense.
 * Sense data is believed even next to a host status: initiators and
 * scsi_debug report a failed PI check as DID_ABORT plus the device's
 * sense, and the sense is what names the tag.
 */
static int sg_outcome(const struct sg_io_hdr *h, char *msg, size_t len,
		      int *kind, char *status, size_t slen)
{
	struct scsi_sense s;
	int have_sense;

	*kind = DIX_ERR_NR;
	msg[0] = '\0';
	if (status)
		status[0] = '\0';
	memset(&s, 0, sizeof(s));
	if ((h->info & SG_INFO_OK_MASK) == SG_INFO_OK)
		return 0;
	have_sense = h->sb_len_wr > 0 &&
		     !scsi_parse_sense(h->sbp, h->sb_len_wr, &s);
	sg_describe(h, &s, have_sense, msg, len);
	if (have_sense && status)
		snprintf(status, slen, "ASC %02x/%02x", s.asc, s.ascq);
	if (!have_sense)
		return h->host_status == 0x03 ? -ETIMEDOUT : -EIO; /* DID_TIME_OUT */
	if (s.sense_key == 0x1 && !h->host_status)	/* RECOVERED ERROR */
		return 1;
	switch (s.pi) {
	case SCSI_PI_GUARD:
		*kind = DIX_ERR_GUARD;
		return -EILSEQ;
	case SCSI_PI_APP:
		*kind = DIX_ERR_APP;
		return -EILSEQ;
	case SCSI_PI_REF:
		*kind = DIX_ERR_REF;
		return -EILSEQ;
	case SCSI_PI_OTHER:
		*kind = DIX_ERR_UNKNOWN;
		return -EILSEQ;
	default:
		return -EIO;
	}
}

static uint8_t *sg_bounce(struct sg_data *d, unsigned int idx, size_t len)
{
	struct sg_slot *s = &d->slot[idx];

	if (aligned_grow((void **)&s->bounce, &s->cap, len) < 0)
		return NULL;
	return s->bounce;
}

/* One READ/WRITE, in a pool thread. */
static void sg_run(void *arg, struct dix_io *io)
{
	struct sg_data *d = arg;
	uint8_t cdb[32], sense[SG_SENSE_LEN];
	struct sg_io_hdr h;
	uint32_t nblk = io->len / d->lbs;
	uint64_t lba = io->offset / d->lbs;
	int wr = io->dir == DIX_WRITE, kind, r, cdb_len;
	uint32_t per = d->lbs + (d->prot ? DIF_TUPLE : 0);
	size_t xfer = (size_t)nblk * per;
	void *buf = io->buf;

	if (d->prot) {
		if (io->idx >= d->nslot || !io->meta ||
		    io->meta_len < nblk * DIF_TUPLE) {
			io->res = -EINVAL;
			return;
		}
		buf = sg_bounce(d, io->idx, xfer);
		if (!buf) {
			io->res = -ENOMEM;
			return;
		}
		if (wr)
			pi_interleave(buf, io->buf, io->meta, d->lbs, DIF_TUPLE,
				      nblk);
	}
	memset(cdb, 0, sizeof(cdb));
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
	sg_hdr(&h, cdb, cdb_len, wr ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV, buf,
	       xfer, sense);
	r = dix_sg_transport(d->fd, &h);
	if (r < 0) {
		io->res = r;
		return;
	}
	r = sg_outcome(&h, io->detail, sizeof(io->detail), &kind, io->status,
		       sizeof(io->status));
	if (r < 0) {
		io->res = r;
		io->errkind = kind;
		return;
	}
	io->detail[0] = '\0';	/* a recovered error is no failure */
	io->status[0] = '\0';
	io->recovered = r == 1;
	if (h.resid > 0 && (size_t)h.resid <= xfer)
		xfer -= h.resid;
	io->res = (int32_t)(xfer / per * d->lbs);
	if (!wr && d->prot)
		pi_deinterleave(buf, io->buf, io->meta, d->lbs, DIF_TUPLE,
				io->res / d->lbs);
}

/* READ CAPACITY(16): the block length and how the medium is protected. */
static int sg_readcap(struct sg_data *d, struct scsi_readcap16 *rc,
		      struct dix_eng_ctx *ctx)
{
	uint8_t cdb[16], sense[SG_SENSE_LEN], buf[32];
	struct sg_io_hdr h;
	char msg[256];
	int r, kind;

	memset(cdb, 0, sizeof(cdb));
	memset(buf, 0, sizeof(buf));
	cdb[0] = 0x9e;
	cdb[1] = 0x10;
	put_be32(cdb + 10, sizeof(buf));
	sg_hdr(&h, cdb, sizeof(cdb), SG_DXFER_FROM_DEV, buf, sizeof(buf), sense);
	r = dix_sg_transport(d->fd, &h);
	if (r < 0) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: SG_IO failed (%s): not a SCSI device?", d->name,
			 strerror(-r));
		return r;
	}
	r = sg_outcome(&h, msg, sizeof(msg), &kind, NULL, 0);
	if (r < 0) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%.40s: READ CAPACITY(16) failed: %.180s", d->name, msg);
		return r;
	}
	if (scsi_parse_readcap16(buf, sizeof(buf) - (h.resid > 0 ? h.resid : 0),
				 rc)) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: READ CAPACITY(16) returned malformed data",
			 d->name);
		return -EBADMSG;
	}
	return 0;
}

/*
 * scsi_debug takes a protected WRITE through pass-through as plain data of
 * the CDB's length: the tuples would be stored as data and reads come back
 * short.  Refuse --pi app there instead of producing nonsense.
 * Return: 1 when the INQUIRY product identification is scsi_debug.
 */
static int sg_is_scsi_debug(struct sg_data *d)
{
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, sense[SG_SENSE_LEN], buf[96];
	struct scsi_inquiry inq;
	struct sg_io_hdr h;
	char msg[256];
	int kind;

	memset(buf, 0, sizeof(buf));
	sg_hdr(&h, cdb, sizeof(cdb), SG_DXFER_FROM_DEV, buf, sizeof(buf), sense);
	if (dix_sg_transport(d->fd, &h) ||
	    sg_outcome(&h, msg, sizeof(msg), &kind, NULL, 0))
		return 0;
	if (scsi_parse_inquiry(buf, sizeof(buf) - (h.resid > 0 ? h.resid : 0),
			       &inq))
		return 0;
	return !strcmp(inq.product, "scsi_debug");
}

static void sg_free(struct sg_data *d)
{
	unsigned int i;

	for (i = 0; i < d->nslot; i++)
		free(d->slot[i].bounce);
	free(d->slot);
	free(d);
}

static int sg_init(struct dix_eng_ctx *ctx)
{
	struct sg_data *d = xcalloc(1, sizeof(*d));
	struct scsi_readcap16 rc;
	int r;

	d->fd = ctx->fd;
	d->name = ctx->path ? ctx->path : "target";
	d->nslot = ctx->depth ? ctx->depth : 1;
	d->slot = xcalloc(d->nslot, sizeof(*d->slot));
	r = sg_readcap(d, &rc, ctx);
	if (r)
		goto fail;
	d->lbs = rc.block_length;
	if (ctx->lbs && ctx->lbs != d->lbs) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: READ CAPACITY(16) says %u-byte blocks, the kernel %u",
			 d->name, d->lbs, ctx->lbs);
		r = -EINVAL;
		goto fail;
	}
	if (ctx->pi_mode == PI_APP) {
		if (!rc.prot_en) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: --pi app needs a medium formatted with protection information (READ CAPACITY(16) PROT_EN=0)",
				 d->name);
			r = -EINVAL;
			goto fail;
		}
		if (sg_is_scsi_debug(d)) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: scsi_debug does not take PI interleaved in a pass-through buffer (it would store the tuples as data): use --pi off here, or --engine io_uring --pi app",
				 d->name);
			r = -EOPNOTSUPP;
			goto fail;
		}
		if (rc.p_i_exponent) {
			snprintf(ctx->errmsg, sizeof(ctx->errmsg),
				 "%s: %u protection intervals per logical block (P_I_EXPONENT %u) are not supported by the sg engine",
				 d->name, 1u << rc.p_i_exponent,
				 rc.p_i_exponent);
			r = -EOPNOTSUPP;
			goto fail;
		}
		d->prot = 1;
		d->cdb32 = rc.protection_type == 2;
		ctx->pif.guard = DIX_GUARD_CRC16;
		ctx->pif.type = rc.protection_type;
		ctx->pif.interval = d->lbs;
		ctx->pif.ms = DIF_TUPLE;
		ctx->pif.pi_first = false;
		ctx->pif.interleaved = true;
	}
	/* SG_IO is never split; with --pi app the tuples travel in its
	 * buffer after each block */
	ctx->max_io = eng_max_io(ctx->max_xfer, d->lbs,
				 d->prot ? DIF_TUPLE : 0);
	r = threadq_init(&d->q, d->nslot, sg_run, d);
	if (r) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "cannot start %u I/O threads: %s", d->nslot,
			 strerror(-r));
		goto fail;
	}
	ctx->priv = d;
	return 0;
fail:
	sg_free(d);
	return r;
}

static int sg_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct sg_data *d = ctx->priv;

	if (io->len % d->lbs || io->offset % d->lbs)
		return -EINVAL;
	threadq_queue(&d->q, io);
	return DIX_Q_QUEUED;
}

static int sg_commit(struct dix_eng_ctx *ctx)
{
	struct sg_data *d = ctx->priv;

	threadq_commit(&d->q);
	return 0;
}

static int sg_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct sg_data *d = ctx->priv;

	return threadq_getevents(&d->q, min);
}

static struct dix_io *sg_event(struct dix_eng_ctx *ctx, int i)
{
	struct sg_data *d = ctx->priv;

	return threadq_event(&d->q, i);
}

static void sg_cleanup(struct dix_eng_ctx *ctx)
{
	struct sg_data *d = ctx->priv;

	if (!d)
		return;
	threadq_destroy(&d->q);
	sg_free(d);
	ctx->priv = NULL;
}

const struct dix_engine engine_sg = {
	.version = DIX_ENGINE_VERSION,
	.name = "sg",
	.help = "SCSI pass-through (SG_IO) READ/WRITE(16), READ/WRITE(32) on Type 2; "
		"--pi app interleaves PI after each block (RDPROTECT/WRPROTECT=1), "
		"off/kernel sends none; which tag failed comes from the sense; "
		"--iodepth overlaps with one thread per queue slot",
	.targets = DIX_TGT_SCSI,
	.app_pi = DIX_APP_PI_SCSI,
	.init = sg_init,
	.queue = sg_queue,
	.commit = sg_commit,
	.getevents = sg_getevents,
	.event = sg_event,
	.cleanup = sg_cleanup,
};
