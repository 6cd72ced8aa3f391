// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-counts.c - a worker's I/Os and bytes, as the meter reads them while
 * it runs: the counts of its latency histograms, and ops x io_size bytes
 * plus what its I/Os of another length added (job.h: odd_bytes, oseq).
 *
 * Why not two counters: the worker stored bytes and ops apart, and the
 * meter read the bytes, then the histograms (whose count is the ops: one
 * snapshot for ops and latency), so an interval's bytes could be an I/O
 * or more behind its ops, and a test allowed for it.  Counted this way a
 * 4 KiB I/O of a 4 KiB job stores one bucket and nothing else; the pair
 * is exact by construction, and the rare I/O of another length (the last
 * write of a preconditioned slice) is counted inside a sequence the
 * reader checks.
 */
#include "config.h"

#include <sched.h>

#include "core/job-counts.h"
#include "core/job.h"

void worker_count_odd(struct dix_worker *w, int dir, uint32_t len,
		      uint64_t ns)
{
	uint32_t s = w->oseq;

	__atomic_store_n(&w->oseq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	lat_add(&w->lat[dir], ns);
	__atomic_store_n(&w->odd_bytes[dir],
			 w->odd_bytes[dir] + len - w->io_size, __ATOMIC_RELAXED);
	__atomic_store_n(&w->oseq, s + 2, __ATOMIC_RELEASE);
}

void worker_publish_counts(struct dix_worker *w)
{
	uint64_t ops[DIX_DIR_NR], bytes[DIX_DIR_NR];
	int d;

	worker_io_counts(w, NULL, ops, bytes);
	for (d = 0; d < DIX_DIR_NR; d++) {
		__atomic_store_n(&w->c.ops[d], ops[d], __ATOMIC_RELAXED);
		__atomic_store_n(&w->c.bytes[d], bytes[d], __ATOMIC_RELAXED);
	}
}

uint32_t worker_odd_begin(const struct dix_worker *w)
{
	uint32_t s;

	/* the worker is inside a few stores, unless it was preempted there */
	while ((s = __atomic_load_n(&w->oseq, __ATOMIC_ACQUIRE)) & 1)
		sched_yield();
	return s;
}

int worker_odd_end(const struct dix_worker *w, uint32_t seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&w->oseq, __ATOMIC_RELAXED) == seq;
}

void worker_io_counts(const struct dix_worker *w, const struct lat_hist *hist,
		      uint64_t *ops, uint64_t *bytes)
{
	uint64_t unit = __atomic_load_n(&w->io_size, __ATOMIC_RELAXED);
	int d;

	for (d = 0; d < DIX_DIR_NR; d++) {
		ops[d] = lat_count(hist ? &hist[d] : &w->lat[d]);
		bytes[d] = ops[d] * unit +
			   __atomic_load_n(&w->odd_bytes[d], __ATOMIC_RELAXED);
	}
}
