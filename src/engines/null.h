/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * null.h - the null engine's settings: an engine that completes I/O in
 * memory, without touching the target, so the depth loop and the run can be
 * tested (tests/unit/test-job.c) and measured without a device.
 *
 * What it does with data: writes are kept in a sparse in-memory store, one
 * per target path, for the life of the process (a RAM disk the size of what
 * was written: chunks are allocated on first write), and reads return what
 * was written there, zeros where nothing was (a block dixload never wrote,
 * as on a fresh file).  So a load with --verify checks what it wrote, across
 * phases and runs of one process.  With --discard writes are dropped and
 * reads leave the buffer as it is (only the job's own cost is left).
 *
 * Its options (rows of engine_null, fields of struct dix_opts): --complete
 * fifo|reverse|shuffle|inline, the order of completions (shuffle: a random
 * part of what is in flight, in a random order drawn from --seed); faults
 * counted per job (each job has its own engine instance): --fail-every N
 * fails every Nth I/O it completes with --fail-errno (eio), moving no data;
 * --flip-every N returns every Nth read with one bit of its last byte
 * flipped (what was stored stays intact: a device that corrupts on the
 * way).
 *
 * What a test bed sets beyond them is struct null_conf, in the struct
 * null_bed it gives the run it drives: the protection
 * format --pi app finds on the "device", a device that refuses writes
 * whose tuples are wrong (-EILSEQ, the failed check named), and watching:
 * counting what the engine saw (struct null_stats) so a test can hold the
 * job to its promises: how it batched, how deep it went, that no two I/Os
 * it had in flight at once overlapped where one of them writes, and that
 * completions did overtake each other when the order says so, summed
 * in the same bed.  Every engine instance takes a copy at init().
 */
#ifndef DIX_NULL_H
#define DIX_NULL_H

#include <pthread.h>
#include <stdint.h>

#include "pi/pi.h"

/**
 * enum null_order - when and in which order queued I/Os complete (the
 * values of --complete).
 * @NULL_FIFO: at getevents(), all in flight, in the order submitted
 * @NULL_REVERSE: at getevents(), all in flight, the last submitted first
 * @NULL_SHUFFLE: at getevents(), a random number (at least the minimum
 *	asked for) of those in flight, picked at random: I/Os overtake each
 *	other within and across batches
 * @NULL_INLINE: inside queue() (DIX_Q_COMPLETED), as a synchronous engine
 */
enum null_order {
	NULL_FIFO,
	NULL_REVERSE,
	NULL_SHUFFLE,
	NULL_INLINE,
};

/**
 * struct null_conf - the test bed's part of the null engine.
 * @pif: the protection format --pi app finds on the "device" (@pif.interval
 *	0: none, and --pi app is refused at init())
 * @check_pi: with @pif, refuse a write whose tuples are wrong
 * @watch: count overlaps and reordered completions (struct null_stats);
 *	costs a look at every I/O in flight per I/O, so off by default
 * @slow_ms: the setup (init()) of job @slow_job takes this long, as a
 *	crypto engine's TFM opening or a pass-through probe can (0: none)
 * @slow_job: which job's
 */
struct null_conf {
	struct pi_format pif;
	int check_pi;
	int watch;
	unsigned int slow_ms;
	int slow_job;
};

/**
 * struct null_stats - what the engine instances saw, added up when each
 * is cleaned up (so read them after the workers have finished).
 * @ios: I/Os completed (failed ones and retries included)
 * @commits: commit() calls that submitted at least one I/O
 * @max_batch: the most I/Os one commit() submitted
 * @max_inflight: the most I/Os one instance held at once (queued or
 *	submitted, not yet completed)
 * @reordered: with @watch, completions of an I/O while one submitted
 *	before it was still in flight
 * @overlaps: with @watch, I/Os queued over bytes of an I/O still in flight
 *	when either of the two is a write (the job promises none)
 * @first_io: dix_now() of the first I/O any instance was given (0: none)
 */
struct null_stats {
	uint64_t ios;
	uint64_t commits;
	uint64_t max_batch;
	uint64_t max_inflight;
	uint64_t reordered;
	uint64_t overlaps;
	double first_io;
};

/**
 * struct null_bed - a test bed of the null engine: what it sets, what the
 * instances saw.  The test hands it to the run it drives (struct
 * dix_run.eng_bed, which every instance gets as ctx->bed), so two runs of
 * one process, each with its own bed or none, share neither settings nor
 * counts.  Without a bed (dixload itself) an instance takes a zero
 * struct null_conf and counts for nobody.
 * @conf: the settings; each instance takes a copy at init()
 * @lock: guards @stats
 * @stats: the sums of the instances of the runs given this bed
 */
struct null_bed {
	struct null_conf conf;
	pthread_mutex_t lock;
	struct null_stats stats;
};

#define NULL_BED_INIT	{ .lock = PTHREAD_MUTEX_INITIALIZER }

/** null_bed_stats() - @b's sums so far (see struct null_stats). */
struct null_stats null_bed_stats(struct null_bed *b);

/**
 * null_bed_reset() - zero @b's settings and sums.  Only while no instance
 * given @b is open.
 */
void null_bed_reset(struct null_bed *b);

/**
 * null_reset() - forget every target's stored data (the stores are the
 * "devices": one per path, for the life of the process, as a file
 * outlives the run that wrote it).  Only while no null engine instance is
 * open.
 */
void null_reset(void);

#endif
