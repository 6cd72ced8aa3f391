// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * safety.c - the checks that keep dixload from destroying data.
 *
 * Order matters for the message: what --force can never override (a
 * mounted filesystem, active swap, anywhere on the device or stacked on it)
 * is looked for first; then what --force may override (holders,
 * partitions, signatures), all of which are named in one line.
 */
#include "config.h"

#include <blkid.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkview.h"
#include "device/mountinfo.h"
#include "device/safety.h"
#include "lib/util.h"

#define DEVSET_MAX 128

/*
 * The device, its partitions and everything stacked on any of them: a
 * mount or swap on any member means the target's blocks are live.
 */
struct devset {
	int n;
	struct {
		dev_t dev;
		char name[BLKVIEW_NAME_LEN];
	} d[DEVSET_MAX];
};

static int devset_find(const struct devset *s, dev_t dev)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->d[i].dev == dev)
			return i;
	return -1;
}

static void devset_add(struct devset *s, const char *sysroot, const char *name)
{
	unsigned int ma, mi;

	if (s->n >= DEVSET_MAX || blkview_name_dev(sysroot, name, &ma, &mi))
		return;
	if (devset_find(s, makedev(ma, mi)) >= 0)
		return;
	s->d[s->n].dev = makedev(ma, mi);
	snprintf(s->d[s->n].name, sizeof(s->d[s->n].name), "%s", name);
	s->n++;
}

/* Add each space-separated name of @list. */
static void devset_add_list(struct devset *s, const char *sysroot, char *list)
{
	char *save, *tok;

	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		devset_add(s, sysroot, tok);
}

static void devset_build(struct devset *s, const char *sysroot,
			 const struct blkview *bv)
{
	char list[4096];
	int i;

	s->n = 0;
	devset_add(s, sysroot, bv->name);
	if (!bv->is_partition) {
		char dir[PATH_MAX];

		if (!blkview_sysdir(sysroot, bv->major, bv->minor, dir,
				    sizeof(dir))) {
			blkview_partitions(dir, list, sizeof(list));
			devset_add_list(s, sysroot, list);
		}
	}
	/* Breadth first: the set grows while we walk it. */
	for (i = 0; i < s->n; i++) {
		char dir[PATH_MAX];

		if (blkview_sysdir(sysroot, major(s->d[i].dev),
				   minor(s->d[i].dev), dir, sizeof(dir)))
			continue;
		blkview_list_dir(dir, "holders", list, sizeof(list));
		devset_add_list(s, sysroot, list);
	}
}

/* Describe which member @i of the set is in use, relative to @path. */
static void who(const struct devset *s, int i, const char *path,
		char *out, size_t len)
{
	if (i == 0)
		snprintf(out, len, "%s is", path);
	else
		snprintf(out, len, "%s is in use: %s is", path, s->d[i].name);
}

/*
 * A mount of any member of the set, by the MAJ:MIN of the line or by its
 * source device (btrfs: mountinfo.h).
 */
static int check_mounts(const struct safety_env *env, const struct devset *s,
			const char *path, char *why, size_t len)
{
	FILE *f = fopen(env->mountinfo, "re");
	struct mountinfo_ent e;
	char *line = NULL;
	size_t cap = 0;
	int refused = 0;

	if (!f) {
		snprintf(why, len, "%s: cannot read %s to check for mounts: %s",
			 path, env->mountinfo, strerror(errno));
		return -1;
	}
	while (!refused && mountinfo_next(f, &line, &cap, &e)) {
		char w[PATH_MAX + BLKVIEW_NAME_LEN + 32];
		int i = devset_find(s, e.dev);

		if (i < 0 && e.src_dev)
			i = devset_find(s, e.src_dev);
		if (i < 0)
			continue;
		who(s, i, path, w, sizeof(w));
		snprintf(why, len,
			 "%s mounted on %s%s%s%s; dixload never writes a mounted filesystem, not even with --force",
			 w, e.mountpoint, e.fstype ? " (" : "",
			 e.fstype ? e.fstype : "", e.fstype ? ")" : "");
		refused = -1;
	}
	free(line);
	fclose(f);
	return refused;
}

/*
 * /proc/swaps: a header line, then "FILENAME TYPE SIZE USED PRIO".  A swap
 * partition matches by device number, a swap file by inode.
 */
