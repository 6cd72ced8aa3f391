// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe.c - `dixload probe DEV [--json] [--raw-dir DIR]`.
 *
 * Gathers three views of a target - the kernel's (blkview), the SCSI
 * device's (INQUIRY, READ CAPACITY(16), VPD pages through libsgutils2) or
 * the NVMe namespace's (Identify through libnvme) - and prints them with
 * the diagnosis of probe_diag.c.  The device is only ever read: every
 * command sent is an INQUIRY, READ CAPACITY or Identify.
 *
 * The device's own answers come from the device description's providers
 * (devdesc_scsi.c: INQUIRY, READ CAPACITY(16); devdesc_nvme.c: Identify),
 * the ones the run uses; only the VPD pages are asked here.  --raw-dir
 * saves the bytes in the tests/data hex format, so a user's device can
 * become a unit test.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_SGUTILS
#include <scsi/sg_cmds_basic.h>
#include <scsi/sg_lib.h>
#endif
#ifdef HAVE_NVME
#include <libnvme.h>
#endif
#ifdef HAVE_LIBURING
#include <liburing.h>
#include "lib/json.h"
#include "proto/uring_pi.h"
#endif

#include "device/blkview.h"
#include "conf/options.h"
#include "core/probe.h"
#include "device/devdesc_nvme.h"
#include "device/devdesc_scsi.h"
#include "conf/profile.h"
#include "lib/util.h"

static const char *sysroot = "/sys";

/*
 * Save @len response bytes as DIR/NAME.hex: '#' comment lines, then 16
 * hex bytes per line - the format tests/unit/hexfile.h reads.
 */
static void raw_save(const char *dir, const char *name, const char *what,
		     const char *dev, const uint8_t *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t i;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.hex", dir, name);
	f = fopen(path, "we");
	if (!f) {
		dix_warn("cannot write %s: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "# %s from %s, %zu bytes (saved by dixload probe --raw-dir)\n",
		what, dev, len);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x%s", buf[i], (i % 16 == 15 || i + 1 == len) ?
			"\n" : " ");
	fclose(f);
}

/* devdesc_raw_fn: the providers' answers into --raw-dir (NULL: not given). */
struct raw_to {
	const char *dir;
	const char *dev;
};

static void raw_answer(void *arg, const char *name, const char *what,
		       const uint8_t *buf, size_t len)
{
	const struct raw_to *to = arg;

	raw_save(to->dir, name, what, to->dev, buf, len);
}

/* ---- SCSI view ---- */

static void scsi_host_caps(const char *diskdir, struct probe_scsi *s)
{
	char dev[PATH_MAX + 16], real[PATH_MAX], hostdir[PATH_MAX], buf[32];
	const char *base;
	unsigned int host;

	s->prot_caps = -1;
	s->guard_type = -1;
	snprintf(dev, sizeof(dev), "%s/device", diskdir);
	if (!realpath(dev, real))
		return;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	snprintf(s->hctl, sizeof(s->hctl), "%.31s", base);
	if (sscanf(base, "%u:", &host) != 1)
		return;
	snprintf(hostdir, sizeof(hostdir), "%s/class/scsi_host/host%u",
		 sysroot, host);
	if (!blkview_attr(hostdir, "prot_capabilities", buf, sizeof(buf)))
		s->prot_caps = strtol(buf, NULL, 0);
	if (!blkview_attr(hostdir, "prot_guard_type", buf, sizeof(buf)))
		s->guard_type = strtol(buf, NULL, 0);
}

static void scsi_debug_params(struct probe_scsi *s)
{
	static const char *const names[] = {
		"dif", "dix", "guard", "ato", "sector_size", "physblk_exp",
		"dev_size_mb", "delay", "opts", "every_nth", "lbpu", "lbpws",
	};
	char dir[PATH_MAX], buf[24];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/module/scsi_debug/parameters", sysroot);
	for (i = 0; i < ARRAY_SIZE(names) && s->nparams < PROBE_MAX_PARAMS; i++) {
		if (blkview_attr(dir, names[i], buf, sizeof(buf)))
			continue;
		snprintf(s->param_name[s->nparams], sizeof(s->param_name[0]),
			 "%s", names[i]);
		snprintf(s->param_val[s->nparams], sizeof(s->param_val[0]),
			 "%s", buf);
		s->nparams++;
	}
}

