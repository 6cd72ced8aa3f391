/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfsact.h - the --sysfs action inside src/kernel/: the write at its
 * second of the load, and the value each written file held before the
 * run's first write to it put back when the run ends (unless --sysfs-keep).
 */
#ifndef DIX_SYSFSACT_H
#define DIX_SYSFSACT_H

#include <stddef.h>

#include "kernel/actions.h"

/* sysfs shows at most a page; a longer text is no attribute value */
#define SYSFS_VALUE_MAX	4096

/*
 * struct sysfs_saved - a file a --sysfs action wrote.
 * @arg: the path as the first action writing it gave it
 * @resolved: the path written (symlinks followed): the key
 * @shown: what it read before the first write ("[mq-deadline] none")
 * @orig: what the restore writes (sysfs_restore_value() of @shown), or
 *	NULL when it cannot be put back
 * @why: with @orig NULL, why not
 * @last: the value dixload wrote last (NULL: no write was taken whole)
 * @touched: a write reached the file (write(2) returned, if short)
 * @told: the event of a write already said it cannot be put back
 */
struct sysfs_saved {
	char *arg;
	char *resolved;
	char *shown;
	char *orig;
	char *why;
	char *last;
	int touched;
	int told;
};

struct ctl;

/**
 * sysfs_act() - run --sysfs action @a: remember the file's value before
 * the run's first write to it, write, and emit the action's event (what
 * write(2) returned, the value before and after).
 */
void sysfs_act(struct ctl *c, const struct action *a);

/**
 * sysfs_put_back() - the end of the run: each file a --sysfs action wrote
 * gets the value it held before the first write back, the last written
 * first, one "restore sysfs PATH=VALUE" action event each (failed when the
 * write back fails or the value could not be read); with --sysfs-keep, one
 * note each saying what it holds and held.  Frees what @c remembered.
 */
void sysfs_put_back(struct ctl *c);

/**
 * sysfs_restore_value() - the value to write back for the text @shown a
 * sysfs file read: @shown itself, or for a choice list with the current
 * one in brackets ("noop [mq-deadline] none", as queue/scheduler reads) the
 * bracketed word.
 * @out: receives the value (at least SYSFS_VALUE_MAX bytes)
 *
 * Return: 0, or -EINVAL when @shown cannot be written back (empty, several
 * lines, or several bracketed words), with @why (len bytes) saying so.
 */
int sysfs_restore_value(const char *shown, char *out, char *why, size_t len);

#endif
