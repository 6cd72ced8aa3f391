// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-safety.c - safety_check() on real files and (as root) real loop
 * devices: filesystem, swap and partition-table signatures made by the real
 * mkfs tools, real mounts and swap; plus fake sysfs/mountinfo/swaps trees
 * keyed by the real loop device's numbers for what this host cannot build
 * (dm holders, btrfs-style mounts, scratch devices).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "device/safety.h"
#include "tap.h"
#include "fakesys.h"

static char tmp[256];
static char why[2048];
static const struct safety_env real_env = SAFETY_ENV_DEFAULT;

/* State for cleanup at exit: whatever was set up is undone. */
static char loopdev[64], loop2dev[64], mnt[512], swapdev[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	r = system(cmd);
	return r == -1 ? -1 : WEXITSTATUS(r);
}

static int have(const char *prog)
{
	return sh("command -v %s >/dev/null 2>&1", prog) == 0;
}

/* losetup -f --show FILE [-P] into @dev. */
static int loop_attach(const char *file, const char *extra, char *dev, size_t len)
{
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "losetup -f --show %s '%s' 2>/dev/null",
		 extra, file);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(dev, len, p))
		dev[0] = '\0';
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	return dev[0] ? 0 : -1;
}

static void cleanup(void)
{
	if (swapdev[0])
		sh("swapoff %s 2>/dev/null", swapdev);
	if (mnt[0])
		sh("umount '%s' 2>/dev/null", mnt);
	if (loopdev[0])
		sh("losetup -d %s 2>/dev/null", loopdev);
	if (loop2dev[0])
		sh("losetup -d %s 2>/dev/null", loop2dev);
	if (tmp[0])
		fs_rmtree(tmp);
}

static int check(const struct safety_env *env, const char *path, int force)
{
	return safety_check_env(env, path, 1, force, why, sizeof(why));
}

/* refused: -1 and @why names each of the NULL-terminated fragments. */
static void refused(int r, const char *what, ...)
{
	const char *frag;
	va_list ap;
	int all = r == -1;

	va_start(ap, what);
	while ((frag = va_arg(ap, const char *)))
		if (!strstr(why, frag)) {
			printf("# missing '%s'\n", frag);
			all = 0;
		}
	va_end(ap);
	if (!ok(all, "%s", what))
		printf("# r=%d why: %s\n", r, why);
}

static void allowed(int r, const char *what)
{
	if (!ok(r == 0 && !why[0], "%s", what))
		printf("# r=%d why: %s\n", r, why);
}

static void test_files(void)
{
	char f[512], env_swaps[512], g[512];
	struct safety_env env = real_env;

	snprintf(f, sizeof(f), "%s/blank.img", tmp);
	sh("truncate -s 4M '%s'", f);
	allowed(check(&real_env, f, 0), "blank regular file: allowed");
	snprintf(g, sizeof(g), "%s/does-not-exist.img", tmp);
	allowed(check(&real_env, g, 0), "missing file: allowed (dixload creates it)");
	is_int(safety_check_env(&real_env, tmp, 1, 1, why, sizeof(why)), -1,
	       "directory: refused even with --force");

	/* /proc/swaps escapes blanks as \040; the file name has one. */
	snprintf(g, sizeof(g), "%s/swap file.img", tmp);
	sh("truncate -s 1M '%s'", g);
	snprintf(env_swaps, sizeof(env_swaps), "%s/swaps", tmp);
	{
		char line[1024], esc[600];
		const char *p;
		size_t n = 0;

		for (p = g; *p && n < sizeof(esc) - 5; p++)
			n += *p == ' ' ? (size_t)snprintf(esc + n, 5, "\\040") :
				(size_t)snprintf(esc + n, 2, "%c", *p);
		snprintf(line, sizeof(line),
			 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			 "%s                          file\t\t1020\t\t0\t\t-2\n", esc);
		fs_write(tmp, "swaps", line);
	}
	env.swaps = env_swaps;
	refused(check(&env, g, 1), "active swap file: refused even with --force",
		"active swap file", "not even with --force", NULL);

	if (have("mkfs.ext4")) {
		snprintf(f, sizeof(f), "%s/ext4.img", tmp);
		sh("truncate -s 8M '%s' && mkfs.ext4 -q -F -U 0b5c1c2e-6b1d-4b8e-9c47-3f1b7a1d2e01 -L dixtest '%s' >/dev/null 2>&1",
		   f, f);
		refused(check(&real_env, f, 0), "ext4 image file: refused",
			"carries an ext4 filesystem",
			"UUID 0b5c1c2e-6b1d-4b8e-9c47-3f1b7a1d2e01", "LABEL dixtest",
			"use --force", NULL);
		allowed(check(&real_env, f, 1), "ext4 image file: allowed with --force");
		allowed(safety_check_env(&real_env, f, 0, 0, why, sizeof(why)),
			"ext4 image file: read-only needs no --force");
	} else {
		skip_dep("mkfs.ext4 not installed");
	}
	if (have("mkfs.xfs")) {
		snprintf(f, sizeof(f), "%s/xfs.img", tmp);
		/* mkfs.xfs 6.x wants at least 300 MB; the file stays sparse. */
		sh("truncate -s 300M '%s' && mkfs.xfs -q -f '%s' >/dev/null 2>&1", f, f);
		refused(check(&real_env, f, 0), "xfs image file: refused",
			"carries an xfs filesystem", NULL);
		sh("rm -f '%s'", f);
	} else {
		skip_dep("mkfs.xfs not installed");
	}
	if (have("mkswap")) {
		snprintf(f, sizeof(f), "%s/swap.img", tmp);
		sh("truncate -s 1M '%s' && mkswap '%s' >/dev/null 2>&1", f, f);
		refused(check(&real_env, f, 0), "swap signature file: refused",
			"carries a swap area", NULL);
	} else {
		skip_dep("mkswap not installed");
	}
	if (have("sfdisk")) {
		snprintf(f, sizeof(f), "%s/pt.img", tmp);
		sh("truncate -s 8M '%s' && echo ',,L' | sfdisk -q '%s' >/dev/null 2>&1", f, f);
		refused(check(&real_env, f, 0), "dos partition table file: refused",
			"carries a dos partition table", NULL);
	} else {
		skip_dep("sfdisk not installed");
	}

	is_int(check(&real_env, "/dev/null", 0), -1,
	       "/dev/null: a char device mapping to no block device is refused");
	allowed(check(&real_env, "/dev/null", 1), "/dev/null: allowed with --force");
}

