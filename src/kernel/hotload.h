/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotload.h - what the core calls of the mid-run machinery: scheduled
 * actions (--hotload, --unload, --sysfs, --exec), the kernel watch, the
 * transition analysis and the --plot / --log files.
 */
#ifndef DIX_HOTLOAD_H
#define DIX_HOTLOAD_H

#include <stddef.h>

#include "options.h"

struct dix_run;

/**
 * actions_check() - validate every scheduled action in @o before the load
 * starts (syntax, times within --runtime, sysfs paths exist ...).
 * @err: "--hotload 'x': reason (allowed: MODULE@SEC)" on failure
 * Return: 0 or -EINVAL.
 */
int actions_check(const struct dix_opts *o, char *err, size_t len);

/**
 * control_start() - start the control thread: it runs the scheduled actions
 * at their second of the run and watches kernel state every interval,
 * reporting both through run_event().  Called right after the load starts.
 * Return: 0 when started, 1 when there is nothing to do, -errno on failure.
 */
int control_start(struct dix_run *r);

/** control_stop() - stop and join the control thread. */
void control_stop(struct dix_run *r);

/**
 * analysis_run() - compute r->transitions from r->samples and r->events
 * (one per action and per kernel change event).
 */
void analysis_run(struct dix_run *r);

/**
 * analysis_write_files() - write --plot (SVG) and --log (CSV) if asked.
 * Return: 0, or -errno after printing which file failed.
 */
int analysis_write_files(struct dix_run *r);

#endif
