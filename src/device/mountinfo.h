/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mountinfo.h - one reader of /proc/self/mountinfo lines, for the two
 * questions dixload asks of it: is a device it would write mounted
 * (safety.c), and is a mapping it would suspend mounted (kernel/dmreload.c).
 */
#ifndef DIX_MOUNTINFO_H
#define DIX_MOUNTINFO_H

#include <stdio.h>
#include <sys/types.h>

/**
 * struct mountinfo_ent - what one mountinfo line says of its mount.
 * @dev: the MAJ:MIN of its third field
 * @src_dev: the device number of its SOURCE when that is a block device
 *	node (btrfs shows an anonymous 0:N as @dev, the real device here);
 *	0 otherwise
 * @mountpoint: its mount point, octal escapes undone (points into the line)
 * @fstype: its filesystem type, or NULL when the line has no " - " part
 */
struct mountinfo_ent {
	dev_t dev, src_dev;
	const char *mountpoint, *fstype;
};

/**
 * mountinfo_next() - read and parse the next well-formed line of @f.
 * @line, @cap: getline(3)'s buffer, owned by the caller (free @line after)
 * @e: the line's mount; its strings live in @line until the next call
 *
 * Lines too short or without MAJ:MIN are passed over.
 * Return: 1 with @e filled, or 0 at the end of @f.
 */
int mountinfo_next(FILE *f, char **line, size_t *cap, struct mountinfo_ent *e);

/** mountinfo_unescape() - undo mountinfo's and /proc/swaps' octal escapes in @s. */
void mountinfo_unescape(char *s);

#endif
