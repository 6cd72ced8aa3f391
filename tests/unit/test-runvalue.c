// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-runvalue.c - a run is a value: two runs in one process, one after
 * the other as dixload sweep's points are, each with its own options, see
 * nothing of each other.  Held here: the failure a run reports is its
 * own, never an earlier run's message nor another thread's.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/meterloop.h"
#include "core/run.h"
#include "lib/util.h"
#include "tap.h"

/*
 * Run A fails with a message; run B fails to set up without one of its
 * own (a rank whose workers could not all start).  The reason B gives the
 * other ranks must not be A's.
 */
static void test_errors(void)
{
	struct dix_run a, b;
	char why[600];
	const char *r;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	dix_err("run A: /nonexistent/a.img: cannot open: No such file or directory");
	r = run_failure(&b, 1, why, sizeof(why));
	ok(r != NULL, "run B's setup failed: it has a reason");
	ok(r && !strstr(r, "run A"),
	   "run B's reason is not run A's stale message (got '%s')", r ? r : "(null)");
	ok(run_failure(&b, 0, why, sizeof(why)) == NULL,
	   "run B without a failure gives no reason");
}

static void *other_thread(void *arg)
{
	(void)arg;
	dix_err("a worker of another run: its own message");
	return NULL;
}

/* A run's own message is its reason; another thread's never replaces it. */
static void test_own_error(void)
{
	struct dix_errbuf *prev;
	struct dix_run a;
	pthread_t th;
	char why[600];
	const char *r;

	memset(&a, 0, sizeof(a));
	prev = dix_errbuf_use(&a.err);
	dix_err("run A: cannot start the control thread: Resource temporarily unavailable");
	pthread_create(&th, NULL, other_thread, NULL);
	pthread_join(th, NULL);
	dix_errbuf_use(prev);
	r = run_failure(&a, 1, why, sizeof(why));
	ok(r && !strcmp(r, "run A: cannot start the control thread: Resource temporarily unavailable"),
	   "run A's reason is its own message (got '%s')", r ? r : "(null)");
	dix_err("after run A: nobody's");
	ok(!strstr(a.err.msg, "after"), "a message after run A is not run A's");
}

int main(void)
{
	test_errors();
	test_own_error();
	return tap_done();
}