#ifdef HAVE_SGUTILS
/* INQUIRY with EVPD=@evpd for @page; returns the bytes received or -1. */
static int sg_inq(int fd, bool evpd, int page, uint8_t *buf, int len,
		  int *res)
{
	int resid = 0;

	memset(buf, 0, len);
	*res = sg_ll_inquiry_v2(fd, evpd, page, buf, len, 0, &resid, false, 0);
	if (*res)
		return -1;
	return len - resid;
}

/* A provider's failed command in probe's words ("READ CAPACITY(16) failed: ..."). */
static void sgio_fail(char *out, size_t len, const char *cmd,
		      const struct sgio_answer *a)
{
	char b[96];

	if (!a->sent || a->cat < 0)
		snprintf(out, len, "%s failed: %s", cmd, dix_io_strerror(-a->res));
	else
		snprintf(out, len, "%s failed: %s", cmd,
			 sg_get_category_sense_str(a->cat, sizeof(b), b, 0));
}

static void scsi_ask(const char *node, struct probe_scsi *s, const char *raw)
{
	struct raw_to to = { raw, node };
	struct devdesc_scsi d;
	uint8_t buf[256];
	int fd, n, res;

	fd = sg_cmds_open_device(node, true, 0);
	if (fd < 0) {
		snprintf(s->error, sizeof(s->error), "cannot open %.200s: %s", node,
			 strerror(-fd));
		return;
	}
	/* INQUIRY and READ CAPACITY(16): the device description's provider */
	devdesc_scsi_ask(&d, fd, NULL, 0, raw ? raw_answer : NULL, &to);
	if (d.inq_ans.res) {
		sgio_fail(s->error, sizeof(s->error), "INQUIRY", &d.inq_ans);
		sg_cmds_close_device(fd);
		return;
	}
	s->inq_ok = d.inq_ok;
	s->inq = d.inq;
	s->rc_ok = d.rc_ok;
	s->rc = d.rc;
	if (d.rc_ans.malformed)
		snprintf(s->rc_error, sizeof(s->rc_error),
			 "READ CAPACITY(16) returned malformed data");
	else if (!d.rc_ok)
		sgio_fail(s->rc_error, sizeof(s->rc_error), "READ CAPACITY(16)",
			  &d.rc_ans);

	/* Ask only for VPD pages the device lists: others fail noisily. */
	n = sg_inq(fd, true, 0x00, buf, 255, &res);
	if (n > 0) {
		raw_save(raw, "vpd00", "Supported VPD Pages", node, buf, n);
		if (scsi_vpd_supported(buf, n, 0x86) == 1) {
			uint8_t p[64];
			int m = sg_inq(fd, true, 0x86, p, sizeof(p), &res);

			if (m > 0) {
				raw_save(raw, "vpd86", "Extended INQUIRY Data VPD", node, p, m);
				s->ei_ok = !scsi_parse_vpd_ext_inquiry(p, m, &s->ei);
			}
		}
		if (scsi_vpd_supported(buf, n, 0xb0) == 1) {
			uint8_t p[64];
			int m = sg_inq(fd, true, 0xb0, p, sizeof(p), &res);

			if (m > 0) {
				raw_save(raw, "vpdb0", "Block Limits VPD", node, p, m);
				s->bl_ok = !scsi_parse_vpd_block_limits(p, m, &s->bl);
			}
		}
	}
	sg_cmds_close_device(fd);
}
#endif

static void scsi_view(struct probe_result *r, const char *diskdir,
		      const char *node, const char *raw)
{
	struct probe_scsi *s = &r->scsi;
	char model[32];

	scsi_host_caps(diskdir, s);
	if (!blkview_attr(diskdir, "device/model", model, sizeof(model)) &&
	    !strcmp(model, "scsi_debug")) {
		s->scsi_debug = true;
		scsi_debug_params(s);
	}
#ifdef HAVE_SGUTILS
	scsi_ask(node, s, raw);
#else
	snprintf(s->error, sizeof(s->error),
		 "dixload was built without libsgutils2 (configure --with-sgutils)");
#endif
}

