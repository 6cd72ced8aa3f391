/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devdesc_scsi.h - the SCSI provider of the device description: what a SCSI
 * disk says of itself (standard INQUIRY, READ CAPACITY(16)) and the
 * protection format that follows, asked once per device for the run and
 * for probe; and the SG_IO transport that provider and the sg engine share.
 *
 * The commands go through a transport the caller names (sgio_fn: SG_IO on
 * the device's descriptor unless a test gives its emulated disk's, which
 * the target's description carries to the sg engine, struct
 * dix_devdesc.sgio), so the sg engine's unit test answers them like every
 * other command, and no process-wide hook decides where a command goes.  Parsing the answers into the description
 * is pure (devdesc_scsi_from()), tested on tests/data/NAME.hex.
 */
#ifndef DIX_DEVDESC_SCSI_H
#define DIX_DEVDESC_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <scsi/sg.h>

#include "device/devdesc_raw.h"
#include "pi/pi.h"
#include "proto/scsi_parse.h"

#define SGIO_SENSE_LEN	96
/* Without --timeout: long enough for an array's path failover or a
 * drive's own error recovery, which sd allows 30 s a try and retries. */
#define SGIO_TIMEOUT_MS	60000
/* T10 DIF tuple: guard 2, app 2, ref 4 */
#define SGIO_DIF_TUPLE	8
#define SGIO_INQ_LEN	96
#define SGIO_RC16_LEN	32

/**
 * typedef sgio_fn - a transport: send one SCSI command.
 * @fd: the device's descriptor (block device or /dev/sgN)
 * @hdr: a filled sg_io_hdr; on return its status, sense and resid fields
 *	are set as SG_IO sets them
 *
 * May be called from several threads at once.
 * Return: 0 when the command reached the device (its outcome is in @hdr),
 * or -errno when it could not be sent.
 */
typedef int sgio_fn(int fd, struct sg_io_hdr *hdr);

/** sgio_kernel() - the kernel's transport: the SG_IO ioctl on @fd. */
int sgio_kernel(int fd, struct sg_io_hdr *hdr);

/**
 * sgio_hdr() - fill @h for one command: @cdb of @cdb_len bytes, data
 * direction @dir (SG_DXFER_*), @len bytes at @buf, sense into @sense
 * (SGIO_SENSE_LEN bytes), @timeout_ms.
 */
void sgio_hdr(struct sg_io_hdr *h, uint8_t *cdb, int cdb_len, int dir,
	      void *buf, unsigned int len, uint8_t *sense,
	      unsigned int timeout_ms);

/**
 * sgio_outcome() - what a completed SG_IO says.
 * @h: the command as it came back
 * @msg: unless the return is 0, the status and sense in words ("SCSI
 *	status Check Condition, Medium Error: ... (ASC 0x11 ASCQ 0x00)")
 * @kind: DIX_ERR_GUARD/APP/REF/UNKNOWN for a failed protection check
 *	(ASC 0x10), else DIX_ERR_NR
 * @status: with sense, "ASC 10/01" (NULL: not wanted)
 *
 * Sense data is believed even next to a host status: initiators and
 * scsi_debug report a failed PI check as DID_ABORT plus the device's sense,
 * and the sense is what names the tag.
 *
 * Return: 0 success, 1 success with a recovered error, or -errno
 * (-EILSEQ for a protection check, -ETIMEDOUT, -EIO).
 */
int sgio_outcome(const struct sg_io_hdr *h, char *msg, size_t len, int *kind,
		 char *status, size_t slen);

/**
 * struct sgio_answer - how one command of the provider went.
 * @res: 0 answered; else -errno: not sent (!@sent), failed, or malformed
 * @sent: the command reached the device
 * @malformed: it answered, with bytes the parser refused
 * @cat: with @sent and a failure, sg3_utils' SG_LIB_CAT_* of it (-1 when
 *	dixload was built without libsgutils2)
 * @why: with @sent and a failure, the status and sense in words
 */
struct sgio_answer {
	int res;
	bool sent;
	bool malformed;
	int cat;
	char why[200];
};

/**
 * struct devdesc_scsi - the SCSI disk's own description.
 * @asked: the provider ran (devdesc_scsi_ask())
 * @inq_ans: how the standard INQUIRY went
 * @inq_ok: @inq holds it parsed
 * @inq: standard INQUIRY data (identity: vendor, product, PROTECT)
 * @scsi_debug: the product identification is scsi_debug's
 * @rc_ans: how READ CAPACITY(16) went
 * @rc_ok: @rc holds it parsed
 * @rc: READ CAPACITY(16) data
 * @has_pi: the medium is formatted with protection information (PROT_EN)
 * @pif: with @has_pi, its format as it travels in a pass-through buffer:
 *	16-bit CRC guard, the medium's type, a tuple after each protection
 *	interval (block length >> P_I_EXPONENT), interleaved
 */
struct devdesc_scsi {
	bool asked;
	struct sgio_answer inq_ans;
	bool inq_ok;
	struct scsi_inquiry inq;
	bool scsi_debug;
	struct sgio_answer rc_ans;
	bool rc_ok;
	struct scsi_readcap16 rc;
	bool has_pi;
	struct pi_format pif;
};

/**
 * devdesc_scsi_from() - parse the answers into @s (pure).
 * @inq: standard INQUIRY bytes received, or NULL when it gave none
 * @rc: READ CAPACITY(16) bytes received, or NULL when it gave none
 *
 * Sets @s->inq_ok, @s->inq, @s->scsi_debug; @s->rc_ok, @s->rc, @s->has_pi,
 * @s->pif; a READ CAPACITY(16) that does not parse marks @s->rc_ans
 * malformed (-EBADMSG).  An INQUIRY that does not parse only leaves
 * @s->inq_ok false.
 */
void devdesc_scsi_from(struct devdesc_scsi *s, const uint8_t *inq,
		       size_t inq_len, const uint8_t *rc, size_t rc_len);

/**
 * devdesc_scsi_ask() - send the standard INQUIRY and READ CAPACITY(16) to
 * the disk open as @fd and describe it in @s.
 * @io: the transport (NULL: sgio_kernel())
 * @timeout_ms: of each command (0: SGIO_TIMEOUT_MS)
 * @raw: called with each answer's bytes (NULL: not wanted)
 *
 * Nothing is written.  Both commands are always sent; each one's outcome is
 * in its struct sgio_answer.
 */
void devdesc_scsi_ask(struct devdesc_scsi *s, int fd, sgio_fn *io,
		      unsigned int timeout_ms, devdesc_raw_fn *raw, void *arg);

/**
 * devdesc_scsi_rc_failure() - why READ CAPACITY(16) gave no format, as an
 * error message naming @name ("sda: READ CAPACITY(16) failed: ...").
 *
 * Return: 0 when it did give one (@out untouched), else its -errno.
 */
int devdesc_scsi_rc_failure(const struct devdesc_scsi *s, const char *name,
			    char *out, size_t len);

#endif
