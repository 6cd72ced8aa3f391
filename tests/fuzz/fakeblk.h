/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fakeblk.h - a fake sysfs tree for one SCSI disk whose attribute values
 * come from a text: the blkview fuzz target builds it per input, and a unit
 * test can rebuild it from a saved input to replay it.
 *
 * The layout is fixed (a disk sda, 8:0, with a partition directory sda1,
 * 8:1, under a SCSI device directory, as test-blkview.c lays out a 6.1
 * kernel's); the text only says which attributes exist and what they hold:
 *
 *	# comment
 *	queue/logical_block_size=512
 *	integrity/format=T10-DIF-TYPE1-CRC
 *	sda1/partition=1
 *	slaves/dm-3
 *
 * KEY=VALUE writes VALUE and a newline into the attribute KEY (relative to
 * the disk's directory) when KEY is one of fakeblk_attrs[]; a line
 * "slaves/NAME" or "holders/NAME" adds an entry there.  Other lines are
 * ignored, so any bytes are an input.  VALUE may hold any byte but newline
 * (a NUL is written like any other byte).
 */
#ifndef DIX_FAKEBLK_H
#define DIX_FAKEBLK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAKEBLK_HOST "devices/pci0000:00/0000:00:01.0/host2/target2:0:0/2:0:0:0"
#define FAKEBLK_SDA FAKEBLK_HOST "/block/sda"

/* The attributes an input may give, relative to the disk's directory. */
static const char *const fakeblk_attrs[] = {
	"dev", "size", "dm/name",
	"queue/logical_block_size", "queue/physical_block_size",
	"queue/max_sectors_kb", "queue/max_hw_sectors_kb",
	"integrity/format", "integrity/protection_interval_bytes",
	"integrity/tag_size", "integrity/read_verify",
	"integrity/write_generate", "integrity/device_is_integrity_capable",
	"sda1/partition", "sda1/dev", "sda1/size",
	"device/model", "device/vendor", "device/serial",
	NULL,
};

/* The directories those attributes live in (removed when left empty). */
static const char *const fakeblk_dirs[] = {
	"dm", "queue", "integrity", NULL,
};

/* mkdir -p @path (absolute), without its last component when @parent. */
static inline int fakeblk_mkdirs(const char *path, int parent)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", path);
	if (parent) {
		s = strrchr(p, '/');
		if (!s)
			return 0;
		*s = '\0';
	}
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static inline int fakeblk_symlink(const char *root, const char *rel,
				  const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (fakeblk_mkdirs(path, 1))
		return -1;
	unlink(path);
	return symlink(target, path);
}

/*
 * fakeblk_init() - lay out the fixed part of the tree under @root (an
 * existing directory).  Return: 0, or -1 when it cannot be made.
 */
static inline int fakeblk_init(const char *root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/sda1", root, FAKEBLK_SDA);
	if (fakeblk_mkdirs(path, 0))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/slaves", root, FAKEBLK_SDA);
	if (fakeblk_mkdirs(path, 0))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/holders", root, FAKEBLK_SDA);
	if (fakeblk_mkdirs(path, 0))
		return -1;
	if (fakeblk_symlink(root, FAKEBLK_SDA "/device", "../../../2:0:0:0") ||
	    fakeblk_symlink(root, "dev/block/8:0", "../../" FAKEBLK_SDA) ||
	    fakeblk_symlink(root, "dev/block/8:1", "../../" FAKEBLK_SDA "/sda1") ||
	    fakeblk_symlink(root, "class/block/sda", "../../" FAKEBLK_SDA) ||
	    fakeblk_symlink(root, "class/block/sda1", "../../" FAKEBLK_SDA "/sda1"))
		return -1;
	return 0;
}

/* Remove every entry of directory @dir (files only: the entries we add). */
static inline void fakeblk_empty(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/* A name for an entry of slaves/ or holders/: one path component. */
static inline int fakeblk_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 200 || (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.'))))
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\0')
			return 0;
	return 1;
}

/*
 * fakeblk_apply() - make the attributes of the tree under @root what @text
 * (of @len bytes) says: every attribute of fakeblk_attrs[] and every
 * slaves/holders entry not in @text is removed first, so one tree serves
 * input after input.  Return: 0, or -1 when the tree cannot be written.
 */
static inline int fakeblk_apply(const char *root, const char *text, size_t len)
{
	char disk[PATH_MAX], path[PATH_MAX];
	const char *p = text, *end = text + len;
	int i;

	snprintf(disk, sizeof(disk), "%s/%s", root, FAKEBLK_SDA);
	for (i = 0; fakeblk_attrs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", disk, fakeblk_attrs[i]);
		unlink(path);
	}
	for (i = 0; fakeblk_dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", disk, fakeblk_dirs[i]);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/slaves", disk);
	fakeblk_empty(path);
	snprintf(path, sizeof(path), "%s/holders", disk);
	fakeblk_empty(path);

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		const char *eq = memchr(p, '=', eol - p);
		size_t klen = (eq ? eq : eol) - p;

		for (i = 0; fakeblk_attrs[i]; i++)
			if (eq && strlen(fakeblk_attrs[i]) == klen &&
			    !memcmp(fakeblk_attrs[i], p, klen))
				break;
		if (eq && fakeblk_attrs[i]) {
			int fd;

			snprintf(path, sizeof(path), "%s/%s", disk,
				 fakeblk_attrs[i]);
			if (fakeblk_mkdirs(path, 1))
				return -1;
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0)
				return -1;
			if (write(fd, eq + 1, eol - eq - 1) != eol - eq - 1 ||
			    write(fd, "\n", 1) != 1) {
				close(fd);
				return -1;
			}
			close(fd);
		} else if (!eq && (klen > 7 && (!memcmp(p, "slaves/", 7) ||
						(klen > 8 && !memcmp(p, "holders/", 8))))) {
			size_t skip = p[0] == 's' ? 7 : 8;
			int fd;

			if (fakeblk_name_ok(p + skip, klen - skip)) {
				snprintf(path, sizeof(path), "%s/%.*s", disk,
					 (int)klen, p);
				fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
				if (fd < 0)
					return -1;
				close(fd);
			}
		}
		p = eol + 1;
	}
	return 0;
}

#endif