/* ---- NVMe view ---- */

#ifdef HAVE_NVME
static void nvme_ask(const char *node, struct probe_nvme *n, const char *raw)
{
	struct raw_to to = { raw, node };
	struct devdesc_nvme d;
	int fd;

	fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(n->error, sizeof(n->error), "cannot open %.200s: %s", node,
			 strerror(errno));
		return;
	}
	/* the Identify pair: the device description's provider */
	devdesc_nvme_ask(&d, fd, raw ? raw_answer : NULL, &to);
	close(fd);
	n->nsid = d.nsid;
	switch (d.stage) {
	case DEVDESC_NVME_NSID:
		snprintf(n->error, sizeof(n->error),
			 "%.200s: cannot get the namespace id: %s", node,
			 strerror(d.err));
		return;
	case DEVDESC_NVME_ID_NS:
		if (d.status < 0)
			snprintf(n->error, sizeof(n->error),
				 "Identify Namespace failed: %s",
				 dix_io_strerror(d.err));
		else
			snprintf(n->error, sizeof(n->error),
				 "Identify Namespace failed: NVMe status 0x%x",
				 d.status);
		return;
	case DEVDESC_NVME_OK:
		break;
	default:
		snprintf(n->error, sizeof(n->error),
			 "Identify Namespace returned malformed data");
		return;
	}
	n->ns_ok = true;
	n->f = d.f;
	n->n = d.n;
	n->nvm_ok = d.nvm_ok;
	snprintf(n->nvm_note, sizeof(n->nvm_note), "%s", d.nvm_note);
}
#endif

static void nvme_view(struct probe_result *r, const char *diskdir,
		      const char *node, const char *raw)
{
	struct probe_nvme *n = &r->nvme;

	blkview_ctrl_attr(diskdir, "serial", n->serial, sizeof(n->serial));
	blkview_ctrl_attr(diskdir, "model", n->model, sizeof(n->model));
#ifdef HAVE_NVME
	nvme_ask(node, n, raw);
#else
	snprintf(n->error, sizeof(n->error),
		 "dixload was built without libnvme (configure --with-nvme)");
#endif
}

static int uring_pi_offered(void)
{
#ifdef HAVE_LIBURING
	struct io_uring_params p;
	struct io_uring ring;

	memset(&p, 0, sizeof(p));
	if (io_uring_queue_init_params(2, &ring, &p))
		return -1;
	io_uring_queue_exit(&ring);
	return !!(p.features & IORING_FEAT_RW_ATTR);
#else
	return -1;
#endif
}

/* ---- profiles ---- */

/* The loadable profiles of @dir, added to @arg's (a probe_result) list. */
static int add_profiles_from(const char *dir, enum profile_origin from,
			     void *arg)
{
	struct probe_result *r = arg;
	struct dirent **ents;
	int i, n;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		size_t l = strlen(e);
		char file[PATH_MAX], err[256], name[64];
		struct dix_opts o;
		int j, dup = 0;

		if (l <= 8 || strcmp(e + l - 8, ".profile") ||
		    r->nprofiles >= PROBE_MAX_PROFILES)
			goto next;
		snprintf(name, sizeof(name), "%.*s", (int)(l - 8), e);
		/* The first directory that has a name wins, as in profile_find(). */
		for (j = 0; j < r->nprofiles; j++)
			dup |= !strcmp(r->profiles[j].name, name);
		if (dup)
			goto next;
		snprintf(file, sizeof(file), "%s/%s", dir, e);
		opts_init(&o);
		if (!profile_load(file, &o, err, sizeof(err))) {
			struct probe_profile *p = &r->profiles[r->nprofiles++];

			snprintf(p->name, sizeof(p->name), "%s", name);
			snprintf(p->pi_format, sizeof(p->pi_format), "%s",
				 o.pi_format ? o.pi_format : "any");
		}
		opts_free(&o);
next:
		free(ents[i]);
	}
	free(ents);
	return 0;
}

