// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sgnode.c - find, and if need be create, the /dev/sgN of a SCSI disk (see
 * sgnode.h).
 *
 * Why not just SG_IO on the block device: it blocks, so queue depth on it
 * needs a thread per slot, two context switches per command.  The sg
 * driver's character device takes commands with write() and hands back
 * completions with read(), so one thread keeps a whole queue in the disk.
 * The block device does not offer that; only its sg sibling does.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <scsi/sg.h>

#include "engines/sgnode.h"

/* The entry name under scsi_generic/: "sg" and digits, nothing else. */
static int sg_name_ok(const char *n)
{
	const char *p;

	if (strncmp(n, "sg", 2) || !n[2])
		return 0;
	for (p = n + 2; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/*
 * Read "MAJ:MIN" from @path.  Return: 0 with *@out set, or -errno (never 0:
 * a 0 from a failed fopen() whose errno was left 0 would hand the caller an
 * unset *@out; gcc 14 saw that path and warned in sg_node_open()).
 */
static int read_devno(const char *path, dev_t *out)
{
	unsigned int ma, mi;
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return errno > 0 ? -errno : -EIO;
	n = fscanf(f, "%u:%u", &ma, &mi);
	fclose(f);
	if (n != 2)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

/*
 * Remove the node at @node that this call made, if it is still the one it
 * made (same inode as the open @fd, or, with @fd < 0, still a character
 * device of number @sg): a node someone put there meanwhile stays.
 */
static void unmake(const char *node, int fd, dev_t sg)
{
	struct stat a, b;

	if (lstat(node, &a) || !S_ISCHR(a.st_mode) || a.st_rdev != sg)
		return;
	if (fd >= 0 && (fstat(fd, &b) || a.st_dev != b.st_dev ||
			a.st_ino != b.st_ino))
		return;
	unlink(node);
}

int sg_node_open(const char *sysfs, const char *devdir, dev_t blk,
		 char *node, size_t nlen, char *why, size_t wlen)
{
	char dir[256], path[512], name[64] = "";
	struct dirent *e;
	struct stat st;
	dev_t sg;
	DIR *d;
	int fd = -1, r, ver = 0, tries, made = 0;

	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u/device/scsi_generic",
		 sysfs, major(blk), minor(blk));
	d = opendir(dir);
	if (!d) {
		r = errno;
		snprintf(why, wlen, "%s: %s (is the sg module loaded?)", dir,
			 strerror(r));
		return r == ENOENT ? -ENODEV : -r;
	}
	while ((e = readdir(d)))
		if (sg_name_ok(e->d_name) &&
		    strlen(e->d_name) < sizeof(name)) {
			snprintf(name, sizeof(name), "%s", e->d_name);
			break;
		}
	closedir(d);
	if (!name[0]) {
		snprintf(why, wlen, "%s has no sgN entry", dir);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/%s/dev", dir, name);
	r = read_devno(path, &sg);
	if (r) {
		snprintf(why, wlen, "%s: %s", path,
			 r == -EINVAL ? "not MAJ:MIN" : strerror(-r));
		return r;
	}
	snprintf(node, nlen, "%s/%s", devdir, name);
	/*
	 * Another worker of this run may make the node, or remove the one it
	 * made, between our stat and our open (each open of a made node is
	 * followed by its removal): start again then, a few times.
	 */
	for (tries = 0; tries < 8 && fd < 0; tries++) {
		made = 0;
		if (stat(node, &st)) {
			if (errno != ENOENT) {
				r = errno;
				snprintf(why, wlen, "%s: %s", node, strerror(r));
				return -r;
			}
			/* no devtmpfs (or udev) made it: what they would have made */
			if (mknod(node, S_IFCHR | 0600, sg)) {
				r = errno;
				if (r == EEXIST)
					continue;
				snprintf(why, wlen, "%s is missing and mknod %u:%u failed: %s",
					 node, major(sg), minor(sg), strerror(r));
				return -r;
			}
			made = 1;
		} else if (!S_ISCHR(st.st_mode) || st.st_rdev != sg) {
			snprintf(why, wlen, "%s is not the character device %u:%u that %s names",
				 node, major(sg), minor(sg), path);
			return -ENODEV;
		}
		fd = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			r = errno;
			if (made)
				unmake(node, -1, sg);
			if (r == ENOENT && !made)
				continue;
			snprintf(why, wlen, "%s: %s", node, strerror(r));
			return -r;
		}
	}
	if (fd < 0) {
		snprintf(why, wlen, "%s: made and removed by another opener 8 times in a row",
			 node);
		return -EAGAIN;
	}
	/*
	 * The open descriptor is all the run needs: a node made here goes at
	 * once, so no run, not even one killed, leaves a /dev entry behind.
	 */
	if (made)
		unmake(node, fd, sg);
	if (ioctl(fd, SG_GET_VERSION_NUM, &ver) < 0 || ver < 30000) {
		snprintf(why, wlen, "%s: no sg v3 interface (version %d)", node,
			 ver);
		close(fd);
		return -ENOTTY;
	}
	return fd;
}
