/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h - one run of the load: the workers, the meter loop, the events
 * that happen meanwhile and what is reported at the end.  The state is
 * runstate.h's; what the workers call while the load runs is in
 * runstop.h, runevent.h and gate.h, included here for them.
 */
#ifndef DIX_RUN_H
#define DIX_RUN_H

#include "core/gate.h"
#include "core/runevent.h"
#include "core/runstate.h"
#include "core/runstop.h"

/**
 * run_load() - run the load described by @r->o on @r->devs with @r->eng,
 * printing meter lines and the summary.
 * Return: the exit status (enum dix_exit).
 */
int run_load(struct dix_run *r);

/**
 * run_free() - release what run_load() kept in @r for the report: the
 * workers, samples, events and transitions (the devices' too).  @r->o
 * and the devices' targets stay the caller's.
 */
void run_free(struct dix_run *r);

#endif
