// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmmap.c - the device-mapper layer of a device description: which
 * mapping the load runs on, its table, the mappings beneath it, read with
 * the DM ioctls because dmsetup masks the keys only by convention and the
 * sysfs dm/ directory names no table.
 *
 * A mapping is found by its sysfs dm/ directory; its table is asked by
 * device number, so a rename between the two cannot mislead.  Every table
 * text is masked by proto/dmtable.c as it is read and every buffer that
 * held a reply is wiped (explicit_bzero), the kernel's too
 * (DM_SECURE_DATA_FLAG, proto/dmioctl.h): the description carries no key
 * to any printer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/dm-ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkview.h"
#include "device/dmmap.h"
#include "lib/json.h"
#include "proto/dmioctl.h"
#include "lib/util.h"

#define DMCTL_PATH	"/dev/mapper/control"
#define DMCTL_START	16384
#define DMCTL_MAX	(4u << 20)

int dmctl_table(unsigned int major, unsigned int minor, int table,
		uint8_t **buf, size_t *len, uint32_t *count, char *name)
{
	size_t size = DMCTL_START;
	int fd, e = 0;

	*buf = NULL;
	fd = open(DMCTL_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		struct dm_ioctl *io = calloc(1, size);

		if (!io) {
			e = -ENOMEM;
			break;
		}
		/* DM_SECURE_DATA_FLAG: the kernel wipes its copy of the keys */
		dmio_status_request(io, size, major, minor, table);
		if (ioctl(fd, DM_TABLE_STATUS, io) < 0) {
			e = errno == ENXIO ? -ENXIO : -errno;
			dmio_wipe_free(io, size);
			break;
		}
		if (io->flags & DM_BUFFER_FULL_FLAG) {
			dmio_wipe_free(io, size);
			if (size >= DMCTL_MAX) {
				e = -E2BIG;
				break;
			}
			size *= 4;
			continue;
		}
		if (io->data_size < io->data_start || io->data_size > size) {
			dmio_wipe_free(io, size);
			e = -EBADMSG;
			break;
		}
		*len = io->data_size - io->data_start;
		*count = io->target_count;
		if (name)
			snprintf(name, 128, "%.*s", (int)sizeof(io->name), io->name);
		*buf = malloc(*len ? *len : 1);
		if (!*buf)
			e = -ENOMEM;
		else
			memcpy(*buf, (uint8_t *)io + io->data_start, *len);
		dmio_wipe_free(io, size);
		break;
	}
	close(fd);
	return e;
}

int dmctl_open_count(unsigned int major, unsigned int minor, int *count)
{
	struct dm_ioctl io;
	int fd, e = 0;

	fd = open(DMCTL_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&io, 0, sizeof(io));
	dmio_init(&io, sizeof(io), major, minor, 0);
	if (ioctl(fd, DM_DEV_STATUS, &io) < 0)
		e = -errno;
	else
		*count = io.open_count;
	close(fd);
	return e;
}

int dmmap_mismatches(unsigned int major, unsigned int minor, uint64_t *count)
{
	uint8_t *buf;
	size_t len;
	uint32_t n;
	int r;

	*count = 0;
	r = dmctl_table(major, minor, 0, &buf, &len, &n, NULL);
	if (r)
		return r;
	r = dmt_integrity_mismatches(buf, len, n, count);
	dmio_wipe_free(buf, len);
	return r;
}

const char *dmmap_mode_name(char mode)
{
	switch (mode) {
	case 'J':
		return "journal";
	case 'B':
		return "bitmap";
	case 'D':
		return "direct";
	case 'R':
		return "recovery";
	case 'I':
		return "inline";
	}
	return "?";
}

