// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmreload.c - a mapping's live table loaded again as read (see
 * dmreload.h), through the DM ioctls.
 *
 * Order: suspend, load, resume, as `dmsetup suspend; reload; resume`.  The
 * suspend flushes dm-integrity's journal and in-flight I/O before the new
 * table's constructor reads the device, and the time suspended is what the
 * load on the mapping sees: 0.14 s measured on the 6.1 guest for dm-crypt.
 * The table with its keys lives in one buffer, wiped when done; the keys
 * are never copied into a message.  The requests that carry it set
 * DM_SECURE_DATA_FLAG, so the kernel wipes its copies too (dmioctl.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/dm-ioctl.h>
#include <linux/kcmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkview.h"
#include "device/dmmap.h"
#include "device/mountinfo.h"
#include "kernel/dmreload.h"
#include "proto/dmioctl.h"
#include "lib/util.h"

int dm_reload_check(unsigned int major, unsigned int minor, char *name,
		    char *why, size_t whylen)
{
	struct dmt_target t[DMT_TARGETS_MAX];
	uint8_t *buf;
	size_t len;
	uint32_t count;
	int r, i;

	r = dmctl_table(major, minor, 1, &buf, &len, &count, name);
	if (r) {
		snprintf(why, whylen, "%s",
			 r == -ENXIO ? "not a device-mapper mapping" :
			 r == -EACCES || r == -EPERM ?
			 "its table cannot be read (the DM ioctls need CAP_SYS_ADMIN)" :
			 strerror(-r));
		return r;
	}
	r = dmt_parse_specs(buf, len, count, t, DMT_TARGETS_MAX);
	dmio_wipe_free(buf, len);
	if (r <= 0) {
		snprintf(why, whylen, "%s", r == 0 ? "the mapping has no live table" :
			 "its table cannot be read (more lines than dixload reads, or a malformed reply)");
		return r == 0 ? -ENODATA : r;
	}
	for (i = 0; i < r; i++) {
		if (t[i].keyring) {
			snprintf(why, whylen,
				 "line %d (%s) takes its key from the kernel keyring: the table as read does not hold the key (a LUKS2 mapping; use a plain one)",
				 i + 1, t[i].type);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/*
 * The opens of block device @dev this process holds, one per open file
 * (two descriptors of one dup()ed file are one open to the kernel:
 * kcmp(KCMP_FILE) tells; without kcmp each descriptor counts).
 */
static int own_opens(dev_t dev)
{
	int fds[256], n = 0, own = 0, i, j;
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
		struct stat st;
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || fd == dirfd(d))
			continue;
		if (!fstat((int)fd, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			fds[n++] = (int)fd;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		int dup_of_earlier = 0;

		for (j = 0; j < i && !dup_of_earlier; j++)
			dup_of_earlier = syscall(SYS_kcmp, getpid(), getpid(),
						 KCMP_FILE, fds[i], fds[j]) == 0;
		own += !dup_of_earlier;
	}
	return own;
}

int dm_mounts_of(const char *mountinfo, dev_t dev, char *where, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	struct mountinfo_ent e;
	char *line = NULL;
	size_t cap = 0;
	int n = 0;

	where[0] = '\0';
	if (!f)
		return 0;
	while (mountinfo_next(f, &line, &cap, &e))
		if ((e.dev == dev || e.src_dev == dev) && !n++)
			snprintf(where, len, "%s", e.mountpoint);
	free(line);
	fclose(f);
	return n;
}

int dm_reload_busy(unsigned int major, unsigned int minor, char *why,
		   size_t len)
{
	char dir[PATH_MAX], holders[256] = "", mnt[256];
	dev_t dev = makedev(major, minor);
	int count = 0, own, elsewhere, nhold = 0, nmnt, r;
	size_t n = 0;

	why[0] = '\0';
	r = dmctl_open_count(major, minor, &count);
	if (r) {
		snprintf(why, len, "its open count cannot be read (DM_DEV_STATUS: %s)",
			 strerror(-r));
		return r;
	}
	/* dixload's own load (and its claim) have it open: those are not
	 * someone else's */
	own = own_opens(dev);
	elsewhere = count > own ? count - own : 0;
	if (!blkview_sysdir("/sys", major, minor, dir, sizeof(dir)))
		nhold = blkview_list_dir(dir, "holders", holders, sizeof(holders));
	nmnt = dm_mounts_of("/proc/self/mountinfo", dev, mnt, sizeof(mnt));
	if (!elsewhere && !nhold && !nmnt)
		return 0;
	if (elsewhere)
		n += snprintf(why + n, len - n, "open %d time%s outside dixload (the kernel counts %d open%s, %d of them dixload's)",
			      elsewhere, elsewhere == 1 ? "" : "s", count,
			      count == 1 ? "" : "s", own);
	if (nmnt && n < len)
		n += snprintf(why + n, len - n, "%smounted on %s%s", n ? "; " : "",
			      mnt, nmnt > 1 ? " and elsewhere" : "");
	if (nmnt > 1 && n < len)
		n += snprintf(why + n, len - n, " (%d mounts)", nmnt);
	if (nhold && n < len)
		snprintf(why + n, len - n, "%sheld by %d device%s (%s/holders: %s)",
			 n ? "; " : "", nhold, nhold == 1 ? "" : "s", dir, holders);
	return 1;
}

/* One DM ioctl on @dev with @flags and no data. */
static int dm_cmd(int fd, unsigned long cmd, unsigned int major,
		  unsigned int minor, uint32_t flags)
{
	struct dm_ioctl io;

	memset(&io, 0, sizeof(io));
	dmio_init(&io, sizeof(io), major, minor, flags);
	return ioctl(fd, cmd, &io) ? -errno : 0;
}

int dm_reload(unsigned int major, unsigned int minor, double *suspended,
	      char *name, char *why, size_t whylen)
{
	uint8_t *buf = NULL, *load = NULL;
	size_t len = 0, loadlen = 0;
	uint32_t count;
	double t0;
	int fd, r, r2;

	*suspended = 0;
	r = dmctl_table(major, minor, 1, &buf, &len, &count, name);
	if (r) {
		snprintf(why, whylen, "reading the live table: %s", strerror(-r));
		return r;
	}
	r = dmio_load_request(buf, len, count, major, minor, &load, &loadlen);
	dmio_wipe_free(buf, len);
	if (r) {
		snprintf(why, whylen, "the live table as read is malformed");
		return r;
	}
	fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		dmio_wipe_free(load, loadlen);
		snprintf(why, whylen, "/dev/mapper/control: %s", strerror(-r));
		return r;
	}
	t0 = dix_now();
	r = dm_cmd(fd, DM_DEV_SUSPEND, major, minor, DM_SUSPEND_FLAG);
	if (r) {
		snprintf(why, whylen, "suspend: %s", strerror(-r));
		goto out;
	}
	r = ioctl(fd, DM_TABLE_LOAD, load) ? -errno : 0;
	if (r)
		snprintf(why, whylen, "loading the table: %s (the mapping resumes on its old one)",
			 strerror(-r));
	/* resume either way: on the new table, or the old one still live */
	r2 = dm_cmd(fd, DM_DEV_SUSPEND, major, minor, 0);
	*suspended = dix_now() - t0;
	if (r2 && !r) {
		r = r2;
		snprintf(why, whylen, "resume: %s (the mapping may still be suspended)",
			 strerror(-r2));
	} else if (r2) {
		size_t n = strlen(why);

		snprintf(why + n, whylen - n, "; resume: %s", strerror(-r2));
	}
out:
	close(fd);
	dmio_wipe_free(load, loadlen);
	return r;
}
