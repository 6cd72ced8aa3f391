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