/* Is @major:@minor a mapping?  Its sysfs directory has dm/. */
static int is_mapping(const char *sysroot, unsigned int major,
		      unsigned int minor)
{
	char dir[PATH_MAX], p[PATH_MAX + 8];
	struct stat st;

	if (blkview_sysdir(sysroot, major, minor, dir, sizeof(dir)))
		return 0;
	snprintf(p, sizeof(p), "%s/dm", dir);
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* The kernel name of "MAJ:MIN" (its sysfs directory's base name). */
static void dev_name(const char *sysroot, const char *mm, char *out,
		     size_t len)
{
	unsigned int ma, mi;
	char dir[PATH_MAX], *b;

	out[0] = '\0';
	if (sscanf(mm, "%u:%u", &ma, &mi) != 2 ||
	    blkview_sysdir(sysroot, ma, mi, dir, sizeof(dir)))
		return;
	b = strrchr(dir, '/');
	b = b ? b + 1 : dir;
	if (strlen(b) < len)
		memcpy(out, b, strlen(b) + 1);
}

static int read_level(const char *sysroot, unsigned int major,
		      unsigned int minor, struct dmmap_level *lv, char *err,
		      size_t errlen)
{
	uint8_t *buf;
	size_t len;
	uint32_t count;
	int r, i;

	memset(lv, 0, sizeof(*lv));
	lv->major = major;
	lv->minor = minor;
	r = dmctl_table(major, minor, 1, &buf, &len, &count, lv->name);
	if (r) {
		snprintf(err, errlen, "device-mapper table of %u:%u: %s%s", major,
			 minor, strerror(-r),
			 r == -EACCES || r == -EPERM ? " (the DM ioctls need CAP_SYS_ADMIN)" : "");
		return r;
	}
	r = dmt_parse_specs(buf, len, count, lv->t, DMT_TARGETS_MAX);
	dmio_wipe_free(buf, len);
	if (r < 0) {
		snprintf(err, errlen, "device-mapper table of %s: %s",
			 lv->name, r == -E2BIG ? "more lines than dixload reads" :
			 "malformed ioctl reply");
		return r;
	}
	lv->ntargets = r;
	for (i = 0; i < r; i++)
		dev_name(sysroot, lv->t[i].dev, lv->under[i], sizeof(lv->under[i]));
	return 0;
}

int dmmap_read(const char *sysroot, unsigned int major, unsigned int minor,
	       struct dmmap **out, char *err, size_t errlen)
{
	struct dmmap *m;
	int r, l, i;

	*out = NULL;
	if (!is_mapping(sysroot, major, minor))
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	r = read_level(sysroot, major, minor, &m->lv[0], err, errlen);
	if (r) {
		free(m);
		return r;
	}
	m->nlevels = 1;
	/* down the stack: a one-line mapping over another mapping */
	for (l = 0; l + 1 < DMMAP_LEVELS; l++) {
		unsigned int ma, mi;

		if (m->lv[l].ntargets != 1 ||
		    sscanf(m->lv[l].t[0].dev, "%u:%u", &ma, &mi) != 2 ||
		    !is_mapping(sysroot, ma, mi))
			break;
		if (read_level(sysroot, ma, mi, &m->lv[l + 1], err, errlen))
			break;
		m->nlevels++;
	}
	err[0] = '\0';
	for (l = 0; l < m->nlevels; l++) {
		for (i = 0; i < m->lv[l].ntargets; i++) {
			const struct dmt_target *t = &m->lv[l].t[i];
			int k;

			for (k = 0; k < t->nalgs && m->nalgs < DMMAP_ALGS; k++) {
				struct dmmap_alg *a = &m->algs[m->nalgs++];

				a->level = l;
				a->target = i;
				snprintf(a->name, sizeof(a->name), "%s", t->algs[k].name);
				a->use = t->algs[k].use;
			}
		}
	}
	*out = m;
	return 1;
}

void dmmap_free(struct dmmap *m)
{
	free(m);
}

/* "aes-xts-plain64 (xts(aes), IV plain64, key 64 bytes)" and the like. */
static void target_text(FILE *f, const struct dmt_target *t)
{
	int k;

	if (!strcmp(t->type, "crypt")) {
		fprintf(f, " %s (%s %s", t->cipher,
			t->nalgs ? dmt_use_name(t->algs[0].use) : "?",
			t->nalgs ? t->algs[0].name : "?");
		if (t->ivmode[0])
			fprintf(f, ", IV %s", t->ivmode);
		if (t->keyring)
			fprintf(f, ", key %u bytes in the kernel keyring", t->key_bytes);
		else
			fprintf(f, ", key %u bytes", t->key_bytes);
		if (t->aead_tag)
			fprintf(f, ", tag %u bytes", t->aead_tag);
		if (t->sector_size != 512)
			fprintf(f, ", sector %u", t->sector_size);
		fputc(')', f);
	} else if (!strcmp(t->type, "integrity")) {
		const char *hash = NULL;

		for (k = 0; k < t->nalgs; k++)
			if (t->algs[k].use == DMT_USE_INTERNAL_HASH)
				hash = t->algs[k].name;
		fprintf(f, " hash %s", hash ? hash : "none (the tags come from above)");
		for (k = 0; k < t->nalgs; k++)
			if (t->algs[k].keyed && t->algs[k].use == DMT_USE_INTERNAL_HASH)
				fputs(" (keyed)", f);
		fprintf(f, ", tag %u bytes, %s mode", t->tag_size,
			dmmap_mode_name(t->mode));
		for (k = 0; k < t->nalgs; k++)
			if (t->algs[k].use != DMT_USE_INTERNAL_HASH)
				fprintf(f, ", %s %s", dmt_use_name(t->algs[k].use),
					t->algs[k].name);
	}
}

void dmmap_print(FILE *f, const struct dmmap *m)
{
	int l, i;

	for (l = 0; l < m->nlevels; l++) {
		const struct dmmap_level *lv = &m->lv[l];

		for (i = 0; i < lv->ntargets; i++) {
			const struct dmt_target *t = &lv->t[i];

			fprintf(f, "dm: %s (%u:%u)", lv->name, lv->major, lv->minor);
			if (lv->ntargets > 1)
				fprintf(f, " %llu+%llu", (unsigned long long)t->start,
					(unsigned long long)t->len);
			fprintf(f, " %s", t->type);
			target_text(f, t);
			if (t->dev[0])
				fprintf(f, " over %s (%s)", lv->under[i][0] ? lv->under[i] : "?",
					t->dev);
			fputc('\n', f);
		}
	}
	for (i = 0; i < m->nalgs; i++) {
		const struct dmmap_alg *a = &m->algs[i];

		fprintf(f, "dm: %s %s %s: ", m->lv[a->level].name,
			dmt_use_name(a->use), a->name);
		if (a->now[0])
			fprintf(f, "the mapping would get %s (%d) now", a->now,
				a->now_prio);
		else
			fputs("no driver the mapping can take is registered now", f);
		if (a->kernel[0])
			fprintf(f, "; the kernel selects %s, which it cannot take (%s)",
				a->kernel, a->kernel_why);
		if (a->held[0])
			fprintf(f, "; it holds %s (inferred: the selection at start; no kernel interface says)",
				a->held);
		fputc('\n', f);
	}
}

void dmmap_json(struct jw *w, const char *key, const struct dmmap *m)
{
	int l, i, k;

	jw_obj_open(w, key);
	jw_arr_open(w, "mappings");
	for (l = 0; l < m->nlevels; l++) {
		const struct dmmap_level *lv = &m->lv[l];
		char mm[24];

		jw_obj_open(w, NULL);
		jw_str(w, "name", lv->name);
		snprintf(mm, sizeof(mm), "%u:%u", lv->major, lv->minor);
		jw_str(w, "dev", mm);
		jw_arr_open(w, "table");
		for (i = 0; i < lv->ntargets; i++) {
			const struct dmt_target *t = &lv->t[i];

			jw_obj_open(w, NULL);
			jw_uint(w, "start", t->start);
			jw_uint(w, "length", t->len);
			jw_str(w, "target", t->type);
			jw_str(w, "params", t->params);
			jw_str(w, "under", t->dev);
			jw_str(w, "under_name", lv->under[i]);
			if (!strcmp(t->type, "crypt")) {
				jw_str(w, "cipher", t->cipher);
				jw_str(w, "iv", t->ivmode);
				jw_uint(w, "key_bytes", t->key_bytes);
				jw_bool(w, "keyring", t->keyring);
				jw_uint(w, "sector_size", t->sector_size);
				jw_uint(w, "tag_size", t->aead_tag);
			} else if (!strcmp(t->type, "integrity")) {
				jw_uint(w, "tag_size", t->tag_size);
				jw_str(w, "mode", dmmap_mode_name(t->mode));
			}
			jw_arr_open(w, "algorithms");
			for (k = 0; k < t->nalgs; k++) {
				jw_obj_open(w, NULL);
				jw_str(w, "name", t->algs[k].name);
				jw_str(w, "use", dmt_use_name(t->algs[k].use));
				jw_bool(w, "keyed", t->algs[k].keyed);
				jw_obj_close(w);
			}
			jw_arr_close(w);
			jw_obj_close(w);
		}
		jw_arr_close(w);
		jw_obj_close(w);
	}
	jw_arr_close(w);
	jw_arr_open(w, "drivers");
	for (i = 0; i < m->nalgs; i++) {
		const struct dmmap_alg *a = &m->algs[i];

		jw_obj_open(w, NULL);
		jw_str(w, "mapping", m->lv[a->level].name);
		jw_str(w, "algorithm", a->name);
		jw_str(w, "use", dmt_use_name(a->use));
		if (a->now[0]) {
			jw_str(w, "now", a->now);
			jw_int(w, "now_priority", a->now_prio);
		} else {
			jw_null(w, "now");
			jw_null(w, "now_priority");
		}
		if (a->kernel[0]) {
			jw_str(w, "kernel_selects", a->kernel);
			jw_str(w, "excluded_because", a->kernel_why);
		} else {
			jw_null(w, "kernel_selects");
			jw_null(w, "excluded_because");
		}
		if (a->held[0])
			jw_str(w, "held", a->held);
		else
			jw_null(w, "held");
		jw_str(w, "held_basis", "inferred");
		jw_obj_close(w);
	}
	jw_arr_close(w);
	jw_obj_close(w);
}
