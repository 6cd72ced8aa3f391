// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dev.c - split --dev into targets and open each one with the checks a
 * single target gets: safety, region, integrity format, preconditioning.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/dev.h"
#include "device/dmmap.h"
#include "device/safety.h"
#include "engines/passthru.h"
#include "kernel/dmbind.h"
#include "lib/parse.h"
#include "lib/util.h"

static void free_paths(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *dev_expand(const char *opt, const char *s, size_t len, int rank,
		 const char *host, const char *spec, char *err, size_t errlen)
{
	char *out, *p;
	size_t cap, i;
	char num[16];

	if (rank < 0) {
		out = xmalloc(len + 1);
		memcpy(out, s, len);
		out[len] = '\0';
		return out;
	}
	snprintf(num, sizeof(num), "%d", rank);
	cap = len * (strlen(host) + sizeof(num)) + 1;
	p = out = xmalloc(cap);
	for (i = 0; i < len; i++) {
		if (s[i] != '%') {
			*p++ = s[i];
			continue;
		}
		i++;
		if (i < len && s[i] == 'r') {
			p = stpcpy(p, num);
		} else if (i < len && s[i] == 'h') {
			p = stpcpy(p, host);
		} else if (i < len && s[i] == '%') {
			*p++ = '%';
		} else {
			set_err(err, errlen,
				"%s %s: '%%%c' is not allowed (allowed: %%r the rank, %%h the host, %%%% a %%)",
				opt, spec, i < len ? s[i] : ' ');
			free(out);
			return NULL;
		}
	}
	*p = '\0';
	return out;
}

int dev_split(const char *spec, int rank, const char *host, char ***paths,
	      int *n, char *err, size_t errlen)
{
	char **v = NULL;
	const char *s = spec, *comma;
	int k = 0, i;

	*paths = NULL;
	*n = 0;
	for (;;) {
		size_t len;
		char *p;

		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (!len) {
			set_err(err, errlen,
				"--dev %s: an empty path (paths are separated by single commas)",
				spec);
			goto fail;
		}
		if (k == DIX_DEVS_MAX) {
			set_err(err, errlen,
				"--dev: more than %d targets (allowed: 1 to %d)",
				DIX_DEVS_MAX, DIX_DEVS_MAX);
			goto fail;
		}
		p = dev_expand("--dev", s, len, rank, host, spec, err, errlen);
		if (!p)
			goto fail;
		for (i = 0; i < k; i++) {
			if (!strcmp(v[i], p)) {
				set_err(err, errlen,
					"--dev: %s is given twice (each target takes its own load once)",
					p);
				free(p);
				goto fail;
			}
		}
		v = xrealloc(v, (k + 1) * sizeof(*v));
		v[k++] = p;
		if (!comma)
			break;
		s = comma + 1;
	}
	*paths = v;
	*n = k;
	return 0;
fail:
	free_paths(v, k);
	return -EINVAL;
}

/*
 * --pi off through the block layer on a device with PI, and the format a
 * profile (or --pi-format) expects: checked against each device's own.
 */
static int check_pi_format(const struct dix_opts *o,
			   const struct dix_engine *e, const struct dix_devdesc *t)
{
	if (o->pi == PI_OFF && !engine_bypasses_block_layer(e) &&
	    strcmp(t->integrity.format, "none")) {
		char list[128];

		if (!engine_names(engine_bypasses_block_layer, list, sizeof(list)))
			snprintf(list, sizeof(list), "none in this build");
		dix_err("--pi off: %s has integrity format %s and the kernel adds PI to what engine %s sends (write_generate=%d); use an engine that bypasses the block layer (%s) or write 0 to /sys/block/%s/integrity/write_generate and read_verify",
			t->path, t->integrity.format, e->name,
			t->integrity.write_generate, list, t->name);
		return -EINVAL;
	}
	if (!o->pi_format || !strcmp(o->pi_format, "any"))
		return 0;
	if (strcmp(o->pi_format, t->integrity.format)) {
		dix_err("%s: integrity format is '%s' but %s expects '%s' (give --pi-format any to run anyway)",
			t->path, t->integrity.format,
			o->profile ? "the profile" : "--pi-format",
			o->pi_format);
		return -EINVAL;
	}
	return 0;
}

/*
 * A mapping under the load: the drivers its algorithms would get now,
 * which are also what it is inferred to hold, and the watch that notes
 * when the selection moves away from them.
 */
static void dm_start(struct dmbind *b, struct dmmap *m)
{
	struct kw_state s;

	memset(&s, 0, sizeof(s));
	kw_snapshot(&s, "/proc", "/sys");
	dmbind_fill(m, &s, 1);
	kw_free(&s);
	dmbind_watch(b, m);
}

/*
 * The size a regular file must have for --offset + --size: decided here,
 * applied by devs_size() when every check of the run has passed, so a
 * refused run leaves the file as it was (issue 33: --size 1t grew a
 * 256 MiB file to 1 TiB with no word, and a refused --offset left the
 * file grown to the offset).  A file this run created takes the size
 * asked; an existing one is never extended without --grow, nor by a read
 * run, and never shrunk.  Without --size the region ends at the end of
 * the file, as it does for a device.
 */
static int dev_plan_size(struct dix_dev *d, const struct dix_opts *o,
			 int write)
{
	uint64_t want = o->offset + o->size;
	char a[32], b[32];

	d->grow_to = 0;
	if (d->t.is_blk || !o->size || d->t.size >= want)
		return 0;
	if (want < o->size) {
		dix_err("--offset %llu + --size %llu overflows 64 bits",
			(unsigned long long)o->offset,
			(unsigned long long)o->size);
		return -1;
	}
	format_size(d->t.size, a, sizeof(a));
	format_size(want, b, sizeof(b));
	if (!d->t.created && !write) {
		/* the words tests/sh/usage.sh has held since before --grow */
		dix_err("%s: its size is %llu bytes, less than --offset + --size (%llu bytes); a read run never extends a file",
			d->path, (unsigned long long)d->t.size,
			(unsigned long long)want);
		return -1;
	}
	if (!d->t.created && !o->grow) {
		dix_err("%s: its size is %llu bytes (%s), less than --offset + --size (%llu bytes, %s); a run never changes the size of an existing file: give --grow to extend it, or a --size and --offset within it",
			d->path, (unsigned long long)d->t.size, a,
			(unsigned long long)want, b);
		return -1;
	}
	d->grow_from = d->t.size;
	d->grow_to = want;
	/* the region is fitted, and reported, on the size it will have */
	d->t.size = want;
	return 0;
}

/* Open @d->path as the only target would be opened. */
static int dev_open(struct dix_dev *d, struct dix_opts *o,
		    const struct dix_engine *eng, const char *precond_profile)
{
	/* the region is the device's own: --size fitted to it alone */
	struct dix_opts od = *o;
	char err[1024], warn[512];
	int write = rw_writes(o->rw) || o->precondition == PRECOND_ON;
	unsigned int how = (write ? DEVDESC_WRITE : 0) |
			   (o->size ? DEVDESC_CREATE : 0) |
			   (o->force ? DEVDESC_FORCE : 0) |
			   (o->buffered ? DEVDESC_BUFFERED : 0);

	/* auto never preconditions a read-only workload (precond.h) */
	if (write && safety_check(d->path, 1, o->force, err, sizeof(err))) {
		dix_err("refusing to write: %s", err);
		return -1;
	}
	/* from here the target is claimed: nothing else opens it (claim.h) */
	if (devdesc_open(&d->t, d->path, how, err, sizeof(err))) {
		dix_err("%s", err);
		return -1;
	}
	d->opened = 1;
	if (d->t.claim.warn[0])
		dix_warn("%s", d->t.claim.warn);
	if (dev_plan_size(d, o, write))
		return -1;
	if (d->t.dm_err[0])
		dix_warn("%s: %s", d->path, d->t.dm_err);
	if (d->t.dm)
		dm_start(d->dm, d->t.dm);
	/* the device's own format and identity, for the engines that use them */
	devdesc_ask(&d->t, (eng->targets & DIX_TGT_SCSI ? DEVDESC_ASK_SCSI : 0) |
		    (eng->targets & DIX_TGT_NVME ? DEVDESC_ASK_NVME : 0),
		    passthru_timeout_ms(o, 0));
	if (devdesc_fit_region(&d->t, &od, err, sizeof(err), warn,
			      sizeof(warn))) {
		dix_err("%s", err);
		return -1;
	}
	if (warn[0])
		dix_warn("%s", warn);
	d->size = od.size;
	if (check_pi_format(o, eng, &d->t))
		return -1;
	precond_decide(&od, precond_profile, &d->t, eng, &d->pre);
	return 0;
}

/*
 * Two paths naming one device or file would have two loads overlap.  Asked
 * before @path is opened: the claim and the lock of the first would
 * refuse the second as if another run held it.
 */
static int same_target(const char *path, const struct dix_dev *b)
{
	struct stat sa, sb;

	if (stat(path, &sa) || fstat(b->t.fd, &sb))
		return 0;
	if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
		return sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int devs_open(struct dix_opts *o, const struct dix_engine *eng,
	      const char *precond_profile, int rank, const char *host,
	      struct dix_dev **devs, int *ndevs)
{
	struct dix_dev *d;
	struct dmbind *dm;
	char err[1024], **paths;
	int n, i, j;

	*devs = NULL;
	*ndevs = 0;
	if (dev_split(o->dev, rank, host, &paths, &n, err, sizeof(err))) {
		dix_err("%s", err);
		return -1;
	}
	d = xcalloc(n, sizeof(*d));
	dm = dmbind_new();	/* one watch for the set, the run's */
	for (i = 0; i < n; i++) {
		d[i].dm = dm;
		d[i].idx = i;
		d[i].path = paths[i];
		d[i].t.fd = -1;
	}
	free(paths);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (same_target(d[i].path, &d[j])) {
				dix_err("--dev: %s and %s are the same target (each target takes its own load once)",
					d[j].path, d[i].path);
				goto fail;
			}
		}
		if (dev_open(&d[i], o, eng, precond_profile))
			goto fail;
	}
	/* one target: the settings report its region, as they always did */
	if (n == 1)
		o->size = d[0].size;
	*devs = d;
	*ndevs = n;
	return 0;
fail:
	devs_close(d, n);
	return -1;
}

int devs_size(struct dix_dev *devs, int ndevs)
{
	char err[512], a[32], b[32];
	int i;

	for (i = 0; i < ndevs; i++) {
		struct dix_dev *d = &devs[i];
		int created = d->t.created;

		if (!d->grow_to)
			continue;
		if (devdesc_resize(&d->t, d->grow_to, err, sizeof(err))) {
			dix_err("%s", err);
			return -1;
		}
		if (created)
			continue;
		dix_warn("%s: extended from %llu bytes (%s) to %llu bytes (%s), as --grow asked",
			 d->path, (unsigned long long)d->grow_from,
			 format_size(d->grow_from, a, sizeof(a)),
			 (unsigned long long)d->grow_to,
			 format_size(d->grow_to, b, sizeof(b)));
	}
	return 0;
}

void devs_close(struct dix_dev *devs, int ndevs)
{
	int i;

	/* the set's one watch (devs_open()) */
	if (ndevs > 0)
		dmbind_free(devs[0].dm);
	for (i = 0; i < ndevs; i++) {
		if (devs[i].opened)
			devdesc_close(&devs[i].t);
		free(devs[i].path);
	}
	free(devs);
}