static int check_swaps(const struct safety_env *env, const struct devset *s,
		       const struct stat *file, const char *path, char *why,
		       size_t len)
{
	FILE *f = fopen(env->swaps, "re");
	char *line = NULL;
	size_t cap = 0;
	int refused = 0;

	if (!f) {
		/* No swap support in the kernel: nothing can be swap. */
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "%s: cannot read %s to check for swap: %s",
			 path, env->swaps, strerror(errno));
		return -1;
	}
	while (!refused && getline(&line, &cap, f) > 0) {
		char name[PATH_MAX];
		struct stat st;
		int i = -1;

		if (sscanf(line, "%4095s", name) != 1 || !strcmp(name, "Filename"))
			continue;
		mountinfo_unescape(name);
		if (stat(name, &st))
			continue;
		if (s && S_ISBLK(st.st_mode))
			i = devset_find(s, st.st_rdev);
		if (i >= 0) {
			char w[PATH_MAX + BLKVIEW_NAME_LEN + 32];

			who(s, i, path, w, sizeof(w));
			snprintf(why, len,
				 "%s active swap (%s); dixload never writes active swap, not even with --force",
				 w, env->swaps);
			refused = -1;
		} else if (file && S_ISREG(st.st_mode) &&
			   st.st_dev == file->st_dev && st.st_ino == file->st_ino) {
			snprintf(why, len,
				 "%s is an active swap file (%s); dixload never writes active swap, not even with --force",
				 path, env->swaps);
			refused = -1;
		}
	}
	free(line);
	fclose(f);
	return refused;
}

const char *safety_scratch_kind(const char *diskdir)
{
	char buf[64];

	if (!blkview_attr(diskdir, "device/model", buf, sizeof(buf)) &&
	    !strcmp(buf, "scsi_debug"))
		return "scsi_debug";
	if (!blkview_ctrl_attr(diskdir, "serial", buf, sizeof(buf)) &&
	    !strcmp(buf, "dixvm-scratch"))
		return "dixvm NVMe";
	return NULL;
}

/*
 * A mapping (dm, md) whose every slave is a scratch disk, or a mapping
 * over such mappings (up to four levels), is scratch too: the mappings the
 * VM bed makes over scsi_debug are written without --force whatever they
 * hold, as the disk beneath them would be.
 */
static const char *stacked_scratch_kind(const char *sysroot, const char *dir,
					int depth)
{
	char list[1024], sub[PATH_MAX], *save, *tok;
	const char *kind = NULL;

	if (depth >= 4 || !blkview_list_dir(dir, "slaves", list, sizeof(list)))
		return NULL;
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct blkview bv;
		unsigned int ma, mi;
		const char *k = NULL;

		if (blkview_name_dev(sysroot, tok, &ma, &mi) ||
		    blkview_read_dev(sysroot, ma, mi, &bv))
			return NULL;
		if (!blkview_diskdir(sysroot, &bv, sub, sizeof(sub)))
			k = safety_scratch_kind(sub);
		if (!k && !blkview_sysdir(sysroot, ma, mi, sub, sizeof(sub)))
			k = stacked_scratch_kind(sysroot, sub, depth + 1);
		if (!k)
			return NULL;
		kind = k;
	}
	return kind;
}

