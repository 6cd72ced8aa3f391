// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-loop.c - the depth loop of one worker.
 *
 * Keep @iodepth I/Os in flight: pick the next (direction, offset), make
 * sure it does not touch a block with a write in flight, prepare the data
 * (headers and pattern for writes), queue it, commit the batch, reap
 * completions, account and verify them.  An I/O that fails with an I/O
 * error is retried once; if the retry succeeds it counts as recovered
 * (Rec), otherwise as an error (Err).  Integrity failures are never
 * retried: they are counted by kind at once.
 *
 * This is the hot path: what it does for every I/O is here or inline from
 * the job's headers (job-offsets.h, job-rate.h, job-verify.h, job-pi.h,
 * job-journal.h); the other files of the job (job-setup.c, job-extents.c,
 * job-pi.c, job-journal.c) run at setup, per batch or on a failure.
 * What the job's features add per I/O sits behind one word decided when
 * the job starts (SLOW_*, job-ctx.h), and the failure paths are out of
 * line: a 4 KiB read with none of them cost 90-110 instructions less in
 * the 6.1 guest under icount (scripts/bench-vm, libaio QD1 6462 -> 6356).
 *
 * The run knows a worker by job.h alone (struct dix_worker, worker_main());
 * the loop, which calls back into the run (run.h), is a file of its own, so
 * the two are no circle of modules (doc/layout.md).
 *
 * The same loop runs the preconditioning pass (precond.h): sequential
 * writes of the plan's size over the worker's slice, the last one shorter
 * when the slice ends first, with the headers and PI a load write carries.
 * Its counters are the worker's own; run.c takes them out of the load's.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/job-counts.h"
#include "core/job-ctx.h"
#include "core/job-extents.h"
#include "core/job-journal.h"
#include "core/job-kernel.h"
#include "core/job-offsets.h"
#include "core/job-pi.h"
#include "core/job-rate.h"
#include "core/job-setup.h"
#include "core/job-verify.h"
#include "core/job.h"
#include "core/run.h"
#include "engines/engine.h"
#include "lib/inflight.h"
#include "lib/tclock.h"
#include "lib/util.h"
#include "verify/journal.h"
#include "verify/verify.h"

/*
 * Latency, bytes and ops of an I/O that transferred all its bytes: one
 * bucket of its histogram, whose count the ops and bytes are made of
 * (job-counts.c), unless its length is not the job's.
 */
JOB_HOT void account_done(struct wctx *x, const struct dix_io *io)
{
	struct dix_worker *w = x->w;
	uint64_t ns = tclock_ns(io->start, tclock_now());

	if (likely(io->len == x->bs))
		lat_add(&w->lat[io->dir], ns);
	else
		worker_count_odd(w, io->dir, io->len, ns);
	/*
	 * --journal: the write is acknowledged (its seq is in its header);
	 * the written map: a later read of it must find its header
	 */
	if (unlikely(x->slow & (SLOW_JOURNAL | SLOW_WMAP)) &&
	    io->dir == DIX_WRITE) {
		if (x->slow & SLOW_JOURNAL)
			journal_acked(x, io);
		if (x->slow & SLOW_WMAP)
			written_mark(x, io);
	}
}

/*
 * An I/O that carried an injected fault, or did not transfer all its
 * bytes: out of line, so the hot path's frame stays small.  Returns 1
 * when it must be queued again.  A write carrying an injected fault is
 * never retried: its rejection is the answer.
 */
static __attribute__((noinline, cold)) int complete_other(struct wctx *x,
							   struct dix_io *io)
{
	struct bad_extent bad;
	char msg[1100];
	int kind;

	if (io->injected != DIX_ERR_NR) {
		if (io->res == (int32_t)io->len)
			account_done(x, io);
		injected_write_done(x, io);
		return 0;
	}
	/* EILSEQ is how the block layer reports a failed integrity check */
	if (io->errkind < DIX_ERR_NR && io->res < 0)
		kind = io->errkind;
	else if (io->res == -EILSEQ)
		kind = DIX_ERR_UNKNOWN;
	else
		kind = DIX_ERR_IO;
	failure_extent(x, io, kind, &bad);
	/*
	 * One retry for I/O errors (a success then counts as recovered);
	 * integrity failures are what the run is looking for, never retried.
	 * What the device said about the failure (the sense of a pass-through
	 * command) is shown even when the retry succeeds: it is all the user
	 * learns of that Rec; a bare errno would add nothing to the count.
	 */
	if (kind == DIX_ERR_IO && !io->retried &&
	    !__atomic_load_n(&x->r->stop, __ATOMIC_RELAXED)) {
		if (io->detail[0]) {
			extent_describe(&bad, x->lbs, msg, sizeof(msg) - 12);
			strcat(msg, "; retrying");
			print_note(x, msg);
		}
		extent_free(&bad);
		io->retried = 1;
		return 1;
	}
	record_bad(x, &bad);
	checked(x, io);
	return 0;
}

