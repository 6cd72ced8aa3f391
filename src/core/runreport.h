/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runreport.h - the run's side of the report: the typed records
 * (report/record.h) built from the run's state and handed to the sinks
 * the run registered (report/sink.h).  Callers hold run->lock, so the
 * lines of different records never interleave.
 */
#ifndef DIX_RUNREPORT_H
#define DIX_RUNREPORT_H

#include <stdint.h>

#include "report/record.h"

struct dix_run;
struct dix_dev;

/**
 * runreport_start() - register the sinks the options ask for (none on an
 * MPI rank other than 0: rank 0 reports the job) and hand them the start.
 * Return: 0, or -ENOSPC (sinks_add()).
 */
int runreport_start(struct dix_run *r);

/** runreport_close() - close the sinks runreport_start() registered. */
void runreport_close(struct dix_run *r);

/** runreport_precond_progress() - preconditioning so far (< 0 s: over). */
void runreport_precond_progress(struct dix_run *r, uint64_t bytes,
				uint64_t region, double seconds);

/** runreport_precond() - what preconditioning of @d did (@d->pres). */
void runreport_precond(struct dix_run *r, const struct dix_dev *d);

/**
 * runreport_interval() - one meter interval: the total @s, with several
 * devices each device's @ds (else NULL), under MPI on rank 0 each rank's
 * @rows (@nrows; else NULL), and @lat the total's latency histogram of
 * the interval per direction (@s->lat its quantiles).
 */
void runreport_interval(struct dix_run *r, const struct meter_sample *s,
			const struct meter_sample *ds,
			const struct dix_rank_row *rows, int nrows,
			const struct lat_hist *lat);

/** runreport_event() - an event, as recorded in @r->events. */
void runreport_event(struct dix_run *r, const struct dix_event *ev);

/**
 * runreport_analyse() - compute @r->transitions (and each device's own,
 * with several) from the samples and the events, and hand each one to the
 * sinks.
 */
void runreport_analyse(struct dix_run *r);

/**
 * runreport_summary() - the summary: @t the total, @dt each device's
 * totals (r->ndevs of them; with one device @t says it all).
 */
void runreport_summary(struct dix_run *r, const struct dix_totals *t,
		       const struct dix_totals *dt, int status);

#endif
