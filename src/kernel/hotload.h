/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotload.h - what the rest of dixload calls of src/kernel/: checking the
 * scheduled actions (--hotload, --unload, --sysfs, --exec) and the sysfs
 * rules (actions.c), and the control thread that runs them and watches the
 * kernel (control.c).  Modules (modules.c) and child processes (child.c)
 * stay inside src/kernel/.
 */
#ifndef DIX_HOTLOAD_H
#define DIX_HOTLOAD_H

#include <stddef.h>

#include "conf/options.h"


/**
 * actions_check() - validate every scheduled action in @o before the load
 * starts (syntax, times within --runtime, sysfs paths exist ...).
 * @err: "--hotload 'x': reason (allowed: MODULE@SEC)" on failure
 * Return: 0 or -EINVAL.
 */
int actions_check(const struct dix_opts *o, char *err, size_t len);

/*
 * The directory --sysfs writes are confined to, unless the run's options
 * say otherwise (struct dix_opts.sysfs_root, a unit test's scratch
 * directory: a value of that run, not of the process).
 */
#define DIX_SYSFS_ROOT	"/sys"

/**
 * sysfs_resolve() - where a --sysfs PATH leads, and whether it may be
 * written: @path with every symlink followed (realpath) must be a regular
 * file under @root.  A symlink is judged by where it points, so a link in
 * /tmp to /sys is accepted and a link under /sys to /etc is not.
 * @path: the path as given
 * @root: the directory writes are confined to (DIX_SYSFS_ROOT, or the
 *	run's struct dix_opts.sysfs_root)
 * @resolved: PATH_MAX bytes for the resolved path
 * @why: the reason on refusal, naming @path (and where it leads)
 * @len: size of @why
 *
 * Return: 0, or -errno (-EPERM for a file outside @root).
 */
int sysfs_resolve(const char *path, const char *root, char *resolved,
		  char *why, size_t len);

/**
 * sysfs_write() - write @value the way `echo VALUE > PATH` does: one
 * write(2) of VALUE and a newline to an O_WRONLY|O_TRUNC open of @path
 * (O_NOFOLLOW: @path is the resolved one).  sysfs takes a value in one
 * write; O_TRUNC is what the shell's '>' asks for.
 * @call: set to the system call whose result is returned ("open", "write"
 *	or "close")
 *
 * Return: what that call returned: for "write" the bytes written (the
 * value's length plus one, unless the kernel took fewer); otherwise -errno.
 */
long sysfs_write(const char *path, const char *value, const char **call);

struct ctl;
struct dix_event_sink;
struct dmbind;

/**
 * control_start() - start the control thread: it runs the scheduled
 * actions of @o at their second of the load and watches kernel state every
 * interval, reporting both to @sink.  @dev: the target's block device name
 * for advice in messages, or NULL.  @dm: the run's watched mappings
 * (dmbind.h; NULL: none).  Called before the load's clock starts,
 * so its own setup (the first snapshot of /proc and /sys, the crypto_user
 * socket) is never inside the measured interval nor delays an action: the
 * thread waits for control_go().  @sink's t0 is ignored until then.
 * Return: the thread's state for control_go() and control_stop(); NULL
 * with *@err 1 when there is nothing to run or watch, -errno on failure.
 */
struct ctl *control_start(const struct dix_opts *o, const char *dev,
			  struct dmbind *dm, const struct dix_event_sink *sink,
			  int *err);

/**
 * control_go() - the load's clock started at @t0 (dix_now() seconds): the
 * actions are due at @t0 plus their second, the first watch at @t0 plus
 * one interval.
 */
void control_go(struct ctl *c, double t0);

/** control_stop() - stop and join the control thread, free @c. */
void control_stop(struct ctl *c);

#endif
