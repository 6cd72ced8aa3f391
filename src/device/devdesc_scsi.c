// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devdesc_scsi.c - the SCSI provider of the device description (INQUIRY
 * and READ CAPACITY(16), once per device) and the SG_IO transport and
 * outcome decoding it shares with the sg engine.
 *
 * The sg engine sent READ CAPACITY(16) from every worker's init and probe
 * sent it again through libsgutils2; both read the description now, so the
 * disk is asked once per run and in one way.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#ifdef HAVE_SGUTILS
#include <scsi/sg_io_linux.h>
#include <scsi/sg_lib.h>
#endif

#include "device/devdesc_scsi.h"
#include "lib/byteorder.h"
#include "lib/stats.h"

int sgio_kernel(int fd, struct sg_io_hdr *hdr)
{
	return ioctl(fd, SG_IO, hdr) < 0 ? -errno : 0;
}

void sgio_hdr(struct sg_io_hdr *h, uint8_t *cdb, int cdb_len, int dir,
	      void *buf, unsigned int len, uint8_t *sense,
	      unsigned int timeout_ms)
{
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->cmdp = cdb;
	h->cmd_len = cdb_len;
	h->dxfer_direction = dir;
	h->dxferp = buf;
	h->dxfer_len = len;
	h->sbp = sense;
	h->mx_sb_len = SGIO_SENSE_LEN;
	h->timeout = timeout_ms;
}

/*
 * "SCSI status Check Condition, Medium Error: Unrecovered read error (ASC
 * 0x11 ASCQ 0x00)", with the host status in front when there is one.
 */
static void sgio_describe(const struct sg_io_hdr *h, const struct scsi_sense *s,
			  int have_sense, char *out, size_t len)
{
	char st[32], key[32], asc[80], host[24] = "";

	if (h->host_status)
		snprintf(host, sizeof(host), "host status 0x%x, ",
			 h->host_status);
#ifdef HAVE_SGUTILS
	sg_get_scsi_status_str(h->status, sizeof(st), st);
#else
	snprintf(st, sizeof(st), "0x%x", h->status);
#endif
	if (!have_sense) {
		snprintf(out, len, "%sSCSI status %s (0x%x), driver status 0x%x, no sense data",
			 host, st, h->status, h->driver_status);
		return;
	}
#ifdef HAVE_SGUTILS
	sg_get_sense_key_str(s->sense_key, sizeof(key), key);
	sg_get_asc_ascq_str(s->asc, s->ascq, sizeof(asc), asc);
#else
	snprintf(key, sizeof(key), "sense key 0x%x", s->sense_key);
	snprintf(asc, sizeof(asc), "additional sense");
#endif
	if (s->info_valid)
		snprintf(out, len, "%sSCSI status %s, %s: %s (ASC 0x%02x ASCQ 0x%02x) at LBA %llu",
			 host, st, key, asc, s->asc, s->ascq,
			 (unsigned long long)s->info);
	else
		snprintf(out, len, "%sSCSI status %s, %s: %s (ASC 0x%02x ASCQ 0x%02x)",
			 host, st, key, asc, s->asc, s->ascq);
}

int sgio_outcome(const struct sg_io_hdr *h, char *msg, size_t len, int *kind,
		 char *status, size_t slen)
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
	sgio_describe(h, &s, have_sense, msg, len);
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

void devdesc_scsi_from(struct devdesc_scsi *s, const uint8_t *inq,
		       size_t inq_len, const uint8_t *rc, size_t rc_len)
{
	s->inq_ok = inq && !scsi_parse_inquiry(inq, inq_len, &s->inq);
	s->scsi_debug = s->inq_ok && !strcmp(s->inq.product, "scsi_debug");
	s->rc_ok = false;
	s->has_pi = false;
	memset(&s->pif, 0, sizeof(s->pif));
	if (!rc)
		return;
	if (scsi_parse_readcap16(rc, rc_len, &s->rc)) {
		s->rc_ans.res = -EBADMSG;
		s->rc_ans.malformed = true;
		return;
	}
	s->rc_ok = true;
	s->has_pi = s->rc.prot_en;
	if (!s->has_pi)
		return;
	s->pif.guard = DIX_GUARD_CRC16;
	s->pif.type = s->rc.protection_type;
	s->pif.interval = s->rc.block_length >> s->rc.p_i_exponent;
	s->pif.ms = SGIO_DIF_TUPLE;
	s->pif.pi_first = false;
	s->pif.interleaved = true;
}

