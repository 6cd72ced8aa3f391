// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor.c - the least work that keeps N 4 KiB I/Os in flight on a device:
 * what the interface itself costs, for scripts/bench-vm to hold dixload's
 * instructions per I/O against.  Not part of dixload: no verification, no
 * meter, no accounting beyond one counter per job, random offsets from a
 * xorshift.
 *
 * Batching as well as each interface allows, because a floor that batches
 * worse than dixload measures nothing (a one-at-a-time io_uring loop cost
 * more per I/O than dixload in the issue's first table):
 *   sync      one pread/pwrite per I/O (depth 1 by nature);
 *   libaio    every completion found is resubmitted in one io_submit();
 *             completions are read from the AIO ring in user space (the
 *             ring is the kernel's ABI, struct aio_ring; fio's
 *             --userspace_reap), io_getevents() only when it is empty;
 *   io_uring  registered file and buffers, a ring only this thread submits
 *             to with its completion work run when it waits
 *             (SINGLE_ISSUER | DEFER_TASKRUN, else a plain ring), and one
 *             io_uring_submit_and_wait() per round: submit what the last
 *             round's completions freed and wait for the next.
 * -R (libaio: io_getevents() only) and -P (io_uring: plain file, buffers
 * and ring) are the naive loops, to show what each refinement is worth.
 *
 * usage: floor [-e sync|libaio|io_uring] [-q DEPTH] [-w] [-t SECONDS]
 *              [-s SIZE] [-o OFFSET] [-j JOBS] [-W WARMUP] [-R] [-P] DEV
 * Prints "IOPS CPU%": the rate from WARMUP seconds (default 0.25) to the
 * end, summed over the jobs, and the process's CPU over that window.
 * Job j works on the j-th of JOBS equal slices of [OFFSET, OFFSET+SIZE).
 * Exit 0, 1 usage or setup, 2 an I/O failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#define BS 4096

enum { E_SYNC, E_AIO, E_URING };

static struct {
	int engine, write, jobs, naive;
	unsigned int depth;
	double secs, warm;
	uint64_t off, size;
	const char *dev;
} cfg = { .engine = E_AIO, .depth = 32, .jobs = 1, .secs = 1, .warm = 0.25 };

static volatile int stop;

struct job {
	pthread_t t;
	int fd, err;
	uint64_t base, nblk, rnd;
	uint64_t ops;		/* completed I/Os, read by main() */
	char *bufs;
};

static uint64_t next_off(struct job *j)
{
	j->rnd ^= j->rnd << 13;
	j->rnd ^= j->rnd >> 7;
	j->rnd ^= j->rnd << 17;
	return j->base + (j->rnd % j->nblk) * BS;
}

static void add_ops(struct job *j, unsigned int n)
{
	__atomic_store_n(&j->ops, j->ops + n, __ATOMIC_RELAXED);
}

static void fail(struct job *j, const char *what, long r)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(r < 0 ? (int)-r : EIO));
	j->err = 2;
	stop = 1;
}

static void run_sync(struct job *j)
{
	while (!stop) {
		ssize_t r = cfg.write ? pwrite(j->fd, j->bufs, BS, (off_t)next_off(j)) :
					pread(j->fd, j->bufs, BS, (off_t)next_off(j));

		if (r != BS) {
			fail(j, cfg.write ? "pwrite" : "pread", r < 0 ? -errno : -EIO);
			return;
		}
		add_ops(j, 1);
	}
}

