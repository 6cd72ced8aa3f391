// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringq.c - the submit and reap half of the io_uring engines (see
 * uringq.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engines/uringq.h"
#include "lib/util.h"

int uringq_init(struct uringq *q, unsigned int depth,
		struct io_uring_params *p)
{
	struct io_uring_params plain;
	int r;

	if (!p) {
		memset(&plain, 0, sizeof(plain));
		p = &plain;
	}
	r = io_uring_queue_init_params(depth, &q->ring, p);
	if (r)
		return r;
	q->depth = depth;
	q->ready = xcalloc(depth, sizeof(*q->ready));
	return 0;
}

int uringq_submit(struct uringq *q)
{
	int r;

	/* EAGAIN: the kernel was short of memory for the batch, try again */
	do {
		r = io_uring_submit(&q->ring);
	} while (r == -EINTR || r == -EAGAIN);
	return r < 0 ? r : 0;
}

int uringq_getevents(struct uringq *q, unsigned int min)
{
	struct io_uring_cqe *cqe;
	unsigned int head;
	int r, n = 0;

	if (min) {
		do {
			r = io_uring_wait_cqe(&q->ring, &cqe);
		} while (r == -EINTR);
		if (r)
			return r;
	}
	io_uring_for_each_cqe(&q->ring, head, cqe) {
		struct dix_io *io = io_uring_cqe_get_data(cqe);

		io->res = cqe->res;
		q->ready[n++] = io;
		if (n == (int)q->depth)
			break;
	}
	io_uring_cq_advance(&q->ring, n);
	return n;
}

void uringq_exit(struct uringq *q)
{
	io_uring_queue_exit(&q->ring);
	free(q->ready);
	q->ready = NULL;
}
