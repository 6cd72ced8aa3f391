/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkview.h - the kernel's view of a target: block device or regular file,
 * its queue limits and its block integrity profile, read from sysfs.
 *
 * Every function takes the sysfs root as a parameter ("/sys" in
 * production) so the unit tests run against a fake tree in a temp dir.
 */
#ifndef DIX_BLKVIEW_H
#define DIX_BLKVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLKVIEW_NAME_LEN 64

/**
 * struct blkview - what the kernel shows about a target.
 * @exists: the path exists (false: a regular file dixload would create; the
 *	rest then describes the directory's filesystem device)
 * @is_blockdev: the path is a block device
 * @is_chardev: the path is a SCSI generic or NVMe generic character device,
 *	described through the block device it maps to
 * @is_partition: the block device is a partition of @disk
 * @is_dm: the block device is a device-mapper device
 * @major: block device major (regular file: of @backing; 0 when none)
 * @minor: block device minor
 * @name: kernel name ("sda1", "nvme0n1", "dm-0"); "" for a regular file
 * @disk: whole disk: "sda" for "sda1", @name for a disk; for a regular file
 *	the disk under @backing, "" when none
 * @backing: regular file: the block device its filesystem lives on ("vda2"),
 *	"" when there is none (tmpfs, overlay, btrfs anonymous devices)
 * @slaves: stacked devices (dm, md): the devices below, space separated
 * @has_integrity: the kernel shows an integrity directory for @disk (false
 *	for regular files and kernels without CONFIG_BLK_DEV_INTEGRITY)
 * @format: integrity/format; "none" when absent
 * @protection_interval_bytes: integrity/protection_interval_bytes (0 absent)
 * @tag_size: integrity/tag_size (0 absent)
 * @read_verify: integrity/read_verify (0 absent)
 * @write_generate: integrity/write_generate (0 absent)
 * @device_is_integrity_capable: integrity/device_is_integrity_capable: the
 *	device itself stores/checks PI (0 for DIX0 host-side only, or absent)
 * @logical_block_size: queue/logical_block_size; for a regular file that of
 *	its backing disk, 512 when there is none
 * @physical_block_size: queue/physical_block_size (same rules)
 * @max_sectors_kb: queue/max_sectors_kb: the largest request the block
 *	layer sends (larger I/Os are split); 0 for files without backing disk
 * @max_hw_sectors_kb: queue/max_hw_sectors_kb
 * @max_segments: queue/max_segments: the most memory segments one request
 *	may have (a pass-through request is never split, so its user pages
 *	must fit); 0 absent
 * @size_bytes: device size (sysfs size * 512) or file size
 */
struct blkview {
	bool exists;
	bool is_blockdev;
	bool is_chardev;
	bool is_partition;
	bool is_dm;
	unsigned int major, minor;
	char name[BLKVIEW_NAME_LEN];
	char disk[BLKVIEW_NAME_LEN];
	char backing[BLKVIEW_NAME_LEN];
	char slaves[256];
	bool has_integrity;
	char format[32];
	unsigned int protection_interval_bytes;
	unsigned int tag_size;
	int read_verify;
	int write_generate;
	int device_is_integrity_capable;
	unsigned int logical_block_size;
	unsigned int physical_block_size;
	unsigned int max_sectors_kb;
	unsigned int max_hw_sectors_kb;
	unsigned int max_segments;
	uint64_t size_bytes;
};

/**
 * blkview_read() - the kernel's view of @path.
 * @sysroot: sysfs mount point, "/sys" in production
 * @path: block device, regular file (existing or to be created), or a
 *	/dev/sgN or /dev/ngXnY character device
 * @bv: result
 *
 * Return: 0; -ENOENT when neither @path nor its directory exists;
 * -ENODEV for a block or character device the sysfs tree does not know
 * (or a character device that maps to no block device); -EISDIR for a
 * directory; -EINVAL for other file types; other -errno from stat().
 */