/* the kernel's AIO ring header (fs/aio.c struct aio_ring), events follow */
struct aio_ring {
	unsigned int id, nr, head, tail, magic, compat, incompat, hdr_len;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1

static int aio_reap(io_context_t ctx, struct io_event *ev, unsigned int max)
{
	struct aio_ring *ring = (struct aio_ring *)ctx;
	unsigned int head, tail, n = 0;

	if (cfg.naive || ring->magic != AIO_RING_MAGIC)
		return io_getevents(ctx, 1, max, ev, NULL);
	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && n < max) {
		ev[n++] = ring->events[head];
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	if (!n)
		return io_getevents(ctx, 1, max, ev, NULL);
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static void run_aio(struct job *j)
{
	struct iocb *cbs = calloc(cfg.depth, sizeof(*cbs));
	struct iocb **list = calloc(cfg.depth, sizeof(*list));
	struct io_event *ev = calloc(cfg.depth, sizeof(*ev));
	io_context_t ctx = 0;
	unsigned int i;
	long r = 0;

	if (!cbs || !list || !ev || (r = io_setup((int)cfg.depth, &ctx))) {
		fail(j, "io_setup", cbs && list && ev ? r : -ENOMEM);
		goto out;
	}
	for (i = 0; i < cfg.depth; i++) {
		if (cfg.write)
			io_prep_pwrite(&cbs[i], j->fd, j->bufs + (size_t)i * BS, BS, (long long)next_off(j));
		else
			io_prep_pread(&cbs[i], j->fd, j->bufs + (size_t)i * BS, BS, (long long)next_off(j));
		list[i] = &cbs[i];
	}
	if ((r = io_submit(ctx, (long)cfg.depth, list)) != (long)cfg.depth) {
		fail(j, "io_submit", r);
		goto out;
	}
	while (!stop) {
		int n = aio_reap(ctx, ev, cfg.depth), k;

		if (n < 0) {
			fail(j, "io_getevents", n);
			break;
		}
		for (k = 0; k < n; k++) {
			struct iocb *cb = ev[k].obj;

			if (ev[k].res != BS) {
				fail(j, "I/O", (long)ev[k].res);
				break;
			}
			cb->u.c.offset = (long long)next_off(j);
			list[k] = cb;
		}
		if (stop)
			break;
		if ((r = io_submit(ctx, n, list)) != n) {
			fail(j, "io_submit", r);
			break;
		}
		add_ops(j, (unsigned int)n);
	}
out:
	/* io_destroy() waits for what is still in flight */
	if (ctx)
		io_destroy(ctx);
	free(cbs);
	free(list);
	free(ev);
}

#ifdef HAVE_LIBURING
static void uring_prep(struct job *j, struct io_uring_sqe *sqe, unsigned int i)
{
	char *buf = j->bufs + (size_t)i * BS;

	if (cfg.naive) {
		if (cfg.write)
			io_uring_prep_write(sqe, j->fd, buf, BS, next_off(j));
		else
			io_uring_prep_read(sqe, j->fd, buf, BS, next_off(j));
	} else {
		if (cfg.write)
			io_uring_prep_write_fixed(sqe, 0, buf, BS, next_off(j), (int)i);
		else
			io_uring_prep_read_fixed(sqe, 0, buf, BS, next_off(j), (int)i);
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	sqe->user_data = i;
}

static void run_uring(struct job *j)
{
	struct io_uring_params p = { 0 };
	struct io_uring ring;
	struct iovec *iov = NULL;
	unsigned int i;
	int r;

	if (!cfg.naive)
		p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	r = io_uring_queue_init_params(cfg.depth, &ring, &p);
	if (r == -EINVAL && p.flags) {
		memset(&p, 0, sizeof(p));
		r = io_uring_queue_init_params(cfg.depth, &ring, &p);
	}
	if (r) {
		fail(j, "io_uring_queue_init", r);
		return;
	}
	if (!cfg.naive) {
		iov = calloc(cfg.depth, sizeof(*iov));
		for (i = 0; iov && i < cfg.depth; i++) {
			iov[i].iov_base = j->bufs + (size_t)i * BS;
			iov[i].iov_len = BS;
		}
		if (!iov || (r = io_uring_register_files(&ring, &j->fd, 1)) ||
		    (r = io_uring_register_buffers(&ring, iov, cfg.depth))) {
			fail(j, "io_uring_register", iov ? r : -ENOMEM);
			goto out;
		}
	}
	for (i = 0; i < cfg.depth; i++)
		uring_prep(j, io_uring_get_sqe(&ring), i);
	while (!stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, n = 0;

		r = io_uring_submit_and_wait(&ring, 1);
		if (r < 0 && r != -EINTR) {
			fail(j, "io_uring_submit_and_wait", r);
			break;
		}
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != BS) {
				fail(j, "I/O", cqe->res);
				break;
			}
			uring_prep(j, io_uring_get_sqe(&ring), (unsigned int)cqe->user_data);
			n++;
		}
		io_uring_cq_advance(&ring, n);
		add_ops(j, n);
	}
out:
	free(iov);
	io_uring_queue_exit(&ring);
}
#endif

static void *job_main(void *arg)
{
	struct job *j = arg;

	if (cfg.engine == E_SYNC)
		run_sync(j);
	else if (cfg.engine == E_AIO)
		run_aio(j);
#ifdef HAVE_LIBURING
	else
		run_uring(j);
#endif
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static uint64_t total_ops(struct job *jobs)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < cfg.jobs; i++)
		n += __atomic_load_n(&jobs[i].ops, __ATOMIC_RELAXED);
	return n;
}

