// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * claim.c - the O_EXCL claim and the OFD lock of the target (see claim.h).
 *
 * OFD locks, not flock() or POSIX locks: a POSIX lock belongs to the
 * process and is dropped by any close() of any descriptor of the file (the
 * safety probe's libblkid open would release it), flock() is not seen by
 * F_OFD_GETLK.  An OFD lock belongs to the open file description, so it
 * lives exactly as long as the descriptor the jobs share.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/claim.h"

int claim_lock_holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_OFD_GETLK, &fl))
		return -errno;
	return fl.l_type;
}

/* What another dixload holding @type is doing to the target. */
static const char *doing(int type)
{
	return type == F_WRLCK ? "writing" : "reading";
}

/*
 * O_EXCL failed with EBUSY: a dixload holding the device shows by its
 * lock, seen through a plain read-only open (which no claim refuses).
 */
static void busy_reason(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), h = -1;

	if (fd >= 0) {
		h = claim_lock_holder(fd);
		close(fd);
	}
	if (h == F_WRLCK || h == F_RDLCK)
		snprintf(out, len,
			 "%s is held by another dixload run, which is %s it (it holds the device open with O_EXCL)",
			 path, doing(h));
	else
		snprintf(out, len,
			 "%s is held open exclusively (O_EXCL) by someone else: a mounted filesystem, a device-mapper/md/LVM mapping, mkfs or another exclusive opener (the kernel said EBUSY)",
			 path);
}

/*
 * Take the OFD lock into @lock; 0 also when the filesystem takes none,
 * with @warn saying so (or saying what --force let through).
 */
static int lock_target(int fd, const char *path, int write, int force,
		       short *lock, char *warn, size_t wlen, char *why,
		       size_t len)
{
	struct flock fl = { .l_type = write ? F_WRLCK : F_RDLCK,
			    .l_whence = SEEK_SET };
	int e, h;

	warn[0] = '\0';
	if (!fcntl(fd, F_OFD_SETLK, &fl)) {
		*lock = fl.l_type;
		return 0;
	}
	e = errno;
	if (e != EAGAIN && e != EACCES) {
		snprintf(warn, wlen,
			 "%s: cannot take a lock on it (%s): another dixload run on it would not be refused",
			 path, strerror(e));
		return 0;
	}
	h = claim_lock_holder(fd);
	if (!force) {
		snprintf(why, len,
			 "%s: another dixload run is %s it (it holds a %s lock on it); wait for it to end, or use --force to %s it anyway",
			 path, doing(h), h == F_RDLCK ? "read" : "write",
			 write ? "write" : "read");
		return -EBUSY;
	}
	snprintf(warn, wlen,
		 "%s: another dixload run is %s it; %s it anyway (--force): blocks the other run writes will not verify here",
		 path, doing(h), write ? "writing" : "reading");
	return 0;
}

int claim_open(const char *path, int flags, int force, struct dix_claim *c,
	       char *why, size_t len)
{
	int write = (flags & O_ACCMODE) != O_RDONLY;
	char lockwarn[sizeof(c->warn)];
	struct stat st;
	int fd, r;

	memset(c, 0, sizeof(*c));
	c->lock = F_UNLCK;
	if (flags & O_CREAT)
		flags |= O_EXCL;
	else if (write && !stat(path, &st) && S_ISBLK(st.st_mode))
		c->exclusive = true;
	fd = open(path, flags | (c->exclusive ? O_EXCL : 0), 0644);
	if (fd < 0 && errno == EBUSY && c->exclusive) {
		char busy[400];

		busy_reason(path, busy, sizeof(busy));
		if (!force) {
			snprintf(why, len,
				 "%s; dixload writes a block device only while no one else holds it: use --force to write it anyway",
				 busy);
			return -EBUSY;
		}
		snprintf(c->warn, sizeof(c->warn),
			 "%s; writing it anyway (--force), without the claim",
			 busy);
		c->exclusive = false;
		fd = open(path, flags, 0644);
	}
	if (fd < 0) {
		r = -errno;
		snprintf(why, len, "%s: cannot open with O_DIRECT: %s", path,
			 strerror(-r));
		return r;
	}
	r = lock_target(fd, path, write, force, &c->lock, lockwarn,
			sizeof(lockwarn), why, len);
	if (r) {
		close(fd);
		return r;
	}
	/* the claim's warning first: it is the graver */
	if (!c->warn[0])
		memcpy(c->warn, lockwarn, sizeof(c->warn));
	return fd;
}
