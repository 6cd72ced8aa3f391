// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * threadq.c - one thread per queue slot (see threadq.h).
 *
 * Two rings under one mutex: submitted I/Os waiting for a thread, and
 * completed ones waiting to be reaped.  At most @cap I/Os exist, so neither
 * ring can overflow.  The lock is taken once per batch on the caller's
 * side and twice per I/O on a thread's side; next to a passthrough ioctl
 * that costs nothing measurable.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "engines/threadq.h"
#include "lib/util.h"

static void *threadq_main(void *p)
{
	struct threadq *q = p;
	struct dix_io *io;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->sub_n && !q->stop)
			pthread_cond_wait(&q->more, &q->lock);
		if (q->stop)
			break;
		io = q->sub[q->sub_head];
		q->sub_head = (q->sub_head + 1) % q->cap;
		q->sub_n--;
		pthread_mutex_unlock(&q->lock);

		q->run(q->arg, io);

		pthread_mutex_lock(&q->lock);
		q->done[(q->done_head + q->done_n) % q->cap] = io;
		q->done_n++;
		pthread_cond_signal(&q->fin);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int threadq_init(struct threadq *q, unsigned int nthreads, threadq_fn run,
		 void *arg)
{
	unsigned int i;
	int r;

	q->cap = nthreads ? nthreads : 1;
	q->sub = xcalloc(q->cap, sizeof(*q->sub));
	q->done = xcalloc(q->cap, sizeof(*q->done));
	q->pend = xcalloc(q->cap, sizeof(*q->pend));
	q->ready = xcalloc(q->cap, sizeof(*q->ready));
	q->sub_head = q->sub_n = q->done_head = q->done_n = q->npend = 0;
	q->stop = 0;
	q->run = run;
	q->arg = arg;
	q->th = xcalloc(q->cap, sizeof(*q->th));
	q->nth = 0;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->fin, NULL);
	for (i = 0; i < q->cap; i++) {
		r = pthread_create(&q->th[i], NULL, threadq_main, q);
		if (r) {
			threadq_destroy(q);
			return -r;
		}
		q->nth++;
	}
	return 0;
}

void threadq_queue(struct threadq *q, struct dix_io *io)
{
	q->pend[q->npend++] = io;
}

void threadq_commit(struct threadq *q)
{
	unsigned int i;

	if (!q->npend)
		return;
	pthread_mutex_lock(&q->lock);
	for (i = 0; i < q->npend; i++)
		q->sub[(q->sub_head + q->sub_n + i) % q->cap] = q->pend[i];
	q->sub_n += q->npend;
	if (q->npend == 1)
		pthread_cond_signal(&q->more);
	else
		pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
	q->npend = 0;
}

int threadq_getevents(struct threadq *q, unsigned int min)
{
	int n = 0;

	pthread_mutex_lock(&q->lock);
	while (q->done_n < min)
		pthread_cond_wait(&q->fin, &q->lock);
	while (q->done_n) {
		q->ready[n++] = q->done[q->done_head];
		q->done_head = (q->done_head + 1) % q->cap;
		q->done_n--;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

struct dix_io *threadq_event(struct threadq *q, int i)
{
	return q->ready[i];
}

void threadq_destroy(struct threadq *q)
{
	unsigned int i;

	pthread_mutex_lock(&q->lock);
	q->stop = 1;
	pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
	for (i = 0; i < q->nth; i++)
		pthread_join(q->th[i], NULL);
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->fin);
	pthread_mutex_destroy(&q->lock);
	free(q->th);
	free(q->sub);
	free(q->done);
	free(q->pend);
	free(q->ready);
	q->th = NULL;
	q->sub = q->done = q->pend = q->ready = NULL;
	q->nth = 0;
}
