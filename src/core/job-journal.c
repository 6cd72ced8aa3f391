// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-journal.c - a worker's side of --journal: the flush of the intents
 * before a batch goes out, and the check pass's judgement of the versions
 * its reads find.  Once per batch or per block of a check pass, so plain
 * calls; the per-write acknowledgement is inline in job-journal.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/job-extents.h"
#include "core/job-journal.h"
#include "lib/util.h"

int journal_refuses(struct wctx *x, const unsigned char *blk, uint64_t off,
		    int present)
{
	struct bad_extent bad;
	uint64_t seed = 0;
	uint32_t seq = 0;
	char why[200];

	if (present)
		verify_header_id(blk, &seed, &seq);
	if (!journal_check(x->r->journal, off, present, seed, seq, why,
			   sizeof(why)))
		return 0;
	memset(&bad, 0, sizeof(bad));
	bad.kind = DIX_ERR_VERIFY;
	bad.lba = off / x->lbs;
	bad.count = 1;
	bad.byte = -1;
	bad.cause = cause_intern("a version the journal does not allow");
	bad.detail = xstrdup(why);
	record_bad(x, &bad);
	return 1;
}

int journal_failed(struct wctx *x)
{
	int r = journal_flush(x->r->journal);

	if (!r)
		return 0;
	snprintf(x->w->errmsg, sizeof(x->w->errmsg), "--journal %s: %s",
		 x->o->journal, strerror(-r));
	x->w->err = r;
	run_request_stop(x->r);
	return r;
}
