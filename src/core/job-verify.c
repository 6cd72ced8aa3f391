// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-verify.c - what a worker's checks need out of line: the written map
 * of a load that reads what it wrote (job-verify.h says why), and the bad
 * block of a lost write.  Once per worker, or per lost block.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/job-extents.h"
#include "core/job-verify.h"

/*
 * The largest written map: 256 MiB of bits, one per I/O (a 1 TiB slice of
 * 512-byte I/Os; 8 TiB of 4 KiB ones).  calloc()'s pages stay untouched
 * until an I/O of theirs is written, so a short run costs what it wrote.
 * A larger slice keeps no map: a lost write there is found by --journal
 * or --verify strict only.
 */
#define WMAP_MAX_BYTES	(256ull << 20)

int verify_map_init(struct wctx *x)
{
	const struct dix_opts *o = x->o;
	uint64_t units, words;

	x->wmap = NULL;
	if (x->pre || o->verify == VERIFY_OFF || !rw_reads(o->rw) ||
	    !rw_writes(o->rw) || o->runtime <= 0 ||
	    x->w->dev->t.self_checked || x->w->dev->pres.complete)
		return 0;
	units = (x->w->end - x->w->start) / o->bs;
	words = (units + 63) / 64;
	if (!words || words * 8 > WMAP_MAX_BYTES)
		return 0;
	x->wmap = calloc(words, 8);
	return x->wmap ? 0 : -ENOMEM;
}

void verify_map_free(struct wctx *x)
{
	free(x->wmap);
	x->wmap = NULL;
}

void lost_write(struct wctx *x, uint64_t off)
{
	struct bad_extent bad;

	memset(&bad, 0, sizeof(bad));
	bad.kind = DIX_ERR_VERIFY;
	bad.lba = off / x->lbs;
	bad.count = 1;
	bad.byte = -1;
	bad.cause = cause_intern(CAUSE_LOST);
	bad.detail = xstrdup(x->w->dev->pres.complete ?
			     "the region was preconditioned by this run" :
			     "this run wrote the block earlier in the load");
	record_bad(x, &bad);
}
