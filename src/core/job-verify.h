/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-verify.h - the block checks of a worker's reads (--verify): every
 * block read is held against the header and pattern its write stamped
 * (verify/verify.h); a bad one becomes a bad extent, a never-written one is
 * counted (and bad with --verify strict); a --journal check pass also
 * judges the versions found.  Once the blocks are checked, open extents
 * next to them may close.
 *
 * A block without a header where the run itself wrote is a lost (or
 * misdirected) write, an error whatever --verify says: the run knows it
 * wrote the whole slice when its preconditioning completed (precond.h),
 * and a load that writes and reads over --runtime passes marks the I/Os it
 * wrote in a bitmap, one bit per --bs I/O of the slice (a pass without a
 * --runtime loop touches every I/O once, so it never reads what it wrote,
 * and keeps no map).  A --journal check pass has the journal (job-journal.h).
 *
 * Inline: the depth loop checks every read here, and the intact blocks of
 * a read go through in one verify_run() call.
 */
#ifndef DIX_JOB_VERIFY_H
#define DIX_JOB_VERIFY_H

#include <stdint.h>

#include "core/job-ctx.h"
#include "core/job-extents.h"
#include "core/job-journal.h"
#include "lib/util.h"
#include "verify/extent.h"
#include "verify/verify.h"

/**
 * verify_map_init() - the written map of a load that writes and then reads
 * what it wrote (above); none for the others.  Return: 0 or -ENOMEM.
 */
int verify_map_init(struct wctx *x);

/** verify_map_free() - free the written map. */
void verify_map_free(struct wctx *x);

/**
 * lost_write() - the block at byte @off has no header where the run wrote
 * it: a bad block of kind verify, cause CAUSE_LOST.
 */
void lost_write(struct wctx *x, uint64_t off);

/** written_mark() - the load's write @io completed: mark it written. */
static inline void written_mark(struct wctx *x, const struct dix_io *io)
{
	uint64_t u = (io->offset - x->w->start) / x->o->bs;

	x->wmap[u / 64] |= 1ull << (u % 64);
}

/* Whether the run wrote the block at byte @off (a worker's own slice). */
static inline int run_wrote(const struct wctx *x, uint64_t off)
{
	uint64_t u;

	if (x->w->dev->pres.complete)
		return 1;
	if (!x->wmap)
		return 0;
	u = (off - x->w->start) / x->o->bs;
	return !!(x->wmap[u / 64] & (1ull << (u % 64)));
}

/* The block before the one at @i of @io, else the one after, or NULL. */
static inline const unsigned char *near_block(const struct wctx *x,
					      const struct dix_io *io,
					      uint32_t i)
{
	const unsigned char *b = io->buf;

	if (i >= x->lbs)
		return b + i - x->lbs;
	return i + x->lbs < io->len ? b + i + x->lbs : NULL;
}

/*
 * verify_read_rest() - verify_read() once verify_run() found the first @i
 * bytes of @io intact: the --journal check of their versions, then the
 * other blocks one by one (an intact run in one call again).
 */
static __attribute__((noinline)) void verify_read_rest(struct wctx *x,
							struct dix_io *io,
							uint32_t i)
{
	const unsigned char *b = io->buf;
	struct verify_fail f;
	struct bad_extent bad;
	uint32_t n = i, j;

	for (i = 0;;) {
		enum verify_kind k;

		/* --journal check pass: the intact run's versions too */
		if (x->r->journal && !x->r->journal_write)
			for (j = 0; j < n; j += x->lbs)
				journal_refuses(x, b + i + j, io->offset + i + j, 1);
		i += n;
		if (i >= io->len)
			break;
		k = verify_block_near(b + i, x->lbs, io->offset + i,
				      near_block(x, io, i), &f);
		if (x->r->journal && !x->r->journal_write &&
		    (k == VF_OK || k == VF_UNWRITTEN) &&
		    journal_refuses(x, b + i, io->offset + i, k == VF_OK))
			goto next;
		if (k == VF_OK)
			goto next;
		if (k == VF_UNWRITTEN && run_wrote(x, io->offset + i)) {
			lost_write(x, io->offset + i);
			goto next;
		}
		if (k == VF_UNWRITTEN) {
			cadd(&x->w->c.unwritten, 1);
			if (x->o->verify != VERIFY_STRICT)
				goto next;
		}
		verify_extent(&f, x->lbs, &bad);
		record_bad(x, &bad);
next:
		i += x->lbs;
		if (i >= io->len)
			break;
		/* intact blocks in one call; only the others one by one */
		n = verify_run(b + i, io->len - i, x->lbs, io->offset + i);
	}
}

/**
 * verify_read() - check every block of the completed read @io.
 *
 * Inline, the usual read (all of it intact, no --journal check): one call
 * of verify_run(); the frame of the loop for the others is not built.
 */
static inline void verify_read(struct wctx *x, struct dix_io *io)
{
	uint32_t n = verify_run(io->buf, io->len, x->lbs, io->offset);

	if (likely(n >= io->len) && !(x->r->journal && !x->r->journal_write))
		return;
	verify_read_rest(x, io, n);
}

/**
 * checked() - the blocks of @io were checked: open extents next to them may
 * close.  The time only ages open extents, and a clean run has none: a
 * clock read (about 72 instructions in the 6.1 guest) per read for nothing.
 */
static inline void checked(struct wctx *x, const struct dix_io *io)
{
	struct extent_tracker *t = &x->w->ext;

	tracker_checked(t, io->offset / x->lbs, io->len / x->lbs,
			t->nopen ? dix_now() : 0);
}

#endif
