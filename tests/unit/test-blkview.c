// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-blkview.c - the kernel block view against a fake sysfs tree laid out
 * like a 6.1 kernel's (a scsi_debug disk with a partition under dm-0, an
 * sg node, an NVMe namespace with its generic char device, a multipath
 * NVMe head, a loop device without integrity), plus regular files checked
 * against the real /sys.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "device/blkview.h"
#include "device/safety.h"
#include "tap.h"
#include "fakesys.h"

#define SDHOST "devices/pci0000:00/0000:00:01.0/host2/target2:0:0/2:0:0:0"
#define SDA SDHOST "/block/sda"
#define NVME0 "devices/pci0000:00/0000:00:04.0/nvme/nvme0"
#define SUBSYS1 "devices/virtual/nvme-subsystem/nvme-subsys1"

static void build_tree(const char *s)
{
	/* scsi_debug disk sda, Type 1 with DIX, 4 KiB physical blocks. */
	fs_write(s, SDHOST "/model", "scsi_debug      \n");
	fs_write(s, SDHOST "/scsi_level", "8\n");
	fs_write(s, SDA "/dev", "8:0\n");
	fs_write(s, SDA "/size", "6442450944\n");	/* 3 TiB: > 32 bits */
	fs_write(s, SDA "/queue/logical_block_size", "512\n");
	fs_write(s, SDA "/queue/physical_block_size", "4096\n");
	fs_write(s, SDA "/queue/max_sectors_kb", "512\n");
	fs_write(s, SDA "/queue/max_hw_sectors_kb", "32767\n");
	fs_write(s, SDA "/integrity/format", "T10-DIF-TYPE1-CRC\n");
	fs_write(s, SDA "/integrity/protection_interval_bytes", "512\n");
	fs_write(s, SDA "/integrity/tag_size", "2\n");
	fs_write(s, SDA "/integrity/read_verify", "1\n");
	fs_write(s, SDA "/integrity/write_generate", "0\n");
	fs_write(s, SDA "/integrity/device_is_integrity_capable", "1\n");
	fs_mkdirs(s, SDA "/holders");
	fs_link(s, SDA "/device", "../../../2:0:0:0");
	fs_write(s, SDA "/sda1/partition", "1\n");
	fs_write(s, SDA "/sda1/dev", "8:1\n");
	fs_write(s, SDA "/sda1/size", "2048\n");
	fs_link(s, SDA "/sda1/holders/dm-0",
		"../../../../../../../../../virtual/block/dm-0");
	fs_write(s, SDA "/sda2/partition", "2\n");
	fs_write(s, SDA "/sda2/dev", "8:2\n");
	/* Not a partition: a directory without a "partition" attribute. */
	fs_mkdirs(s, SDA "/power");
	fs_link(s, "dev/block/8:0", "../../" SDA);
	fs_link(s, "dev/block/8:1", "../../" SDA "/sda1");
	fs_link(s, "dev/block/8:2", "../../" SDA "/sda2");
	fs_link(s, "class/block/sda", "../../" SDA);
	fs_link(s, "class/block/sda1", "../../" SDA "/sda1");
	fs_link(s, "class/block/sda2", "../../" SDA "/sda2");

	/* sg0 for the same scsi_device. */
	fs_write(s, SDHOST "/scsi_generic/sg0/dev", "21:0\n");
	fs_link(s, SDHOST "/scsi_generic/sg0/device", "../../../2:0:0:0");
	fs_link(s, "dev/char/21:0", "../../" SDHOST "/scsi_generic/sg0");

	/* dm-0 on sda1, no integrity profile of its own. */
	fs_write(s, "devices/virtual/block/dm-0/dev", "253:0\n");
	fs_write(s, "devices/virtual/block/dm-0/size", "2048\n");
	fs_write(s, "devices/virtual/block/dm-0/dm/name", "vg-lv\n");
	fs_write(s, "devices/virtual/block/dm-0/integrity/format", "none\n");
	fs_write(s, "devices/virtual/block/dm-0/queue/logical_block_size", "512\n");
	fs_link(s, "devices/virtual/block/dm-0/slaves/sda1",
		"../../../../../" SDA "/sda1");
	fs_link(s, "dev/block/253:0", "../../devices/virtual/block/dm-0");
	fs_link(s, "class/block/dm-0", "../../devices/virtual/block/dm-0");

	/* NVMe namespace of the test VM, and its generic char device. */
	fs_write(s, NVME0 "/serial", "dixvm-scratch       \n");
	fs_write(s, NVME0 "/model", "QEMU NVMe Ctrl\n");
	fs_write(s, NVME0 "/nvme0n1/dev", "259:0\n");
	fs_write(s, NVME0 "/nvme0n1/queue/logical_block_size", "512\n");
	fs_write(s, NVME0 "/nvme0n1/integrity/format", "T10-DIF-TYPE3-CRC\n");
	fs_link(s, NVME0 "/nvme0n1/device", "../../nvme0");
	fs_write(s, NVME0 "/ng0n1/dev", "242:0\n");
	fs_link(s, "dev/block/259:0", "../../" NVME0 "/nvme0n1");
	fs_link(s, "class/block/nvme0n1", "../../" NVME0 "/nvme0n1");
	fs_link(s, "dev/char/242:0", "../../" NVME0 "/ng0n1");

	/* Multipath head node: no device/ link, serial on the subsystem. */
	fs_write(s, SUBSYS1 "/serial", "dixvm-scratch\n");
	fs_write(s, SUBSYS1 "/nvme1n1/dev", "259:1\n");
	fs_link(s, "dev/block/259:1", "../../" SUBSYS1 "/nvme1n1");

	/* A loop device on a kernel without CONFIG_BLK_DEV_INTEGRITY. */
	fs_write(s, "devices/virtual/block/loop3/dev", "7:3\n");
	fs_write(s, "devices/virtual/block/loop3/size", "16\n");
	fs_write(s, "devices/virtual/block/loop3/queue/logical_block_size", "4096\n");
	fs_link(s, "dev/block/7:3", "../../devices/virtual/block/loop3");
	fs_link(s, "class/block/loop3", "../../devices/virtual/block/loop3");

	/* A device whose dev attribute is garbage. */
	fs_write(s, "devices/virtual/block/bad0/dev", "garbage\n");
	fs_link(s, "class/block/bad0", "../../devices/virtual/block/bad0");
}