/* ---- gathering ---- */

static int probe_gather(struct probe_result *r, const char *path,
			const char *raw, char *err, size_t errlen)
{
	char diskdir[PATH_MAX], node[PATH_MAX];
	struct stat st;
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = blkview_read(sysroot, path, &r->bv);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENODEV ? "device not found in sysfs" :
			 strerror(-ret));
		return -1;
	}
	r->engines = engine_list();
	r->uring_pi = uring_pi_offered();
	profile_foreach_dir(add_profiles_from, r);

	if (!r->bv.is_blockdev) {
		r->kind = PROBE_FILE;
		return 0;
	}
	r->kind = PROBE_OTHER;
	if (blkview_diskdir(sysroot, &r->bv, diskdir, sizeof(diskdir)))
		return 0;
	/* Commands go to the whole disk: partitions have no SCSI/NVMe identity. */
	snprintf(node, sizeof(node), "/dev/%s", r->bv.disk);
	if (!strncmp(r->bv.disk, "nvme", 4)) {
		r->kind = PROBE_NVME;
		nvme_view(r, diskdir, node, raw);
	} else {
		char buf[16];

		if (!blkview_attr(diskdir, "device/scsi_level", buf, sizeof(buf))) {
			r->kind = PROBE_SCSI;
			scsi_view(r, diskdir, node, raw);
		}
	}
	return 0;
}

/* ---- output ---- */

static const char *kind_name(enum probe_kind k)
{
	static const char *const names[] = { "file", "scsi", "nvme", "other" };

	return names[k];
}

static void json_scsi(struct jw *w, const struct probe_result *r)
{
	const struct probe_scsi *s = &r->scsi;
	int i, t;

	jw_obj_open(w, "scsi");
	jw_str(w, "hctl", s->hctl);
	if (s->error[0])
		jw_str(w, "error", s->error);
	if (s->inq_ok) {
		jw_str(w, "vendor", s->inq.vendor);
		jw_str(w, "product", s->inq.product);
		jw_str(w, "revision", s->inq.revision);
		jw_bool(w, "protect", s->inq.protect);
	}
	if (s->rc_ok) {
		jw_bool(w, "prot_en", s->rc.prot_en);
		jw_uint(w, "protection_type", s->rc.protection_type);
		jw_uint(w, "p_type", s->rc.p_type);
		jw_uint(w, "p_i_exponent", s->rc.p_i_exponent);
		jw_uint(w, "logical_block_size", s->rc.block_length);
		jw_uint(w, "last_lba", s->rc.last_lba);
		jw_uint(w, "lbppbe", s->rc.lbppbe);
	} else if (s->rc_error[0]) {
		jw_str(w, "readcap16_error", s->rc_error);
	}
	if (s->ei_ok) {
		jw_obj_open(w, "extended_inquiry");
		jw_uint(w, "spt", s->ei.spt);
		jw_arr_open(w, "spt_types");
		for (t = 1; t <= 3; t++)
			if (s->ei.type_mask & (1u << t))
				jw_int(w, NULL, t);
		jw_arr_close(w);
		jw_bool(w, "grd_chk", s->ei.grd_chk);
		jw_bool(w, "app_chk", s->ei.app_chk);
		jw_bool(w, "ref_chk", s->ei.ref_chk);
		jw_bool(w, "p_i_i_sup", s->ei.p_i_i_sup);
		jw_bool(w, "no_pi_chk", s->ei.no_pi_chk);
		jw_obj_close(w);
	} else {
		jw_null(w, "extended_inquiry");
	}
	if (s->bl_ok) {
		jw_obj_open(w, "block_limits");
		jw_uint(w, "max_transfer_length", s->bl.max_xfer_len);
		jw_uint(w, "optimal_transfer_length", s->bl.opt_xfer_len);
		jw_uint(w, "optimal_transfer_length_granularity",
			s->bl.opt_xfer_granularity);
		jw_uint(w, "max_compare_and_write_length", s->bl.max_compare_write);
		jw_uint(w, "max_unmap_lba_count", s->bl.max_unmap_lba_count);
		jw_uint(w, "max_write_same_length", s->bl.max_write_same_len);
		jw_obj_close(w);
	} else {
		jw_null(w, "block_limits");
	}
	jw_obj_open(w, "host");
	jw_int(w, "prot_capabilities", s->prot_caps);
	jw_int(w, "prot_guard_type", s->guard_type);
	jw_obj_close(w);
	if (s->scsi_debug) {
		jw_obj_open(w, "scsi_debug");
		for (i = 0; i < s->nparams; i++)
			jw_str(w, s->param_name[i], s->param_val[i]);
		jw_obj_close(w);
	}
	jw_obj_close(w);
}

