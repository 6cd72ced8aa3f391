/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - everything dixload prints on stdout: start lines, meter lines,
 * events and the summary, as human text or JSON lines (one complete JSON
 * object per line, flushed per line so a pipe sees each as it happens).
 *
 * Callers hold run->lock around these so lines never interleave.
 */
#ifndef DIX_REPORT_H
#define DIX_REPORT_H

#include "verify/extent.h"
#include "report/meter.h"
#include "core/run.h"

/**
 * struct dix_rank_row - one MPI rank's interval or summary, as rank 0
 * received it (mpijob.h); plain data, so the report needs no MPI.
 * @rank: its rank
 * @host: its host name
 * @flags: DIX_MPI_* at this interval (mpijob.h)
 * @dt: interval: measured length (0: nothing measured)
 * @elapsed: summary: seconds of its load
 * @bps: bytes/s per direction over @dt (interval) or @elapsed (summary)
 * @iops: summary: I/Os per second per direction over @elapsed
 * @rate_iops: interval: I/Os per second over @dt
 * @c: cumulative counters
 * @unwritten: blocks read without a dixload header (interval: in it)
 * @bad_extents: summary: bad extents found
 * @bad_blocks: summary: blocks in them
 * @lat: summary: p50, p99, p99.9 and max in ns per direction
 * @self_s: summary: CPU seconds of the rank's process
 * @self_user_s: of them in user mode; @self_sys_s: in the kernel
 * @status: summary: its own exit status
 * @why: why it failed ("" when it did not)
 */
struct dix_rank_row {
	int rank;
	char host[64];
	int flags;
	double dt;
	double elapsed;
	double bps[DIX_DIR_NR];
	double iops[DIX_DIR_NR];
	double rate_iops;
	struct dix_counters c;
	uint64_t unwritten;
	uint64_t bad_extents;
	uint64_t bad_blocks;
	uint64_t lat[DIX_DIR_NR][4];
	double self_s;
	double self_user_s;
	double self_sys_s;
	int status;
	char why[256];
};

/**
 * struct dix_totals - what the summary reports, gathered after the load.
 * @c: counters summed over workers
 * @lat: latency per direction, merged over workers
 * @ext: the bad extents of every worker, merged: by kind, then LBA
 * @next: entries in @ext
 * @ext_blocks: blocks in @ext
 * @ext_dropped: extents the workers could not keep (DIX_EXTENTS_MAX)
 * @ext_dropped_blocks: their blocks
 * @unwritten: blocks read without a dixload header
 * @elapsed: seconds from the start of the load to its end
 * @cpu: CPU use over the load
 * @ranks: under MPI, on rank 0: every rank's summary row (else NULL)
 * @nranks: entries in @ranks
 * @nhosts: hosts they ran on
 * @summed: the rates are @bps and @iops (the ranks' rates added up, each
 *	over its own elapsed time), not the bytes over @elapsed
 */
struct dix_totals {
	struct dix_counters c;
	struct lat_hist lat[DIX_DIR_NR];
	struct bad_extent *ext;
	size_t next;
	uint64_t ext_blocks;
	uint64_t ext_dropped, ext_dropped_blocks;
	uint64_t unwritten;
	double elapsed;
	struct cpu_usage cpu;
	const struct dix_rank_row *ranks;
	int nranks;
	int nhosts;
	int summed;
	double bps[DIX_DIR_NR];
	double iops[DIX_DIR_NR];
};

void report_start(struct dix_run *r);
/**
 * report_interval() - one meter interval: the total @s and, with several
 * devices, each device's @ds[0 .. ndevs-1] (NULL with one device): JSON
 * rows in "devices", human lines with --per-device.
 */
void report_interval(struct dix_run *r, const struct meter_sample *s,
		     const struct meter_sample *ds);
/**
 * report_interval_ranks() - under MPI, on rank 0: the job's interval @s
 * (the ranks' rates summed) with a JSON row per rank.
 */
void report_interval_ranks(struct dix_run *r, const struct meter_sample *s,
			   const struct dix_rank_row *rows, int n);
void report_event(struct dix_run *r, const struct dix_event *ev);
/**
 * report_summary() - the summary: @t the total, @dt each device's totals
 * (r->ndevs of them; with one device @t says it all and @dt is unused).
 */
void report_summary(struct dix_run *r, const struct dix_totals *t,
		    const struct dix_totals *dt, int status);

/**
 * report_precondition_progress() - "precondition: 128/256 MiB, 61 MB/s,
 * eta 2 s" on stderr, rewritten in place (for a terminal only).
 * @bytes: written so far
 * @region: bytes to write in all
 * @seconds: since preconditioning started; < 0 clears the line
 */
void report_precondition_progress(struct dix_run *r, uint64_t bytes,
				  uint64_t region, double seconds);

/**
 * report_precondition() - what preconditioning of @d did (@d->pres): one
 * human line, or a {"type":"precondition",...} JSON object.
 */
void report_precondition(struct dix_run *r, const struct dix_dev *d);

/** exit_status_text() - one-line meaning of an exit status. */
const char *exit_status_text(int status);

#endif
