// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-probe-diag.c - the probe's diagnosis rules on hand-made results:
 * the forum case (DIF drive, kernel format none), Type 2 shown as TYPE1,
 * DIX0, an LIO target, NVMe PI first/last/extended/guard sizes, engines,
 * profiles.
 */
#include "config.h"

#include <string.h>

#include "core/probe.h"
#include "tap.h"

static struct probe_result r;

/*
 * Engines as data: the probe reads only what each can drive, so these
 * capability rows (no operations) stand for a build with every library,
 * and the shorter tables for builds without one.
 */
static const struct dix_engine e_sync = { .name = "sync", .targets = DIX_TGT_BLOCK };
static const struct dix_engine e_libaio = { .name = "libaio", .targets = DIX_TGT_BLOCK };
static const struct dix_engine e_uring = {
	.name = "io_uring", .targets = DIX_TGT_BLOCK, .app_pi = DIX_APP_PI_KERNEL,
};
static const struct dix_engine e_sg = {
	.name = "sg", .targets = DIX_TGT_SCSI, .app_pi = DIX_APP_PI_SCSI,
};
static const struct dix_engine e_nvme = {
	.name = "nvme", .targets = DIX_TGT_NVME, .app_pi = DIX_APP_PI_NVME,
};
static const struct dix_engine *const all_engines[] = {
	&e_sync, &e_libaio, &e_uring, &e_sg, &e_nvme, NULL,
};
static const struct dix_engine *const no_sg[] = {
	&e_sync, &e_libaio, &e_uring, &e_nvme, NULL,
};
static const struct dix_engine *const no_nvme[] = {
	&e_sync, &e_libaio, &e_uring, &e_sg, NULL,
};

static bool has(const char *frag)
{
	int i;

	for (i = 0; i < r.ndiag; i++)
		if (strstr(r.diag[i], frag))
			return true;
	return false;
}

static void diag_ok(const char *frag, const char *name)
{
	int i;

	if (!ok(has(frag), "%s", name)) {
		printf("# no line with '%s' in:\n", frag);
		for (i = 0; i < r.ndiag; i++)
			printf("#   %s\n", r.diag[i]);
	}
}

static void engines_is(const char *mode, const char *want, const char *name)
{
	char got[128];

	probe_engines(&r, mode, got, sizeof(got));
	is_str(got, want, name);
}

static void base(enum probe_kind kind, const char *format)
{
	memset(&r, 0, sizeof(r));
	r.path = "/dev/x";
	r.kind = kind;
	r.bv.exists = true;
	r.bv.is_blockdev = kind != PROBE_FILE;
	r.bv.has_integrity = kind != PROBE_FILE;
	strcpy(r.bv.name, kind == PROBE_NVME ? "nvme0n1" : "sda");
	strcpy(r.bv.disk, r.bv.name);
	strcpy(r.bv.format, format);
	r.bv.protection_interval_bytes = 512;
	r.bv.tag_size = 2;
	r.bv.read_verify = r.bv.write_generate = 1;
	r.bv.device_is_integrity_capable = strcmp(format, "none") != 0;
	r.bv.logical_block_size = 512;
	r.engines = all_engines;
	r.uring_pi = 0;
	r.scsi.prot_caps = -1;
	r.scsi.guard_type = -1;
}

static void scsi_drive(bool prot_en, unsigned int type)
{
	r.scsi.inq_ok = true;
	r.scsi.inq.protect = true;
	r.scsi.rc_ok = true;
	r.scsi.rc.block_length = 512;
	r.scsi.rc.prot_en = prot_en;
	r.scsi.rc.protection_type = prot_en ? type : 0;
	r.scsi.rc.p_type = prot_en ? type - 1 : 0;
}

static void nvme_ns(unsigned int type, unsigned int ms, bool first,
		    unsigned int guard, bool ext)
{
	r.nvme.ns_ok = true;
	r.nvme.nvm_ok = true;
	r.nvme.f.protection_type = type;
	r.nvme.f.metadata_size = ms;
	r.nvme.f.pi_first = first;
	r.nvme.f.extended_lba = ext;
	r.nvme.f.data_size = 512;
	r.nvme.f.dpc_types = 0xe;
	r.nvme.n.guard_bits = guard;
	r.nvme.n.pi_size = guard == 16 ? 8 : 16;
}