static void json_nvme(struct jw *w, const struct probe_result *r)
{
	const struct probe_nvme *n = &r->nvme;
	const struct nvme_ns_format *fm = &n->f;

	jw_obj_open(w, "nvme");
	jw_str(w, "serial", n->serial);
	jw_str(w, "model", n->model);
	if (n->error[0])
		jw_str(w, "error", n->error);
	if (n->ns_ok) {
		jw_uint(w, "nsid", n->nsid);
		jw_uint(w, "protection_type", fm->protection_type);
		jw_uint(w, "metadata_size", fm->metadata_size);
		jw_bool(w, "pi_first", fm->pi_first);
		jw_bool(w, "extended_lba", fm->extended_lba);
		jw_uint(w, "guard_bits", fm->protection_type ? n->n.guard_bits : 0);
		jw_uint(w, "pi_size", fm->protection_type ? n->n.pi_size : 0);
		jw_uint(w, "data_size", fm->data_size);
		jw_uint(w, "format_index", fm->format_index);
		jw_uint(w, "nlbaf", fm->nlbaf);
		jw_uint(w, "dpc", fm->dpc);
		jw_uint(w, "dps", fm->dps);
		jw_uint(w, "nsze", fm->nsze);
		jw_bool(w, "nvm_identify", n->nvm_ok);
		if (!n->nvm_ok)
			jw_str(w, "nvm_identify_note", n->nvm_note);
	}
	jw_obj_close(w);
}

/* The engines for --pi @mode as a JSON array, from the table (no re-split). */
static void json_engines(struct jw *w, const struct probe_result *r, const char *mode)
{
	const struct dix_engine *const *e;
	int pass;

	jw_arr_open(w, mode);
	for (pass = 0; pass < 2; pass++)
		for (e = r->engines; e && *e; e++)
			if (probe_engine_fits(r, *e, mode, pass))
				jw_str(w, NULL, (*e)->name);
	jw_arr_close(w);
}

void probe_print_json(FILE *f, const struct probe_result *r)
{
	const struct blkview *bv = &r->bv;
	struct jw w;
	int i;

	jw_init(&w, f);
	jw_obj_open(&w, NULL);
	jw_str(&w, "device", r->path);
	jw_str(&w, "kind", kind_name(r->kind));
	jw_str(&w, "name", bv->name);
	jw_str(&w, "disk", bv->disk);
	jw_bool(&w, "partition", bv->is_partition);
	jw_uint(&w, "size_bytes", bv->size_bytes);
	if (bv->slaves[0])
		jw_str(&w, "slaves", bv->slaves);
	jw_obj_open(&w, "queue");
	jw_uint(&w, "logical_block_size", bv->logical_block_size);
	jw_uint(&w, "physical_block_size", bv->physical_block_size);
	jw_uint(&w, "max_sectors_kb", bv->max_sectors_kb);
	jw_uint(&w, "max_hw_sectors_kb", bv->max_hw_sectors_kb);
	jw_obj_close(&w);
	jw_obj_open(&w, "integrity");
	jw_str(&w, "format", bv->format);
	jw_uint(&w, "protection_interval_bytes", bv->protection_interval_bytes);
	jw_uint(&w, "tag_size", bv->tag_size);
	jw_bool(&w, "read_verify", bv->read_verify);
	jw_bool(&w, "write_generate", bv->write_generate);
	jw_bool(&w, "device_is_integrity_capable", bv->device_is_integrity_capable);
	jw_bool(&w, "sysfs", bv->has_integrity);
	jw_obj_close(&w);
	if (r->kind == PROBE_SCSI)
		json_scsi(&w, r);
	else if (r->kind == PROBE_NVME)
		json_nvme(&w, r);

	jw_obj_open(&w, "pi_modes");
	json_engines(&w, r, "kernel");
	json_engines(&w, r, "app");
	json_engines(&w, r, "off");
	jw_obj_close(&w);

	jw_arr_open(&w, "profiles");
	for (i = 0; i < r->nprofiles; i++)
		if (probe_profile_fits(&r->profiles[i], bv->format))
			jw_str(&w, NULL, r->profiles[i].name);
	jw_arr_close(&w);
	jw_arr_open(&w, "diagnosis");
	for (i = 0; i < r->ndiag; i++)
		jw_str(&w, NULL, r->diag[i]);
	jw_arr_close(&w);
	jw_obj_close(&w);
	jw_end_line(&w);
}

