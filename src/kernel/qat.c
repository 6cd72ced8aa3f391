// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qat.c - is there an Intel QAT here, and does the kernel use it (see
 * qat.h).
 *
 * The device ids are the PCI functions QAT's drivers bind (physical and
 * SR-IOV virtual, from the kernel's adf_accel_devices.h and pci_ids.h):
 * reading them, not the driver's name, is what says a card is there when
 * its driver is not loaded.  Which driver the kernel selects is
 * kw_select(): the highest priority of the name among the selectable
 * entries, as crypto_alg_lookup() picks.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kwatch.h"
#include "kernel/modules.h"
#include "kernel/qat.h"

static const struct {
	unsigned int id;
	const char *name;
} qat_ids[] = {
	{ 0x0435, "dh895xcc" }, { 0x0443, "dh895xccvf" },
	{ 0x37c8, "c6xx" }, { 0x37c9, "c6xxvf" },
	{ 0x19e2, "c3xxx" }, { 0x19e3, "c3xxxvf" },
	{ 0x4940, "4xxx" }, { 0x4941, "4xxxvf" },
	{ 0x4942, "401xx" }, { 0x4943, "401xxvf" },
	{ 0x4944, "402xx" }, { 0x4945, "402xxvf" },
	{ 0x4946, "420xx" }, { 0x4947, "420xxvf" },
	{ 0x4948, "6xxx" }, { 0x4949, "6xxxvf" },
};

static int read_hex(const char *path, unsigned int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%x", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

static const char *qat_kind(unsigned int vendor, unsigned int device)
{
	size_t i;

	if (vendor != 0x8086)
		return NULL;
	for (i = 0; i < sizeof(qat_ids) / sizeof(qat_ids[0]); i++)
		if (qat_ids[i].id == device)
			return qat_ids[i].name;
	return NULL;
}

/* The PCI functions with a QAT id, and the driver each is bound to. */
static int look_pci(const char *sys_root, struct qat_seen *q)
{
	char dir[PATH_MAX], p[PATH_MAX + 300], drv[PATH_MAX];
	unsigned int vendor, device;
	struct dirent *e;
	const char *kind;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", sys_root);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/vendor", dir, e->d_name);
		if (read_hex(p, &vendor))
			continue;
		snprintf(p, sizeof(p), "%s/%s/device", dir, e->d_name);
		if (read_hex(p, &device) || !(kind = qat_kind(vendor, device)))
			continue;
		snprintf(p, sizeof(p), "%s/%s/driver", dir, e->d_name);
		n = readlink(p, drv, sizeof(drv) - 1);
		drv[n > 0 ? n : 0] = 0;
		if (q->ndev < QAT_MAX_SHOWN)
			snprintf(q->dev[q->ndev], sizeof(q->dev[0]), "%.20s %s (%.40s)",
				 e->d_name, kind, n > 0 ? (strrchr(drv, '/') ?
				 strrchr(drv, '/') + 1 : drv) : "no driver bound");
		q->ndev++;
	}
	closedir(d);
	return 0;
}

static int is_qat_alg(const struct kw_alg *a)
{
	return !strcmp(a->module, "intel_qat") ||
	       ((!strcmp(a->module, "kernel") || !a->module[0]) &&
		(!strncmp(a->driver, "qat_", 4) || !strncmp(a->driver, "qat-", 4)));
}

static void look_crypto(const struct kw_state *s, struct qat_seen *q)
{
	size_t l = 0;
	int i;

	for (i = 0; s->have_modules && i < s->nmodules; i++)
		if (mod_is_qat(s->modules[i]) && l < sizeof(q->mods) - 1)
			l += (size_t)snprintf(q->mods + l, sizeof(q->mods) - l,
					      "%s%s", l ? ", " : "", s->modules[i]);
	for (i = 0; i < s->ncrypto; i++) {
		const struct kw_alg *a = &s->crypto[i], *sel;

		if (!is_qat_alg(a))
			continue;
		sel = kw_select(s, a->name);
		if (sel == a)
			q->nsel++;
		if (q->nalg < QAT_MAX_SHOWN) {
			char *o = q->alg[q->nalg];
			size_t n = sizeof(q->alg[0]);

			if (sel == a)
				snprintf(o, n, "%.40s: %.40s (%d), selected",
					 a->name, a->driver, a->priority);
			else if (sel)
				snprintf(o, n, "%.40s: %.40s (%d), the kernel selects %.40s (%d)",
					 a->name, a->driver, a->priority,
					 sel->driver, sel->priority);
			else
				snprintf(o, n, "%.40s: %.40s (%d), not selectable",
					 a->name, a->driver, a->priority);
		}
		q->nalg++;
	}
}

