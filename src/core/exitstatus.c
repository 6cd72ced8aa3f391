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
 * Stopped by SIGINT/SIGTERM, the user asked for the end: no error.
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

/* The precedence of the exit statuses: 3 > 2 > 1 > 4 > 0. */
static int status_rank(int s)
{
	switch (s) {
	case DIX_EXIT_INTEGRITY:
		return 4;
	case DIX_EXIT_IO:
		return 3;
	case DIX_EXIT_USAGE:
		return 2;
	case DIX_EXIT_ACTION:
		return 1;
	}
	return 0;
}

int exit_worst(int a, int b)
{
	return status_rank(a) >= status_rank(b) ? a : b;
}

int run_exit_status(struct dix_run *r, const struct dix_totals *t,
		    int setup_failed)
{
	int s = counters_status(&t->c);

	if (s)
		return s;
	if (setup_failed)
		return DIX_EXIT_USAGE;
	if (r->action_failed)
		return DIX_EXIT_ACTION;
	return DIX_EXIT_OK;
}