static void test_scsi(void)
{
	/* The forum case: DIF-formatted drive, HBA with DIF but no DIX. */
	base(PROBE_SCSI, "none");
	scsi_drive(true, 1);
	r.scsi.prot_caps = SHOST_CAP_DIF_TYPE1;
	probe_diagnose(&r);
	diag_ok("drive formatted Type 1 (prot_en=1) but the kernel integrity format is none: the HBA does not advertise DIX",
		"DIF drive, format none: HBA does not advertise DIX");
	diag_ok("prot_capabilities 0x1 (DIF Type 1)", "host capabilities decoded");
	diag_ok("the HBA does DIF Type 1 itself", "DIF done by the HBA out of sight");
	engines_is("kernel", "", "format none: no --pi kernel engine");
	engines_is("app", "sg", "DIF drive: --pi app through sg");
	diag_ok("--pi kernel: not possible here (kernel integrity format none)",
		"--pi kernel impossible, said so");

	base(PROBE_SCSI, "none");
	scsi_drive(true, 1);
	r.scsi.prot_caps = 0;
	probe_diagnose(&r);
	diag_ok("supports neither DIX nor DIF Type 1", "HBA with no protection at all");
	diag_ok("prot_capabilities 0x0 (nothing)", "empty capabilities decoded");

	/* scsi_debug dif=2 dix=1. */
	base(PROBE_SCSI, "T10-DIF-TYPE1-CRC");
	scsi_drive(true, 2);
	r.scsi.prot_caps = SHOST_CAP_DIF_TYPE2 | SHOST_CAP_DIX_TYPE2;
	r.scsi.guard_type = SHOST_GUARD_CRC;
	r.scsi.scsi_debug = true;
	probe_diagnose(&r);
	diag_ok("Type 2 shown by the kernel as T10-DIF-TYPE1-CRC (expected",
		"Type 2 shown as TYPE1, expected");
	is_str(probe_expected_format(&r), "T10-DIF-TYPE1-CRC",
	       "Type 2 expects T10-DIF-TYPE1-CRC");
	ok(!has("DIX0"), "Type 2 with a capable device: not DIX0");
	engines_is("kernel", "sync, libaio, io_uring", "DIX: --pi kernel engines");
	engines_is("app", "sg", "Type 2: --pi app through sg");
	diag_ok("READ(32)/WRITE(32) for Type 2", "sg uses 32-byte CDBs for Type 2");
	diag_ok("io_uring PI attributes are not offered", "io_uring PI missing said");
	diag_ok("scsi_debug disk (scratch", "scsi_debug named as scratch");
	ok(!has("LIO"), "scsi_debug is not taken for LIO");
	engines_is("off", "sync, libaio, io_uring, sg", "--pi off engines");

	r.uring_pi = 1;
	engines_is("app", "sg, io_uring", "kernel with io_uring PI: io_uring too");
	r.engines = no_sg;
	r.uring_pi = 0;
	probe_diagnose(&r);
	diag_ok("no engine for SCSI drive PI", "no sg engine: said why");

	/* LIO through tcm_loop (dixvm --lio 1): INQUIRY vendor LIO-ORG. */
	base(PROBE_SCSI, "T10-DIF-TYPE1-CRC");
	scsi_drive(true, 1);
	r.scsi.prot_caps = 0x77;	/* tcm_loop: DIF and DIX Types 1-3 */
	r.scsi.guard_type = SHOST_GUARD_CRC;
	strcpy(r.scsi.inq.vendor, "LIO-ORG");
	strcpy(r.scsi.inq.product, "RAMDISK-MCP");
	probe_diagnose(&r);
	diag_ok("LIO target disk (INQUIRY LIO-ORG RAMDISK-MCP): LIO checks the PI the block layer sends",
		"LIO named, and what it checks");
	diag_ok("sg --pi app writes fail its guard check (ASC 10/01): sg --pi app has no independent checker here; only a real DIF disk judges the interleaved layout",
		"LIO: sg --pi app has no independent checker, said so");
	engines_is("kernel", "sync, libaio, io_uring", "LIO: --pi kernel engines");
	ok(!has("scsi_debug"), "LIO is not taken for scsi_debug");

	/* DIX0: scsi_debug dif=0 dix=1. */
	base(PROBE_SCSI, "T10-DIF-TYPE1-CRC");
	scsi_drive(false, 0);
	r.bv.device_is_integrity_capable = 0;
	r.bv.tag_size = 0;
	probe_diagnose(&r);
	diag_ok("DIX0", "dif=0 dix=1: DIX0");
	diag_ok("host-side only", "DIX0: host-side only");
	diag_ok("tag_size 0", "tag_size 0 explained");
	ok(probe_expected_format(&r) == NULL, "DIX0: no PI expected from the drive");
	engines_is("app", "", "DIX0: nothing for --pi app (no io_uring PI)");

	/* Type 3 drive, IP guard host. */
	base(PROBE_SCSI, "T10-DIF-TYPE3-IP");
	scsi_drive(true, 3);
	r.scsi.guard_type = SHOST_GUARD_IP;
	probe_diagnose(&r);
	is_str(probe_expected_format(&r), "T10-DIF-TYPE3-IP", "Type 3 + IP guard");
	diag_ok("drive formatted Type 3 (prot_en=1) and the kernel integrity format is T10-DIF-TYPE3-IP",
		"Type 3 IP: agreement stated");
	diag_ok("IP-checksum guard", "IP guard: CRC module irrelevant");

	/* Disagreement. */
	base(PROBE_SCSI, "T10-DIF-TYPE3-CRC");
	scsi_drive(true, 1);
	probe_diagnose(&r);
	diag_ok("a Type 1 drive would get T10-DIF-TYPE1-CRC", "mismatch named");

	/* Device contradictions and partial checking. */
	base(PROBE_SCSI, "T10-DIF-TYPE1-CRC");
	scsi_drive(true, 1);
	r.scsi.inq.protect = false;
	r.scsi.ei_ok = true;
	r.scsi.ei.spt = 4;
	r.scsi.ei.type_mask = 1u << 3;
	r.scsi.ei.grd_chk = true;
	r.scsi.rc.p_i_exponent = 3;
	r.scsi.rc.block_length = 4096;
	r.bv.logical_block_size = 4096;
	r.bv.read_verify = 0;
	probe_diagnose(&r);
	diag_ok("PROTECT=0 although READ CAPACITY(16) reports prot_en=1",
		"PROTECT vs prot_en contradiction");
	diag_ok("SPT=4 does not list Type 1", "SPT vs formatted type");
	diag_ok("checks: guard (Extended INQUIRY GRD_CHK=1 APP_CHK=0 REF_CHK=0)",
		"partial checking named");
	diag_ok("P_I_EXPONENT=3: 8 protection intervals per 4096-byte", "PI intervals");
	diag_ok("read_verify=0", "read_verify off said");

	base(PROBE_SCSI, "none");
	strcpy(r.scsi.error, "cannot open /dev/sda: Permission denied");
	probe_diagnose(&r);
	diag_ok("SCSI view unavailable: cannot open /dev/sda", "SCSI error passed on");

	base(PROBE_SCSI, "none");
	scsi_drive(false, 0);
	probe_diagnose(&r);
	diag_ok("supports PI (INQUIRY PROTECT=1) but is not formatted", "PI-capable, unformatted");
}

