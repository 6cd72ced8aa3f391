// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scsi_parse.c - pure parsers of SCSI response bytes (SPC-4/SBC-3 layouts).
 *
 * Field offsets follow the T10 standards; each parser first checks that the
 * bytes it is about to read were actually returned.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/byteorder.h"
#include "proto/scsi_parse.h"

/*
 * INQUIRY strings are ASCII padded with blanks; devices also pad with NULs
 * or put control bytes there.  Keep printable bytes only, so the strings can
 * go straight into messages and JSON.
 */
static void copy_ascii(char *dst, const uint8_t *src, size_t n)
{
	size_t i, end = 0;

	for (i = 0; i < n; i++) {
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : ' ';
		if (dst[i] != ' ')
			end = i + 1;
	}
	dst[end] = '\0';
}

int scsi_parse_inquiry(const uint8_t *buf, size_t len,
		       struct scsi_inquiry *inq)
{
	memset(inq, 0, sizeof(*inq));
	if (len < 6)
		return -EBADMSG;
	/* Peripheral qualifier 011b: the target cannot serve this LUN. */
	if ((buf[0] >> 5) == 3)
		return -EBADMSG;
	inq->pdt = buf[0] & 0x1f;
	inq->version = buf[2];
	inq->protect = buf[5] & 0x01;
	if (len >= 36) {
		copy_ascii(inq->vendor, buf + 8, 8);
		copy_ascii(inq->product, buf + 16, 16);
		copy_ascii(inq->revision, buf + 32, 4);
	}
	return 0;
}

int scsi_parse_readcap16(const uint8_t *buf, size_t len,
			 struct scsi_readcap16 *rc)
{
	memset(rc, 0, sizeof(*rc));
	if (len < 14)
		return -EBADMSG;
	rc->last_lba = get_be64(buf);
	rc->block_length = get_be32(buf + 8);
	if (!rc->block_length)
		return -EBADMSG;
	rc->prot_en = buf[12] & 0x01;
	rc->p_type = (buf[12] >> 1) & 0x07;
	if (rc->prot_en) {
		if (rc->p_type > 2)
			return -EBADMSG;
		rc->protection_type = rc->p_type + 1;
	}
	rc->p_i_exponent = buf[13] >> 4;
	rc->lbppbe = buf[13] & 0x0f;
	if (len >= 16) {
		rc->lbpme = buf[14] & 0x80;
		rc->lbprz = buf[14] & 0x40;
		rc->lowest_aligned_lba = get_be16(buf + 14) & 0x3fff;
	}
	return 0;
}

int scsi_vpd_page_len(const uint8_t *buf, size_t len, unsigned int page)
{
	size_t total;

	if (len < 4 || buf[1] != page)
		return -EBADMSG;
	total = 4 + (size_t)get_be16(buf + 2);
	return (int)(total < len ? total : len);
}

int scsi_vpd_supported(const uint8_t *buf, size_t len, unsigned int page)
{
	int n = scsi_vpd_page_len(buf, len, 0x00);
	int i;

	if (n < 0)
		return n;
	for (i = 4; i < n; i++)
		if (buf[i] == page)
			return 1;
	return 0;
}

unsigned int scsi_spt_types(unsigned int spt)
{
	/* SPC-4 table "SPT field": which of Types 1..3 each code allows. */
	static const unsigned int mask[8] = {
		[0] = 1u << 1,
		[1] = 1u << 1 | 1u << 2,
		[2] = 1u << 2,
		[3] = 1u << 1 | 1u << 3,
		[4] = 1u << 3,
		[5] = 1u << 2 | 1u << 3,
		[6] = 0,	/* see the Supported Block Lengths ... VPD page */
		[7] = 1u << 1 | 1u << 2 | 1u << 3,
	};

	return mask[spt & 7];
}

int scsi_parse_vpd_ext_inquiry(const uint8_t *buf, size_t len,
			       struct scsi_ext_inquiry *ei)
{
	int n = scsi_vpd_page_len(buf, len, 0x86);

