// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exitstatus.c - the exit status of a run: the worst thing it met, in the
 * order dixload(1) documents.
 */
#include "config.h"


#include "core/exitstatus.h"
#include "core/runstop.h"
#include "lib/util.h"

/*
 * A load that ran to its end and completed no request has figures of 0
 * that measure nothing: its --runtime ended before the first request came
 * back, or the device never answered.  Exit 0 would read as a load that
 * ran at 0 MB/s and passed, so it is exit status 1, said in one line.
 * Stopped by SIGINT/SIGTERM, the user asked for the end: that is status
 * 6 (run_exit_status()), not this.
 */
int run_nothing_measured(const struct dix_totals *t, int status)
{
	uint64_t ops = 0;
	int d;

	for (d = 0; d < DIX_DIR_NR; d++)
		ops += t->c.ops[d];
	if (ops || status != DIX_EXIT_OK || run_signalled())
		return status;
	dix_err("no request completed in the %.3f s the load ran, so its figures measure nothing (a --runtime shorter than one request, or a device that did not answer)",
		t->elapsed);
	return DIX_EXIT_USAGE;
}

int counters_status(const struct dix_counters *c)
{
	uint64_t integ = 0;
	int k;

	for (k = 0; k < DIX_ERR_NR; k++)
		if (dix_errkind_is_integrity(k))
			integ += c->errors[k];
	if (integ)
		return DIX_EXIT_INTEGRITY;
	if (c->errors[DIX_ERR_IO])
		return DIX_EXIT_IO;
	return DIX_EXIT_OK;
}

/*
 * The precedence of the exit statuses, the one that wins first: what the
 * run's data met (3, 2), then a run whose figures are not a whole load (a
 * setup error, nothing measured, an MPI job cut short: 1; a signal that
 * stopped it: 6), then a scheduled action (4), which a stop before its
 * time also leaves "never run": the stop is the cause, so 6 says it.  5
 * is compare's alone and meets none of them in one command.
 * dixload(1)'s EXIT STATUS "When several apply" line is this table
 * (tests/unit/test-exitstatus.c reads the page and holds them equal).
 */
static const int exit_order[] = {
	DIX_EXIT_INTEGRITY, DIX_EXIT_IO, DIX_EXIT_USAGE, DIX_EXIT_STOPPED,
	DIX_EXIT_ACTION, DIX_EXIT_REGRESSION, DIX_EXIT_OK,
};

int exit_rank(int s)
{
	int k, n = (int)ARRAY_SIZE(exit_order);

	for (k = 0; k < n; k++)
		if (exit_order[k] == s)
			return n - 1 - k;
	return 0;	/* no status of dixload's: none wins over it */
}

int exit_of_rank(int rank)
{
	int n = (int)ARRAY_SIZE(exit_order);

	return rank >= 0 && rank < n ? exit_order[n - 1 - rank] : DIX_EXIT_OK;
}

int exit_worst(int a, int b)
{
	return exit_rank(a) >= exit_rank(b) ? a : b;
}

int run_exit_status(struct dix_run *r, const struct dix_totals *t,
		    int setup_failed)
{
	int s = counters_status(&t->c);

	if (setup_failed)
		s = exit_worst(s, DIX_EXIT_USAGE);
	if (run_stop_signal(r, NULL))
		s = exit_worst(s, DIX_EXIT_STOPPED);
	if (r->action_failed)
		s = exit_worst(s, DIX_EXIT_ACTION);
	return s;
}