int blkview_read(const char *sysroot, const char *path, struct blkview *bv);

/**
 * blkview_read_dev() - the kernel's view of block device @major:@minor.
 * @sysroot: sysfs mount point
 * @major: device major
 * @minor: device minor
 * @bv: result (@exists and @is_blockdev set)
 *
 * Return: 0; -ENODEV when @sysroot/dev/block/@major:@minor does not exist.
 */
int blkview_read_dev(const char *sysroot, unsigned int major,
		     unsigned int minor, struct blkview *bv);

/**
 * blkview_sysdir() - canonical sysfs directory of a block device.
 * @sysroot: sysfs mount point
 * @major: device major
 * @minor: device minor
 * @dir: buffer for the path (symlinks resolved)
 * @len: size of @dir
 *
 * Return: 0; -ENODEV when the device is unknown; -ENAMETOOLONG.
 */
int blkview_sysdir(const char *sysroot, unsigned int major, unsigned int minor,
		   char *dir, size_t len);

/**
 * blkview_diskdir() - sysfs directory of the whole disk under @bv (the
 * partition's parent for a partition; for a regular file, the disk under
 * its backing device).
 * @sysroot: sysfs mount point
 * @bv: a view filled by blkview_read() or blkview_read_dev()
 * @dir: buffer for the path
 * @len: size of @dir
 *
 * Return: 0; -ENODEV when @bv has no block device (file on tmpfs ...).
 */
int blkview_diskdir(const char *sysroot, const struct blkview *bv, char *dir,
		    size_t len);

/**
 * blkview_name_dev() - the major:minor of block device @name (sysfs
 * class/block/@name/dev).
 *
 * Return: 0; -ENODEV when there is no such block device; -EBADMSG when its
 * dev attribute does not read "MAJ:MIN".
 */
int blkview_name_dev(const char *sysroot, const char *name,
		     unsigned int *major, unsigned int *minor);

/**
 * blkview_list_dir() - names in @dir/@sub (e.g. "holders", "slaves"),
 * space separated into @out.
 * @dir: a device's sysfs directory
 * @sub: subdirectory to list
 * @out: buffer (may be NULL to only count)
 * @len: size of @out; names that do not fit are counted but left out
 *
 * Return: the number of entries (0 when @sub is missing or empty).
 */
int blkview_list_dir(const char *dir, const char *sub, char *out, size_t len);

/**
 * blkview_partitions() - partitions of the disk whose sysfs directory is
 * @dir: its subdirectories that carry a "partition" attribute.
 * @out: buffer for the names, space separated (may be NULL)
 * @len: size of @out
 *
 * Return: the number of partitions.
 */
int blkview_partitions(const char *dir, char *out, size_t len);

/**
 * blkview_chardev_block() - the block device a character device stands
 * for: /dev/sgN (scsi_generic, its device/block/ entry) or /dev/ngXnY
 * (NVMe generic, block device nvmeXnY).
 * @sysroot: sysfs mount point
 * @major: character device major
 * @minor: character device minor
 * @name: buffer for the block device name
 * @len: size of @name
 *
 * Return: 0; -ENODEV when it maps to no block device.
 */
int blkview_chardev_block(const char *sysroot, unsigned int major,
			  unsigned int minor, char *name, size_t len);

/**
 * blkview_attr() - read attribute @rel below sysfs directory @dir into
 * @buf, newline and trailing blanks stripped.
 *
 * Return: 0 or -errno.
 */
int blkview_attr(const char *dir, const char *rel, char *buf, size_t len);

/**
 * blkview_ctrl_attr() - attribute @name of the device or controller behind
 * the disk whose sysfs directory is @diskdir: device/@name, or ../@name for
 * an NVMe multipath head node (whose controller serial, model ... sit on
 * the parent nvme-subsystem directory).
 *
 * Return: 0 or -errno (neither exists).
 */
int blkview_ctrl_attr(const char *diskdir, const char *name, char *buf,
		      size_t len);

#endif