/*
 * Account a finished I/O.  Returns 1 when it must be queued again.
 * A read's checks run only in a job that checks reads (SLOW_CHECK).
 */
JOB_HOT int complete(struct wctx *x, struct dix_io *io)
{
	if (unlikely(io->res != (int32_t)io->len ||
		     io->injected != DIX_ERR_NR))
		return complete_other(x, io);
	if (unlikely(io->retried || io->recovered))
		cadd(&x->w->c.recovered, 1);
	account_done(x, io);
	if (unlikely(x->slow & SLOW_CHECK) && io->dir == DIX_READ) {
		if (x->pi_app)
			pi_check_read(x, io);
		/* a crypto engine checked the result itself (engine.h) */
		if (x->o->verify != VERIFY_OFF && !x->w->dev->t.self_checked)
			verify_read(x, io);
		checked(x, io);
	}
	return 0;
}

JOB_HOT void release(struct wctx *x, struct dix_io *io)
{
	if (unlikely(x->slow & SLOW_TRACK))
		inflight_del(&x->fl, io->idx);
	x->free[x->nfree++] = io;
	x->inflight_n--;
	/* the --error-log lines of this I/O reach the file now */
	if (unlikely(x->logged))
		errlog_flush(x);
}

/*
 * Queue @io (counted in *@queued until commit).  Engines that complete
 * inside queue(), and queue() failures, are accounted here; the slot is
 * released unless the I/O is left in flight.
 */
JOB_HOT void submit(struct wctx *x, struct dix_io *io, int *queued)
{
	int r;

	for (;;) {
		io->start = tclock_now();
		io->errkind = DIX_ERR_NR;
		io->recovered = 0;
		io->detail[0] = '\0';
		io->status[0] = '\0';
		cadd(&x->w->c.submitted, 1);
		/*
		 * --journal: the intent must be stable before the write can
		 * reach the device; an engine without commit() does the I/O
		 * inside queue(), so its batch is this one write
		 */
		if (unlikely(x->slow & SLOW_JOURNAL) && !x->eng->commit &&
		    io->dir == DIX_WRITE && journal_failed(x))
			r = -EIO;
		else
			r = x->eng->queue(&x->ectx, io);
		if (likely(r == DIX_Q_QUEUED)) {
			(*queued)++;
			return;
		}
		if (r < 0)
			io->res = r;
		if (!complete(x, io))
			break;
	}
	release(x, io);
}

/* The engine refused the batch: stop the run.  Returns @r. */
static __attribute__((noinline, cold)) int commit_failed(struct wctx *x,
							  int r)
{
	snprintf(x->w->errmsg, sizeof(x->w->errmsg),
		 "engine %s: submit failed: %s", x->eng->name,
		 dix_io_strerror(-r));
	x->w->err = r;
	run_request_stop(x->r);
	return r;
}

/* Submit what the engine holds; on failure stop the run (returns -errno). */
JOB_HOT int commit_batch(struct wctx *x)
{
	int r;

	/* --journal: one fdatasync for the intents of the whole batch */
	if (unlikely(x->slow & SLOW_JOURNAL) && journal_failed(x))
		return -EIO;
	r = x->eng->commit(&x->ectx);
	if (likely(r >= 0))
		return 0;
	return commit_failed(x, r);
}

/*
 * The per-I/O work of the job's features, decided once: a job that uses
 * none of them tests one word per step instead of each feature.
 */
static unsigned int job_slow(const struct wctx *x)
{
	return (x->track ? SLOW_TRACK : 0) | (x->capped ? SLOW_CAP : 0) |
	       (x->pi_app || x->inj.n ? SLOW_PREP : 0) |
	       (x->r->journal_write ? SLOW_JOURNAL : 0) |
	       (x->pi_app || x->o->verify != VERIFY_OFF ? SLOW_CHECK : 0) |
	       (x->wmap ? SLOW_WMAP : 0);
}

