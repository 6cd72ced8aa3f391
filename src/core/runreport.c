// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runreport.c - from the run's state to the typed records the sinks
 * render.  The run's structures (devices, plans, results, the MPI job)
 * stay in core/; the records name only what they say, so report/ never
 * includes core/ and a new output is a sink, not a change here.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/job.h"
#include "core/mpijob.h"
#include "core/runstate.h"
#include "core/runreport.h"
#include "core/runstop.h"
#include "report/analysis.h"
#include "report/sink.h"
#include "lib/util.h"

/* The records' view of every device (@v holds DIX_DEVS_MAX). */
static void rec_devs(const struct dix_run *r, struct rec_dev *v)
{
	int k;

	for (k = 0; k < r->ndevs; k++) {
		const struct dix_dev *d = &r->devs[k];

		v[k] = (struct rec_dev){
			.path = d->path, .t = &d->t, .pre_on = d->pre.on,
			.pre_reason = d->pre.reason, .pre_ran = d->pres.ran,
			.tr = d->transitions, .ntr = d->ntransitions,
		};
	}
}

int runreport_start(struct dix_run *r)
{
	struct rec_dev devs[DIX_DEVS_MAX];
	struct rec_start s = {
		.o = r->o, .devs = devs, .ndevs = r->ndevs,
		.mpi_ranks = r->mpi ? dix_mpi_size(r->mpi) : 0,
		.mpi_host = r->mpi ? dix_mpi_host(r->mpi) : NULL,
	};
	int e;

	memset(&r->sinks, 0, sizeof(r->sinks));
	if (r->silent && !r->output)
		return 0;
	e = sinks_open(&r->sinks, r->o, r->silent, r->output);
#ifdef HAVE_MICROHTTPD
	if (!e && r->metrics)
		e = sinks_add(&r->sinks, &sink_metrics_ops, r->metrics);
#endif
	if (e)
		return e;
	rec_devs(r, devs);
	sinks_start(&r->sinks, &s);
	return 0;
}

void runreport_close(struct dix_run *r)
{
	sinks_close(&r->sinks);
}

void runreport_precond_progress(struct dix_run *r, uint64_t bytes,
				uint64_t region, double seconds)
{
	struct rec_precond_progress p = { bytes, region, seconds };

	sinks_precond_progress(&r->sinks, &p);
}

void runreport_precond(struct dix_run *r, const struct dix_dev *d)
{
	struct rec_dev dev;
	struct rec_precond p = {
		.dev = &dev, .several = r->ndevs > 1,
		.mode = precondition_names[r->o->precondition],
		.complete = d->pres.complete, .bytes = d->pres.bytes,
		.region = d->pres.region, .seconds = d->pres.seconds,
		.io_size = d->pres.io_size, .iodepth = d->pre.iodepth,
		.jobs = d->nworkers, .errors = d->pres.errors,
	};
	struct rec_dev devs[DIX_DEVS_MAX];

	rec_devs(r, devs);
	dev = devs[d - r->devs];
	sinks_precond(&r->sinks, &p);
}

void runreport_interval(struct dix_run *r, const struct meter_sample *s,
			const struct meter_sample *ds,
			const struct dix_rank_row *rows, int nrows,
			const struct lat_hist *lat)
{
	struct rec_dev devs[DIX_DEVS_MAX];
	struct rec_interval iv = {
		.index = r->samples.n, .o = r->o, .s = s, .ds = ds,
		.devs = devs, .ndevs = r->ndevs,
		.ranks = rows, .nranks = nrows, .lat = lat,
	};

	rec_devs(r, devs);
	sinks_interval(&r->sinks, &iv);
}

void runreport_event(struct dix_run *r, const struct dix_event *ev)
{
	sinks_event(&r->sinks, ev);
}

/*
 * The logical block size the never-written share of @r's total is counted
 * in: the devices' common one; 0 (no share) when they differ.
 */
static uint32_t total_lbs(const struct dix_run *r)
{
	int k;

	for (k = 1; k < r->ndevs; k++)
		if (r->devs[k].t.lbs != r->devs[0].t.lbs)
			return 0;
	return r->devs[0].t.lbs;
}

/* Hand @n transitions of @dev (NULL: the total) to the sinks. */
static void emit_transitions(struct dix_run *r, const struct rec_dev *dev,
			     const struct dix_transition *tr,
			     const struct tr_window *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct rec_transition t = {
			.tr = &tr[i], .w = &w[i],
			.what = r->events[tr[i].event].what, .dev = dev,
		};

		sinks_transition(&r->sinks, &t);
	}
}

void runreport_analyse(struct dix_run *r)
{
	int verify = r->o->verify != VERIFY_OFF;
	struct rec_dev devs[DIX_DEVS_MAX];
	struct tr_window *w;
	int k;

	free(r->transitions);
	r->ntransitions = analysis_transitions(r->events, r->nevents,
					       &r->samples, total_lbs(r),
					       verify, &r->transitions, &w);
	emit_transitions(r, NULL, r->transitions, w, r->ntransitions);
	free(w);
	/* each device's own throughput around the same events */
	for (k = 0; r->ndevs > 1 && k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];

		free(d->transitions);
		d->ntransitions = analysis_transitions(r->events, r->nevents,
						       &d->samples, d->t.lbs,
						       verify, &d->transitions,
						       &w);
		rec_devs(r, devs);
		emit_transitions(r, &devs[k], d->transitions, w,
				 d->ntransitions);
		free(w);
	}
}

void runreport_summary(struct dix_run *r, const struct dix_totals *t,
		       const struct dix_totals *dt, int status)
{
	struct rec_dev devs[DIX_DEVS_MAX];
	struct rec_summary s = {
		.o = r->o, .started = r->started, .stopped = r->stop,
		.t = t, .dt = dt, .devs = devs, .ndevs = r->ndevs,
		.events = r->events, .tr = r->transitions,
		.ntr = r->ntransitions,
		.journal = r->o->journal && r->journal_write,
		.journal_records = r->journal_records,
		.journal_batches = r->journal_batches,
		.journal_sync_s = r->journal_sync_s,
		.extents_max = DIX_EXTENTS_MAX, .status = status,
	};
	int k;

	s.stop_sig = run_stop_signal(r, &s.stop_at);
	for (k = 0; k < r->ndevs; k++) {
		s.pre_ran |= r->devs[k].pres.ran;
		s.pre_err |= r->devs[k].pres.errors != 0;
	}
	rec_devs(r, devs);
	sinks_summary(&r->sinks, &s);
}