static void test_devices(const char *s)
{
	struct blkview bv;
	char buf[256], dir[4096];
	unsigned int ma, mi;

	is_int(blkview_read_dev(s, 8, 0, &bv), 0, "sda: read");
	is_str(bv.name, "sda", "sda: name");
	is_str(bv.disk, "sda", "sda: disk is itself");
	ok(bv.is_blockdev && bv.exists && !bv.is_partition && !bv.is_dm,
	   "sda: a whole block device");
	is_int(bv.size_bytes, 6442450944ull * 512, "sda: 64-bit size");
	ok(bv.has_integrity, "sda: integrity directory");
	is_str(bv.format, "T10-DIF-TYPE1-CRC", "sda: format");
	is_int(bv.protection_interval_bytes, 512, "sda: interval");
	is_int(bv.tag_size, 2, "sda: tag_size");
	is_int(bv.read_verify, 1, "sda: read_verify");
	is_int(bv.write_generate, 0, "sda: write_generate 0 as shown");
	is_int(bv.device_is_integrity_capable, 1, "sda: capable");
	is_int(bv.logical_block_size, 512, "sda: logical block");
	is_int(bv.physical_block_size, 4096, "sda: physical block");
	is_int(bv.max_sectors_kb, 512, "sda: max_sectors_kb");
	is_int(bv.max_hw_sectors_kb, 32767, "sda: max_hw_sectors_kb");

	is_int(blkview_read_dev(s, 8, 1, &bv), 0, "sda1: read");
	is_str(bv.name, "sda1", "sda1: name");
	is_str(bv.disk, "sda", "sda1: parent disk");
	ok(bv.is_partition, "sda1: partition");
	is_int(bv.size_bytes, 2048 * 512, "sda1: its own size");
	is_str(bv.format, "T10-DIF-TYPE1-CRC", "sda1: the disk's integrity");
	is_int(bv.physical_block_size, 4096, "sda1: the disk's queue");
	is_int(blkview_diskdir(s, &bv, dir, sizeof(dir)), 0, "sda1: diskdir");
	ok(strlen(dir) > 4 && !strcmp(dir + strlen(dir) - 4, "/sda"),
	   "sda1: diskdir is sda's directory");

	is_int(blkview_read_dev(s, 253, 0, &bv), 0, "dm-0: read");
	ok(bv.is_dm && !bv.is_partition, "dm-0: device-mapper");
	is_str(bv.slaves, "sda1", "dm-0: stacked on sda1");
	is_str(bv.format, "none", "dm-0: format none");
	ok(bv.has_integrity, "dm-0: integrity directory present");

	is_int(blkview_read_dev(s, 7, 3, &bv), 0, "loop3: read");
	ok(!bv.has_integrity, "loop3: no integrity directory");
	is_str(bv.format, "none", "loop3: format none");
	is_int(bv.logical_block_size, 4096, "loop3: 4096 logical");
	is_int(bv.physical_block_size, 4096,
	       "loop3: physical defaults to logical when not shown");
	is_int(bv.max_sectors_kb, 0, "loop3: max_sectors_kb not shown");

	is_int(blkview_read_dev(s, 9, 9, &bv), -ENODEV, "9:9: no such device");

	is_int(blkview_name_dev(s, "sda1", &ma, &mi), 0, "name sda1: found");
	ok(ma == 8 && mi == 1, "name sda1: 8:1");
	is_int(blkview_name_dev(s, "nope", &ma, &mi), -ENODEV, "name nope: none");
	is_int(blkview_name_dev(s, "../sda", &ma, &mi), -ENODEV,
	       "name with a slash: refused");
	is_int(blkview_name_dev(s, "bad0", &ma, &mi), -EBADMSG,
	       "name bad0: garbage dev attribute");

	blkview_sysdir(s, 8, 1, dir, sizeof(dir));
	is_int(blkview_list_dir(dir, "holders", buf, sizeof(buf)), 1,
	       "sda1: one holder");
	is_str(buf, "dm-0", "sda1: held by dm-0");
	blkview_sysdir(s, 8, 0, dir, sizeof(dir));
	is_int(blkview_list_dir(dir, "holders", buf, sizeof(buf)), 0,
	       "sda: no holders");
	is_int(blkview_list_dir(dir, "nonexistent", buf, sizeof(buf)), 0,
	       "missing subdirectory: 0 entries");
	is_int(blkview_partitions(dir, buf, sizeof(buf)), 2, "sda: 2 partitions");
	is_str(buf, "sda1 sda2", "sda: partitions sorted, power/ not one");
	is_int(blkview_partitions(dir, buf, 6), 2,
	       "sda: partitions counted even when the names do not fit");
	is_str(buf, "sda1", "sda: only the names that fit");

	is_int(blkview_chardev_block(s, 21, 0, buf, sizeof(buf)), 0, "sg0: maps");
	is_str(buf, "sda", "sg0: to sda");
	is_int(blkview_chardev_block(s, 242, 0, buf, sizeof(buf)), 0, "ng0n1: maps");
	is_str(buf, "nvme0n1", "ng0n1: to nvme0n1");
	is_int(blkview_chardev_block(s, 1, 3, buf, sizeof(buf)), -ENODEV,
	       "1:3: maps to nothing");
}

