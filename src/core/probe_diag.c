// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_diag.c - turn what the probe found into plain words: do the drive
 * and the kernel agree about PI, why not, which dixload engines and --pi
 * modes can run on the device, and which profiles fit.
 *
 * Pure: every rule reads only struct probe_result, so the unit tests feed
 * hand-made results (including the forum case: a DIF-formatted drive whose
 * kernel integrity format stays "none").
 *
 * Linux facts the rules rely on (drivers/scsi/sd_dif.c, nvme/host/core.c):
 * sd registers T10-DIF-TYPE1-* for Types 1 and 2 and TYPE3 for Type 3, with
 * the IP guard when the host's prot_guard_type says so; an HBA that offers
 * DIX Type 0 but not DIX for the drive's type gets DIX0 (host-side PI,
 * device_is_integrity_capable 0); no DIX at all means format "none".  The
 * NVMe driver uses PI only with a 16- or 64-bit guard, no storage tag, and
 * PI first in the metadata or filling it; otherwise metadata gets "nop".
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/probe.h"

static void say(struct probe_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct probe_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->ndiag >= PROBE_MAX_DIAG)
		return;
	va_start(ap, fmt);
	vsnprintf(r->diag[r->ndiag], sizeof(r->diag[0]), fmt, ap);
	va_end(ap);
	r->ndiag++;
}

/* A format the block layer generates and verifies PI for (not none/nop). */
static bool format_has_pi(const char *fmt)
{
	return !strncmp(fmt, "T10-DIF-", 8) || !strncmp(fmt, "EXT-DIF-", 8);
}

/* The SCSI drive is formatted with PI (READ CAPACITY(16) PROT_EN). */
static bool scsi_drive_pi(const struct probe_result *r)
{
	return r->kind == PROBE_SCSI && r->scsi.rc_ok && r->scsi.rc.prot_en;
}

/* The NVMe namespace is formatted with PI (DPS protection type). */
static bool nvme_drive_pi(const struct probe_result *r)
{
	return r->kind == PROBE_NVME && r->nvme.ns_ok &&
	       r->nvme.f.protection_type;
}

bool probe_profile_fits(const struct probe_profile *p, const char *format)
{
	return !strcmp(p->pi_format, format) || !strcmp(p->pi_format, "any");
}

/* The NVMe driver's own condition for using PI (else metadata is "nop"). */
static bool nvme_kernel_uses_pi(const struct probe_nvme *n)
{
	const struct nvme_ns_format *f = &n->f;

	if (!f->protection_type || n->n.sts || n->n.guard_bits == 32)
		return false;
	return f->pi_first || f->metadata_size == n->n.pi_size;
}

const char *probe_expected_format(const struct probe_result *r)
{
	if (scsi_drive_pi(r)) {
		bool ip = r->scsi.guard_type > 0 &&
			  (r->scsi.guard_type & SHOST_GUARD_IP);
		bool t3 = r->scsi.rc.protection_type == 3;

		if (ip)
			return t3 ? "T10-DIF-TYPE3-IP" : "T10-DIF-TYPE1-IP";
		return t3 ? "T10-DIF-TYPE3-CRC" : "T10-DIF-TYPE1-CRC";
	}
	if (r->kind == PROBE_NVME && r->nvme.ns_ok &&
	    nvme_kernel_uses_pi(&r->nvme)) {
		bool t3 = r->nvme.f.protection_type == 3;

		if (r->nvme.n.guard_bits == 64)
			return t3 ? "EXT-DIF-TYPE3-CRC64" : "EXT-DIF-TYPE1-CRC64";
		return t3 ? "T10-DIF-TYPE3-CRC" : "T10-DIF-TYPE1-CRC";
	}
	return NULL;
}

/* "0x71 (DIF Type 1, DIX Type 0, DIX Type 1, DIX Type 2, DIX Type 3)" */
static void caps_words(long caps, char *out, size_t len)
{
	static const char *const names[] = {
		"DIF Type 1", "DIF Type 2", "DIF Type 3", "DIX Type 0",
		"DIX Type 1", "DIX Type 2", "DIX Type 3",
	};
	size_t used;
	int i, n = 0;

	used = snprintf(out, len, "0x%lx (", caps);
	for (i = 0; i < 7 && used < len; i++)
		if (caps & (1L << i))
			used += snprintf(out + used, len - used, "%s%s",
					 n++ ? ", " : "", names[i]);
	if (used < len)
		snprintf(out + used, len - used, "%s)", n ? "" : "nothing");
}

