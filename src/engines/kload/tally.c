// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tally.c - a snapshot of the module's counters turned into what the job
 * accounts: the difference from the last snapshot, never an estimate.
 *
 * The module's counters are cumulative since START (dixkload_uapi.h), so
 * a tally that is late or missed loses nothing: the next one takes the
 * whole difference.  Its histogram is in dixload's own buckets
 * (dixkload_bucket_of() is lat_bucket_of(), the unit test checks every
 * bucket edge), so each bucket's difference goes into the same bucket of
 * the worker's histogram, and the worker's ops are their count.
 *
 * Errors: a result that differs from the module's software reference is
 * an Err of kind verify, named by its TFM (across the run) and its
 * request number on that TFM (first_bad_tfm/first_bad_req, the first the
 * module saw); a request the driver completed or refused with an error is
 * an Err of kind io naming the errno.  Each is counted exactly: the
 * difference of the module's counts.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/kload/kl.h"
#include "lib/stats.h"
#include "lib/util.h"

uint64_t kl_account(struct kl_load *ld, const struct dixkload_stats *cur,
		    struct dix_eng_tally *t)
{
	const struct dixkload_stats *old = &ld->last;
	struct lat_hist *h = t->lat[ld->dir];
	uint64_t mism = cur->mismatches - old->mismatches;
	uint64_t errs = cur->errors - old->errors;
	uint64_t lo, hi, req = cur->requests - old->requests;
	char name[32];
	int b;

	/* the largest first: its lower bound is the interval's maximum */
	for (b = DIXKLOAD_LAT_BUCKETS - 1; b >= 0; b--) {
		uint64_t n = cur->lat[b] - old->lat[b];

		if (!n)
			continue;
		if (lat_bucket_bounds(b, &lo, &hi))
			lo = 0;
		lat_add_bucket(h, b, n, lo);
	}
	if (mism) {
		t->errors[DIX_ERR_VERIFY] += mism;
		if (t->first_kind == DIX_ERR_NR) {
			t->first_kind = DIX_ERR_VERIFY;
			t->first_dir = ld->dir;
			t->first_req = cur->first_bad_req;
			snprintf(t->first_cause, sizeof(t->first_cause),
				 "result check failed");
			snprintf(t->first_detail, sizeof(t->first_detail),
				 "TFM %u, request %llu on it, on %.60s: the result differs from the software reference %.60s; %llu wrong result%s since the last count",
				 ld->tfm0 + cur->first_bad_tfm,
				 (unsigned long long)cur->first_bad_req,
				 cur->driver[0] ? cur->driver : "?",
				 cur->ref_driver[0] ? cur->ref_driver : "?",
				 (unsigned long long)mism, mism == 1 ? "" : "s");
		}
	}
	if (errs) {
		t->errors[DIX_ERR_IO] += errs;
		if (t->first_kind == DIX_ERR_NR) {
			t->first_kind = DIX_ERR_IO;
			t->first_dir = ld->dir;
			t->first_req = 0;
			snprintf(t->first_cause, sizeof(t->first_cause),
				 "the driver failed: %s",
				 dix_errno_name(cur->last_errno, name,
						sizeof(name)));
			snprintf(t->first_detail, sizeof(t->first_detail),
				 "%s on %.60s, TFMs %u-%u: %llu request%s completed with an error since the last count, the last %.20s (%.40s)",
				 ld->dir == DIX_READ ? "decrypt" : "encrypt",
				 cur->driver[0] ? cur->driver : "?", ld->tfm0,
				 ld->tfm0 + ld->ntfm - 1,
				 (unsigned long long)errs, errs == 1 ? "" : "s",
				 name, strerror(cur->last_errno));
		}
	}
	ld->check_ns += cur->check_ns - old->check_ns;
	ld->last = *cur;
	return req;
}

void kl_depth(const struct kl_load *ld, int n, uint64_t now_sum,
	      uint64_t *max, uint64_t *area, uint64_t *span)
{
	int i;

	*max = now_sum;
	*area = *span = 0;
	for (i = 0; i < n; i++) {
		const struct dixkload_stats *s = &ld[i].last;
		uint64_t sp = s->now_ns - ld[i].t0_ns;

		if (s->inflight_max > *max)
			*max = s->inflight_max;
		*area += s->inflight_ns;
		if (sp > *span)
			*span = sp;
	}
}
