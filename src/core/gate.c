// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate.c - the workers of a phase and the start gate.
 *
 * A worker's setup (the engine's init: a kcapi TFM open can load driver
 * modules and instantiate templates, io_uring maps its rings) is not the
 * load, so the run's clock must not be running during it: --runtime and
 * the first interval would measure setup, and a run's rates would be over
 * a longer time than the load had.  So each worker of a phase reports its
 * setup done and waits at the gate; the main thread waits for all of them
 * (run_gate_wait()), starts the clock, then opens the gate.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "core/gate.h"
#include "core/job.h"
#include "core/runstop.h"
#include "lib/util.h"

/* Setup failures of workers (printed); 1 when one never did any I/O. */
int run_worker_failures(struct dix_run *r)
{
	int i, failed = 0;

	for (i = 0; i < r->nworkers; i++) {
		struct dix_worker *w = &r->workers[i];

		if (!w->err)
			continue;
		if (r->ndevs > 1)
			dix_err("%s: job %d: %s", w->dev->path, w->id,
				w->errmsg);
		else
			dix_err("job %d: %s", w->id, w->errmsg);
		if (!w->c.ops[0] && !w->c.ops[1])
			failed = 1;
	}
	return failed;
}

/* The workers of the current phase: preconditioning or the load. */
static int in_phase(const struct dix_worker *w, int pre)
{
	return !pre || w->precond;
}

int run_all_done(struct dix_run *r, int pre)
{
	int i;

	for (i = 0; i < r->nworkers; i++)
		if (r->workers[i].started && in_phase(&r->workers[i], pre) &&
		    !__atomic_load_n(&r->workers[i].done, __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

void run_join_workers(struct dix_run *r)
{
	int i;

	for (i = 0; i < r->nworkers; i++) {
		if (!r->workers[i].started)
			continue;
		pthread_join(r->workers[i].th, NULL);
		r->workers[i].started = 0;
	}
}

/* The worker waits here until the clock has started (see the top). */
void run_worker_ready(struct dix_run *r, struct dix_worker *w, int ok)
{
	pthread_mutex_lock(&r->gate_lock);
	w->ready = 1;
	pthread_cond_broadcast(&r->gate_cv);
	while (ok && !r->gate_open)
		pthread_cond_wait(&r->gate_cv, &r->gate_lock);
	pthread_mutex_unlock(&r->gate_lock);
}

/* Until every started worker of the phase has finished its setup. */
void run_gate_wait(struct dix_run *r, int pre)
{
	int i, waiting;

	pthread_mutex_lock(&r->gate_lock);
	for (;;) {
		waiting = 0;
		for (i = 0; i < r->nworkers; i++)
			if (r->workers[i].started &&
			    in_phase(&r->workers[i], pre) &&
			    !r->workers[i].ready)
				waiting = 1;
		if (!waiting)
			break;
		pthread_cond_wait(&r->gate_cv, &r->gate_lock);
	}
	pthread_mutex_unlock(&r->gate_lock);
}

void run_gate_open(struct dix_run *r)
{
	pthread_mutex_lock(&r->gate_lock);
	r->gate_open = 1;
	pthread_cond_broadcast(&r->gate_cv);
	pthread_mutex_unlock(&r->gate_lock);
}

/* After a phase's workers were joined: the next phase waits again. */
void run_gate_close(struct dix_run *r)
{
	int i;

	pthread_mutex_lock(&r->gate_lock);
	r->gate_open = 0;
	for (i = 0; i < r->nworkers; i++)
		r->workers[i].ready = 0;
	pthread_mutex_unlock(&r->gate_lock);
}

/*
 * Start the workers of the phase; on failure stop the ones started
 * (returns -1).  The workers wait at the gate after their setup.
 */
int run_start_workers(struct dix_run *r, int pre)
{
	int i;

	for (i = 0; i < r->nworkers; i++) {
		int e;

		if (!in_phase(&r->workers[i], pre))
			continue;
		e = pthread_create(&r->workers[i].th, NULL, worker_main,
				   &r->workers[i]);
		if (e) {
			dix_err("cannot start worker %d: %s", i, strerror(e));
			run_request_stop(r);
			return -1;
		}
		r->workers[i].started = 1;
	}
	return 0;
}