static void diag_scsi_pi(struct probe_result *r)
{
	const struct probe_scsi *s = &r->scsi;
	const struct blkview *bv = &r->bv;
	unsigned int t = s->rc.protection_type;
	const char *expect = probe_expected_format(r);
	char caps[192] = "";

	if (s->prot_caps >= 0) {
		char w[140];

		caps_words(s->prot_caps, w, sizeof(w));
		snprintf(caps, sizeof(caps), "host prot_capabilities %s", w);
	}

	if (!strcmp(bv->format, "none")) {
		bool dif = s->prot_caps > 0 &&
			   (s->prot_caps & (SHOST_CAP_DIF_TYPE1 << (t - 1)));

		say(r, "drive formatted Type %u (prot_en=1) but the kernel integrity format is none: the HBA does not advertise DIX%s%s%s",
		    t, caps[0] ? " (" : "", caps, caps[0] ? ")" : "");
		if (s->prot_caps >= 0)
			say(r, dif ?
			    "the HBA does DIF Type %u itself: PI is generated and checked between HBA and drive, out of the host's sight; nothing to check from the block layer" :
			    "the HBA supports neither DIX nor DIF Type %u: sd disables protection on this disk (dmesg: \"Disabling DIF Type %u protection\")",
			    t, t);
		return;
	}
	if (t == 2 && !strncmp(bv->format, "T10-DIF-TYPE1-", 14))
		say(r, "Type 2 shown by the kernel as %s (expected: Linux handles Type 2 like Type 1, with 32-byte READ/WRITE commands)",
		    bv->format);
	else if (expect && !strcmp(bv->format, expect))
		say(r, "drive formatted Type %u (prot_en=1) and the kernel integrity format is %s: PI from memory to the medium",
		    t, bv->format);
	else if (format_has_pi(bv->format))
		say(r, "drive formatted Type %u but the kernel integrity format is %s (a Type %u drive would get %s)",
		    t, bv->format, t, expect ? expect : "?");
	else
		say(r, "drive formatted Type %u but the kernel integrity format is %s: metadata passes without PI checking",
		    t, bv->format);

	if (format_has_pi(bv->format) && !bv->device_is_integrity_capable)
		say(r, "device_is_integrity_capable=0: the HBA offers DIX without DIF Type %u (DIX0), so PI is checked between memory and the HBA only, not by the drive%s%s%s",
		    t, caps[0] ? " (" : "", caps, caps[0] ? ")" : "");
}

