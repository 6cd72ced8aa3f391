/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threadq.h - one thread per queue slot, for engines whose transport only
 * has a blocking call (SG_IO, NVMe passthrough ioctls).
 *
 * The engine's queue() hands an I/O to threadq_queue(), commit() releases
 * the batch to the threads with threadq_commit(), and getevents()/event()
 * map onto threadq_getevents()/threadq_event().  Each thread runs the
 * engine's blocking @run callback on one I/O at a time, so @nthreads I/Os
 * really are in the device at once.
 */
#ifndef DIX_THREADQ_H
#define DIX_THREADQ_H

#include <pthread.h>

#include "engines/engine.h"

/**
 * typedef threadq_fn - perform @io synchronously and set io->res (and
 * io->errkind / io->recovered / io->detail) before returning; runs in a
 * pool thread.
 * @arg: the engine's argument given to threadq_init()
 * @io: the I/O
 */
typedef void (*threadq_fn)(void *arg, struct dix_io *io);

/**
 * struct threadq - the pool.  Opaque to engines: use the functions.
 * @lock: protects @sub, @done and @stop
 * @more: signalled when @sub gains work or @stop is set
 * @fin: signalled when @done gains a completion
 * @sub: submitted, not yet picked up (ring of @cap)
 * @done: completed, not yet reaped (ring of @cap)
 * @pend: queued since the last commit (owned by the caller's thread)
 * @ready: the last threadq_getevents() result (owned by the caller)
 */
struct threadq {
	pthread_mutex_t lock;
	pthread_cond_t more;
	pthread_cond_t fin;
	struct dix_io **sub, **done, **pend, **ready;
	unsigned int cap;
	unsigned int sub_head, sub_n;
	unsigned int done_head, done_n;
	unsigned int npend;
	int stop;
	threadq_fn run;
	void *arg;
	pthread_t *th;
	unsigned int nth;
};

/**
 * threadq_init() - start @nthreads threads running @run.
 * @q: the pool
 * @nthreads: threads, and the most I/Os that may be outstanding
 * @run: the blocking transport call
 * @arg: passed to @run
 *
 * Return: 0, or -errno when a thread cannot be started (the ones already
 * started are stopped again).
 */
int threadq_init(struct threadq *q, unsigned int nthreads, threadq_fn run,
		 void *arg);

/** threadq_queue() - hold @io until the next threadq_commit(). */
void threadq_queue(struct threadq *q, struct dix_io *io);

/** threadq_commit() - hand everything queued to the threads. */
void threadq_commit(struct threadq *q);

/**
 * threadq_getevents() - wait until at least @min I/Os are complete.
 * @q: the pool
 * @min: completions to wait for (0: only collect what is there)
 *
 * Return: the number of completions collected (see threadq_event()).
 */
int threadq_getevents(struct threadq *q, unsigned int min);

/** threadq_event() - the @i-th completion of the last threadq_getevents(). */
struct dix_io *threadq_event(struct threadq *q, int i);

/**
 * threadq_destroy() - stop and join the threads.  I/Os still being
 * performed finish first; submitted ones not yet started are dropped.
 */
void threadq_destroy(struct threadq *q);

#endif