static void test_nvme(void)
{
	/* QEMU pi=3,ms=16,pil=1 */
	base(PROBE_NVME, "T10-DIF-TYPE3-CRC");
	nvme_ns(3, 16, true, 16, false);
	probe_diagnose(&r);
	is_str(probe_expected_format(&r), "T10-DIF-TYPE3-CRC", "NVMe Type 3 16b");
	diag_ok("namespace formatted Type 3 (PI first in 16-byte separate metadata, 16-bit guard) and the kernel integrity format is T10-DIF-TYPE3-CRC",
		"NVMe Type 3 PI first: agreement");
	engines_is("app", "nvme", "NVMe PI: --pi app through nvme");
	engines_is("off", "sync, libaio, io_uring, nvme", "NVMe --pi off engines");

	/* PI last in 16 bytes: the kernel registers nop. */
	base(PROBE_NVME, "nop");
	nvme_ns(1, 16, false, 16, false);
	probe_diagnose(&r);
	ok(probe_expected_format(&r) == NULL, "PI last in 16 bytes: kernel uses no PI");
	diag_ok("kernel integrity format is nop", "nop named");
	diag_ok("PI sits last in metadata larger than the PI tuple", "nop reason: PI last");
	engines_is("kernel", "", "nop: no --pi kernel");
	engines_is("app", "nvme", "nop: --pi app through nvme still");

	/* PI last filling the metadata is fine. */
	base(PROBE_NVME, "T10-DIF-TYPE1-CRC");
	nvme_ns(1, 8, false, 16, false);
	probe_diagnose(&r);
	is_str(probe_expected_format(&r), "T10-DIF-TYPE1-CRC", "PI last, ms 8: used");

	/* 64-bit guard. */
	base(PROBE_NVME, "EXT-DIF-TYPE1-CRC64");
	nvme_ns(2, 16, true, 64, false);
	probe_diagnose(&r);
	is_str(probe_expected_format(&r), "EXT-DIF-TYPE1-CRC64", "Type 2 64b guard");
	diag_ok("Type 2 shows as TYPE1", "NVMe Type 2 as TYPE1");

	/* 32-bit guard. */
	base(PROBE_NVME, "nop");
	nvme_ns(1, 16, true, 32, false);
	probe_diagnose(&r);
	diag_ok("no 32-bit-guard (CRC32C) PI", "32b guard: kernel reason");
	engines_is("app", "", "32b guard: no --pi app engine");
	diag_ok("the nvme engine has no 32-bit-guard PI", "32b guard: engine reason");

	/* Extended LBA. */
	base(PROBE_NVME, "none");
	nvme_ns(1, 8, false, 16, true);
	probe_diagnose(&r);
	diag_ok("with extended LBAs", "extended LBA explained");
	diag_ok("--engine nvme --pi app", "extended LBA: passthrough advice");

	/* No NVM command set identify: 16b implied, said so. */
	base(PROBE_NVME, "T10-DIF-TYPE1-CRC");
	nvme_ns(1, 8, true, 16, false);
	r.nvme.nvm_ok = false;
	strcpy(r.nvme.nvm_note, "NVM Command Set Identify Namespace failed: NVMe status 0x2");
	probe_diagnose(&r);
	diag_ok("16-bit guard PI format is implied", "implied 16b guard said");

	base(PROBE_NVME, "none");
	nvme_ns(0, 0, false, 16, false);
	probe_diagnose(&r);
	diag_ok("without metadata or PI", "no PI namespace");
	r.engines = no_nvme;
	nvme_ns(1, 8, true, 16, false);
	probe_diagnose(&r);
	diag_ok("no engine for NVMe drive PI", "no nvme engine: said why");
}

