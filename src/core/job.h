/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job.h - worker threads: each owns a slice of the region, an engine
 * instance, its buffers and counters, and runs the depth loop.
 */
#ifndef DIX_JOB_H
#define DIX_JOB_H

#include <pthread.h>
#include <stdint.h>

#include "verify/extent.h"
#include "lib/stats.h"

/*
 * Bad extents a worker keeps for the summary: 2^20 of 48 bytes.  Beyond
 * that they are counted (and still in --error-log), so a disk that is bad
 * everywhere cannot exhaust memory.
 */
#define DIX_EXTENTS_MAX	(1u << 20)

struct dix_run;
struct dix_dev;

/**
 * struct dix_worker - one worker thread.
 * @id: 0 .. jobs-1 (within its device)
 * @run: the run it belongs to
 * @dev: the device whose region it works on
 * @start: first byte of its slice
 * @end: end of its slice (exclusive)
 * @c: counters (written by the worker only; read by the meter); its
 *	ops and bytes only when the worker is done: while it runs they are
 *	its histograms' counts (worker_io_counts())
 * @lat: completion latency per direction (written by the worker; the
 *	meter exchanges its max_ns: lat_take())
 * @lat_seen: the meter's copy of @lat at its last interval (the meter
 *	thread's only; its max_ns is the largest the meter took)
 * @ext: the bad extents found (written by the worker only; read by
 *	run.c after the worker has been joined)
 * @precond: run the preconditioning pass (sequential writes of the
 *	plan's size over the slice) instead of the load
 * @io_size: bytes per I/O the worker used (preconditioning: the plan's
 *	size, or less where the engine cannot carry it)
 * @odd_bytes: per direction, the bytes of its I/Os beyond @io_size each
 *	(modulo 2^64: a shorter one subtracts), so bytes are ops x @io_size
 *	+ @odd_bytes; only the last write of a preconditioned slice has
 *	another length
 * @oseq: odd while the worker counts an I/O of another length (its
 *	bucket and @odd_bytes), so a reader sees both or neither
 * @started: its thread runs (run.c joins it)
 * @ready: its setup is over (run.c's gate, under dix_run.gate_lock)
 * @seq: the last write sequence number it stamped; the load goes on from
 *	the preconditioning's, so a block's versions only ascend (--journal
 *	relies on it)
 * @done: the worker has finished (1) — read by the meter loop
 * @err: setup failure (negative errno), 0 otherwise
 * @errmsg: setup failure text
 */
struct dix_worker {
	int id;
	struct dix_run *run;
	struct dix_dev *dev;
	pthread_t th;
	uint64_t start, end;
	struct dix_counters c;
	struct lat_hist lat[DIX_DIR_NR];
	struct lat_hist lat_seen[DIX_DIR_NR];
	struct extent_tracker ext;
	int precond;
	uint64_t io_size;
	uint64_t odd_bytes[DIX_DIR_NR];
	uint32_t oseq;
	int started;
	int ready;
	uint32_t seq;
	int done;
	int err;
	char errmsg[1024];
	uint64_t check_every;		/* the engine's (dix_eng_ctx) */
	uint64_t check_ns;
	int check_kernel;		/* they ran in the kernel (DIX_ENG_KERNEL) */
};

/** worker_main() - thread body: the depth loop of one worker. */
void *worker_main(void *arg);

/**
 * worker_io_counts() - the I/Os and bytes per direction that @w has
 * completed, into @ops and @bytes (DIX_DIR_NR each), while it runs: the
 * counts of its latency histograms (@hist: the meter's copy of them,
 * lat_take(); NULL: @w's own) and the bytes of those I/Os, one consistent
 * pair.  Call it between worker_odd_begin() and worker_odd_end(), again
 * while the latter says so.
 */
void worker_io_counts(const struct dix_worker *w, const struct lat_hist *hist,
		      uint64_t *ops, uint64_t *bytes);

/**
 * worker_odd_begin() - the start of a read of @w's counts: waits while @w
 * counts an I/O of another length than its io_size.
 * Return: the sequence to hand to worker_odd_end().
 */
uint32_t worker_odd_begin(const struct dix_worker *w);

/**
 * worker_odd_end() - whether the read begun at @seq saw @w's counts in
 * one state.  Return: 1, or 0 when an I/O of another length was counted
 * meanwhile: read again (a histogram take then takes what came since,
 * which belongs to the interval being taken).
 */
int worker_odd_end(const struct dix_worker *w, uint32_t seq);

#endif
