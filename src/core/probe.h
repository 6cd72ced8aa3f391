/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.h - `dixload probe DEV [--json]`: what a device really does with
 * protection information, seen by the kernel, by the SCSI or NVMe device
 * itself, and a diagnosis in plain words.
 */
#ifndef DIX_PROBE_H
#define DIX_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device/blkview.h"
#include "engines/engine.h"
#include "proto/nvme_parse.h"
#include "proto/scsi_parse.h"

/* SCSI host protection capabilities (sysfs scsi_host/hostN/prot_capabilities). */
#define SHOST_CAP_DIF_TYPE1	(1u << 0)
#define SHOST_CAP_DIF_TYPE2	(1u << 1)
#define SHOST_CAP_DIF_TYPE3	(1u << 2)
#define SHOST_CAP_DIX_TYPE0	(1u << 3)
#define SHOST_CAP_DIX_TYPE1	(1u << 4)
#define SHOST_CAP_DIX_TYPE2	(1u << 5)
#define SHOST_CAP_DIX_TYPE3	(1u << 6)
/* scsi_host/hostN/prot_guard_type */
#define SHOST_GUARD_CRC		(1u << 0)
#define SHOST_GUARD_IP		(1u << 1)

enum probe_kind {
	PROBE_FILE,	/* regular file */
	PROBE_SCSI,	/* sd disk (SAS, FC, iSCSI, scsi_debug, SATA via libata) */
	PROBE_NVME,	/* NVMe namespace */
	PROBE_OTHER,	/* loop, dm, md, virtio, zram ... */
};

#define PROBE_MAX_PARAMS 16

/**
 * struct probe_scsi - the SCSI device's own view.
 * @error: why the device could not be asked ("" when it could)
 * @hctl: SCSI address "H:C:T:L"
 * @inq_ok: @inq holds a parsed standard INQUIRY
 * @inq: standard INQUIRY data
 * @rc_ok: @rc holds a parsed READ CAPACITY(16) response
 * @rc: READ CAPACITY(16) data
 * @rc_error: why READ CAPACITY(16) gave nothing ("" when @rc_ok)
 * @ei_ok: @ei holds the Extended INQUIRY Data VPD page
 * @ei: Extended INQUIRY Data (SPT, GRD_CHK, APP_CHK, REF_CHK)
 * @bl_ok: @bl holds the Block Limits VPD page
 * @bl: Block Limits
 * @prot_caps: host prot_capabilities (SHOST_CAP_*), -1 unknown
 * @guard_type: host prot_guard_type (SHOST_GUARD_*), -1 unknown
 * @scsi_debug: the disk is a scsi_debug disk
 * @nparams: number of scsi_debug module parameters in @param_name/@param_val
 * @param_name: scsi_debug parameter names
 * @param_val: their values
 */
struct probe_scsi {
	char error[256];
	char hctl[32];
	bool inq_ok;
	struct scsi_inquiry inq;
	bool rc_ok;
	struct scsi_readcap16 rc;
	char rc_error[128];
	bool ei_ok;
	struct scsi_ext_inquiry ei;
	bool bl_ok;
	struct scsi_block_limits bl;
	long prot_caps;
	long guard_type;
	bool scsi_debug;
	int nparams;
	char param_name[PROBE_MAX_PARAMS][24];
	char param_val[PROBE_MAX_PARAMS][24];
};

/**
 * struct probe_nvme - the NVMe namespace's own view.
 * @error: why the namespace could not be asked ("" when it could)
 * @nsid: namespace id
 * @serial: controller serial number (sysfs)
 * @model: controller model (sysfs)
 * @ns_ok: @f holds a parsed Identify Namespace
 * @f: Identify Namespace: format, metadata, protection settings
 * @nvm_ok: @n came from the NVM Command Set specific Identify Namespace
 * @nvm_note: when !@nvm_ok, why (the 16-bit guard format is then implied)
 * @n: protection information format of the in-use LBA format
 */
struct probe_nvme {
	char error[256];
	unsigned int nsid;
	char serial[64];
	char model[64];
	bool ns_ok;
	struct nvme_ns_format f;
	bool nvm_ok;
	char nvm_note[128];
	struct nvme_nvm_ns n;
};