int qat_look(const char *sys_root, const char *proc_root, struct qat_seen *q)
{
	struct kw_state s;
	int rp, rc;

	memset(q, 0, sizeof(*q));
	rp = look_pci(sys_root, q);
	memset(&s, 0, sizeof(s));
	rc = kw_snapshot(&s, proc_root, sys_root);
	if (s.have_crypto)
		look_crypto(&s, q);
	else if (!rc)
		rc = -ENOENT;
	kw_free(&s);
	return rp && rc ? rp : 0;
}

static size_t list(char *out, size_t len, char (*v)[96], int n)
{
	size_t l = 0;
	int i;

	for (i = 0; i < n && i < QAT_MAX_SHOWN && l < len; i++)
		l += (size_t)snprintf(out + l, len - l, "%s%s", i ? ", " : "", v[i]);
	if (n > QAT_MAX_SHOWN && l < len)
		l += (size_t)snprintf(out + l, len - l, ", ... (%d in all)", n);
	return l < len ? l : len;
}

int qat_note(const char *sys_root, const char *proc_root, char *out, size_t len)
{
	struct qat_seen q;
	char devs[4 * 96 + 32] = "";
	size_t l = 0;
	int i;

	if (qat_look(sys_root, proc_root, &q) || (!q.ndev && !q.nalg && !q.mods[0]))
		return 0;
	list(devs, sizeof(devs), q.dev, q.ndev);
	if (q.ndev && q.nalg)
		l = (size_t)snprintf(out, len, "QAT: %d device%s (%s) and %d algorithm%s in /proc/crypto, %d of them selected:",
				     q.ndev, q.ndev == 1 ? "" : "s", devs, q.nalg,
				     q.nalg == 1 ? "" : "s", q.nsel);
	else if (q.ndev)
		l = (size_t)snprintf(out, len, "QAT: %d device%s on the PCI bus (%s), but no QAT algorithm in /proc/crypto: %s",
				     q.ndev, q.ndev == 1 ? "" : "s", devs,
				     q.mods[0] ? "its driver registered none (firmware? the device's state in its sysfs qat/state)" :
				     "no QAT module is loaded (modprobe the one the device names)");
	else if (q.nalg)
		l = (size_t)snprintf(out, len, "QAT: %d algorithm%s in /proc/crypto but no QAT device on the PCI bus (/sys/bus/pci disagrees):",
				     q.nalg, q.nalg == 1 ? "" : "s");
	else
		l = (size_t)snprintf(out, len, "QAT: module%s %s loaded, no QAT device on the PCI bus: it registers no algorithm",
				     strchr(q.mods, ',') ? "s" : "", q.mods);
	for (i = 0; q.nalg && i < q.nalg && i < QAT_MAX_SHOWN && l < len; i++)
		l += (size_t)snprintf(out + l, len - l, " %s%s", q.alg[i],
				      i + 1 < q.nalg && i + 1 < QAT_MAX_SHOWN ? ";" : "");
	if (q.nalg > QAT_MAX_SHOWN && l < len)
		snprintf(out + l, len - l, "; ... (%d in all)", q.nalg);
	return 1;
}

void qat_note_append(char *note, size_t size)
{
	size_t l = strlen(note);

	if (l + 2 >= size)
		return;
	if (qat_note("/sys", "/proc", note + l + (l ? 1 : 0), size - l - 1) && l)
		note[l] = '\n';
	else
		note[l] = 0;
}
