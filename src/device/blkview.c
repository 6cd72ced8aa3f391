// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blkview.c - read the kernel's block view of a target from sysfs.
 *
 * A block device is found through <sysroot>/dev/block/MAJ:MIN, a symlink to
 * its directory under devices/.  A partition's directory sits inside its
 * disk's directory and has a "partition" attribute; queue limits and the
 * integrity profile exist only on the disk, so a partition reports its
 * disk's.  Regular files report the queue of the device their filesystem
 * lives on, because that is what O_DIRECT alignment depends on.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkview.h"
#include "lib/util.h"

int blkview_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* It strips the blanks that pad SCSI model/vendor attributes too. */
	return read_sysfs_str(path, buf, len);
}

int blkview_ctrl_attr(const char *diskdir, const char *name, char *buf,
		      size_t len)
{
	char rel[NAME_MAX + 16];

	snprintf(rel, sizeof(rel), "device/%s", name);
	if (!blkview_attr(diskdir, rel, buf, len))
		return 0;
	/* An NVMe multipath head node has no device/: its subsystem has. */
	snprintf(rel, sizeof(rel), "../%s", name);
	return blkview_attr(diskdir, rel, buf, len);
}

static unsigned int attr_uint(const char *dir, const char *rel)
{
	char buf[32];

	if (blkview_attr(dir, rel, buf, sizeof(buf)))
		return 0;
	return (unsigned int)strtoul(buf, NULL, 10);
}

static bool has(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* Cut partition directory @dir to its disk's; return whether it was one. */
static bool to_disk_dir(char *dir)
{
	char *slash;

	if (!has(dir, "partition"))
		return false;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return true;
}

static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n >= len)
		n = len - 1;
	memcpy(out, b, n);
	out[n] = '\0';
}

int blkview_sysdir(const char *sysroot, unsigned int major, unsigned int minor,
		   char *dir, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX];

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysroot, major, minor);
	if (!realpath(link, real))
		return -ENODEV;
	if (strlen(real) >= len)
		return -ENAMETOOLONG;
	strcpy(dir, real);
	return 0;
}

int blkview_diskdir(const char *sysroot, const struct blkview *bv, char *dir,
		    size_t len)
{
	int r;

	if (!bv->major && !bv->minor)
		return -ENODEV;
	r = blkview_sysdir(sysroot, bv->major, bv->minor, dir, len);
	if (r)
		return r;
	to_disk_dir(dir);
	return 0;
}

int blkview_name_dev(const char *sysroot, const char *name,
		     unsigned int *major, unsigned int *minor)
{
	char dir[PATH_MAX], buf[32];

	snprintf(dir, sizeof(dir), "%s/class/block/%s", sysroot, name);
	if (strchr(name, '/') || blkview_attr(dir, "dev", buf, sizeof(buf)))
		return -ENODEV;
	if (sscanf(buf, "%u:%u", major, minor) != 2)
		return -EBADMSG;
	return 0;
}

/* Append @name to the space-separated list @out if it fits. */
static void list_add(char *out, size_t len, const char *name)
{
	size_t used;

	if (!out || !len)
		return;
	used = strlen(out);
	if (used + !!used + strlen(name) + 1 > len)
		return;
	if (used)
		out[used++] = ' ';
	strcpy(out + used, name);
}

/*
 * Entries are sorted so that messages and tests do not depend on the
 * order readdir() happens to return.
 */
static int scan_dir(const char *dir, const char *sub, bool partitions_only,
		    char *out, size_t len)
{
	char path[PATH_MAX];
	struct dirent **ents;
	int i, n, count = 0;

	if (out && len)
		out[0] = '\0';
	if (sub)
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
	else
		snprintf(path, sizeof(path), "%s", dir);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		char rel[NAME_MAX + 16];

		if (e[0] == '.')
			goto next;
		if (partitions_only) {
			snprintf(rel, sizeof(rel), "%s/partition", e);
			if (!has(path, rel))
				goto next;
		}
		count++;
		list_add(out, len, e);
next:
		free(ents[i]);
	}
	free(ents);
	return count;
}

int blkview_list_dir(const char *dir, const char *sub, char *out, size_t len)
{
	return scan_dir(dir, sub, false, out, len);
}

int blkview_partitions(const char *dir, char *out, size_t len)
{
	return scan_dir(dir, NULL, true, out, len);
}

int blkview_chardev_block(const char *sysroot, unsigned int major,
			  unsigned int minor, char *name, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], base[NAME_MAX + 1];
	unsigned int ma, mi;

	snprintf(link, sizeof(link), "%s/dev/char/%u:%u", sysroot, major, minor);
	if (!realpath(link, real))
		return -ENODEV;

	/* SCSI generic: the scsi_device's block/ directory names the disk. */
	if (blkview_list_dir(real, "device/block", name, len) == 1)
		return 0;

	/*
	 * NVMe generic ngXnY is the character twin of block device nvmeXnY
	 * (same controller instance and namespace id).
	 */
	base_name(real, base, sizeof(base));
	if (!strncmp(base, "ng", 2) && strchr(base + 2, 'n')) {
		char blk[NAME_MAX + 8];

		snprintf(blk, sizeof(blk), "nvme%s", base + 2);
		if (!blkview_name_dev(sysroot, blk, &ma, &mi) &&
		    strlen(blk) < len) {
			strcpy(name, blk);
			return 0;
		}
	}
	return -ENODEV;
}