static void diag_scsi(struct probe_result *r)
{
	const struct probe_scsi *s = &r->scsi;
	const struct blkview *bv = &r->bv;

	if (s->error[0]) {
		say(r, "SCSI view unavailable: %s", s->error);
		return;
	}
	if (!s->rc_ok) {
		say(r, "READ CAPACITY(16) gave no protection information: %s",
		    s->rc_error[0] ? s->rc_error : "no answer");
	} else if (s->rc.prot_en) {
		diag_scsi_pi(r);
	} else if (format_has_pi(bv->format)) {
		say(r, "DIX0: the drive stores no PI (prot_en=0) and the HBA advertises DIX Type 0 (like scsi_debug dif=0 dix=1): the kernel generates and checks %s between memory and the HBA, host-side only; nothing reaches the medium",
		    bv->format);
	} else if (s->inq_ok && s->inq.protect) {
		say(r, "the drive supports PI (INQUIRY PROTECT=1) but is not formatted with it (prot_en=0); a FORMAT UNIT with protection (sg_format --fmtpinfo, destroys all data) would enable it");
	} else {
		say(r, "no protection information: the drive is not formatted with PI (prot_en=0) and the kernel integrity format is %s",
		    bv->format);
	}

	if (scsi_drive_pi(r)) {
		unsigned int t = s->rc.protection_type;

		if (s->inq_ok && !s->inq.protect)
			say(r, "INQUIRY says PROTECT=0 although READ CAPACITY(16) reports prot_en=1: the device contradicts itself");
		if (s->ei_ok && s->ei.type_mask && !(s->ei.type_mask & (1u << t)))
			say(r, "Extended INQUIRY SPT=%u does not list Type %u, yet the drive is formatted Type %u",
			    s->ei.spt, t, t);
		if (s->ei_ok && !(s->ei.grd_chk && s->ei.ref_chk && s->ei.app_chk))
			say(r, "the drive itself checks:%s%s%s%s (Extended INQUIRY GRD_CHK=%d APP_CHK=%d REF_CHK=%d)",
			    s->ei.grd_chk ? " guard" : "",
			    s->ei.app_chk ? " app-tag" : "",
			    s->ei.ref_chk ? " ref-tag" : "",
			    s->ei.grd_chk || s->ei.app_chk || s->ei.ref_chk ?
			    "" : " nothing",
			    s->ei.grd_chk, s->ei.app_chk, s->ei.ref_chk);
		if (s->rc.p_i_exponent)
			say(r, "P_I_EXPONENT=%u: %u protection intervals per %u-byte logical block; the kernel's protection interval is %u bytes",
			    s->rc.p_i_exponent, 1u << s->rc.p_i_exponent,
			    s->rc.block_length, bv->protection_interval_bytes);
	}
	if (s->rc_ok && s->rc.block_length != bv->logical_block_size &&
	    bv->logical_block_size)
		say(r, "READ CAPACITY(16) block length %u differs from the kernel's logical_block_size %u",
		    s->rc.block_length, bv->logical_block_size);
	if (s->scsi_debug)
		say(r, "scsi_debug disk (scratch: writes need no --force); it checks PI arriving through the block layer (DIX) but not PI interleaved in pass-through buffers");
	/*
	 * Measured on 6.1 with tcm_loop: a WRITE(16) WRPROTECT=1 carrying a
	 * correct tuple (checked outside dixload) fails LIO's guard check,
	 * because SG_IO carries no integrity payload and tcm_loop hands LIO
	 * an empty protection list.  The block layer's PI does reach it.
	 */
	if (s->inq_ok && !strcmp(s->inq.vendor, "LIO-ORG"))
		say(r, "LIO target disk (INQUIRY LIO-ORG %s): LIO checks the PI the block layer sends (its sbc_dif_verify, a second checker beside the kernel's), but through tcm_loop a pass-through buffer reaches it as data with no protection list, so sg --pi app writes fail its guard check (ASC 10/01): sg --pi app has no independent checker here; only a real DIF disk judges the interleaved layout",
		    s->inq.product);
}

static void diag_nvme(struct probe_result *r)
{
	const struct probe_nvme *n = &r->nvme;
	const struct nvme_ns_format *f = &n->f;
	const struct blkview *bv = &r->bv;
	const char *expect = probe_expected_format(r);
	unsigned int t = f->protection_type;
	char where[96];

	if (n->error[0]) {
		say(r, "NVMe view unavailable: %s", n->error);
		return;
	}
	if (!n->ns_ok)
		return;
	if (!n->nvm_ok)
		say(r, "no NVM Command Set Identify Namespace (%s): the 16-bit guard PI format is implied",
		    n->nvm_note[0] ? n->nvm_note : "not supported");
	if (!t) {
		if (f->metadata_size)
			say(r, "namespace has %u bytes of metadata per block but no PI (DPS type 0); kernel integrity format %s",
			    f->metadata_size, bv->format);
		else
			say(r, "namespace formatted without metadata or PI (LBA format %u: %u-byte blocks)",
			    f->format_index, f->data_size);
		return;
	}

	snprintf(where, sizeof(where), "PI %s in %u-byte %s metadata, %u-bit guard",
		 f->pi_first ? "first" : "last", f->metadata_size,
		 f->extended_lba ? "extended-LBA" : "separate",
		 n->n.guard_bits);

	if (f->extended_lba && !format_has_pi(bv->format)) {
		say(r, "namespace formatted Type %u with extended LBAs (%s): the block layer cannot carry interleaved metadata; the controller inserts and strips PI (PRACT) when the metadata is just the PI tuple, else the block device has no capacity - use --engine nvme --pi app",
		    t, where);
	} else if (expect && !strcmp(bv->format, expect)) {
		say(r, "namespace formatted Type %u (%s) and the kernel integrity format is %s%s",
		    t, where, bv->format,
		    t == 2 ? " (Type 2 shows as TYPE1, as expected)" : "");
	} else if (!strcmp(bv->format, "nop") || !expect) {
		const char *why = "";

		if (n->n.guard_bits == 32)
			why = ": the Linux NVMe driver has no 32-bit-guard (CRC32C) PI";
		else if (n->n.sts)
			why = ": a storage tag is in use (ELBAF STS), which the Linux NVMe driver does not handle";
		else if (!f->pi_first && f->metadata_size != n->n.pi_size)
			why = ": PI sits last in metadata larger than the PI tuple; Linux uses PI only when it is first in the metadata or fills it";
		say(r, "namespace formatted Type %u (%s) but the kernel integrity format is %s: metadata passes, PI is neither generated nor checked by the kernel%s",
		    t, where, bv->format, why);
	} else {
		say(r, "namespace formatted Type %u (%s) but the kernel integrity format is %s (expected %s)",
		    t, where, bv->format, expect);
	}
	if (!(f->dpc_types & (1u << t)))
		say(r, "DPC does not list Type %u although DPS is set to it: the controller contradicts itself",
		    t);
}