/* "an", except before consonant sounds; "xfs" is read letter by letter. */
static const char *article(const char *word)
{
	return strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

/* "an ext4 filesystem", "a linux_raid_member RAID member", "a swap area" */
static void describe_type(const char *type, const char *usage, char *out,
			  size_t len)
{
	const char *kind = "signature";
	const char *art = article(type);

	if (!usage)
		usage = "";
	if (!strcmp(usage, "filesystem"))
		kind = "filesystem";
	else if (!strcmp(usage, "raid"))
		kind = "RAID/volume-manager member signature";
	else if (!strcmp(usage, "crypto"))
		kind = "encrypted volume";
	else if (!strcmp(type, "swap"))
		kind = "area";
	snprintf(out, len, "%s %s %s", art, type, kind);
}

int safety_probe_signature(const char *path, char *what, size_t len)
{
	const char *type = NULL, *usage = NULL, *uuid = NULL, *label = NULL;
	const char *pttype = NULL, *ptuuid = NULL;
	char desc[256];
	blkid_probe pr;
	int r;

	what[0] = '\0';
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	r = blkid_do_safeprobe(pr);
	if (r == 1) {
		blkid_free_probe(pr);
		return 0;
	}
	if (r == -2) {
		/* Several superblocks at once: wipefs names each of them. */
		snprintf(what, len,
			 "carries several conflicting signatures (run 'wipefs %s' to list them)",
			 path);
		blkid_free_probe(pr);
		return 1;
	}
	if (r < 0) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
	blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
	blkid_probe_lookup_value(pr, "PTUUID", &ptuuid, NULL);

	if (type) {
		describe_type(type, usage, desc, sizeof(desc));
		snprintf(what, len, "carries %s%s%s%s%s%s%s", desc,
			 uuid || label ? " (" : "",
			 uuid ? "UUID " : "", uuid ? uuid : "",
			 uuid && label ? ", " : "",
			 label ? "LABEL " : "", label ? label : "");
		if (uuid || label)
			strncat(what, ")", len - strlen(what) - 1);
	}
	if (pttype) {
		size_t used = strlen(what);

		snprintf(what + used, len - used, "%s%s %s partition table%s%s%s",
			 type ? " and " : "carries ",
			 article(pttype), pttype,
			 ptuuid ? " (PTUUID " : "", ptuuid ? ptuuid : "",
			 ptuuid ? ")" : "");
	}
	blkid_free_probe(pr);
	return what[0] ? 1 : 0;
}

/* Join @phrase to the list of overridable findings in @acc. */
static void add_finding(char *acc, size_t len, const char *phrase)
{
	size_t used = strlen(acc);

	snprintf(acc + used, len - used, "%s%s", used ? " and " : "", phrase);
}

/*
 * Checks --force may override, for a block device: holders, partitions,
 * signatures.  Findings are appended to @acc.  A scratch device is
 * checked for holders only: its contents are dixload's to destroy, but a
 * mapping (md, LVM) stacked on it is live, and writing beneath it would
 * corrupt what reads through the mapping (issue 23: the disk beneath the
 * bed's dm-crypt mapping is a scsi_debug disk).
 */
static int block_findings(const struct safety_env *env,
			  const struct blkview *bv, const char *node,
			  int scratch, char *acc, size_t len)
{
	char dir[PATH_MAX], list[1024], phrase[1400];
	int n, r;

	if (blkview_sysdir(env->sysroot, bv->major, bv->minor, dir, sizeof(dir)))
		return -ENODEV;
	n = blkview_list_dir(dir, "holders", list, sizeof(list));
	if (n) {
		snprintf(phrase, sizeof(phrase),
			 "is held by %s (device-mapper/md/LVM)", list);
		add_finding(acc, len, phrase);
	}
	if (scratch)
		return 0;
	if (!bv->is_partition) {
		n = blkview_partitions(dir, list, sizeof(list));
		if (n) {
			snprintf(phrase, sizeof(phrase),
				 "contains %d partition%s (%s)", n,
				 n == 1 ? "" : "s", list);
			add_finding(acc, len, phrase);
		}
	}
	r = safety_probe_signature(node, phrase, sizeof(phrase));
	if (r < 0)
		return r;
	if (r > 0)
		add_finding(acc, len, phrase);
	return 0;
}

/*
 * A regular file backing a loop device is that device's storage: find
 * the loop device so the file gets the device's checks.
 */
static int loop_backed_by(const struct safety_env *env, const struct stat *st,
			  char *name, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	size_t i;
	int found = 0;

	snprintf(pat, sizeof(pat), "%s/block/loop*/loop/backing_file",
		 env->sysroot);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && !found; i++) {
		char file[PATH_MAX];
		struct stat bst;
		char *p;

		if (read_sysfs_str(g.gl_pathv[i], file, sizeof(file)))
			continue;
		/* A deleted backing file reads "<path> (deleted)". */
		p = strstr(file, " (deleted)");
		if (p)
			*p = '\0';
		if (stat(file, &bst) || bst.st_dev != st->st_dev ||
		    bst.st_ino != st->st_ino)
			continue;
		/* .../block/loopN/loop/backing_file -> loopN */
		p = g.gl_pathv[i] + strlen(env->sysroot) + strlen("/block/");
		snprintf(name, len, "%.*s", (int)strcspn(p, "/"), p);
		found = 1;
	}
	globfree(&g);
	return found;
}