/* A fake sysfs where the real loop device @maj:@min has @what attached. */
static void fake_loop_tree(const char *root, unsigned int maj, unsigned int min,
			   const char *name)
{
	char rel[256], num[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/dev", name);
	snprintf(num, sizeof(num), "%u:%u\n", maj, min);
	fs_write(root, rel, num);
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", maj, min);
	snprintf(num, sizeof(num), "../../devices/virtual/block/%s", name);
	fs_link(root, rel, num);
	snprintf(rel, sizeof(rel), "class/block/%s", name);
	fs_link(root, rel, num);
}

static void test_loop(void)
{
	char img[512], root[512], rel[256], mi[512], swaps[512], line[1024];
	const char *name;
	struct safety_env env = real_env;
	struct stat st;
	unsigned int ma, mn;

	snprintf(img, sizeof(img), "%s/loop.img", tmp);
	sh("truncate -s 16M '%s'", img);
	if (loop_attach(img, "", loopdev, sizeof(loopdev)) || stat(loopdev, &st)) {
		skip_dep("cannot attach a loop device");
		return;
	}
	name = strrchr(loopdev, '/') + 1;
	ma = major(st.st_rdev);
	mn = minor(st.st_rdev);

	allowed(check(&real_env, loopdev, 0), "blank loop device: allowed");
	allowed(safety_check(loopdev, 1, 0, why, sizeof(why)),
		"blank loop device: safety_check() allows it");
	refused(check(&real_env, img, 0), "backing file of a loop device: refused",
		"is the backing file of loop device", loopdev, NULL);
	allowed(check(&real_env, img, 1), "backing file: allowed with --force");

	/* Fake mount table: the mount point has a blank, escaped as \040. */
	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	snprintf(line, sizeof(line),
		 "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		 "99 27 %u:%u / /mnt/fake\\040dir rw,relatime shared:5 - ext4 %s rw\n",
		 ma, mn, loopdev);
	fs_write(tmp, "mountinfo", line);
	env.mountinfo = mi;
	refused(check(&env, loopdev, 1), "mounted (mountinfo): refused with --force",
		"is mounted on /mnt/fake dir (ext4)", "not even with --force", NULL);
	refused(check(&env, img, 1),
		"backing file of a mounted loop device: refused with --force",
		"backing file of", "mounted on /mnt/fake dir", NULL);
	allowed(safety_check_env(&env, loopdev, 0, 0, why, sizeof(why)),
		"mounted: read-only runs are allowed");

	/* btrfs style: anonymous 0:N in field 3, the device only as source. */
	snprintf(line, sizeof(line),
		 "99 27 0:99 / /mnt/btr rw,relatime - btrfs %s rw\n", loopdev);
	fs_write(tmp, "mountinfo", line);
	refused(check(&env, loopdev, 1), "mounted by source name: refused",
		"mounted on /mnt/btr (btrfs)", NULL);

	env.mountinfo = real_env.mountinfo;
	snprintf(swaps, sizeof(swaps), "%s/swaps2", tmp);
	snprintf(line, sizeof(line),
		 "Filename\tType\tSize\tUsed\tPriority\n%s partition 16380 0 -2\n",
		 loopdev);
	fs_write(tmp, "swaps2", line);
	env.swaps = swaps;
	refused(check(&env, loopdev, 1), "active swap (swaps): refused with --force",
		"active swap", NULL);
	env.swaps = real_env.swaps;

	/* Holders: dm-7 on the loop device, then dm-7 mounted. */
	snprintf(root, sizeof(root), "%s/sys-holder", tmp);
	fake_loop_tree(root, ma, mn, name);
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/holders/dm-7", name);
	fs_link(root, rel, "../../dm-7");
	fs_write(root, "devices/virtual/block/dm-7/dev", "252:7\n");
	fs_link(root, "dev/block/252:7", "../../devices/virtual/block/dm-7");
	fs_link(root, "class/block/dm-7", "../../devices/virtual/block/dm-7");
	env.sysroot = root;
	refused(check(&env, loopdev, 0), "holder dm-7: refused",
		"is held by dm-7", "use --force", NULL);
	allowed(check(&env, loopdev, 1), "holder dm-7: allowed with --force");
	fs_write(tmp, "mountinfo",
		 "40 27 252:7 / /srv rw - xfs /dev/mapper/vg-lv rw\n");
	env.mountinfo = mi;
	refused(check(&env, loopdev, 1),
		"mounted holder dm-7: refused even with --force",
		"in use: dm-7 is mounted on /srv (xfs)", NULL);
	env.mountinfo = real_env.mountinfo;

	/* Partitions: a partition loopNp1, then mounted. */
	snprintf(root, sizeof(root), "%s/sys-part", tmp);
	fake_loop_tree(root, ma, mn, name);
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/%sp1/partition", name, name);
	fs_write(root, rel, "1\n");
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/%sp1/dev", name, name);
	fs_write(root, rel, "259:77\n");
	snprintf(rel, sizeof(rel), "class/block/%sp1", name);
	snprintf(line, sizeof(line), "../../devices/virtual/block/%s/%sp1", name, name);
	fs_link(root, rel, line);
	fs_link(root, "dev/block/259:77", line);
	env.sysroot = root;
	refused(check(&env, loopdev, 0), "partition: refused",
		"contains 1 partition", "p1)", NULL);
	allowed(check(&env, loopdev, 1), "partition: allowed with --force");
	fs_write(tmp, "mountinfo", "41 27 259:77 / /home rw - ext4 /dev/x rw\n");
	env.mountinfo = mi;
	refused(check(&env, loopdev, 1),
		"mounted partition: refused even with --force",
		"p1 is mounted on /home", NULL);
	env.mountinfo = real_env.mountinfo;

	if (have("mkfs.ext4") &&
	    !sh("mkfs.ext4 -q -F %s >/dev/null 2>&1", loopdev)) {
		env.sysroot = real_env.sysroot;
		refused(check(&env, loopdev, 0), "ext4 loop device: refused",
			"carries an ext4 filesystem", NULL);
		allowed(check(&env, loopdev, 1), "ext4 loop device: allowed with --force");

		/* Scratch: a scsi_debug disk needs no --force... */
		snprintf(root, sizeof(root), "%s/sys-scratch", tmp);
		fake_loop_tree(root, ma, mn, name);
		snprintf(rel, sizeof(rel), "devices/virtual/block/%s/device/model", name);
		fs_write(root, rel, "scsi_debug      \n");
		env.sysroot = root;
		allowed(check(&env, loopdev, 0), "scsi_debug with ext4: scratch, allowed");
		/* ...but a mount still refuses. */
		snprintf(line, sizeof(line), "50 27 %u:%u / /mnt/s rw - ext4 x rw\n", ma, mn);
		fs_write(tmp, "mountinfo", line);
		env.mountinfo = mi;
		refused(check(&env, loopdev, 1), "mounted scratch device: refused",
			"mounted on /mnt/s", NULL);
		env.mountinfo = real_env.mountinfo;
		/* ...and so does a mapping on it, unless --force. */
		snprintf(rel, sizeof(rel), "devices/virtual/block/%s/holders/dm-7", name);
		fs_link(root, rel, "../../dm-7");
		fs_write(root, "devices/virtual/block/dm-7/dev", "252:7\n");
		fs_link(root, "dev/block/252:7", "../../devices/virtual/block/dm-7");
		fs_link(root, "class/block/dm-7", "../../devices/virtual/block/dm-7");
		refused(check(&env, loopdev, 0), "scratch device held by dm-7: refused",
			"is held by dm-7", "use --force", NULL);
		allowed(check(&env, loopdev, 1), "scratch device held by dm-7: allowed with --force");

		/* A mapping over a scsi_debug disk is scratch too, ext4 and all. */
		snprintf(root, sizeof(root), "%s/sys-stack", tmp);
		fake_loop_tree(root, ma, mn, name);
		fs_write(root, "devices/virtual/block/sdz/dev", "8:250\n");
		fs_write(root, "devices/virtual/block/sdz/device/model", "scsi_debug      \n");
		fs_link(root, "dev/block/8:250", "../../devices/virtual/block/sdz");
		fs_link(root, "class/block/sdz", "../../devices/virtual/block/sdz");
		snprintf(rel, sizeof(rel), "devices/virtual/block/%s/slaves/sdz", name);
		fs_link(root, rel, "../../sdz");
		env.sysroot = root;
		allowed(check(&env, loopdev, 0), "mapping over scsi_debug with ext4: scratch, allowed");
		/* one slave that is no scratch disk makes it no scratch mapping */
		fs_write(root, "devices/virtual/block/sdy/dev", "8:251\n");
		fs_link(root, "dev/block/8:251", "../../devices/virtual/block/sdy");
		fs_link(root, "class/block/sdy", "../../devices/virtual/block/sdy");
		snprintf(rel, sizeof(rel), "devices/virtual/block/%s/slaves/sdy", name);
		fs_link(root, rel, "../../sdy");
		refused(check(&env, loopdev, 0), "mapping over scsi_debug and another disk: refused",
			"carries an ext4 filesystem", NULL);
		env.sysroot = real_env.sysroot;

		/* A real mount. */
		snprintf(mnt, sizeof(mnt), "%s/mnt", tmp);
		mkdir(mnt, 0755);
		if (!sh("mount %s '%s' 2>/dev/null", loopdev, mnt)) {
			refused(check(&real_env, loopdev, 1),
				"really mounted loop device: refused with --force",
				"is mounted on", mnt, "(ext4)", NULL);
			sh("umount '%s'", mnt);
		} else {
			skip_dep("mount of %s failed", loopdev);
		}
		mnt[0] = '\0';
	}

	/* Real swap, where the kernel lets us. */
	if (have("mkswap") && !sh("mkswap %s >/dev/null 2>&1", loopdev) &&
	    !sh("swapon -p -10 %s 2>/dev/null", loopdev)) {
		snprintf(swapdev, sizeof(swapdev), "%s", loopdev);
		refused(check(&real_env, loopdev, 1),
			"really active swap: refused with --force", "active swap", NULL);
		sh("swapoff %s", loopdev);
		swapdev[0] = '\0';
	} else {
		skip_dep("swapon on a loop device not possible here");
	}
}

/* A real partition table on a loop device with partition scanning. */
static void test_partitions(void)
{
	char img[512], part[80];
	struct stat st;

	if (!have("sfdisk")) {
		skip_dep("sfdisk not installed");
		return;
	}
	snprintf(img, sizeof(img), "%s/parts.img", tmp);
	sh("truncate -s 16M '%s' && printf ',4M,L\\n,,L\\n' | sfdisk -q '%s' >/dev/null 2>&1",
	   img, img);
	if (loop_attach(img, "-P", loop2dev, sizeof(loop2dev))) {
		skip_dep("cannot attach a loop device with -P");
		return;
	}
	/*
	 * A kernel without the msdos partition parser scans nothing: add the
	 * partitions with BLKPG (partx), as the table says.
	 */
	snprintf(part, sizeof(part), "%sp1", loop2dev);
	if (stat(part, &st))
		sh("partx -a %s 2>/dev/null", loop2dev);
	refused(check(&real_env, loop2dev, 0), "partitioned loop device: refused",
		"contains 2 partitions", "p1 ", "p2)", "dos partition table", NULL);
	allowed(check(&real_env, loop2dev, 1),
		"partitioned loop device: allowed with --force");
	if (stat(part, &st) == 0 && S_ISBLK(st.st_mode))
		allowed(check(&real_env, part, 0), "its blank partition: allowed");
	else
		skip_dep("no %s node", part);
}

int main(void)
{
	fs_tmpdir(tmp, sizeof(tmp), "safety");
	atexit(cleanup);
	test_files();
	if (getuid() != 0) {
		skip_dep("loop device tests need root");
	} else if (!have("losetup")) {
		skip_dep("losetup not installed");
	} else {
		test_loop();
		test_partitions();
	}
	return tap_done();
}
