/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runevent.h - the run's event store: every event the control thread, a
 * worker or another MPI rank reports is kept (for the analysis after the
 * load) and handed to the sinks as it happens.
 */
#ifndef DIX_RUNEVENT_H
#define DIX_RUNEVENT_H

#include "core/runstate.h"
#include "lib/event.h"

/**
 * run_event() - record and report an event (thread-safe).  The strings
 * and facts are copied.  A failed EV_ACTION makes the exit status at
 * least 4.
 */
void run_event(struct dix_run *r, const struct dix_event *ev);

/**
 * run_event_emit() - run_event() as a struct dix_event_sink's emit, @ctx
 * the run: where the control thread's events go.
 */
void run_event_emit(void *ctx, const struct dix_event *ev);

#endif
