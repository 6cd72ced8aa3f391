// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-setup.c - a worker's setup and tear-down: the engine instance with
 * what it sees of the worker (depth, sizes, limits, the options), the
 * notes a setup reports once per run, --pi app's format check, the I/O
 * slots with their aligned buffers, the in-flight tracking and the offset
 * generator.  Once per worker and phase: nothing here runs per I/O.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job-extents.h"
#include "core/job-setup.h"
#include "core/job-verify.h"
#include "lib/tclock.h"
#include "lib/util.h"
#include "verify/verify.h"

/*
 * The largest pass-through transfer @t takes: max_hw_sectors_kb, and no
 * more pages than max_segments (the pages of a 4 KiB-aligned user buffer
 * need not be contiguous; one segment each at worst).  0: not known.
 */
static uint64_t pass_through_limit(const struct dix_devdesc *t)
{
	uint64_t hw = (uint64_t)t->max_hw_sectors_kb * 1024;
	uint64_t segs = (uint64_t)t->max_segments * 4096;

	if (!hw || (segs && segs < hw))
		return segs;
	return hw;
}

int worker_setup(struct wctx *x)
{
	struct dix_worker *w = x->w;
	const struct dix_opts *o = x->o;
	unsigned int depth, i;
	size_t align;
	int r;

	/* the first job calibrates the latency clock, the others wait for it */
	tclock_init();
	x->lbs = x->w->dev->t.lbs;
	tracker_init(&w->ext, w->start / x->lbs, w->end / x->lbs,
		     DIX_EXTENTS_MAX, job_extent_closed, x);
	x->pre = w->precond;
	x->bs = x->pre ? x->w->dev->pre.io_size : o->bs;
	x->pre_next = w->start;
	depth = (x->eng->flags & DIX_ENG_SYNC) ? 1 :
		x->pre ? x->w->dev->pre.iodepth : o->iodepth;
	x->batch = o->iodepth_batch < depth ? o->iodepth_batch : depth;
	x->ectx.fd = x->w->dev->t.fd;
	x->ectx.depth = depth;
	x->ectx.lbs = x->lbs;
	x->ectx.path = x->w->dev->t.path;
	x->ectx.pi_mode = o->pi;
	x->ectx.max_xfer = pass_through_limit(&x->w->dev->t);
	x->ectx.io_size = x->bs;
	x->ectx.o = o;
	x->ectx.job = w->id;
	x->ectx.jobs = x->w->dev->nworkers;
	x->ectx.desc = &x->w->dev->t;
	x->ectx.said = &w->run->eng_said;
	x->ectx.bed = w->run->eng_bed;
	/* the run's meter of what is in flight: the load's, not
	 * preconditioning's; started when the gate opens (run.c) */
	x->ectx.inflight = x->pre ? NULL : &x->r->inflight;
	if (x->eng->init) {
		r = x->eng->init(&x->ectx);
		if (r) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: setup failed: %s", x->eng->name,
				 x->ectx.errmsg[0] ? x->ectx.errmsg :
				 strerror(-r));
			return r;
		}
	}
	/* how the engine drives the target, once per run (engine.h) */
	if (x->ectx.note[0] && w->id == 0 && !x->pre) {
		char *line = x->ectx.note, *nl;

		/* one event per line (engine.h) */
		for (; line && *line; line = nl ? nl + 1 : NULL) {
			struct dix_event ev = { .kind = EV_NOTE, .ok = -1,
						.duration = -1 };

			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			ev.t = 0;	/* setup is over before the clock starts */
			ev.what = line;
			run_event(x->r, &ev);
		}
	}
	/* a crypto engine holds --iodepth per TFM (engine.h) */
	depth = x->ectx.depth;
	x->batch = o->iodepth_batch < depth ? o->iodepth_batch : depth;
	/* preconditioning's large writes within what the engine can carry */
	if (x->pre && x->ectx.max_io && x->bs > x->ectx.max_io &&
	    x->ectx.max_io >= x->lbs)
		x->bs = x->ectx.max_io - x->ectx.max_io % x->lbs;
	/* the meter reads it with the counts (job-counts.c) */
	__atomic_store_n(&w->io_size, x->bs, __ATOMIC_RELAXED);
	x->pi_app = o->pi == PI_APP;
	if (x->pi_app) {
		x->pif = x->ectx.pif;
		x->pif.interleaved = false;	/* engines interleave on the wire */
		if (pi_format_check(&x->pif) || o->bs % x->pif.interval ||
		    x->bs % x->pif.interval) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: --pi app needs a PI-formatted target with a protection interval dividing --bs (%s)",
				 x->eng->name, x->w->dev->t.path);
			return -EINVAL;
		}
		x->nint = x->bs / x->pif.interval;
		/* the load's own setup reports it, at its time */
		if (w->id == 0 && !x->pre) {
			struct dix_event ev = { .kind = EV_NOTE, .ok = -1,
						.duration = -1 };
			char desc[128], what[256];

			pi_format_describe(&x->pif, desc, sizeof(desc));
			snprintf(what, sizeof(what),
				 "pi app: engine %s, %s: %s", x->eng->name,
				 x->w->dev->t.name, desc);
			ev.t = 0;	/* before the clock starts */
			ev.what = what;
			run_event(x->r, &ev);
		}
		if (!x->pre &&
		    inject_parse(o, &x->inj, w->errmsg, sizeof(w->errmsg)))
			return -EINVAL;
	}
	/* a crypto engine's --inject tag@N (dixload.c lets only that by) */
	if (x->w->dev->t.injects &&
	    inject_parse(o, &x->inj, w->errmsg, sizeof(w->errmsg)))
		return -EINVAL;
	x->ios = xcalloc(depth, sizeof(*x->ios));
	x->free = xcalloc(depth, sizeof(*x->free));
	align = x->lbs > 4096 ? x->lbs : 4096;
	for (i = 0; i < depth; i++) {
		if (posix_memalign(&x->ios[i].buf, align, x->bs)) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "out of memory for %u buffers of %llu bytes",
				 depth, (unsigned long long)x->bs);
			return -ENOMEM;
		}
		memset(x->ios[i].buf, 0, x->bs);
		x->ios[i].idx = i;
		x->ios[i].injected = DIX_ERR_NR;
		if (x->pi_app) {
			x->ios[i].meta_len = pi_meta_len(&x->pif, x->nint);
			x->ios[i].meta = xcalloc(1, x->ios[i].meta_len);
		}
		x->free[x->nfree++] = &x->ios[depth - 1 - i];
	}
	/*
	 * Track ranges when a read could see a write in flight (verified
	 * data) or two writes to one block could be in flight (order
	 * undefined).  Preconditioning writes each block once: no overlap.
	 */
	x->track = !x->pre && rw_writes(o->rw) && !x->w->dev->t.self_checked &&
		   (o->verify != VERIFY_OFF || depth > 1);
	if (x->track && inflight_init(&x->fl, depth))
		return -ENOMEM;
	if (verify_map_init(x)) {
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "out of memory for the map of the blocks written");
		return -ENOMEM;
	}
	gen_init(&x->g, (w->end - w->start) / o->bs, rw_is_random(o->rw),
		 o->runtime > 0, o->seed * 0x2545f4914f6cdd1dull + w->id + 1);
	return 0;
}

void worker_teardown(struct wctx *x)
{
	unsigned int i;

	/* what is still open is complete now: print it, keep it for the end */
	tracker_close_all(&x->w->ext);

	if (x->eng->cleanup && x->ectx.priv)
		x->eng->cleanup(&x->ectx);
	/* the engine's checks, for the summary (engine.h); the load's only */
	if (!x->pre) {
		x->w->check_every = x->ectx.check_every;
		x->w->check_ns = x->ectx.check_ns;
		x->w->check_kernel = !!(x->eng->flags & DIX_ENG_KERNEL);
	}
	if (x->ios)
		for (i = 0; i < x->ectx.depth; i++) {
			free(x->ios[i].buf);
			free(x->ios[i].meta);
		}
	free(x->ios);
	free(x->free);
	if (x->track)
		inflight_free(&x->fl);
	verify_map_free(x);
}
