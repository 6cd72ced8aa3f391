// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-kernel.c - the worker of a load that runs in the kernel (the dixkload
 * module, --engine kload): no I/O slots, no queue; the worker asks the
 * engine, a few times per meter interval, what the kernel completed, and
 * accounts it exactly as the depth loop accounts an I/O, so the meter,
 * transitions, JSON, metrics and the verdict see the same counters.
 *
 * Why here and not an engine whose getevents() completes "I/Os" standing
 * for the kernel's requests: the counts would be the kernel's, but every
 * latency would be one the job made up (the time between two polls), and
 * each request would cost a dix_io round trip in user space, the cost the
 * in-kernel load exists to avoid.  The tally (engine.h) carries the
 * kernel's own histogram, in the same buckets as lat_add()'s
 * (kmod/dixkload_uapi.h: dixkload_bucket_of()), added straight into the
 * worker's histograms; the worker's ops are those histograms' counts
 * (job-counts.c), so ops, bytes and latency stay one set.
 *
 * Polling a tenth of the meter's interval bounds what a meter line can
 * miss to that tenth: a line shows what the kernel had completed at the
 * last poll before it (at most 10-100 ms old), never a request twice.
 * The engine starts its load in init() (its start note names the driver
 * the kernel gave it), so the requests of the few milliseconds between
 * that and the start gate count in the first interval: nothing the kernel
 * did is left out of the totals, whose errors must be exact.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/job-ctx.h"
#include "core/job-extents.h"
#include "core/job-kernel.h"
#include "core/runevent.h"
#include "core/runstop.h"
#include "lib/util.h"

uint64_t kernel_poll_ns(uint64_t interval_ms)
{
	uint64_t ns = interval_ms * 100000ull;	/* a tenth, in ns */

	if (!interval_ms || ns > 100000000ull)
		return 100000000ull;
	return ns < 10000000ull ? 10000000ull : ns;
}

/* What the kernel completed of the worker's slice (failed ones are in it). */
static uint64_t kernel_done(const struct wctx *x)
{
	const struct dix_worker *w = x->w;

	return lat_count(&w->lat[DIX_READ]) + lat_count(&w->lat[DIX_WRITE]);
}

/*
 * The tally's failures: every one counted by its kind; the one the engine
 * named becomes a bad extent (the error line, --error-log, the summary's
 * extents), the rest of its kind are counted with it.
 */
static void kernel_errors(struct wctx *x, struct dix_eng_tally *t)
{
	struct dix_worker *w = x->w;
	struct bad_extent b;
	const char *verb;
	char cause[200];
	int k;

	for (k = 0; k < DIX_ERR_NR; k++) {
		uint64_t n = t->errors[k];

		if (!n)
			continue;
		if (k == t->first_kind) {
			verb = devdesc_verb(&w->dev->t, t->first_dir != DIX_READ);
			snprintf(cause, sizeof(cause), "%s: %s", verb,
				 t->first_cause);
			bad_init(x, &b, k, t->first_req * x->lbs, 1, cause);
			if (t->first_detail[0])
				b.detail = strdup(t->first_detail);
			record_bad(x, &b);
			n--;
		}
		cadd(&w->c.errors[k], n);
	}
	if (x->o->max_errors && counters_errors(&w->c) >= x->o->max_errors)
		run_request_stop(x->r);
}

/* One tally: 0 go on, 1 the load ended, < 0 the engine failed. */
static int kernel_tally(struct wctx *x, int final)
{
	struct dix_eng_tally t;
	int r;

	memset(&t, 0, sizeof(t));
	t.lat[DIX_READ] = &x->w->lat[DIX_READ];
	t.lat[DIX_WRITE] = &x->w->lat[DIX_WRITE];
	t.first_kind = DIX_ERR_NR;
	r = x->eng->tally(&x->ectx, &t, final);
	kernel_errors(x, &t);
	if (t.note[0]) {
		struct dix_event ev = { .kind = EV_NOTE, .ok = -1,
					.duration = -1 };

		ev.t = run_elapsed(x->r);
		ev.what = t.note;
		run_event(x->r, &ev);
	}
	return r;
}

void worker_kernel_loop(struct wctx *x)
{
	struct dix_worker *w = x->w;
	uint64_t period = kernel_poll_ns(x->o->interval_ms);
	/* a run without --runtime ends when its slice's requests are done */
	uint64_t limit = x->o->runtime > 0 ? 0 : (w->end - w->start) / x->bs;
	struct timespec ts = { .tv_sec = period / 1000000000ull,
			       .tv_nsec = period % 1000000000ull };
	int r = 0;

	while (!__atomic_load_n(&x->r->stop, __ATOMIC_RELAXED)) {
		nanosleep(&ts, NULL);
		r = kernel_tally(x, 0);
		if (r || (limit && kernel_done(x) >= limit))
			break;
	}
	/* the last requests, after the kernel stopped the load */
	if (r >= 0) {
		int f = kernel_tally(x, 1);

		r = r ? r : f;
	}
	if (r) {
		snprintf(w->errmsg, sizeof(w->errmsg), "engine %s: %s",
			 x->eng->name, x->ectx.errmsg[0] ? x->ectx.errmsg :
			 strerror(r < 0 ? -r : EIO));
		w->err = r < 0 ? r : -EIO;
		run_request_stop(x->r);
	}
}