static void read_integrity(const char *diskdir, struct blkview *bv)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/integrity", diskdir);
	bv->has_integrity = access(dir, F_OK) == 0;
	if (!bv->has_integrity)
		return;
	if (blkview_attr(dir, "format", bv->format, sizeof(bv->format)) ||
	    !bv->format[0])
		strcpy(bv->format, "none");
	bv->protection_interval_bytes = attr_uint(dir, "protection_interval_bytes");
	bv->tag_size = attr_uint(dir, "tag_size");
	bv->read_verify = attr_uint(dir, "read_verify");
	bv->write_generate = attr_uint(dir, "write_generate");
	bv->device_is_integrity_capable =
		attr_uint(dir, "device_is_integrity_capable");
}

static void read_queue(const char *diskdir, struct blkview *bv)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/queue", diskdir);
	bv->logical_block_size = attr_uint(dir, "logical_block_size");
	bv->physical_block_size = attr_uint(dir, "physical_block_size");
	bv->max_sectors_kb = attr_uint(dir, "max_sectors_kb");
	bv->max_hw_sectors_kb = attr_uint(dir, "max_hw_sectors_kb");
	bv->max_segments = attr_uint(dir, "max_segments");
	/* An old or odd tree without queue/: the block layer's minimum. */
	if (!bv->logical_block_size)
		bv->logical_block_size = 512;
	if (!bv->physical_block_size)
		bv->physical_block_size = bv->logical_block_size;
}

static void blkview_init(struct blkview *bv)
{
	memset(bv, 0, sizeof(*bv));
	strcpy(bv->format, "none");
	bv->logical_block_size = 512;
	bv->physical_block_size = 512;
}

int blkview_read_dev(const char *sysroot, unsigned int major,
		     unsigned int minor, struct blkview *bv)
{
	char dir[PATH_MAX], diskdir[PATH_MAX], buf[32];
	int r;

	blkview_init(bv);
	r = blkview_sysdir(sysroot, major, minor, dir, sizeof(dir));
	if (r)
		return r;
	bv->exists = true;
	bv->is_blockdev = true;
	bv->major = major;
	bv->minor = minor;
	base_name(dir, bv->name, sizeof(bv->name));

	strcpy(diskdir, dir);
	bv->is_partition = to_disk_dir(diskdir);
	base_name(diskdir, bv->disk, sizeof(bv->disk));
	bv->is_dm = has(diskdir, "dm");
	blkview_list_dir(diskdir, "slaves", bv->slaves, sizeof(bv->slaves));

	/* size is in 512-byte sectors whatever the logical block size. */
	if (!blkview_attr(dir, "size", buf, sizeof(buf)))
		bv->size_bytes = strtoull(buf, NULL, 10) * 512;
	read_queue(diskdir, bv);
	read_integrity(diskdir, bv);
	return 0;
}

/* Regular file (or one to be created): queue limits of its filesystem's device. */
static void read_file(const char *sysroot, const struct stat *st,
		      struct blkview *bv)
{
	struct blkview dev;

	if (blkview_read_dev(sysroot, major(st->st_dev), minor(st->st_dev),
			     &dev))
		return;
	bv->major = dev.major;
	bv->minor = dev.minor;
	snprintf(bv->backing, sizeof(bv->backing), "%s", dev.name);
	snprintf(bv->disk, sizeof(bv->disk), "%s", dev.disk);
	bv->logical_block_size = dev.logical_block_size;
	bv->physical_block_size = dev.physical_block_size;
	bv->max_sectors_kb = dev.max_sectors_kb;
	bv->max_hw_sectors_kb = dev.max_hw_sectors_kb;
	bv->max_segments = dev.max_segments;
}

int blkview_read(const char *sysroot, const char *path, struct blkview *bv)
{
	struct stat st;

	blkview_init(bv);
	if (stat(path, &st)) {
		char dir[PATH_MAX];
		char *slash;
		int e = errno;

		if (e != ENOENT)
			return -e;
		/* A file to be created: describe its directory's device. */
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (!slash)
			strcpy(dir, ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			return -ENOENT;
		read_file(sysroot, &st, bv);
		return 0;
	}

	if (S_ISBLK(st.st_mode))
		return blkview_read_dev(sysroot, major(st.st_rdev),
					minor(st.st_rdev), bv);
	if (S_ISCHR(st.st_mode)) {
		char name[BLKVIEW_NAME_LEN];
		unsigned int ma, mi;
		int r;

		r = blkview_chardev_block(sysroot, major(st.st_rdev),
					  minor(st.st_rdev), name, sizeof(name));
		if (r)
			return r;
		r = blkview_name_dev(sysroot, name, &ma, &mi);
		if (!r)
			r = blkview_read_dev(sysroot, ma, mi, bv);
		if (r)
			return -ENODEV;
		bv->is_chardev = true;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;

	bv->exists = true;
	bv->size_bytes = st.st_size;
	read_file(sysroot, &st, bv);
	return 0;
}
