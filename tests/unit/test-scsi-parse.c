// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-scsi-parse.c - the SCSI response parsers on canned responses
 * (tests/data/scsi-*.hex), including truncated and malformed ones.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "proto/scsi_parse.h"
#include "tap.h"
#include "hexfile.h"

static uint8_t buf[4096];

static long load(const char *name)
{
	return hexfile_load(name, buf, sizeof(buf));
}

static void test_inquiry(void)
{
	struct scsi_inquiry inq;
	long n;

	n = load("scsi-inquiry-protect.hex");
	is_int(n, 96, "inquiry: 96 bytes loaded");
	is_int(scsi_parse_inquiry(buf, n, &inq), 0, "inquiry: parses");
	is_int(inq.pdt, 0, "inquiry: direct access device");
	is_int(inq.version, 7, "inquiry: version 7");
	is_int(inq.protect, 1, "inquiry: PROTECT=1");
	is_str(inq.vendor, "Linux", "inquiry: vendor trimmed");
	is_str(inq.product, "scsi_debug", "inquiry: product trimmed");
	is_str(inq.revision, "0191", "inquiry: revision");

	n = load("scsi-inquiry-noprotect-nul.hex");
	is_int(scsi_parse_inquiry(buf, n, &inq), 0, "inquiry nul: parses");
	is_int(inq.protect, 0, "inquiry nul: PROTECT=0");
	is_str(inq.vendor, "ACME", "inquiry nul: NUL padding dropped");
	is_str(inq.product, "Disk", "inquiry nul: control byte dropped");
	is_str(inq.revision, "1.0", "inquiry nul: revision");

	n = load("scsi-inquiry-short20.hex");
	is_int(scsi_parse_inquiry(buf, n, &inq), 0, "inquiry 20 bytes: parses");
	is_int(inq.protect, 1, "inquiry 20 bytes: PROTECT read");
	is_str(inq.vendor, "", "inquiry 20 bytes: no strings");

	n = load("scsi-inquiry-trunc5.hex");
	is_int(scsi_parse_inquiry(buf, n, &inq), -EBADMSG,
	       "inquiry 5 bytes: malformed");
	n = load("scsi-inquiry-pq3.hex");
	is_int(scsi_parse_inquiry(buf, n, &inq), -EBADMSG,
	       "inquiry PQ=3: no device");
	is_int(scsi_parse_inquiry(buf, 0, &inq), -EBADMSG, "inquiry empty");
}

