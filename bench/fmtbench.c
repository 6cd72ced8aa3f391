// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmtbench.c - what the block formats cost on this host: nanoseconds per
 * I/O to fill a write (verify_fill_format()) and to check a read
 * (verify_run(), the fast path every verified read takes) for DIXLOAD2
 * and DIXLOAD3, over a ring of buffers: 8 MiB by default, past the L2, so
 * a read is checked from memory as a device's DMA leaves it; -m 256k keeps
 * the ring in the L2, as a read the kernel has just copied (tmpfs,
 * null_blk's memory_backed=1) leaves it.  The guest's
 * instruction counts (scripts/bench-vm) are a model in which a SIMD
 * instruction and a cache miss each count as one; this is the wall clock
 * beside them (doc/benchmarks.md).  Not part of dixload.
 *
 * usage: fmtbench [-b BLOCK] [-i IOSIZE] [-m RING] [-n IOS] [-r ROUNDS]
 * Prints one line per format and operation: the median and the range of
 * ns per I/O over the rounds.  Exit 0, 1 usage, 2 a check failed.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verify/verify.h"


static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ns per I/O of @ios fills (@check 0) or checks of @io bytes, @rounds times */
static int measure(uint64_t magic, int check, uint32_t bs, uint32_t io,
		   unsigned long ios, int rounds, unsigned char *ring,
		   size_t ringsz)
{
	unsigned long nbuf = ringsz / io, k;
	double *ns = calloc(rounds, sizeof(*ns));
	int r;

	if (!ns)
		return 1;
	for (k = 0; k < nbuf; k++)	/* every buffer written once */
		if (verify_fill_format(ring + k * io, io, bs, k * io, 42, 1, magic))
			return free(ns), 1;
	for (r = 0; r < rounds; r++) {
		double t0 = now();

		for (k = 0; k < ios; k++) {
			unsigned long b = k % nbuf;

			if (!check)
				verify_fill_format(ring + b * io, io, bs, b * io, 42,
						   1, magic);
			else if (verify_run(ring + b * io, io, bs, b * io) != io)
				return free(ns), 2;
		}
		ns[r] = (now() - t0) / ios * 1e9;
	}
	qsort(ns, rounds, sizeof(*ns), cmp);
	printf("%s %-5s bs %u io %u ring %zu KiB: %7.1f ns per I/O (%.1f-%.1f over %d rounds)\n",
	       magic == DIX_HDR_MAGIC2 ? "DIXLOAD2" : "DIXLOAD3",
	       check ? "check" : "fill", bs, io, ringsz >> 10, ns[rounds / 2],
	       ns[0], ns[rounds - 1], rounds);
	free(ns);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t bs = 512, io = 4096;
	size_t ringsz = 8u << 20;
	unsigned long ios = 200000;
	int rounds = 5, c, rc = 0, op;
	unsigned char *ring;

	while ((c = getopt(argc, argv, "b:i:m:n:r:")) != -1) {
		switch (c) {
		case 'b': bs = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'i': io = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'm': {
			char *end;

			ringsz = strtoul(optarg, &end, 0);
			if (*end == 'k' || *end == 'K')
				ringsz <<= 10;
			else if (*end == 'm' || *end == 'M')
				ringsz <<= 20;
			break;
		}
		case 'n': ios = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fmtbench [-b BLOCK] [-i IOSIZE] [-m RING] [-n IOS] [-r ROUNDS]\n");
			return 1;
		}
	}
	if (bs < 512 || io < bs || io % bs || io > ringsz || ringsz % 4096 ||
	    rounds < 1 || !ios) {
		fprintf(stderr, "fmtbench: need 512 <= BLOCK <= IOSIZE <= RING, IOSIZE a multiple of BLOCK, RING of 4 KiB\n");
		return 1;
	}
	ring = aligned_alloc(4096, ringsz);
	if (!ring)
		return 1;
	for (op = 0; op < 4 && !rc; op++) {
		uint64_t magic = op < 2 ? DIX_HDR_MAGIC2 : DIX_HDR_MAGIC3;

#ifndef HAVE_XXHASH
		if (magic == DIX_HDR_MAGIC2) {
			if (op == 0)
				printf("DIXLOAD2: not measured (built without libxxhash)\n");
			continue;
		}
#endif
		rc = measure(magic, op % 2, bs, io, ios, rounds, ring, ringsz);
	}
	free(ring);
	if (rc == 2)
		fprintf(stderr, "fmtbench: a block it wrote did not verify\n");
	return rc;
}