static int refuse(const char *path, const char *findings, char *why,
		  size_t len)
{
	snprintf(why, len, "%s %s; use --force to write it anyway", path,
		 findings);
	return -1;
}

static int check_regular(const struct safety_env *env, const char *path,
			 const struct stat *st, int force, char *why,
			 size_t len)
{
	char findings[2048] = "", loop[BLKVIEW_NAME_LEN], phrase[1024];
	int r;

	if (check_swaps(env, NULL, st, path, why, len))
		return -1;
	if (loop_backed_by(env, st, loop, sizeof(loop))) {
		struct blkview bv;
		struct devset s;
		unsigned int ma, mi;

		if (!blkview_name_dev(env->sysroot, loop, &ma, &mi) &&
		    !blkview_read_dev(env->sysroot, ma, mi, &bv)) {
			char what[PATH_MAX + 64];

			devset_build(&s, env->sysroot, &bv);
			snprintf(what, sizeof(what),
				 "%s (backing file of /dev/%s)", path, loop);
			if (check_mounts(env, &s, what, why, len) ||
			    check_swaps(env, &s, NULL, what, why, len))
				return -1;
		}
		snprintf(phrase, sizeof(phrase),
			 "is the backing file of loop device /dev/%s", loop);
		add_finding(findings, sizeof(findings), phrase);
	}
	r = safety_probe_signature(path, phrase, sizeof(phrase));
	if (r < 0) {
		snprintf(why, len, "%s: cannot probe for data signatures: %s",
			 path, strerror(-r));
		return -1;
	}
	if (r > 0)
		add_finding(findings, sizeof(findings), phrase);
	if (findings[0] && !force)
		return refuse(path, findings, why, len);
	return 0;
}

static int check_block(const struct safety_env *env, const char *path,
		       const struct blkview *bv, const char *node, int force,
		       char *why, size_t len)
{
	char findings[2048] = "", dir[PATH_MAX];
	const char *scratch = NULL;
	struct devset s;
	int r;

	devset_build(&s, env->sysroot, bv);
	if (check_mounts(env, &s, path, why, len) ||
	    check_swaps(env, &s, NULL, path, why, len))
		return -1;

	/* The disk decides whether this (or its partition) is a scratch device. */
	if (!blkview_diskdir(env->sysroot, bv, dir, sizeof(dir))) {
		scratch = safety_scratch_kind(dir);
		if (!scratch)
			scratch = stacked_scratch_kind(env->sysroot, dir, 0);
	}
	if (force)
		return 0;

	r = block_findings(env, bv, node, !!scratch, findings, sizeof(findings));
	if (r < 0) {
		snprintf(why, len, "%s: cannot probe for data signatures: %s",
			 path, strerror(-r));
		return -1;
	}
	if (findings[0])
		return refuse(path, findings, why, len);
	return 0;
}

int safety_check_env(const struct safety_env *env, const char *path,
		     int will_write, int force, char *why, size_t len)
{
	struct blkview bv;
	struct stat st;
	char node[PATH_MAX];
	int r;

	if (len)
		why[0] = '\0';
	if (!will_write)
		return 0;
	if (stat(path, &st)) {
		/* dixload creates the file: nothing there to lose. */
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return check_regular(env, path, &st, force, why, len);

	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		snprintf(why, len, "%s: not a block device or regular file", path);
		return -1;
	}
	r = blkview_read(env->sysroot, path, &bv);
	if (r) {
		if (S_ISCHR(st.st_mode) && force)
			return 0;
		snprintf(why, len,
			 S_ISCHR(st.st_mode) ?
			 "%s is a character device that maps to no block device dixload can check; use --force to write it anyway" :
			 "%s: block device not found in sysfs, cannot check whether it is in use",
			 path);
		return -1;
	}
	/* A character device is checked through its block device node. */
	if (S_ISCHR(st.st_mode))
		snprintf(node, sizeof(node), "/dev/%s", bv.name);
	else
		snprintf(node, sizeof(node), "%s", path);
	return check_block(env, path, &bv, node, force, why, len);
}

int safety_check(const char *path, int will_write, int force, char *why,
		 size_t len)
{
	static const struct safety_env env = SAFETY_ENV_DEFAULT;

	return safety_check_env(&env, path, will_write, force, why, len);
}
