// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prephase.c - the preconditioning pass: the same workers and the same
 * stop handling as the load, before its clock starts (t = 0, --runtime
 * and the times of scheduled actions count from the load), and its I/O
 * taken out of the counters the meter and the summary read.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "core/gate.h"
#include "core/job.h"
#include "core/prephase.h"
#include "core/runreport.h"
#include "core/runstop.h"
#include "core/totals.h"
#include "lib/util.h"

/* What one device's preconditioning did, from its workers' totals. */
static void precond_result(struct dix_run *r, struct dix_dev *d,
			   const struct dix_totals *t, int setup_failed)
{
	struct precond_result *res = &d->pres;
	int i;

	res->seconds = t->elapsed;
	res->bytes = t->c.bytes[DIX_WRITE];
	res->errors = counters_errors(&t->c);
	res->io_size = d->pre.io_size;
	for (i = 0; i < d->nworkers; i++)
		if (d->workers[i].io_size &&
		    d->workers[i].io_size < res->io_size)
			res->io_size = d->workers[i].io_size;
	res->complete = res->bytes == res->region && !res->errors &&
			!setup_failed;
	(void)r;
}

/*
 * Write the region of every device that preconditions (precond.h) with
 * its workers in their preconditioning pass; progress on a terminal every
 * half second.  Then clear every worker's counters, so the load starts
 * from zero.
 * @pre_c: the pass's own counters (its errors decide the exit status when
 *	the load does not start)
 * Return: 0 when the load may start; 1 when it must not: stopped (signal,
 * --max-errors), an error, or a worker that could not run.
 */
int run_precondition(struct dix_run *r, struct dix_counters *pre_c,
		     int *setup_failed)
{
	int tty = !r->o->quiet && isatty(STDERR_FILENO);
	double start, show;
	uint64_t region = 0;
	int i, k, stopped, complete = 1;

	memset(pre_c, 0, sizeof(*pre_c));
	for (k = 0; k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];

		if (!d->pre.on)
			continue;
		d->pres.ran = 1;
		for (i = 0; i < d->nworkers; i++) {
			d->workers[i].precond = 1;
			d->pres.region += d->workers[i].end -
					  d->workers[i].start;
		}
		region += d->pres.region;
	}
	if (run_start_workers(r, 1))
		*setup_failed = 1;
	run_gate_wait(r, 1);
	start = dix_now();
	show = start + 0.5;
	run_gate_open(r);
	while (!run_all_done(r, 1) && !__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		double now = dix_now();

		if (tty && now >= show) {
			struct dix_counters c;

			run_sum_counters(r->workers, r->nworkers, &c);
			runreport_precond_progress(r, c.bytes[DIX_WRITE],
						     region, now - start);
			while (show <= now)
				show += 0.5;
		}
		run_wait_until(r, tty ? show : now + 3600);
	}
	run_join_workers(r);
	run_gate_close(r);
	stopped = __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
	if (run_worker_failures(r))
		*setup_failed = 1;
	r->t0 = start;
	r->t_end = dix_now();
	pthread_mutex_lock(&r->lock);
	if (tty)
		runreport_precond_progress(r, 0, 0, -1);	/* clear the line */
	for (k = 0; k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];
		struct dix_totals t;

		if (!d->pre.on)
			continue;
		run_gather_dev(r, d, &t);
		counters_add(pre_c, &t.c);
		precond_result(r, d, &t, *setup_failed);
		complete &= d->pres.complete;
		run_totals_free(&t);
		runreport_precond(r, d);
	}
	pthread_mutex_unlock(&r->lock);
	if (!complete || stopped || *setup_failed)
		return 1;
	/* run_gather_dev() took the (empty) extent lists; the rest starts anew */
	for (i = 0; i < r->nworkers; i++) {
		struct dix_worker *w = &r->workers[i];

		memset(&w->c, 0, sizeof(w->c));
		memset(w->lat, 0, sizeof(w->lat));
		memset(w->lat_seen, 0, sizeof(w->lat_seen));
		memset(w->odd_bytes, 0, sizeof(w->odd_bytes));
		w->precond = 0;
		w->done = 0;
	}
	return 0;
}
