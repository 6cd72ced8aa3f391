/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safety.h - refuse to write a target that holds someone's data.
 *
 * dixload writes raw devices.  Before any write it checks what is on the
 * target and what uses it, and refuses with a one-line reason naming what
 * it found.  --force overrides the checks for data signatures, partitions
 * and holders; nothing overrides a mounted filesystem or active swap.
 */
#ifndef DIX_SAFETY_H
#define DIX_SAFETY_H

#include <stddef.h>

/**
 * struct safety_env - where the checks look; production values are
 * SAFETY_ENV_DEFAULT.  Tests point them at fake trees.
 * @sysroot: sysfs mount point ("/sys")
 * @mountinfo: mount table ("/proc/self/mountinfo")
 * @swaps: active swap list ("/proc/swaps")
 */
struct safety_env {
	const char *sysroot;
	const char *mountinfo;
	const char *swaps;
};

#define SAFETY_ENV_DEFAULT { "/sys", "/proc/self/mountinfo", "/proc/swaps" }

/**
 * safety_check() - may dixload write @path?
 * @path: target given with --dev
 * @will_write: the run writes (0: read-only runs are always allowed)
 * @force: --force given
 * @why: buffer for the reason on refusal (one line, names the path and what
 *	was found, says whether --force helps); "" when allowed
 * @len: size of @why
 *
 * Block devices (and /dev/sgN, /dev/ngXnY through the block device they
 * stand for) are refused when they, one of their partitions or a device
 * stacked on them (dm, md, LVM: sysfs holders, recursively) is mounted or
 * active swap - even with @force - and, unless @force, when they have
 * holders, contain partitions or carry a filesystem, RAID, LVM, swap or
 * partition-table signature (libblkid probe).  scsi_debug disks and the
 * test VM's NVMe namespace (controller serial "dixvm-scratch") are scratch
 * devices: they need no @force, but mounted/swap still refuse.
 *
 * Regular files are dixload's own scratch space: allowed, also when they do
 * not exist yet, unless they carry a signature (a filesystem image; @force
 * overrides), are an active swap file, or back a loop device (refused like
 * that loop device).
 *
 * Return: 0 to proceed; -1 refused, reason in @why.
 */
int safety_check(const char *path, int will_write, int force, char *why,
		 size_t len);

/**
 * safety_check_env() - safety_check() reading sysfs, the mount table and
 * the swap list from @env.
 */
int safety_check_env(const struct safety_env *env, const char *path,
		     int will_write, int force, char *why, size_t len);

/**
 * safety_scratch_kind() - whether the disk whose sysfs directory is
 * @diskdir is a scratch test device.
 *
 * Return: "scsi_debug" or "dixvm NVMe" when it is one, NULL otherwise.
 */
const char *safety_scratch_kind(const char *diskdir);

/**
 * safety_probe_signature() - libblkid probe of @path for a filesystem,
 * RAID/LVM member, swap or partition-table signature.
 * @path: device or file to probe (opened read-only)
 * @what: buffer for a description ("an ext4 filesystem (UUID ...)")
 * @len: size of @what
 *
 * Return: 1 found (described in @what), 0 none, -errno when @path cannot
 * be opened or probed.
 */
int safety_probe_signature(const char *path, char *what, size_t len);

#endif