/*
 * probe_engine_fits(): whether engine @e can run on @r's target with --pi
 * @mode.  @pass 0 takes
 * the engines that work on what the device or the block layer checks
 * itself; for --pi app, pass 1 adds those that hand the kernel's format
 * over per I/O (listed after: the drive's own PI checks more).
 */
bool probe_engine_fits(const struct probe_result *r, const struct dix_engine *e,
		       const char *mode, int pass)
{
	bool kpi = format_has_pi(r->bv.format);

	if (!strcmp(mode, "kernel"))
		return pass == 0 && kpi && (e->targets & DIX_TGT_BLOCK);
	if (!strcmp(mode, "off"))
		return pass == 0 && ((e->targets & DIX_TGT_BLOCK) ||
			((e->targets & DIX_TGT_SCSI) && r->kind == PROBE_SCSI) ||
			((e->targets & DIX_TGT_NVME) && r->kind == PROBE_NVME));
	switch (e->app_pi) {
	case DIX_APP_PI_SCSI:
		return pass == 0 && scsi_drive_pi(r);
	case DIX_APP_PI_NVME:
		return pass == 0 && nvme_drive_pi(r) && r->nvme.n.guard_bits != 32;
	case DIX_APP_PI_KERNEL:
		return pass == 1 && kpi && r->uring_pi == 1;
	default:
		return false;
	}
}

void probe_engines(const struct probe_result *r, const char *mode, char *out,
		   size_t len)
{
	const struct dix_engine *const *e;
	size_t used = 0;
	int pass;

	out[0] = '\0';
	if (!r->engines)
		return;
	for (pass = 0; pass < 2; pass++)
		for (e = r->engines; *e; e++)
			if (probe_engine_fits(r, *e, mode, pass))
				used += snprintf(out + used, used < len ? len - used : 0,
						 "%s%s", used ? ", " : "", (*e)->name);
}

/* The first engine in @r's table that carries @kind of PI, or NULL. */
static const struct dix_engine *engine_with(const struct probe_result *r,
					    enum dix_app_pi kind)
{
	const struct dix_engine *const *e;

	for (e = r->engines; e && *e; e++)
		if ((*e)->app_pi == kind)
			return *e;
	return NULL;
}

