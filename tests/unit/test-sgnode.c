// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sgnode.c - sg_node_open() leaves the device directory as it found
 * it: a node it had to mknod is gone after the call, on success and on
 * every failure after the mknod; a node that was there stays.
 *
 * The fake sysfs names the disk's sg device as 1:3, the number of
 * /dev/null: a character device every kernel has, which opens but answers
 * SG_GET_VERSION_NUM with ENOTTY, so the call fails after its open (the
 * path where a made node is most easily left behind).  mknod needs root
 * (CAP_MKNOD), as the sg engine does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engines/sgnode.h"
#include "fakesys.h"
#include "tap.h"

static char root[200], sys[256], dev[256];

/* Whether @path is a character device of number @ma:@mi. */
static int is_chr(const char *path, unsigned int ma, unsigned int mi)
{
	struct stat st;

	return !lstat(path, &st) && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(ma, mi);
}

int main(void)
{
	char node[300], why[1024], sg0[300];
	const char *noskip = getenv("DIXLOAD_TEST_NO_SKIP");
	int r;

	if (geteuid()) {
		/* mknod needs CAP_MKNOD: CI runs as root */
		ok(!(noskip && !strcmp(noskip, "1")),
		   "# SKIP not root (mknod needs CAP_MKNOD)%s",
		   noskip && !strcmp(noskip, "1") ? ", and DIXLOAD_TEST_NO_SKIP=1" : "");
		return tap_done();
	}
	fs_tmpdir(root, sizeof(root), "sgnode");
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	fs_mkdirs(root, "dev");
	/* sysfs: dev/block/8:0 -> the disk, whose sg sibling is sg0 = 1:3 */
	fs_write(sys, "devices/disk/device/scsi_generic/sg0/dev", "1:3\n");
	fs_link(sys, "dev/block/8:0", "../../devices/disk");
	snprintf(sg0, sizeof(sg0), "%s/sg0", dev);

	/* no node: made, opened, failed (not sg), and gone again */
	r = sg_node_open(sys, dev, makedev(8, 0), node, sizeof(node), why,
			 sizeof(why));
	ok(r < 0, "1:3 is no sg device: refused (%d: %s)", r, why);
	is_str(node, sg0, "the node's path is the sg entry's name in the device directory");
	ok(r == -ENOTTY || r == -EACCES,
	   "refused after the open (ENOTTY), or by a nodev mount (EACCES): %s", why);
	ok(access(sg0, F_OK) && errno == ENOENT,
	   "the node dixload made is gone after the failure");

	/* a node that was there before stays, failure or not */
	ok(!mknod(sg0, S_IFCHR | 0600, makedev(1, 3)), "a node made beforehand");
	r = sg_node_open(sys, dev, makedev(8, 0), node, sizeof(node), why,
			 sizeof(why));
	ok(r < 0, "again refused (%s)", why);
	ok(is_chr(sg0, 1, 3), "the node that was there before stays");
	unlink(sg0);

	/* a node of another number is not used, and not removed */
	ok(!mknod(sg0, S_IFCHR | 0600, makedev(1, 5)), "a node of another device");
	r = sg_node_open(sys, dev, makedev(8, 0), node, sizeof(node), why,
			 sizeof(why));
	is_int(r, -ENODEV, "another device's node: -ENODEV");
	ok(strstr(why, "is not the character device 1:3") != NULL,
	   "and says so (%s)", why);
	ok(is_chr(sg0, 1, 5), "another device's node stays");
	unlink(sg0);

	/* mknod itself failing: nothing made, nothing left */
	snprintf(dev, sizeof(dev), "%s/no-such-dir", root);
	r = sg_node_open(sys, dev, makedev(8, 0), node, sizeof(node), why,
			 sizeof(why));
	ok(r == -ENOENT && strstr(why, "mknod 1:3 failed"),
	   "mknod in a missing directory: refused naming mknod (%s)", why);
	fs_rmtree(root);
	return tap_done();
}
