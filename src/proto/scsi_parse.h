/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scsi_parse.h - pure parsers of SCSI response bytes: standard INQUIRY,
 * READ CAPACITY(16), the Supported VPD Pages, Extended INQUIRY Data (0x86)
 * and Block Limits (0xB0) VPD pages, and fixed/descriptor sense data.
 *
 * Nothing here touches a device: the probe hands over the bytes it got, the
 * unit tests hand over canned ones (tests/data/NAME.hex).  Every parser checks
 * the length it was given against what the format says is there, so a short
 * or lying response is an error, never a read past the buffer.
 */
#ifndef DIX_SCSI_PARSE_H
#define DIX_SCSI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct scsi_inquiry - standard INQUIRY data.
 * @pdt: peripheral device type (0 = direct access block device)
 * @protect: PROTECT bit: the logical unit supports protection information
 * @version: VERSION byte (6 = SPC-4, 7 = SPC-5)
 * @vendor: T10 vendor identification, trailing blanks removed
 * @product: product identification, trailing blanks removed
 * @revision: product revision level, trailing blanks removed
 */
struct scsi_inquiry {
	unsigned int pdt;
	bool protect;
	unsigned int version;
	char vendor[9];
	char product[17];
	char revision[5];
};

/**
 * scsi_parse_inquiry() - parse standard INQUIRY data.
 * @buf: response bytes
 * @len: number of valid bytes in @buf
 * @inq: result
 *
 * The identification strings need 36 bytes; a response of 6 to 35 bytes
 * still yields @pdt, @version and @protect with empty strings.
 *
 * Return: 0; -EBADMSG when @len < 6 (no PROTECT bit) or the response
 * claims a peripheral qualifier of 3 (no device at this LUN).
 */
int scsi_parse_inquiry(const uint8_t *buf, size_t len,
		       struct scsi_inquiry *inq);

/**
 * struct scsi_readcap16 - READ CAPACITY(16) parameter data.
 * @last_lba: RETURNED LOGICAL BLOCK ADDRESS (the last LBA)
 * @block_length: LOGICAL BLOCK LENGTH IN BYTES
 * @prot_en: PROT_EN: the medium is formatted with protection information
 * @p_type: P_TYPE field (protection type - 1 when @prot_en)
 * @protection_type: 0 when !@prot_en, else @p_type + 1 (1..3)
 * @p_i_exponent: P_I_EXPONENT: 2^n protection intervals per logical block
 * @lbppbe: LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT
 * @lbpme: LBPME (thin provisioning enabled)
 * @lbprz: LBPRZ (unmapped blocks read as zeroes)
 * @lowest_aligned_lba: LOWEST ALIGNED LOGICAL BLOCK ADDRESS
 */
struct scsi_readcap16 {
	uint64_t last_lba;
	uint32_t block_length;
	bool prot_en;
	unsigned int p_type;
	unsigned int protection_type;
	unsigned int p_i_exponent;
	unsigned int lbppbe;
	bool lbpme;
	bool lbprz;
	unsigned int lowest_aligned_lba;
};

/**
 * scsi_parse_readcap16() - parse READ CAPACITY(16) parameter data.
 * @buf: response bytes
 * @len: number of valid bytes (32 in a full response)
 * @rc: result
 *
 * A block length such as 520 is reported as found: drives formatted that
 * way exist, and saying so is the probe's job (Linux's sd refuses them).
 *
 * Return: 0; -EBADMSG when @len < 14 (the protection and exponent bytes are
 * missing), the block length is zero, or P_TYPE is a reserved value (> 2)
 * while PROT_EN is set.
 */
int scsi_parse_readcap16(const uint8_t *buf, size_t len,
			 struct scsi_readcap16 *rc);

/**
 * scsi_vpd_page_len() - total length of a VPD page response (header
 * included) as its PAGE LENGTH field declares it, after checking the
 * header.
 * @buf: response bytes
 * @len: number of valid bytes
 * @page: the page code that was asked for
 *
 * Return: the declared total length (>= 4), clipped to @len when the
 * response was truncated by the allocation length; -EBADMSG when @len < 4
 * or the PAGE CODE byte is not @page.
 */
int scsi_vpd_page_len(const uint8_t *buf, size_t len, unsigned int page);

/**
 * scsi_vpd_supported() - whether the Supported VPD Pages page (0x00) lists
 * @page.
 * @buf: page 0x00 response bytes
 * @len: number of valid bytes
 * @page: page code to look for
 *
 * Return: 1 listed, 0 not listed, -EBADMSG for a malformed page.
 */
int scsi_vpd_supported(const uint8_t *buf, size_t len, unsigned int page);

/**
 * struct scsi_ext_inquiry - Extended INQUIRY Data VPD page (0x86), the
 * protection information fields.
 * @spt: SPT field: which protection types the logical unit supports
 * @type_mask: @spt decoded: bit N set = Type N supported (0 for SPT 110b,
 *	which points at the Supported Block Lengths and Protection Types page)
 * @grd_chk: GRD_CHK: the device checks the logical block guard
 * @app_chk: APP_CHK: the device checks the logical block application tag
 * @ref_chk: REF_CHK: the device checks the logical block reference tag
 * @p_i_i_sup: P_I_I_SUP: protection information intervals supported
 * @no_pi_chk: NO_PI_CHK: protection information checking can be disabled
 */
struct scsi_ext_inquiry {
	unsigned int spt;
	unsigned int type_mask;
	bool grd_chk;
	bool app_chk;
	bool ref_chk;
	bool p_i_i_sup;
	bool no_pi_chk;
};