static void human_scsi(FILE *f, const struct probe_result *r)
{
	const struct probe_scsi *s = &r->scsi;
	int i;

	fprintf(f, "scsi:       %s%s\n", s->hctl, s->scsi_debug ? " (scsi_debug)" : "");
	if (s->error[0]) {
		fprintf(f, "            %s\n", s->error);
		return;
	}
	if (s->inq_ok)
		fprintf(f, "  INQUIRY:  %s %s %s, PROTECT=%d\n", s->inq.vendor,
			s->inq.product, s->inq.revision, s->inq.protect);
	if (s->rc_ok)
		fprintf(f, "  READ CAPACITY(16): prot_en=%d p_type=%u (protection type %u) p_i_exponent=%u, %u-byte blocks, last LBA %llu\n",
			s->rc.prot_en, s->rc.p_type, s->rc.protection_type,
			s->rc.p_i_exponent, s->rc.block_length,
			(unsigned long long)s->rc.last_lba);
	else
		fprintf(f, "  READ CAPACITY(16): %s\n", s->rc_error);
	if (s->ei_ok)
		fprintf(f, "  Extended INQUIRY VPD: SPT=%u (types%s%s%s%s) GRD_CHK=%d APP_CHK=%d REF_CHK=%d\n",
			s->ei.spt, s->ei.type_mask & 2 ? " 1" : "",
			s->ei.type_mask & 4 ? " 2" : "",
			s->ei.type_mask & 8 ? " 3" : "",
			s->ei.type_mask ? "" : ": see VPD 0xB4",
			s->ei.grd_chk, s->ei.app_chk, s->ei.ref_chk);
	else
		fprintf(f, "  Extended INQUIRY VPD: not reported\n");
	if (s->bl_ok)
		fprintf(f, "  Block Limits VPD: max transfer %u blocks, optimal %u, granularity %u\n",
			s->bl.max_xfer_len, s->bl.opt_xfer_len,
			s->bl.opt_xfer_granularity);
	if (s->prot_caps >= 0)
		fprintf(f, "  host:     prot_capabilities 0x%lx, prot_guard_type 0x%lx\n",
			s->prot_caps, s->guard_type);
	if (s->nparams) {
		fprintf(f, "  scsi_debug:");
		for (i = 0; i < s->nparams; i++)
			fprintf(f, " %s=%s", s->param_name[i], s->param_val[i]);
		fputc('\n', f);
	}
}

static void human_nvme(FILE *f, const struct probe_result *r)
{
	const struct probe_nvme *n = &r->nvme;
	const struct nvme_ns_format *fm = &n->f;

	fprintf(f, "nvme:       %s (serial %s)\n", n->model[0] ? n->model : "?",
		n->serial[0] ? n->serial : "?");
	if (n->error[0]) {
		fprintf(f, "            %s\n", n->error);
		return;
	}
	fprintf(f, "  Identify Namespace %u: LBA format %u of %u: %u-byte data + %u-byte metadata (%s)\n",
		n->nsid, fm->format_index, fm->nlbaf, fm->data_size,
		fm->metadata_size, fm->extended_lba ? "extended LBA" : "separate");
	fprintf(f, "  protection: type %u, PI %s, DPC 0x%02x, DPS 0x%02x, guard %u-bit%s\n",
		fm->protection_type, fm->pi_first ? "first" : "last", fm->dpc,
		fm->dps, n->n.guard_bits, n->nvm_ok ? "" : " (implied)");
}