static void sleep_until(double t)
{
	double d;

	while (!stop && (d = t - now()) > 0) {
		struct timespec ts = { (time_t)d, (long)((d - (time_t)d) * 1e9) };

		nanosleep(&ts, NULL);
	}
}

static uint64_t size_arg(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	switch (*end) {
	case 'g': case 'G': v <<= 10; /* fall through */
	case 'm': case 'M': v <<= 10; /* fall through */
	case 'k': case 'K': v <<= 10; end++; break;
	}
	if (*end || end == s) {
		fprintf(stderr, "floor: bad size '%s'\n", s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct job *jobs;
	double t0, t1, c0, c1, start;
	uint64_t n0, n1, slice;
	int c, i, st = 0;

	while ((c = getopt(argc, argv, "e:q:wt:s:o:j:W:RP")) != -1) {
		switch (c) {
		case 'e':
			cfg.engine = !strcmp(optarg, "sync") ? E_SYNC :
				     !strcmp(optarg, "libaio") ? E_AIO :
				     !strcmp(optarg, "io_uring") ? E_URING : -1;
			break;
		case 'q': cfg.depth = (unsigned int)atoi(optarg); break;
		case 'w': cfg.write = 1; break;
		case 't': cfg.secs = atof(optarg); break;
		case 's': cfg.size = size_arg(optarg); break;
		case 'o': cfg.off = size_arg(optarg); break;
		case 'j': cfg.jobs = atoi(optarg); break;
		case 'W': cfg.warm = atof(optarg); break;
		case 'R': case 'P': cfg.naive = 1; break;
		default: return 1;
		}
	}
#ifndef HAVE_LIBURING
	if (cfg.engine == E_URING) {
		fprintf(stderr, "floor: built without liburing\n");
		return 1;
	}
#endif
	if (optind != argc - 1 || cfg.engine < 0 || !cfg.depth || cfg.jobs < 1 ||
	    cfg.secs <= cfg.warm || (cfg.engine == E_SYNC && cfg.depth != 1)) {
		fprintf(stderr, "usage: floor [-e sync|libaio|io_uring] [-q DEPTH] [-w] [-t SECONDS] [-s SIZE] [-o OFFSET] [-j JOBS] [-W WARMUP] [-R] [-P] DEV (sync: -q 1)\n");
		return 1;
	}
	cfg.dev = argv[optind];
	jobs = calloc((size_t)cfg.jobs, sizeof(*jobs));
	if (!jobs)
		return 1;
	for (i = 0; i < cfg.jobs; i++) {
		struct job *j = &jobs[i];

		j->fd = open(cfg.dev, (cfg.write ? O_RDWR : O_RDONLY) | O_DIRECT);
		if (j->fd < 0) {
			fprintf(stderr, "floor: %s: %s\n", cfg.dev, strerror(errno));
			return 1;
		}
		if (!cfg.size) {
			struct stat sb;
			uint64_t b = 0;

			if (!fstat(j->fd, &sb) && S_ISBLK(sb.st_mode))
				ioctl(j->fd, BLKGETSIZE64, &b);
			else
				b = (uint64_t)sb.st_size;
			cfg.size = b > cfg.off ? b - cfg.off : 0;
		}
		slice = cfg.size / (uint64_t)cfg.jobs / BS;
		if (!slice) {
			fprintf(stderr, "floor: %s: region too small\n", cfg.dev);
			return 1;
		}
		j->base = cfg.off + (uint64_t)i * slice * BS;
		j->nblk = slice;
		j->rnd = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
		if (posix_memalign((void **)&j->bufs, BS, (size_t)cfg.depth * BS))
			return 1;
		memset(j->bufs, 0xa5, (size_t)cfg.depth * BS);
	}
	start = now();
	for (i = 0; i < cfg.jobs; i++)
		if (pthread_create(&jobs[i].t, NULL, job_main, &jobs[i]))
			return 1;
	sleep_until(start + cfg.warm);
	t0 = now();
	n0 = total_ops(jobs);
	c0 = cpu_s();
	sleep_until(start + cfg.secs);
	t1 = now();
	n1 = total_ops(jobs);
	c1 = cpu_s();
	stop = 1;
	for (i = 0; i < cfg.jobs; i++) {
		pthread_join(jobs[i].t, NULL);
		if (jobs[i].err)
			st = jobs[i].err;
		close(jobs[i].fd);
		free(jobs[i].bufs);
	}
	free(jobs);
	if (st)
		return st;
	printf("%.1f %.1f\n", (double)(n1 - n0) / (t1 - t0),
	       (c1 - c0) / (t1 - t0) * 100);
	return 0;
}