/**
 * scsi_parse_vpd_ext_inquiry() - parse the Extended INQUIRY Data VPD page.
 * @buf: page 0x86 response bytes
 * @len: number of valid bytes
 * @ei: result
 *
 * Return: 0; -EBADMSG when the header is not page 0x86 or the page is too
 * short to hold byte 7 (the P_I_I_SUP byte).
 */
int scsi_parse_vpd_ext_inquiry(const uint8_t *buf, size_t len,
			       struct scsi_ext_inquiry *ei);

/**
 * struct scsi_block_limits - Block Limits VPD page (0xB0), in logical
 * blocks (0 = not reported).
 * @max_compare_write: MAXIMUM COMPARE AND WRITE LENGTH
 * @opt_xfer_granularity: OPTIMAL TRANSFER LENGTH GRANULARITY
 * @max_xfer_len: MAXIMUM TRANSFER LENGTH
 * @opt_xfer_len: OPTIMAL TRANSFER LENGTH
 * @max_unmap_lba_count: MAXIMUM UNMAP LBA COUNT (0 when the page is the
 *	short SBC-2 form that ends before it)
 * @max_write_same_len: MAXIMUM WRITE SAME LENGTH (0 when not in the page)
 */
struct scsi_block_limits {
	unsigned int max_compare_write;
	unsigned int opt_xfer_granularity;
	uint32_t max_xfer_len;
	uint32_t opt_xfer_len;
	uint32_t max_unmap_lba_count;
	uint64_t max_write_same_len;
};

/**
 * scsi_parse_vpd_block_limits() - parse the Block Limits VPD page.
 * @buf: page 0xB0 response bytes
 * @len: number of valid bytes
 * @bl: result
 *
 * Devices of the SBC-2 era return a 16-byte page (up to OPTIMAL TRANSFER
 * LENGTH); later fields are read only when the page holds them.
 *
 * Return: 0; -EBADMSG when the header is not page 0xB0 or the page ends
 * before OPTIMAL TRANSFER LENGTH (16 bytes).
 */
int scsi_parse_vpd_block_limits(const uint8_t *buf, size_t len,
				struct scsi_block_limits *bl);

/**
 * enum scsi_pi_error - which protection information check a sense reports.
 * @SCSI_PI_NONE: not a protection information error
 * @SCSI_PI_GUARD: ASC 0x10 ASCQ 0x01, LOGICAL BLOCK GUARD CHECK FAILED
 * @SCSI_PI_APP: ASC 0x10 ASCQ 0x02, APPLICATION TAG CHECK FAILED
 * @SCSI_PI_REF: ASC 0x10 ASCQ 0x03, REFERENCE TAG CHECK FAILED
 * @SCSI_PI_OTHER: ASC 0x10 with another ASCQ (e.g. 0x00 ID CRC OR ECC)
 */
enum scsi_pi_error {
	SCSI_PI_NONE,
	SCSI_PI_GUARD,
	SCSI_PI_APP,
	SCSI_PI_REF,
	SCSI_PI_OTHER,
};

/**
 * struct scsi_sense - decoded sense data.
 * @response_code: 0x70/0x71 fixed, 0x72/0x73 descriptor format
 * @descriptor: descriptor format
 * @deferred: the error belongs to an earlier command (0x71/0x73)
 * @sense_key: SENSE KEY (0x1 RECOVERED ERROR, 0x3 MEDIUM ERROR, 0x5 ILLEGAL
 *	REQUEST, 0xB ABORTED COMMAND ...)
 * @asc: ADDITIONAL SENSE CODE
 * @ascq: ADDITIONAL SENSE CODE QUALIFIER
 * @info_valid: @info holds the INFORMATION field (for a PI error: the LBA)
 * @info: INFORMATION field
 * @pi: which protection check failed, from @asc/@ascq
 */
struct scsi_sense {
	unsigned int response_code;
	bool descriptor;
	bool deferred;
	unsigned int sense_key;
	unsigned int asc;
	unsigned int ascq;
	bool info_valid;
	uint64_t info;
	enum scsi_pi_error pi;
};

/**
 * scsi_parse_sense() - decode fixed or descriptor format sense data.
 * @buf: sense bytes
 * @len: number of valid bytes (the SG_IO sb_len_wr)
 * @s: result
 *
 * Fixed format: the key needs 3 bytes, ASC/ASCQ 14 bytes and an ADDITIONAL
 * SENSE LENGTH >= 6 (else they stay 0), INFORMATION is valid when the VALID
 * bit is set and 7 bytes arrived.
 * Descriptor format: key/ASC/ASCQ from the header, INFORMATION from an
 * Information descriptor (type 0x00) walked within ADDITIONAL SENSE LENGTH
 * and @len.
 *
 * Return: 0; -EBADMSG for an empty buffer, a response code other than
 * 0x70-0x73, or a descriptor header shorter than 8 bytes.
 */
int scsi_parse_sense(const uint8_t *buf, size_t len, struct scsi_sense *s);

/** scsi_pi_error_name() - "guard", "app", "ref", "other" or "none". */
const char *scsi_pi_error_name(enum scsi_pi_error e);

/**
 * scsi_spt_types() - the protection types an SPT value stands for, as a
 * bit mask (bit N = Type N); 0 for the value 110b that refers to another
 * VPD page.
 */
unsigned int scsi_spt_types(unsigned int spt);

#endif
