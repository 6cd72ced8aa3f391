// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * totals.c - what the summary counts: the workers' counters, latency
 * histograms (log-linear, merged bucket by bucket) and bad extents,
 * per device and in total.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/job.h"
#include "core/totals.h"
#include "lib/util.h"

/* @c += @w's counters, its ops and bytes those of @ops and @bytes. */
static void add_worker(struct dix_counters *c, const struct dix_worker *w,
		       const uint64_t *ops, const uint64_t *bytes)
{
	struct dix_counters t;
	int d;

	memset(&t, 0, sizeof(t));
	counters_add(&t, &w->c);
	/* while it runs w->c has none: they are its histograms' */
	for (d = 0; d < DIX_DIR_NR; d++) {
		t.ops[d] = ops[d];
		t.bytes[d] = bytes[d];
	}
	counters_add(c, &t);
}

void run_sum_counters(struct dix_worker *w, int n, struct dix_counters *c)
{
	uint64_t ops[DIX_DIR_NR], bytes[DIX_DIR_NR];
	uint32_t seq;
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		do {
			seq = worker_odd_begin(&w[i]);
			worker_io_counts(&w[i], NULL, ops, bytes);
		} while (!worker_odd_end(&w[i], seq));
		add_worker(c, &w[i], ops, bytes);
	}
}

/*
 * The ops and bytes of an interval are the counts of the histograms it
 * took (job-counts.c): one snapshot for the interval's ops, bytes and
 * latency count, where reading them apart gave bytes an I/O or more off
 * ops x bs.
 */
void run_sample_counters(struct dix_worker *w, int n, struct dix_counters *c,
			 struct lat_hist *iv)
{
	uint64_t ops[DIX_DIR_NR], bytes[DIX_DIR_NR];
	uint32_t seq;
	int i, d;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		do {
			seq = worker_odd_begin(&w[i]);
			for (d = 0; d < DIX_DIR_NR; d++)
				lat_take(&iv[d], &w[i].lat_seen[d], &w[i].lat[d]);
			worker_io_counts(&w[i], w[i].lat_seen, ops, bytes);
		} while (!worker_odd_end(&w[i], seq));
		add_worker(c, &w[i], ops, bytes);
	}
}

/*
 * Sum the workers up.  Their extents move into one list and are merged, so
 * an extent that crosses the boundary of two workers' slices is one.
 */
void run_gather_dev(struct dix_run *r, struct dix_dev *d,
		    struct dix_totals *t)
{
	size_t n = 0, i;
	int w, k;

	memset(t, 0, sizeof(*t));
	run_sum_counters(d->workers, d->nworkers, &t->c);
	for (w = 0; w < d->nworkers; w++)
		n += d->workers[w].ext.n;
	t->ext = xcalloc(n ? n : 1, sizeof(*t->ext));
	for (w = 0; w < d->nworkers; w++) {
		struct dix_worker *wk = &d->workers[w];

		for (k = 0; k < DIX_DIR_NR; k++) {
			lat_merge(&t->lat[k], &wk->lat[k]);
			/* the meter took the maximum of its intervals */
			if (wk->lat_seen[k].max_ns > t->lat[k].max_ns)
				t->lat[k].max_ns = wk->lat_seen[k].max_ns;
		}
		/* a worker without errors has no array: memcpy() from NULL is
		 * undefined even for 0 bytes (UBSan, sanitized file-meter.sh) */
		if (wk->ext.n)
			memcpy(t->ext + t->next, wk->ext.v,
			       wk->ext.n * sizeof(*t->ext));
		t->next += wk->ext.n;
		t->ext_dropped += wk->ext.dropped;
		t->ext_dropped_blocks += wk->ext.dropped_blocks;
		t->check_cpu_s += wk->check_ns / 1e9;
		if (wk->check_every > t->check_every)
			t->check_every = wk->check_every;
		t->check_kernel |= wk->check_kernel;
		free(wk->ext.v);	/* the details moved to t->ext */
		memset(&wk->ext, 0, sizeof(wk->ext));
	}
	t->next = extents_merge(t->ext, t->next);
	for (i = 0; i < t->next; i++)
		t->ext_blocks += t->ext[i].count;
	t->unwritten = t->c.unwritten;
	t->elapsed = r->t_end - r->t0;
}

/*
 * Every device's totals into @dt (r->ndevs of them) and their sum into
 * @t.  The sum's bad extents stay with the devices (an LBA means nothing
 * without its device); it counts them.  One device: @t is a copy of
 * @dt[0] whose extents are its own (@dt[0] then holds none).
 */
void run_gather(struct dix_run *r, struct dix_totals *dt,
		struct dix_totals *t)
{
	int i, d;

	for (i = 0; i < r->ndevs; i++)
		run_gather_dev(r, &r->devs[i], &dt[i]);
	if (r->ndevs == 1) {
		*t = dt[0];
		dt[0].ext = NULL;
		dt[0].next = 0;
		return;
	}
	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->ndevs; i++) {
		counters_add(&t->c, &dt[i].c);
		for (d = 0; d < DIX_DIR_NR; d++)
			lat_merge(&t->lat[d], &dt[i].lat[d]);
		t->ext_blocks += dt[i].ext_blocks;
		t->ext_dropped += dt[i].ext_dropped;
		t->ext_dropped_blocks += dt[i].ext_dropped_blocks;
		t->unwritten += dt[i].unwritten;
		t->check_cpu_s += dt[i].check_cpu_s;
		if (dt[i].check_every > t->check_every)
			t->check_every = dt[i].check_every;
		t->check_kernel |= dt[i].check_kernel;
	}
	t->elapsed = r->t_end - r->t0;
}

void run_totals_free(struct dix_totals *t)
{
	size_t i;

	for (i = 0; i < t->next; i++)
		extent_free(&t->ext[i]);
	free(t->ext);
	t->ext = NULL;
	t->next = 0;
}

void run_totals_free_all(struct dix_run *r, struct dix_totals *dt,
			 struct dix_totals *t)
{
	int k;

	for (k = 0; k < r->ndevs; k++)
		run_totals_free(&dt[k]);
	run_totals_free(t);
	free(dt);
}
