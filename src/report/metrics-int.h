/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics-int.h - what the --metrics endpoint keeps between two records,
 * shared by sink_metrics.c (the records in, the HTTP side) and
 * metrics_text.c (the exposition rendered from it) only.
 */
#ifndef DIX_REPORT_METRICS_INT_H
#define DIX_REPORT_METRICS_INT_H

#include <arpa/inet.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "report/sink.h"

struct MHD_Daemon;
/* One event as the endpoint lists it (the rest is in the JSON). */
struct mevent {
	double t;
	int kind;
	int ok;
	char *what;
	char *host;
};

/* One transition found after the load. */
struct mtrans {
	char *what;
	char *dev;
	double at, change_at, before, after, ratio;
	int both, significant;
};

struct metrics {
	struct MHD_Daemon *d;
	char addr[INET6_ADDRSTRLEN + 16];
	pthread_mutex_t lock;
	/* the start */
	int mpi_ranks;
	char **dev;
	int ndev;
	/* the latest interval: @s the total, @ds each device's (@nds) */
	uint64_t index;
	struct meter_sample s;
	struct meter_sample *ds;
	int nds;
	struct dix_rank_row *ranks;
	int nranks;
	/*
	 * the total's latency histogram per direction since the start (each
	 * interval's added): the cumulative buckets Prometheus' histograms
	 * are; under MPI the job's, every rank's I/O in one histogram
	 */
	struct lat_hist cum[DIX_DIR_NR];
	struct mevent *ev;
	int nev;
	struct mtrans *tr;
	int ntr;
	int done;
	int status;
	/* a scrape that read @done was sent whole (sink_metrics_linger()) */
	pthread_cond_t read_cv;
	int read_done;
};

/**
 * metrics_render() - the whole exposition of @m to @f
 * @f:	where it is written (a memory stream for one reply)
 * @om:	1 for OpenMetrics 1.0.0 (ends with "# EOF"), 0 for text 0.0.4
 * @m:	the endpoint's copy, its lock held by the caller
 */
void metrics_render(FILE *f, int om, const struct metrics *m);

#endif
