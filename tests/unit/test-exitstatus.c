// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-exitstatus.c - the precedence of the exit statuses is the one
 * dixload(1) documents: the "When several apply" line of its EXIT STATUS
 * section is read from man/dixload.1 (the expected order comes from the
 * page, not from the code under test), it must name every status once,
 * and exit_worst() must pick by it for every pair; exit_rank() and
 * exit_of_rank() (the MPI reduction's) must agree with it too.  Then a
 * real SIGINT against runs whose clocks the test sets: it stops a load
 * before its --runtime's end (6, with its time), not one whose runtime or
 * region was over, and 3 still wins over it.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exitstatus.h"
#include "core/runstop.h"
#include "lib/util.h"
#include "tap.h"

/* Every status dixload has (lib/util.h enum dix_exit). */
#define NSTATUS	7

/*
 * The order on the page's line "When several apply: 3 > 2 > ... > 0." into
 * @order (the first wins).  Return: how many statuses the line names, or
 * -1 without such a line.
 */
static int doc_order(const char *path, int *order, int max)
{
	static const char key[] = "When several apply:";
	char line[512];
	FILE *f = fopen(path, "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, key), *end;

		if (!p)
			continue;
		p += sizeof(key) - 1;
		n = 0;
		for (;;) {
			long v = strtol(p, &end, 10);

			if (end == p || n == max)
				break;
			order[n++] = (int)v;
			p = end + strspn(end, " ");
			if (*p != '>')
				break;
			p++;
		}
		break;
	}
	fclose(f);
	return n;
}

/*
 * One SIGINT, raised now; runs whose load started @ago seconds before it.
 * The signal's time is the process's (runstop.c keeps the first), so each
 * case is a run of its own around the same instant.
 */
static void signal_cases(void)
{
	struct dix_opts o;
	struct dix_run r;
	struct dix_totals t;
	double at = -1, sig_t;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	r.o = &o;
	r.wake_fd = -1;
	r.started = 1;
	o.runtime = 10;
	is_int(run_stop_signal(&r, NULL), 0, "no signal: not stopped");
	run_signals_on(&r);
	raise(SIGINT);
	sig_t = dix_now();
	run_signals_off();
	ok(r.stop, "the SIGINT asked the run to stop");

	r.t0 = sig_t - 2.5;	/* 2.5 s into --runtime 10 */
	is_int(run_stop_signal(&r, &at), SIGINT, "2.5 s into --runtime 10: stopped by SIGINT");
	ok(at > 2.4 && at <= 2.5, "at 2.5 s (%.3f)", at);
	is_int(run_exit_status(&r, &t, 0), DIX_EXIT_STOPPED, "exit 6");
	r.action_failed = 1;
	is_int(run_exit_status(&r, &t, 0), DIX_EXIT_STOPPED,
	       "6 over a failed action (4)");
	t.c.errors[DIX_ERR_IO] = 1;
	is_int(run_exit_status(&r, &t, 0), DIX_EXIT_IO, "I/O errors (2) over 6");
	t.c.errors[DIX_ERR_GUARD] = 1;
	is_int(run_exit_status(&r, &t, 0), DIX_EXIT_INTEGRITY,
	       "integrity errors (3) over 6");
	is_int(run_exit_status(&r, &t, 1), DIX_EXIT_INTEGRITY,
	       "3 over a setup failure");
	memset(&t, 0, sizeof(t));
	is_int(run_exit_status(&r, &t, 1), DIX_EXIT_USAGE,
	       "a setup failure (1) over 6");

	r.action_failed = 0;
	r.t0 = sig_t - 10.2;	/* draining after --runtime 10 */
	is_int(run_stop_signal(&r, NULL), 0, "after --runtime's end: not stopped");
	is_int(run_exit_status(&r, &t, 0), DIX_EXIT_OK, "exit 0");
	o.runtime = 0;		/* the region once, over before the signal */
	r.t0 = sig_t - 3;
	r.t_end = sig_t - 0.5;
	is_int(run_stop_signal(&r, NULL), 0, "after the region was covered: not stopped");
	r.t_end = 0;
	is_int(run_stop_signal(&r, NULL), SIGINT, "while covering it: stopped");
	r.started = 0;		/* preconditioning's clock */
	r.t0 = sig_t - 0.6;
	is_int(run_stop_signal(&r, &at), SIGINT, "while preconditioning: stopped");
	ok(at > 0.5 && at <= 0.6, "at 0.6 s of it (%.3f)", at);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	int order[NSTATUS + 2], seen[NSTATUS] = { 0 }, n, i, j, bad = 0;
	char path[1024];

	snprintf(path, sizeof(path), "%s/man/dixload.1", top ? top : ".");
	n = doc_order(path, order, NSTATUS + 2);
	if (!ok(n == NSTATUS, "%s: the line orders %d statuses (want all %d)",
		path, n, NSTATUS))
		return tap_done();
	for (i = 0; i < n; i++)
		if (order[i] >= 0 && order[i] < NSTATUS)
			seen[order[i]]++;
	for (i = 0; i < NSTATUS; i++)
		if (!ok(seen[i] == 1, "status %d named once on the page (%d)",
			i, seen[i]))
			bad++;
	if (bad)
		return tap_done();
	is_int(order[n - 1], DIX_EXIT_OK, "0 ranks last");
	is_int(order[0], DIX_EXIT_INTEGRITY, "3 ranks first");

	/* i before j on the page: i wins, whichever is given first */
	bad = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int a = order[i], b = order[j];
			int want = i <= j ? a : b;

			if (exit_worst(a, b) != want) {
				printf("# exit_worst(%d, %d) = %d, the page says %d\n",
				       a, b, exit_worst(a, b), want);
				bad++;
			}
		}
	ok(!bad, "exit_worst() of each of the %d pairs is the page's order (%d wrong)",
	   n * n, bad);
	bad = 0;
	for (i = 0; i < n; i++) {
		if (exit_rank(order[i]) != n - 1 - i ||
		    exit_of_rank(exit_rank(order[i])) != order[i])
			bad++;
	}
	ok(!bad, "exit_rank(): the page's order from the last up, exit_of_rank() its inverse (%d wrong)",
	   bad);
	is_int(exit_worst(DIX_EXIT_OK, 99), DIX_EXIT_OK,
	       "a number that is no status wins over nothing");
	is_int(exit_worst(DIX_EXIT_STOPPED, DIX_EXIT_ACTION), DIX_EXIT_STOPPED,
	       "stopped by a signal wins over a failed action");
	is_int(exit_worst(DIX_EXIT_STOPPED, DIX_EXIT_IO), DIX_EXIT_IO,
	       "I/O errors win over a stop");
	signal_cases();
	return tap_done();
}