static void test_scratch(const char *s)
{
	char dir[4096];
	const char *k;

	blkview_sysdir(s, 8, 0, dir, sizeof(dir));
	k = safety_scratch_kind(dir);
	is_str(k, "scsi_debug", "sda: scsi_debug is scratch");
	blkview_sysdir(s, 259, 0, dir, sizeof(dir));
	k = safety_scratch_kind(dir);
	is_str(k, "dixvm NVMe", "nvme0n1: dixvm-scratch serial (device/)");
	blkview_sysdir(s, 259, 1, dir, sizeof(dir));
	k = safety_scratch_kind(dir);
	is_str(k, "dixvm NVMe", "nvme1n1: dixvm-scratch serial (subsystem)");
	blkview_sysdir(s, 7, 3, dir, sizeof(dir));
	ok(safety_scratch_kind(dir) == NULL, "loop3: not scratch");
	blkview_sysdir(s, 253, 0, dir, sizeof(dir));
	ok(safety_scratch_kind(dir) == NULL, "dm-0: not scratch");
}

/* Regular files, against the real /sys: the queue of the file's device. */
static void test_files(const char *tmp)
{
	char file[4096], missing[4096], path[4096], want[32];
	struct blkview bv;
	struct stat st;
	FILE *f;

	snprintf(file, sizeof(file), "%s/data.img", tmp);
	f = fopen(file, "w");
	fputs("0123456789", f);
	fclose(f);
	is_int(blkview_read("/sys", file, &bv), 0, "file: read");
	ok(bv.exists && !bv.is_blockdev, "file: exists, not a block device");
	is_str(bv.name, "", "file: no kernel name");
	is_str(bv.format, "none", "file: format none");
	ok(!bv.has_integrity, "file: no integrity");
	is_int(bv.size_bytes, 10, "file: size");

	stat(file, &st);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/",
		 major(st.st_dev), minor(st.st_dev));
	if (access(path, F_OK) == 0) {
		char q[4200];

		ok(bv.backing[0] != '\0', "file: backing device %s", bv.backing);
		snprintf(q, sizeof(q), "%s../queue/logical_block_size", path);
		if (access(q, F_OK))
			snprintf(q, sizeof(q), "%squeue/logical_block_size", path);
		f = fopen(q, "r");
		if (f && fgets(want, sizeof(want), f))
			is_int(bv.logical_block_size, atoi(want),
			       "file: logical block size of its device");
		else
			ok(0, "file: cannot read %s", q);
		if (f)
			fclose(f);
	} else {
		is_str(bv.backing, "", "file on a device-less filesystem: no backing");
		is_int(bv.logical_block_size, 512, "file without device: 512");
	}

	snprintf(missing, sizeof(missing), "%s/new.img", tmp);
	is_int(blkview_read("/sys", missing, &bv), 0, "missing file: read");
	ok(!bv.exists && !bv.is_blockdev, "missing file: to be created");
	is_str(bv.format, "none", "missing file: format none");

	snprintf(missing, sizeof(missing), "%s/nodir/new.img", tmp);
	is_int(blkview_read("/sys", missing, &bv), -ENOENT,
	       "missing directory: -ENOENT");
	is_int(blkview_read("/sys", tmp, &bv), -EISDIR, "directory: -EISDIR");
	is_int(blkview_read("/sys", "/dev/null", &bv), -ENODEV,
	       "/dev/null: a char device that maps to no block device");

	/* A real block device, when the host has one. */
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode)) {
		is_int(blkview_read("/sys", "/dev/loop0", &bv), 0, "/dev/loop0: read");
		is_str(bv.name, "loop0", "/dev/loop0: name from sysfs");
		ok(bv.is_blockdev && !bv.is_partition, "/dev/loop0: whole device");
	} else {
		skip_dep("no /dev/loop0 block device here");
	}
}

int main(void)
{
	char root[512], tmp[512];

	fs_tmpdir(root, sizeof(root), "sys");
	fs_tmpdir(tmp, sizeof(tmp), "files");
	build_tree(root);
	test_devices(root);
	test_scratch(root);
	test_files(tmp);
	fs_rmtree(root);
	fs_rmtree(tmp);
	return tap_done();
}
