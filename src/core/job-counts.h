/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-counts.h - the worker's side of its I/O and byte counts
 * (job-counts.c says why they are the histograms' counts); the readers'
 * side is in job.h.
 */
#ifndef DIX_JOB_COUNTS_H
#define DIX_JOB_COUNTS_H

#include <stdint.h>

struct dix_worker;

/**
 * worker_count_odd() - count an I/O of @len bytes, not @w's io_size, in
 * direction @dir that took @ns: its latency and its bytes, in one step
 * for the readers (the depth loop counts an I/O of io_size bytes with
 * lat_add() alone).
 */
void worker_count_odd(struct dix_worker *w, int dir, uint32_t len,
		      uint64_t ns);

/**
 * worker_publish_counts() - store @w's ops and bytes in w->c, once its
 * depth loop is over (what the summary and the tests read).
 */
void worker_publish_counts(struct dix_worker *w);

#endif