	memset(ei, 0, sizeof(*ei));
	if (n < 0)
		return n;
	if (n < 8)
		return -EBADMSG;
	ei->spt = (buf[4] >> 3) & 0x07;
	ei->type_mask = scsi_spt_types(ei->spt);
	ei->grd_chk = buf[4] & 0x04;
	ei->app_chk = buf[4] & 0x02;
	ei->ref_chk = buf[4] & 0x01;
	ei->no_pi_chk = buf[7] & 0x20;
	ei->p_i_i_sup = buf[7] & 0x10;
	return 0;
}

int scsi_parse_vpd_block_limits(const uint8_t *buf, size_t len,
				struct scsi_block_limits *bl)
{
	int n = scsi_vpd_page_len(buf, len, 0xb0);

	memset(bl, 0, sizeof(*bl));
	if (n < 0)
		return n;
	if (n < 16)
		return -EBADMSG;
	bl->max_compare_write = buf[5];
	bl->opt_xfer_granularity = get_be16(buf + 6);
	bl->max_xfer_len = get_be32(buf + 8);
	bl->opt_xfer_len = get_be32(buf + 12);
	if (n >= 24)
		bl->max_unmap_lba_count = get_be32(buf + 20);
	if (n >= 44)
		bl->max_write_same_len = get_be64(buf + 36);
	return 0;
}

static enum scsi_pi_error pi_error_of(unsigned int asc, unsigned int ascq)
{
	if (asc != 0x10)
		return SCSI_PI_NONE;
	switch (ascq) {
	case 0x01:
		return SCSI_PI_GUARD;
	case 0x02:
		return SCSI_PI_APP;
	case 0x03:
		return SCSI_PI_REF;
	default:
		return SCSI_PI_OTHER;
	}
}

/* Descriptor format: walk the descriptors for the Information one (0x00). */
static void sense_desc_info(const uint8_t *buf, size_t len, struct scsi_sense *s)
{
	size_t end = 8 + (size_t)buf[7];
	size_t off = 8;

	if (end > len)
		end = len;
	while (off + 2 <= end) {
		size_t dlen = 2 + (size_t)buf[off + 1];

		if (off + dlen > end)
			break;
		/* Information descriptor: ADDITIONAL LENGTH 0x0A, VALID bit. */
		if (buf[off] == 0x00 && dlen >= 12) {
			s->info_valid = buf[off + 2] & 0x80;
			s->info = get_be64(buf + off + 4);
			return;
		}
		off += dlen;
	}
}

int scsi_parse_sense(const uint8_t *buf, size_t len, struct scsi_sense *s)
{
	unsigned int rc;

	memset(s, 0, sizeof(*s));
	if (!len)
		return -EBADMSG;
	rc = buf[0] & 0x7f;
	if (rc < 0x70 || rc > 0x73)
		return -EBADMSG;
	s->response_code = rc;
	s->deferred = rc == 0x71 || rc == 0x73;
	s->descriptor = rc >= 0x72;
	if (s->descriptor) {
		if (len < 8)
			return -EBADMSG;
		s->sense_key = buf[1] & 0x0f;
		s->asc = buf[2];
		s->ascq = buf[3];
		sense_desc_info(buf, len, s);
	} else {
		if (len >= 3)
			s->sense_key = buf[2] & 0x0f;
		if (len >= 7 && (buf[0] & 0x80)) {
			s->info_valid = true;
			s->info = get_be32(buf + 3);
		}
		/* ASC/ASCQ exist only if ADDITIONAL SENSE LENGTH covers them. */
		if (len >= 14 && buf[7] >= 6) {
			s->asc = buf[12];
			s->ascq = buf[13];
		}
	}
	s->pi = pi_error_of(s->asc, s->ascq);
	return 0;
}

const char *scsi_pi_error_name(enum scsi_pi_error e)
{
	switch (e) {
	case SCSI_PI_GUARD:
		return "guard";
	case SCSI_PI_APP:
		return "app";
	case SCSI_PI_REF:
		return "ref";
	case SCSI_PI_OTHER:
		return "other";
	default:
		return "none";
	}
}
