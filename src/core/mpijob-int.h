/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpijob-int.h - the MPI job's state, shared by mpijob.c (setup, start,
 * summary) and mpitick.c (the polled interval tick and the job cut
 * short) only; nothing else sees inside struct dix_mpi.
 */
#ifndef DIX_MPIJOB_INT_H
#define DIX_MPIJOB_INT_H

#include <mpi.h>
#include <stdint.h>

#include "report/record.h"

/* A struct lat_hist is a run of uint64_t: max_ns, buckets. */
#define LAT_WORDS	(sizeof(struct lat_hist) / sizeof(uint64_t))

/* The verdict rank 0 sends each rank at a tick. */
struct verdict {
	int v;			/* DIX_MPI_STOP, DIX_MPI_CUT */
	struct rec_cut cut;	/* with DIX_MPI_CUT: whom rank 0 lost */
};

struct dix_mpi {
	int rank;
	int size;
	int leader;
	int nhosts;
	char host[64];
	char prefix[128];
	int ev_sent;		/* this rank's events already sent to rank 0 */
	int job_failed;		/* rank 0: a rank failed (exit status 1) */
	char *named;		/* rank 0: ranks whose failure was printed */
	MPI_Comm tick;		/* the tick's point-to-point messages */
	int (*signalled)(void);	/* a signal came (dix_mpi_watch()) */
	double (*lead)(void);	/* and mpirun's warning before it */
	struct dix_rank_row *last;	/* rank 0: the last complete tick's rows */
	uint64_t *unwritten;	/* rank 0: each rank's, summed over ticks */
	double last_t;		/* rank 0: that tick's job time (0: none) */
	int cut;		/* the job was cut short: no more MPI */
	struct rec_cut why_cut;
	char (*hosts)[64];	/* every rank's host, from the build check */
	struct dix_rank_row row;	/* this rank's row in flight to rank 0 */
	char *evbuf;		/* and its events */
	struct lat_hist lat[DIX_DIR_NR];	/* and its histograms */
	struct lat_hist lat_sum[DIX_DIR_NR];	/* rank 0: the job's, summed
						 * over the complete ticks */
	struct verdict vd;	/* the verdict coming back */
};

/* Rank 0 names a failed rank once: "rank 2 (node7) failed: WHY". */
void name_failure(struct dix_mpi *m, int rank, const char *host,
		  const char *why);

/* @x: this rank's row with @flags and, when failed, @why. */
void row_init(const struct dix_mpi *m, struct dix_rank_row *x, int flags,
	      const char *why);

#endif