static void diag_engines(struct probe_result *r)
{
	const struct dix_engine *attr = engine_with(r, DIX_APP_PI_KERNEL);
	const struct dix_engine *nvme = engine_with(r, DIX_APP_PI_NVME);
	const char *fmt = r->bv.format;
	char list[128], note[160] = "";

	probe_engines(r, "kernel", list, sizeof(list));
	if (list[0])
		say(r, "--pi kernel: engines %s (the block layer generates and verifies %s)",
		    list, fmt);
	else
		say(r, "--pi kernel: not possible here (kernel integrity format %s)",
		    fmt);

	probe_engines(r, "app", list, sizeof(list));
	if (attr && r->uring_pi != 1 && format_has_pi(fmt))
		snprintf(note, sizeof(note),
			 "; %s PI attributes are not offered by this kernel (%s)",
			 attr->name, attr->needs ? attr->needs : "");
	if (list[0]) {
		say(r, "--pi app: engines %s (dixload generates and checks PI itself)%s%s",
		    list,
		    scsi_drive_pi(r) && r->scsi.rc.protection_type == 2 &&
		    engine_with(r, DIX_APP_PI_SCSI) ?
		    "; SCSI pass-through uses READ(32)/WRITE(32) for Type 2" : "",
		    note);
	} else {
		char why[200] = "the target carries no PI";

		if (scsi_drive_pi(r) && !engine_with(r, DIX_APP_PI_SCSI))
			snprintf(why, sizeof(why), "this dixload has no engine for SCSI drive PI; configure's summary says what was left out");
		else if (nvme_drive_pi(r) && !nvme)
			snprintf(why, sizeof(why), "this dixload has no engine for NVMe drive PI; configure's summary says what was left out");
		else if (r->kind == PROBE_NVME && r->nvme.n.guard_bits == 32 && nvme)
			snprintf(why, sizeof(why), "the %s engine has no 32-bit-guard PI", nvme->name);
		else if (format_has_pi(fmt) && attr)
			snprintf(why, sizeof(why), "the drive carries no PI of its own and this kernel's %s offers no PI attributes",
				 attr->name);
		say(r, "--pi app: not possible here (%s)", why);
	}
	probe_engines(r, "off", list, sizeof(list));
	if (list[0])
		say(r, "--pi off: engines %s", list);
}

static void diag_profiles(struct probe_result *r)
{
	char fit[256] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < r->nprofiles; i++) {
		const struct probe_profile *p = &r->profiles[i];

		if (!probe_profile_fits(p, r->bv.format))
			continue;
		used += snprintf(fit + used, used < sizeof(fit) ?
				 sizeof(fit) - used : 0, "%s%s", used ? ", " : "",
				 p->name);
	}
	if (fit[0])
		say(r, "profiles that fit (pi-format %s): %s", r->bv.format, fit);
	else if (r->nprofiles)
		say(r, "no profile found declares pi-format %s: give options on the command line (or --pi-format any)",
		    r->bv.format);
	else
		say(r, "no profiles found (./profiles, $DIXLOAD_PROFILE_PATH, the installed data directory)");
}

void probe_diagnose(struct probe_result *r)
{
	const struct blkview *bv = &r->bv;

	r->ndiag = 0;
	if (r->kind == PROBE_FILE) {
		say(r, "regular file: no protection information travels with file I/O (integrity format none); for PI use a DIX-capable device or scripts/dixvm");
	} else if (!bv->has_integrity) {
		say(r, "the kernel shows no integrity directory for %s: it was built without CONFIG_BLK_DEV_INTEGRITY, so no PI passes through the block layer",
		    bv->disk);
	}
	if (bv->is_partition)
		say(r, "%s is a partition of %s: integrity and queue limits are the disk's", bv->name, bv->disk);

	switch (r->kind) {
	case PROBE_SCSI:
		diag_scsi(r);
		break;
	case PROBE_NVME:
		diag_nvme(r);
		break;
	case PROBE_OTHER:
		if (bv->slaves[0])
			say(r, "%s is stacked on %s: it has integrity only when every device below shares one profile; probe those for the drive's own view",
			    bv->name, bv->slaves);
		else
			say(r, "%s is neither a SCSI disk nor an NVMe namespace: the kernel view is all there is",
			    bv->name);
		break;
	case PROBE_FILE:
		break;
	}

	if (format_has_pi(bv->format)) {
		if (strstr(bv->format, "-IP"))
			say(r, "IP-checksum guard on the host side: the kernel computes IP checksums, not CRC16, so loading crct10dif-pclmul changes nothing on this path");
		if (!bv->tag_size)
			say(r, "tag_size 0: the kernel offers no application tag space on this device");
		if (!bv->read_verify)
			say(r, "integrity/read_verify=0: the block layer does not verify PI on reads");
		if (!bv->write_generate)
			say(r, "integrity/write_generate=0: the block layer does not generate PI on writes");
	}
	diag_engines(r);
	diag_profiles(r);
}