void *worker_main(void *arg)
{
	struct dix_worker *w = arg;
	struct wctx x = { .w = w, .r = w->run, .o = w->run->o,
			  .eng = w->run->eng };
	uint64_t pend_off = 0;
	uint32_t pend_len = 0;
	int have_pend = 0, pend_dir = 0, exhausted = 0, i, n;

	w->err = worker_setup(&x);
	run_worker_ready(x.r, w, !w->err);
	if (w->err)
		goto out;
	/*
	 * the caps are the run's: each of the jobs holds its share, counted
	 * from the load's start (the gate), not from the setup's
	 */
	rate_limit_init(&x.rl, x.o->rate, x.o->rate_iops, x.r->nworkers,
			dix_now_ns());
	x.capped = !x.pre && (rate_limit_active(&x.rl, DIX_READ) ||
			      rate_limit_active(&x.rl, DIX_WRITE));
	x.slow = job_slow(&x);
	/* the load runs in the kernel: the worker accounts what it did */
	if (x.eng->flags & DIX_ENG_KERNEL) {
		worker_kernel_loop(&x);
		goto out;
	}

	for (;;) {
		int stopping = __atomic_load_n(&x.r->stop, __ATOMIC_RELAXED);
		int queued = 0;
		unsigned int burst = 0;

		/* at most depth per round, so sync engines see the stop flag */
		while (!stopping && !exhausted && x.nfree &&
		       burst++ < x.ectx.depth) {
			struct dix_io *io;

			if (!have_pend) {
				if (offsets_next(&x.g, x.pre, &x.pre_next,
						 w->start, w->end, x.bs,
						 &pend_off, &pend_len)) {
					exhausted = 1;
					break;
				}
				pend_dir = offsets_dir(&x.g, x.pre, x.o->rw,
						       x.o->rwmixread);
				have_pend = 1;
			}
			if (unlikely(x.slow & (SLOW_TRACK | SLOW_CAP))) {
				if (x.track &&
				    inflight_conflicts(&x.fl, pend_off, pend_len,
						       pend_dir == DIX_WRITE))
					break;	/* wait for the overlapping write */
				if (x.capped && rate_wait(&x.rl, x.inflight_n,
							  pend_dir, pend_len))
					break;
			}
			io = x.free[--x.nfree];
			x.inflight_n++;
			have_pend = 0;
			io->offset = pend_off;
			io->len = pend_len;
			io->dir = pend_dir;
			io->retried = 0;
			io->injected = DIX_ERR_NR;
			if (io->dir == DIX_WRITE) {
				verify_fill(io->buf, io->len, x.lbs,
					    io->offset, x.o->seed, ++w->seq);
				if (x.r->journal_write)
					journal_intent(x.r->journal, io->offset,
						       io->len, w->seq);
			}
			if (unlikely(x.slow & (SLOW_PREP | SLOW_TRACK))) {
				if (x.pi_app)
					pi_prepare(&x, io);
				else if (x.inj.n && io->dir == DIX_READ)
					tag_prepare(&x, io);
				if (x.track)
					inflight_add(&x.fl, io->idx, io->offset,
						     io->len,
						     io->dir == DIX_WRITE);
			}
			submit(&x, io, &queued);
			/*
			 * Submit every --iodepth-batch I/Os: one system call
			 * for a whole depth is cheapest on targets that
			 * complete inside the submit (tmpfs), but an
			 * asynchronous device (loop, NVMe) starts on the first
			 * I/O only when it is submitted.
			 */
			if ((unsigned int)queued >= x.batch) {
				if (commit_batch(&x))
					break;
				queued = 0;
			}
		}
		/* on failure, the engine's cleanup waits for what is in flight */
		if (w->err || (queued && commit_batch(&x)))
			break;
		if (!x.inflight_n) {
			if (stopping || exhausted)
				break;
			continue;
		}
		if (x.eng->flags & DIX_ENG_SYNC)
			continue;
		n = x.eng->getevents(&x.ectx, 1);
		if (n < 0) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: reaping completions failed: %s",
				 x.eng->name, dix_io_strerror(-n));
			w->err = n;
			run_request_stop(x.r);
			break;
		}
		queued = 0;
		for (i = 0; i < n; i++) {
			struct dix_io *io = x.eng->event(&x.ectx, i);

			if (complete(&x, io))
				submit(&x, io, &queued);	/* the retry */
			else
				release(&x, io);
		}
		if (queued && commit_batch(&x))
			break;
	}
out:
	worker_teardown(&x);
	worker_publish_counts(w);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	run_worker_done(x.r);
	return NULL;
}