static void test_readcap16(void)
{
	struct scsi_readcap16 rc;
	long n;

	n = load("scsi-readcap16-type2.hex");
	is_int(n, 32, "readcap16: 32 bytes loaded");
	is_int(scsi_parse_readcap16(buf, n, &rc), 0, "readcap16 type2: parses");
	is_int(rc.last_lba, 0x1ffff, "readcap16 type2: last LBA");
	is_int(rc.block_length, 512, "readcap16 type2: 512-byte blocks");
	is_int(rc.prot_en, 1, "readcap16 type2: prot_en");
	is_int(rc.p_type, 1, "readcap16 type2: P_TYPE 1");
	is_int(rc.protection_type, 2, "readcap16 type2: protection type 2");
	is_int(rc.p_i_exponent, 0, "readcap16 type2: p_i_exponent 0");
	is_int(rc.lbpme, 1, "readcap16 type2: LBPME");
	is_int(rc.lbprz, 0, "readcap16 type2: LBPRZ clear");

	n = load("scsi-readcap16-type1-4k-pie.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), 0, "readcap16 4k: parses");
	is_int(rc.block_length, 4096, "readcap16 4k: 4096-byte blocks");
	is_int(rc.protection_type, 1, "readcap16 4k: type 1");
	is_int(rc.p_i_exponent, 3, "readcap16 4k: p_i_exponent 3");
	is_int(rc.lbppbe, 1, "readcap16 4k: lbppbe 1");
	is_int(rc.lbprz, 1, "readcap16 4k: LBPRZ");
	is_int(rc.lowest_aligned_lba, 5, "readcap16 4k: lowest aligned LBA 5");
	is_int(scsi_parse_readcap16(buf, 14, &rc), 0,
	       "readcap16 4k cut to 14 bytes: still parses");
	is_int(rc.p_i_exponent, 3, "readcap16 14 bytes: exponent kept");
	is_int(rc.lowest_aligned_lba, 0, "readcap16 14 bytes: no alignment bytes");

	n = load("scsi-readcap16-noprot.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), 0, "readcap16 noprot: parses");
	is_int(rc.prot_en, 0, "readcap16 noprot: prot_en 0");
	is_int(rc.protection_type, 0, "readcap16 noprot: type 0 despite P_TYPE");

	n = load("scsi-readcap16-520.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), 0, "readcap16 520: parses");
	is_int(rc.block_length, 520, "readcap16 520: reported as found");

	n = load("scsi-readcap16-trunc12.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), -EBADMSG,
	       "readcap16 12 bytes: malformed");
	n = load("scsi-readcap16-ptype-reserved.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), -EBADMSG,
	       "readcap16 P_TYPE 3 with prot_en: malformed");
	n = load("scsi-readcap16-zero-block.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), -EBADMSG,
	       "readcap16 zero block length: malformed");
}

static void test_vpd(void)
{
	struct scsi_ext_inquiry ei;
	struct scsi_block_limits bl;
	long n;

	n = load("scsi-vpd00.hex");
	is_int(scsi_vpd_supported(buf, n, 0x86), 1, "vpd00: lists 86h");
	is_int(scsi_vpd_supported(buf, n, 0xb0), 1, "vpd00: lists b0h");
	is_int(scsi_vpd_supported(buf, n, 0xb4), 0, "vpd00: no b4h");
	n = load("scsi-vpd00-no86.hex");
	is_int(scsi_vpd_supported(buf, n, 0x86), 0, "vpd00 short list: no 86h");
	n = load("scsi-vpd00-liar.hex");
	is_int(scsi_vpd_page_len(buf, n, 0), 7, "vpd00 liar: clipped to 7 bytes");
	is_int(scsi_vpd_supported(buf, n, 0x86), 1, "vpd00 liar: 86h arrived");
	is_int(scsi_vpd_supported(buf, n, 0xb0), 0,
	       "vpd00 liar: nothing read past the bytes received");
	is_int(scsi_vpd_supported(buf, 3, 0x86), -EBADMSG, "vpd00 3 bytes: malformed");

	n = load("scsi-vpd86-spt1.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), 0, "vpd86 spt1: parses");
	is_int(ei.spt, 1, "vpd86 spt1: SPT 1");
	is_int(ei.type_mask, (1 << 1) | (1 << 2), "vpd86 spt1: types 1 and 2");
	ok(ei.grd_chk && ei.app_chk && ei.ref_chk, "vpd86 spt1: all checks");
	is_int(ei.p_i_i_sup, 1, "vpd86 spt1: P_I_I_SUP");
	is_int(ei.no_pi_chk, 0, "vpd86 spt1: NO_PI_CHK clear");

	n = load("scsi-vpd86-spt4-grdonly.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), 0, "vpd86 spt4: parses");
	is_int(ei.type_mask, 1 << 3, "vpd86 spt4: type 3 only");
	ok(ei.grd_chk && !ei.app_chk && !ei.ref_chk, "vpd86 spt4: guard check only");
	is_int(ei.no_pi_chk, 1, "vpd86 spt4: NO_PI_CHK");

	n = load("scsi-vpd86-spt6.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), 0, "vpd86 spt6: parses");
	is_int(ei.spt, 6, "vpd86 spt6: SPT 6");
	is_int(ei.type_mask, 0, "vpd86 spt6: types in another page");

	n = load("scsi-vpd86-short.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), -EBADMSG,
	       "vpd86 6 bytes: malformed");
	n = load("scsi-vpd86-wrongpage.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), -EBADMSG,
	       "vpd86 got page 83h: malformed");

	is_int(scsi_spt_types(7), 0xe, "SPT 7: types 1, 2, 3");
	is_int(scsi_spt_types(3), (1 << 1) | (1 << 3), "SPT 3: types 1 and 3");
	is_int(scsi_spt_types(5), (1 << 2) | (1 << 3), "SPT 5: types 2 and 3");

	n = load("scsi-vpdb0-full.hex");
	is_int(scsi_parse_vpd_block_limits(buf, n, &bl), 0, "vpdb0 full: parses");
	is_int(bl.max_compare_write, 1, "vpdb0 full: compare and write 1");
	is_int(bl.opt_xfer_granularity, 8, "vpdb0 full: granularity 8");
	is_int(bl.max_xfer_len, 0x4000, "vpdb0 full: max transfer 0x4000");
	is_int(bl.opt_xfer_len, 0x800, "vpdb0 full: optimal transfer 0x800");
	is_int(bl.max_unmap_lba_count, 0x10000, "vpdb0 full: max unmap 0x10000");
	is_int(bl.max_write_same_len, 0x100000000ll, "vpdb0 full: write same 2^32");

	n = load("scsi-vpdb0-sbc2.hex");
	is_int(scsi_parse_vpd_block_limits(buf, n, &bl), 0, "vpdb0 sbc2: parses");
	is_int(bl.max_xfer_len, 0x1000, "vpdb0 sbc2: max transfer");
	is_int(bl.opt_xfer_len, 0x100, "vpdb0 sbc2: optimal transfer");
	is_int(bl.max_unmap_lba_count, 0, "vpdb0 sbc2: no unmap field");
	/* Bytes past the declared page length must not be read. */
	buf[20] = 0xff;
	buf[23] = 0xff;
	is_int(scsi_parse_vpd_block_limits(buf, 64, &bl), 0,
	       "vpdb0 sbc2 with junk after the page: parses");
	is_int(bl.max_unmap_lba_count, 0, "vpdb0 sbc2: junk after page ignored");

	n = load("scsi-vpdb0-trunc.hex");
	is_int(scsi_parse_vpd_block_limits(buf, n, &bl), -EBADMSG,
	       "vpdb0 12 bytes: malformed");
}

static void test_sense(void)
{
	struct scsi_sense s;
	long n;

	n = load("scsi-sense-fixed-guard.hex");
	is_int(scsi_parse_sense(buf, n, &s), 0, "sense fixed guard: parses");
	is_int(s.descriptor, 0, "sense fixed guard: fixed format");
	is_int(s.sense_key, 0xb, "sense fixed guard: ABORTED COMMAND");
	is_int(s.asc, 0x10, "sense fixed guard: ASC 10h");
	is_int(s.ascq, 0x01, "sense fixed guard: ASCQ 01h");
	is_int(s.pi, SCSI_PI_GUARD, "sense fixed guard: guard error");
	is_str(scsi_pi_error_name(s.pi), "guard", "sense fixed guard: named guard");
	is_int(s.info_valid, 1, "sense fixed guard: INFORMATION valid");
	is_int(s.info, 123456, "sense fixed guard: LBA 123456");

	n = load("scsi-sense-fixed-recovered.hex");
	is_int(scsi_parse_sense(buf, n, &s), 0, "sense recovered: parses");
	is_int(s.sense_key, 0x1, "sense recovered: RECOVERED ERROR");
	is_int(s.pi, SCSI_PI_NONE, "sense recovered: not a PI error");
	is_int(s.info_valid, 0, "sense recovered: VALID clear");

	n = load("scsi-sense-fixed-short-addlen.hex");
	is_int(scsi_parse_sense(buf, n, &s), 0, "sense short addlen: parses");
	is_int(s.sense_key, 0x5, "sense short addlen: key");
	is_int(s.asc, 0, "sense short addlen: stale ASC not read");
	is_int(s.pi, SCSI_PI_NONE, "sense short addlen: no PI error invented");

	n = load("scsi-sense-desc-ref.hex");
	is_int(scsi_parse_sense(buf, n, &s), 0, "sense desc ref: parses");
	is_int(s.descriptor, 1, "sense desc ref: descriptor format");
	is_int(s.sense_key, 0xb, "sense desc ref: key");
	is_int(s.pi, SCSI_PI_REF, "sense desc ref: ref tag error");
	is_int(s.info_valid, 1, "sense desc ref: information descriptor found");
	is_int(s.info, 0x123456789all, "sense desc ref: 64-bit LBA");

	n = load("scsi-sense-desc-app-truncated.hex");
	is_int(scsi_parse_sense(buf, n, &s), 0, "sense desc truncated: parses");
	is_int(s.pi, SCSI_PI_APP, "sense desc truncated: app tag error");
	is_int(s.info_valid, 0, "sense desc truncated: no information");
	is_int(scsi_parse_sense(buf, 7, &s), -EBADMSG,
	       "sense desc 7 bytes: malformed");

	n = load("scsi-sense-bad-code.hex");
	is_int(scsi_parse_sense(buf, n, &s), -EBADMSG, "sense code 60h: malformed");
	is_int(scsi_parse_sense(buf, 0, &s), -EBADMSG, "sense empty: malformed");

	/* A 2-byte fixed sense: key and ASC absent, not read from beyond. */
	buf[0] = 0x70;
	buf[1] = 0;
	buf[2] = 0x0b;
	buf[12] = 0x10;
	buf[13] = 0x01;
	is_int(scsi_parse_sense(buf, 2, &s), 0, "sense 2 bytes: parses");
	ok(s.sense_key == 0 && s.pi == SCSI_PI_NONE,
	   "sense 2 bytes: nothing read past the end");
}

/* Responses captured from a real scsi_debug dif=2 dix=1 (Linux 6.1). */
static void test_scsi_debug_capture(void)
{
	struct scsi_inquiry inq;
	struct scsi_readcap16 rc;
	struct scsi_ext_inquiry ei;
	struct scsi_block_limits bl;
	long n;

	n = load("sdebug-dif2-inquiry.hex");
	is_int(scsi_parse_inquiry(buf, n, &inq), 0, "scsi_debug inquiry: parses");
	ok(inq.protect && !strcmp(inq.product, "scsi_debug"),
	   "scsi_debug inquiry: PROTECT=1, product scsi_debug");
	n = load("sdebug-dif2-readcap16.hex");
	is_int(scsi_parse_readcap16(buf, n, &rc), 0, "scsi_debug readcap16: parses");
	ok(rc.prot_en && rc.protection_type == 2 && rc.block_length == 512 &&
	   rc.last_lba == 131071, "scsi_debug readcap16: Type 2, 64 MiB of 512");
	n = load("sdebug-dif2-vpd00.hex");
	ok(scsi_vpd_supported(buf, n, 0x86) == 1 &&
	   scsi_vpd_supported(buf, n, 0xb0) == 1, "scsi_debug vpd00: 86h and b0h");
	n = load("sdebug-dif2-vpd86.hex");
	is_int(scsi_parse_vpd_ext_inquiry(buf, n, &ei), 0, "scsi_debug vpd86: parses");
	/* scsi_debug answers SPT 0 (Type 1) whatever dif is. */
	ok(ei.spt == 0 && ei.grd_chk && !ei.app_chk && ei.ref_chk,
	   "scsi_debug vpd86: SPT 0, GRD_CHK and REF_CHK");
	n = load("sdebug-dif2-vpdb0.hex");
	is_int(scsi_parse_vpd_block_limits(buf, n, &bl), 0, "scsi_debug vpdb0: parses");
	ok(bl.max_xfer_len == 131072 && bl.opt_xfer_len == 1024 &&
	   bl.max_write_same_len == 65535, "scsi_debug vpdb0: limits");
}

int main(void)
{
	test_scsi_debug_capture();
	test_inquiry();
	test_readcap16();
	test_vpd();
	test_sense();
	return tap_done();
}