/**
 * struct probe_profile - a profile found on disk and the integrity format
 * it declares.
 * @name: profile name ("dif1")
 * @pi_format: its pi-format value ("T10-DIF-TYPE1-CRC", "any")
 */
struct probe_profile {
	char name[64];
	char pi_format[40];
};

#define PROBE_MAX_PROFILES 32
#define PROBE_MAX_DIAG 24

/**
 * struct probe_result - everything the probe found about one target.
 * @path: the path probed
 * @bv: kernel block view
 * @kind: what kind of target it is
 * @scsi: SCSI view (@kind == PROBE_SCSI)
 * @nvme: NVMe view (@kind == PROBE_NVME)
 * @engines: the engines to consider (NULL-terminated; probe_run() sets the
 *	built-in table, tests their own): what each can drive is its data
 * @uring_pi: the running kernel's io_uring offers PI attributes
 *	(IORING_FEAT_RW_ATTR): 1 yes, 0 no, -1 unknown
 * @nprofiles: entries in @profiles
 * @profiles: profiles found (name, declared pi-format)
 * @ndiag: number of diagnosis lines
 * @diag: diagnosis lines, plain words
 */
struct probe_result {
	const char *path;
	struct blkview bv;
	enum probe_kind kind;
	struct probe_scsi scsi;
	struct probe_nvme nvme;
	const struct dix_engine *const *engines;
	int uring_pi;
	int nprofiles;
	struct probe_profile profiles[PROBE_MAX_PROFILES];
	int ndiag;
	char diag[PROBE_MAX_DIAG][512];
};

/**
 * probe_main() - `dixload probe DEV [--json] [--raw-dir DIR]`.
 * @argc: argument count
 * @argv: arguments; argv[0] is "probe"
 *
 * Return: the process exit status: 0, or 1 (DIX_EXIT_USAGE) for a usage
 * error or a device that does not exist or cannot be inspected.
 */
int probe_main(int argc, char **argv);

/**
 * probe_diagnose() - fill @r->diag from what @r holds.  Pure: reads only
 * @r, so the rules are unit-tested on hand-made results.
 */
void probe_diagnose(struct probe_result *r);

/**
 * probe_engine_fits() - whether engine @e can run on @r's target with --pi
 * @mode ("kernel", "app", "off").  Engines are listed in two passes: @pass 0
 * those that work on what the device or the block layer checks itself,
 * @pass 1 (--pi app only) those that hand the kernel's format over per I/O.
 */
bool probe_engine_fits(const struct probe_result *r, const struct dix_engine *e,
		       const char *mode, int pass);

/**
 * probe_engines() - the dixload engines that can run on @r's target with
 * --pi @mode ("kernel", "app" or "off"), as "sync, libaio, ..." in @out
 * ("" when none can).  Pure, like probe_diagnose().
 */
void probe_engines(const struct probe_result *r, const char *mode, char *out,
		   size_t len);

/**
 * probe_expected_format() - the kernel integrity format a device formatted
 * like @r's SCSI or NVMe view would get from Linux when the whole path
 * supports it ("T10-DIF-TYPE1-CRC" for SCSI Type 2 as for Type 1,
 * "EXT-DIF-TYPE3-CRC64" for NVMe Type 3 with 64-bit guard ...).
 *
 * Return: a static string, or NULL when the device carries no PI or its
 * view is missing.
 */
const char *probe_expected_format(const struct probe_result *r);

/**
 * probe_profile_fits() - whether profile @p can run on a target of kernel
 * integrity format @format: it declares that format or "any".
 */
bool probe_profile_fits(const struct probe_profile *p, const char *format);

/**
 * probe_print_json() - @r as one JSON object on one line: keys "device",
 * "kind", "name", "disk", "queue", "integrity", "scsi" or "nvme", "pi_modes",
 * "profiles", "diagnosis" (every key in doc/json.md, record "probe").
 */
void probe_print_json(FILE *f, const struct probe_result *r);

/** probe_print_human() - @r as an aligned report for people. */
void probe_print_human(FILE *f, const struct probe_result *r);

#endif