static void test_other(void)
{
	base(PROBE_FILE, "none");
	r.bv.has_integrity = false;
	probe_diagnose(&r);
	diag_ok("regular file: no protection information", "file explained");
	ok(!has("CONFIG_BLK_DEV_INTEGRITY"), "file: no kernel-config claim");
	engines_is("kernel", "", "file: no --pi kernel");
	engines_is("off", "sync, libaio, io_uring", "file: --pi off engines");

	base(PROBE_OTHER, "none");
	strcpy(r.bv.name, "loop0");
	strcpy(r.bv.disk, "loop0");
	r.bv.has_integrity = false;
	probe_diagnose(&r);
	diag_ok("built without CONFIG_BLK_DEV_INTEGRITY", "no integrity dir explained");
	diag_ok("loop0 is neither a SCSI disk nor an NVMe namespace", "plain device");

	base(PROBE_OTHER, "none");
	strcpy(r.bv.name, "dm-0");
	strcpy(r.bv.slaves, "sda1 sdb1");
	probe_diagnose(&r);
	diag_ok("dm-0 is stacked on sda1 sdb1", "stacked device");

	/* Profiles. */
	base(PROBE_SCSI, "T10-DIF-TYPE1-CRC");
	scsi_drive(true, 1);
	r.nprofiles = 3;
	strcpy(r.profiles[0].name, "dif1");
	strcpy(r.profiles[0].pi_format, "T10-DIF-TYPE1-CRC");
	strcpy(r.profiles[1].name, "dif3");
	strcpy(r.profiles[1].pi_format, "T10-DIF-TYPE3-CRC");
	strcpy(r.profiles[2].name, "plain");
	strcpy(r.profiles[2].pi_format, "any");
	probe_diagnose(&r);
	diag_ok("profiles that fit (pi-format T10-DIF-TYPE1-CRC): dif1, plain",
		"fitting profiles listed");
	strcpy(r.bv.format, "T10-DIF-TYPE1-IP");
	r.nprofiles = 2;
	probe_diagnose(&r);
	diag_ok("no profile found declares pi-format T10-DIF-TYPE1-IP",
		"no fitting profile said");
	r.nprofiles = 0;
	probe_diagnose(&r);
	diag_ok("no profiles found", "no profiles at all said");
	ok(r.ndiag <= PROBE_MAX_DIAG, "diagnosis stays within its array");
}

int main(void)
{
	test_scsi();
	test_nvme();
	test_other();
	return tap_done();
}