/*
 * Send one command that reads @len bytes into @buf; its outcome into @a.
 * Return: the bytes received, or -1 when none came.
 */
static long sgio_read(sgio_fn *io, int fd, uint8_t *cdb, int cdb_len,
		      uint8_t *buf,
		      unsigned int len, unsigned int timeout_ms,
		      struct sgio_answer *a)
{
	uint8_t sense[SGIO_SENSE_LEN];
	struct sg_io_hdr h;
	int r, kind;

	memset(a, 0, sizeof(*a));
	memset(buf, 0, len);
	sgio_hdr(&h, cdb, cdb_len, SG_DXFER_FROM_DEV, buf, len, sense,
		 timeout_ms);
	r = io(fd, &h);
	if (r < 0) {
		a->res = r;
		return -1;
	}
	a->sent = true;
	r = sgio_outcome(&h, a->why, sizeof(a->why), &kind, NULL, 0);
	if (r < 0) {
		a->res = r;
#ifdef HAVE_SGUTILS
		a->cat = sg_err_category3(&h);
#else
		a->cat = -1;
#endif
		return -1;
	}
	a->why[0] = '\0';	/* a recovered error is an answer */
	return (long)len - (h.resid > 0 ? h.resid : 0);
}

void devdesc_scsi_ask(struct devdesc_scsi *s, int fd, sgio_fn *io,
		      unsigned int timeout_ms, devdesc_raw_fn *raw, void *arg)
{
	uint8_t inq_cdb[6] = { 0x12, 0, 0, 0, SGIO_INQ_LEN, 0 }, rc_cdb[16];
	uint8_t inq[SGIO_INQ_LEN], rc[SGIO_RC16_LEN];
	long ni, nr;

	memset(s, 0, sizeof(*s));
	s->asked = true;
	if (!timeout_ms)
		timeout_ms = SGIO_TIMEOUT_MS;
	if (!io)
		io = sgio_kernel;
	ni = sgio_read(io, fd, inq_cdb, sizeof(inq_cdb), inq, sizeof(inq),
		       timeout_ms, &s->inq_ans);
	if (ni >= 0 && raw)
		raw(arg, "inquiry", "standard INQUIRY", inq, ni);

	memset(rc_cdb, 0, sizeof(rc_cdb));
	rc_cdb[0] = 0x9e;	/* SERVICE ACTION IN(16) */
	rc_cdb[1] = 0x10;	/* READ CAPACITY(16) */
	put_be32(rc_cdb + 10, sizeof(rc));
	nr = sgio_read(io, fd, rc_cdb, sizeof(rc_cdb), rc, sizeof(rc), timeout_ms,
		       &s->rc_ans);
	if (nr >= 0 && raw)
		raw(arg, "readcap16", "READ CAPACITY(16)", rc, sizeof(rc));
	devdesc_scsi_from(s, ni >= 0 ? inq : NULL, ni >= 0 ? ni : 0,
			  nr >= 0 ? rc : NULL, nr >= 0 ? nr : 0);
}

int devdesc_scsi_rc_failure(const struct devdesc_scsi *s, const char *name,
			    char *out, size_t len)
{
	const struct sgio_answer *a = &s->rc_ans;

	if (s->rc_ok)
		return 0;
	if (!s->asked)
		snprintf(out, len, "%s: the SCSI description was not asked for",
			 name);
	else if (!a->sent)
		snprintf(out, len, "%s: SG_IO failed (%s): not a SCSI device?",
			 name, strerror(-a->res));
	else if (a->malformed)
		snprintf(out, len, "%s: READ CAPACITY(16) returned malformed data",
			 name);
	else
		snprintf(out, len, "%.40s: READ CAPACITY(16) failed: %.180s",
			 name, a->why);
	return a->res ? a->res : -EINVAL;
}
