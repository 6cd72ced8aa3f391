/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-ctx.h - the state of one worker's depth loop, shared by the files
 * of the job: job-loop.c (the loop), job-setup.c (the engine instance and the
 * buffers), job-extents.c (bad extents and the error log), job-verify.h
 * (the block checks of reads), job-journal.c (--journal), job-pi.c (--pi
 * app tuples and --inject).  Private to them: the run sees struct
 * dix_worker (job.h) only.
 */
#ifndef DIX_JOB_CTX_H
#define DIX_JOB_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "core/inject.h"
#include "core/job-offsets.h"
#include "core/job.h"
#include "core/run.h"
#include "engines/engine.h"
#include "lib/inflight.h"
#include "lib/ratelimit.h"
#include "pi/pi.h"

#ifndef likely
#define likely(c)	__builtin_expect(!!(c), 1)
#define unlikely(c)	__builtin_expect(!!(c), 0)
#endif
/* the depth loop's steps, inlined whatever the compiler's size estimate */
#define JOB_HOT		static inline __attribute__((always_inline))

/*
 * The per-I/O work of a job's features (struct wctx.slow), decided when the
 * job starts: the depth loop tests the one word where it tested each.
 */
enum {
	SLOW_TRACK = 1,		/* in-flight ranges (reads wait for writes) */
	SLOW_CAP = 2,		/* --rate, --rate-iops */
	SLOW_PREP = 4,		/* --pi app tuples, --inject tags */
	SLOW_JOURNAL = 8,	/* --journal intents and acknowledgements */
	SLOW_CHECK = 16,	/* reads are checked: --verify, --pi app */
	SLOW_WMAP = 32,		/* the written map (job-verify.h) */
};

struct wctx {
	struct dix_worker *w;
	struct dix_run *r;
	const struct dix_opts *o;
	const struct dix_engine *eng;
	struct dix_eng_ctx ectx;
	struct dix_io *ios;
	struct dix_io **free;
	unsigned int nfree;
	unsigned int inflight_n;
	struct inflight fl;
	int track;		/* in-flight range tracking needed */
	struct gen g;
	uint32_t lbs;
	int notes;		/* retry notes printed */
	int logged;		/* --error-log lines not yet flushed */
	int pi_app;		/* --pi app: dixload generates and checks PI */
	struct pi_format pif;	/* the job's view: separate metadata */
	size_t nint;		/* protection intervals per I/O */
	struct inject inj;
	unsigned int batch;	/* I/Os per submit system call */
	uint64_t bs;		/* bytes per I/O (the last precondition
				 * write of a slice may be shorter) */
	struct rate_limit rl;	/* --rate, --rate-iops (this worker's share) */
	int capped;		/* a cap applies to the load */
	unsigned int slow;	/* SLOW_* the job's features need */
	int pre;		/* the preconditioning pass */
	uint64_t pre_next;	/* its next offset */
	uint64_t *wmap;		/* the I/Os of the slice this load wrote
				 * (job-verify.h), or NULL */
};

static inline void cadd(uint64_t *p, uint64_t v)
{
	/* sole writer: a relaxed store is enough for the meter's loads */
	__atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

/* With several devices every message names its device first. */
static inline const char *dev_prefix(const struct wctx *x)
{
	return x->r->ndevs > 1 ? x->w->dev->path : "";
}

#endif
