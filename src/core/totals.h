/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * totals.h - the workers' counters, latencies and bad extents summed per
 * device and over the run, for the summary.
 */
#ifndef DIX_TOTALS_H
#define DIX_TOTALS_H

#include "core/runstate.h"
#include "report/record.h"

struct dix_worker;

/** run_sum_counters() - @c = the sum of @n workers' counters from @w. */
void run_sum_counters(struct dix_worker *w, int n, struct dix_counters *c);

/**
 * run_sample_counters() - one interval's view of @n workers from @w (the
 * meter thread's only): @c their counters as run_sum_counters(), and
 * @iv (DIX_DIR_NR histograms, added to) the latencies completed since
 * the previous call (lat_take()).  @c's ops are the histograms' counts
 * taken so far: the worker counts an I/O in both (account_done()), and
 * one snapshot makes the interval's ops and its latency count agree
 * exactly, where two reads would differ by the I/Os between them.
 */
void run_sample_counters(struct dix_worker *w, int n, struct dix_counters *c,
			 struct lat_hist *iv);

/**
 * run_gather_dev() - @d's workers summed into @t; their extents move
 * into @t->ext and are merged (one that crosses two slices is one).
 */
void run_gather_dev(struct dix_run *r, struct dix_dev *d,
		    struct dix_totals *t);

/**
 * run_gather() - every device's totals into @dt (r->ndevs of them) and
 * their sum into @t.  The sum's bad extents stay with the devices; it
 * counts them.  One device: @t is @dt[0], whose extents are @t's.
 */
void run_gather(struct dix_run *r, struct dix_totals *dt,
		struct dix_totals *t);

/** run_totals_free() - release @t's extents. */
void run_totals_free(struct dix_totals *t);

/** run_totals_free_all() - release @dt (r->ndevs, malloc'ed) and @t. */
void run_totals_free_all(struct dix_run *r, struct dix_totals *dt,
			 struct dix_totals *t);

#endif
