// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runevent.c - the event store.  Events are kept in the order they are
 * recorded (an --exec is recorded when it ends but carries its start
 * time); the analysis and the file sinks sort them by time themselves.
 */
#include "config.h"

#include <stdlib.h>

#include "core/mpijob.h"
#include "core/runevent.h"
#include "core/runreport.h"
#include "lib/util.h"

void run_event(struct dix_run *r, const struct dix_event *ev)
{
	struct dix_event *e;

	pthread_mutex_lock(&r->lock);
	r->events = xrealloc(r->events, (r->nevents + 1) * sizeof(*r->events));
	e = &r->events[r->nevents++];
	dix_event_copy(e, ev);
	/* under MPI every event names its host (rank 0 prints them all) */
	if (!e->host && r->mpi)
		e->host = xstrdup(dix_mpi_host(r->mpi));
	if (ev->kind == EV_ACTION && ev->ok == 0)
		r->action_failed = 1;
	runreport_event(r, e);
	pthread_mutex_unlock(&r->lock);
}

/* The control thread's event sink: events go into the run. */
void run_event_emit(void *ctx, const struct dix_event *ev)
{
	run_event(ctx, ev);
}
