/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmreload.h - --dm-reload: suspend a device-mapper mapping, load its live
 * table again as read, resume it.  A reload is how a mapping's crypto
 * TFMs are allocated anew, so it is how a load on dm-crypt or dm-integrity
 * comes to run on a driver registered (or re-prioritised) after the table
 * was loaded.
 */
#ifndef DIX_DMRELOAD_H
#define DIX_DMRELOAD_H

#include <stddef.h>
#include <sys/types.h>

/**
 * dm_reload_check() - whether mapping @major:@minor can be reloaded as
 * read: its table can be read (CAP_SYS_ADMIN) and holds its keys (not a
 * kernel keyring reference).
 * @name: receives the mapping's name (128 bytes)
 *
 * Return: 0, or -errno with @why saying why not (without the device's
 * path).
 */
int dm_reload_check(unsigned int major, unsigned int minor, char *name,
		    char *why, size_t whylen);

/**
 * dm_reload_busy() - whether someone besides dixload uses mapping
 * @major:@minor, which a suspend would stall or a new table surprise:
 * opens the kernel counts (DM_DEV_STATUS open_count) beyond this process's
 * own (the load on it, its claim: each open file once), mounts of it
 * (/proc/self/mountinfo) and holders (sysfs holders/: a mapping or md
 * array on it).
 * @why: on 1, which and how many ("open 1 time outside dixload (the kernel
 *	counts 3 opens, 2 of them dixload's)"; "held by 1 device (...)")
 *
 * Return: 0 nobody else, 1 in use, -errno when the count cannot be read.
 */
int dm_reload_busy(unsigned int major, unsigned int minor, char *why,
		   size_t len);

/**
 * dm_mounts_of() - the mounts of block device @dev in @mountinfo (the
 * format of /proc/self/mountinfo: a line matches by its MAJ:MIN, or by a
 * source that is @dev's block device, as btrfs shows an anonymous 0:N).
 * @where: receives the first mount point ("" none)
 *
 * Return: the number of mounts (0 also when @mountinfo cannot be read).
 */
int dm_mounts_of(const char *mountinfo, dev_t dev, char *where, size_t len);

/**
 * dm_reload() - read the live table of @major:@minor (keys included,
 * kept in memory and wiped), suspend the mapping, load the table, resume.
 * @suspended: receives the seconds from the start of the suspend to the
 *	end of the resume
 * @name: receives the mapping's name (128 bytes)
 *
 * Return: 0, or -errno with @why naming the step that failed (the mapping
 * is resumed on its old table when the load fails).
 */
int dm_reload(unsigned int major, unsigned int minor, double *suspended,
	      char *name, char *why, size_t whylen);

#endif