void probe_print_human(FILE *f, const struct probe_result *r)
{
	const struct blkview *bv = &r->bv;
	int i;

	if (r->kind == PROBE_FILE)
		fprintf(f, "%s: regular file, %llu bytes%s%s\n", r->path,
			(unsigned long long)bv->size_bytes,
			bv->backing[0] ? ", on " : "", bv->backing);
	else
		fprintf(f, "%s: %s %s%s%s, %llu bytes\n", r->path,
			kind_name(r->kind), bv->name,
			bv->is_partition ? ", partition of " : "",
			bv->is_partition ? bv->disk : "",
			(unsigned long long)bv->size_bytes);
	fprintf(f, "kernel:     integrity %s", bv->format);
	if (bv->has_integrity)
		fprintf(f, ", interval %u, tag_size %u, read_verify %d, write_generate %d, device_is_integrity_capable %d\n",
			bv->protection_interval_bytes, bv->tag_size,
			bv->read_verify, bv->write_generate,
			bv->device_is_integrity_capable);
	else
		fprintf(f, " (no integrity directory)\n");
	fprintf(f, "            logical block %u, physical block %u, max_sectors_kb %u (hw %u)\n",
		bv->logical_block_size, bv->physical_block_size,
		bv->max_sectors_kb, bv->max_hw_sectors_kb);
	if (bv->slaves[0])
		fprintf(f, "            stacked on: %s\n", bv->slaves);
	if (r->kind == PROBE_SCSI)
		human_scsi(f, r);
	else if (r->kind == PROBE_NVME)
		human_nvme(f, r);
	fprintf(f, "diagnosis:\n");
	for (i = 0; i < r->ndiag; i++)
		fprintf(f, "  - %s\n", r->diag[i]);
}

static void usage(FILE *f)
{
	fputs("Usage: dixload probe DEV [--json] [--raw-dir DIR]\n"
	      "Show what DEV does with protection information: the kernel's\n"
	      "integrity view, the SCSI or NVMe device's own view, and a\n"
	      "diagnosis (do they agree, which engines and --pi modes fit,\n"
	      "which profiles fit).  Only INQUIRY, READ CAPACITY and Identify\n"
	      "commands are sent; nothing is written.\n"
	      "  --json         one JSON object instead of the report\n"
	      "  --raw-dir DIR  also save the raw device responses as DIR/*.hex\n",
	      f);
}

int probe_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "raw-dir", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct probe_result *r;
	const char *raw = NULL;
	char err[PATH_MAX + 64];
	int json = 0, c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'r':
			raw = optarg;
			break;
		case 'h':
			usage(stdout);
			return DIX_EXIT_OK;
		default:
			usage(stderr);
			return DIX_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		dix_err("probe: give exactly one device or file%s",
			optind < argc - 1 ? "" : " (dixload probe DEV)");
		usage(stderr);
		return DIX_EXIT_USAGE;
	}
	if (raw) {
		struct stat st;

		if (stat(raw, &st) || !S_ISDIR(st.st_mode)) {
			dix_err("probe: --raw-dir %s: not a directory", raw);
			return DIX_EXIT_USAGE;
		}
	}

	r = xcalloc(1, sizeof(*r));
	if (probe_gather(r, argv[optind], raw, err, sizeof(err))) {
		dix_err("probe: %s", err);
		free(r);
		return DIX_EXIT_USAGE;
	}
	probe_diagnose(r);
	if (json)
		probe_print_json(stdout, r);
	else
		probe_print_human(stdout, r);
	free(r);
	return DIX_EXIT_OK;
}
