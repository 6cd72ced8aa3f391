// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-nvme-parse.c - the NVMe Identify Namespace parsers on canned
 * structures (tests/data/nvme-*.hex), including truncated and malformed
 * ones.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "proto/nvme_parse.h"
#include "tap.h"
#include "hexfile.h"

static uint8_t buf[NVME_IDENTIFY_LEN];

static long load(const char *name)
{
	return hexfile_load(name, buf, sizeof(buf));
}

static void test_id_ns(void)
{
	struct nvme_ns_format f;
	long n;

	n = load("nvme-id-ns-pi3-ms16-first.hex");
	is_int(n, 4096, "id-ns pi3: 4096 bytes");
	is_int(nvme_parse_id_ns(buf, n, &f), 0, "id-ns pi3: parses");
	is_int(f.nsze, 0x20000, "id-ns pi3: NSZE");
	is_int(f.nlbaf, 8, "id-ns pi3: 8 formats");
	is_int(f.format_index, 2, "id-ns pi3: format 2 in use");
	is_int(f.extended_lba, 0, "id-ns pi3: separate metadata");
	is_int(f.protection_type, 3, "id-ns pi3: protection type 3");
	is_int(f.pi_first, 1, "id-ns pi3: PI first");
	is_int(f.metadata_size, 16, "id-ns pi3: 16 bytes metadata");
	is_int(f.data_size, 512, "id-ns pi3: 512-byte data");
	is_int(f.dpc_types, 0xe, "id-ns pi3: DPC types 1-3");
	ok(f.dpc_first && f.dpc_last, "id-ns pi3: DPC first and last");
	is_int(f.mc, 3, "id-ns pi3: MC 3");

	n = load("nvme-id-ns-pi1-ms8-ext.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), 0, "id-ns pi1 ext: parses");
	is_int(f.format_index, 1, "id-ns pi1 ext: format 1");
	is_int(f.extended_lba, 1, "id-ns pi1 ext: extended LBA");
	is_int(f.protection_type, 1, "id-ns pi1 ext: type 1");
	is_int(f.pi_first, 0, "id-ns pi1 ext: PI last");
	is_int(f.metadata_size, 8, "id-ns pi1 ext: 8 bytes metadata");

	n = load("nvme-id-ns-nopi-4k.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), 0, "id-ns nopi: parses");
	is_int(f.protection_type, 0, "id-ns nopi: no PI");
	is_int(f.data_size, 4096, "id-ns nopi: 4096-byte data");
	is_int(f.metadata_size, 0, "id-ns nopi: no metadata");

	n = load("nvme-id-ns-highidx.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), 0, "id-ns 20 formats: parses");
	is_int(f.nlbaf, 20, "id-ns 20 formats: NLBAF");
	is_int(f.format_index, 17, "id-ns 20 formats: FLBAS bits 6:5 used");
	is_int(f.metadata_size, 8, "id-ns 20 formats: format 17 metadata");
	is_int(f.data_size, 4096, "id-ns 20 formats: format 17 data");
	is_int(f.relative_performance, 2, "id-ns 20 formats: RP 2");
	is_int(f.protection_type, 2, "id-ns 20 formats: type 2");

	n = load("nvme-id-ns-idx-beyond.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), -EBADMSG,
	       "id-ns format beyond NLBAF: malformed");
	n = load("nvme-id-ns-trunc.hex");
	is_int(n, 136, "id-ns truncated: 136 bytes");
	is_int(nvme_parse_id_ns(buf, n, &f), -EBADMSG,
	       "id-ns truncated before the in-use format: malformed");
	is_int(nvme_parse_id_ns(buf, 29, &f), -EBADMSG,
	       "id-ns 29 bytes (no DPS): malformed");
	n = load("nvme-id-ns-dps-reserved.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), -EBADMSG,
	       "id-ns reserved protection type: malformed");
	n = load("nvme-id-ns-lbads-zero.hex");
	is_int(nvme_parse_id_ns(buf, n, &f), -EBADMSG,
	       "id-ns in-use format unavailable (LBADS 0): malformed");
}

static void test_nvm_id_ns(void)
{
	struct nvme_nvm_ns n;
	long len;

	len = load("nvme-nvm-id-ns-pif2.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), 0, "nvm pif2: parses");
	is_int(n.pif, 2, "nvm pif2: PIF 2");
	is_int(n.guard_bits, 64, "nvm pif2: 64-bit guard");
	is_int(n.pi_size, 16, "nvm pif2: 16-byte PI");
	is_int(n.pic, 3, "nvm pif2: PIC");
	is_int(n.sts, 0, "nvm pif2: no storage tag");

	len = load("nvme-nvm-id-ns-pif1.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), 0, "nvm pif1: parses");
	is_int(n.guard_bits, 32, "nvm pif1: 32-bit guard");
	is_int(n.pi_size, 16, "nvm pif1: 16-byte PI");
	is_int(nvme_parse_nvm_id_ns(buf, len, 0, &n), 0, "nvm pif1 format 0: parses");
	is_int(n.guard_bits, 16, "nvm pif1 format 0: 16-bit guard");
	is_int(n.pi_size, 8, "nvm pif1 format 0: 8-byte PI");

	len = load("nvme-nvm-id-ns-sts16.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), 0, "nvm sts16: parses");
	is_int(n.sts, 16, "nvm sts16: 16-bit storage tag");
	is_int(n.guard_bits, 16, "nvm sts16: 16-bit guard");

	len = load("nvme-nvm-id-ns-pif3.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), -EBADMSG,
	       "nvm PIF 3: malformed");
	len = load("nvme-nvm-id-ns-trunc.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), -EBADMSG,
	       "nvm truncated before ELBAF[2]: malformed");
	is_int(nvme_parse_nvm_id_ns(buf, len, 0, &n), 0,
	       "nvm truncated: ELBAF[0] still there");
	is_int(nvme_parse_nvm_id_ns(buf, sizeof(buf), 64, &n), -EINVAL,
	       "nvm format 64: invalid index");

	nvme_nvm_ns_default(&n);
	ok(n.guard_bits == 16 && n.pi_size == 8,
	   "nvm default: 16-bit guard, 8-byte PI");
}

/* Identify data captured from QEMU 7.2 nvme-ns pi=3,ms=16,pil=1. */
static void test_qemu_capture(void)
{
	struct nvme_ns_format f;
	struct nvme_nvm_ns n;
	long len;

	len = load("qemu-nvme-pi3-id-ns.hex");
	is_int(nvme_parse_id_ns(buf, len, &f), 0, "qemu id-ns: parses");
	is_int(f.nsze, 508400, "qemu id-ns: NSZE");
	ok(f.protection_type == 3 && f.pi_first && f.metadata_size == 16 &&
	   f.data_size == 512 && !f.extended_lba,
	   "qemu id-ns: Type 3, PI first, 512 + 16 separate");
	len = load("qemu-nvme-pi3-nvm-id-ns.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, f.format_index, &n), 0,
	       "qemu nvm id-ns: parses");
	ok(n.guard_bits == 16 && n.pi_size == 8 && n.sts == 0,
	   "qemu nvm id-ns: 16-bit guard, 8-byte PI, no storage tag");

	/* pi=1,ms=16,pif=2: QEMU fills ELBAF for the in-use format 2 only. */
	len = load("qemu-nvme-pif2-nvm-id-ns.hex");
	is_int(nvme_parse_nvm_id_ns(buf, len, 2, &n), 0, "qemu pif2: parses");
	ok(n.guard_bits == 64 && n.pi_size == 16, "qemu pif2: 64-bit guard, 16-byte PI");
}

int main(void)
{
	test_qemu_capture();
	test_id_ns();
	test_nvm_id_ns();
	return tap_done();
}
