// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runstop.c - signals and the wake fd.
 *
 * The meter thread (main) sleeps in ppoll() on an eventfd until the next
 * deadline; workers finishing and signal handlers write the eventfd, so the
 * run ends promptly instead of at the next tick.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "core/runstop.h"
#include "lib/util.h"

/*
 * Process-wide, as signal dispositions are: a sweep's points are runs of
 * one process, and a stop signal during one ends the sweep (run_signals_on()
 * stops the next run at once), so no run may forget it.
 */
static struct dix_run *sig_run;
static volatile sig_atomic_t sig_count;
static volatile sig_atomic_t sig_first;	/* the first stop signal's number */
/* CLOCK_MONOTONIC ns of the first stop signal and of the last SIGCONT
 * before it (0: none), for run_signal_lead() */
static uint64_t sig_stop_ns, sig_cont_ns;

double run_elapsed(const struct dix_run *r)
{
	return dix_now() - r->t0;
}

static void wake(struct dix_run *r)
{
	uint64_t one = 1;
	ssize_t n;

	if (r->wake_fd >= 0)
		n = write(r->wake_fd, &one, sizeof(one));
	(void)n;
}

void run_request_stop(struct dix_run *r)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	wake(r);
}

void run_worker_done(struct dix_run *r)
{
	wake(r);
}

static void on_signal(int sig)
{
	int saved = errno;
	uint64_t none = 0;

	if (__atomic_compare_exchange_n(&sig_stop_ns, &none, dix_now_ns(), 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		sig_first = sig;
	sig_count++;
	if (sig_run)
		run_request_stop(sig_run);
	/* a second signal while draining: the user really wants out */
	if (sig_count > 2) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

/*
 * SIGCONT stops nothing (a job resumed from the shell goes on): its time
 * is kept, since mpirun's kill sequence starts with one (run_signal_lead()).
 */
static void on_cont(int sig)
{
	(void)sig;
	if (!__atomic_load_n(&sig_stop_ns, __ATOMIC_RELAXED))
		__atomic_store_n(&sig_cont_ns, dix_now_ns(), __ATOMIC_RELAXED);
}

void run_signals_on(struct dix_run *r)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sig_run = r;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (r->mpi) {
		/* the workers' system calls go on across it */
		sa.sa_handler = on_cont;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGCONT, &sa, NULL);
	}
	/* one that came between two runs of a sweep: this one stops too */
	if (sig_count)
		run_request_stop(r);
}

void run_wait_until(struct dix_run *r, double deadline)
{
	double left = deadline - dix_now();
	struct pollfd pfd = { .fd = r->wake_fd, .events = POLLIN };
	struct timespec ts;
	uint64_t v;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (ppoll(&pfd, 1, &ts, NULL) > 0 &&
	    read(r->wake_fd, &v, sizeof(v)) < 0)
		return;
}

void run_signals_off(void)
{
	sig_run = NULL;
}

int run_signalled(void)
{
	return sig_count != 0;
}

double run_signal_lead(void)
{
	uint64_t stop = __atomic_load_n(&sig_stop_ns, __ATOMIC_RELAXED);
	uint64_t cont = __atomic_load_n(&sig_cont_ns, __ATOMIC_RELAXED);

	return stop && cont && stop > cont ? (stop - cont) / 1e9 : 0;
}

int run_stop_signal(const struct dix_run *r, double *at)
{
	uint64_t stop = __atomic_load_n(&sig_stop_ns, __ATOMIC_RELAXED);
	double t;

	if (!sig_count || !stop)
		return 0;
	t = stop / 1e9 - r->t0;
	/* after the load's own end (its --runtime, its region covered): the
	 * signal stopped nothing but the drain or the report */
	if (r->started && r->o->runtime > 0 && t >= r->o->runtime)
		return 0;
	if (r->t_end > 0 && stop / 1e9 > r->t_end)
		return 0;
	if (at)
		*at = t > 0 ? t : 0;
	return sig_first;
}
