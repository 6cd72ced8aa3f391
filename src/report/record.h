/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - what a run reports, as typed records built once and handed
 * to every registered sink (sink.h): the start, preconditioning's
 * progress and result, each interval (with its per-device and per-rank
 * rows), each event and kernel change, each transition and the summary.
 *
 * The records are plain data that point into the run's own state for the
 * duration of one call; they name nothing of core/ (the run builds them),
 * so a sink sees the same facts whatever it renders: human lines, JSON
 * lines, a CSV table, an SVG plot, or a metrics endpoint.
 */
#ifndef DIX_RECORD_H
#define DIX_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "conf/options.h"
#include "device/devdesc.h"
#include "lib/event.h"
#include "lib/stats.h"
#include "report/cpu.h"
#include "report/meter.h"
#include "report/transition.h"
#include "verify/extent.h"

/**
 * struct rec_dev - one target of the run, as the records name it.
 * @path: as given with --dev
 * @t: the opened target (its path, size, name and integrity view)
 * @pre_on: preconditioning decided on for it
 * @pre_reason: why on or off
 * @pre_ran: summary: its preconditioning pass ran
 * @tr: summary: its own transitions (several devices only)
 * @ntr: entries in @tr
 */
struct rec_dev {
	const char *path;
	const struct dix_devdesc *t;
	int pre_on;
	const char *pre_reason;
	int pre_ran;
	const struct dix_transition *tr;
	int ntr;
};

/**
 * struct rec_start - the run is about to load its targets.
 * @o: the effective options
 * @devs: the targets (@ndevs of them)
 * @mpi_ranks: under MPI the job's ranks, else 0
 * @mpi_host: under MPI this rank's host
 */
struct rec_start {
	const struct dix_opts *o;
	const struct rec_dev *devs;
	int ndevs;
	int mpi_ranks;
	const char *mpi_host;
};

/**
 * struct rec_precond_progress - preconditioning so far (a terminal's
 * progress line).
 * @bytes: written so far
 * @region: bytes to write in all
 * @seconds: since preconditioning started; < 0: it is over (clear the line)
 */
struct rec_precond_progress {
	uint64_t bytes;
	uint64_t region;
	double seconds;
};

/**
 * struct rec_precond - what preconditioning of one target did.
 * @dev: the target
 * @several: the run has several targets (the record names this one)
 * @mode: --precondition as given
 * @complete: the whole region was written without an error
 * @bytes: bytes written
 * @region: bytes to write
 * @seconds: how long it took
 * @io_size: the smallest write size its workers used
 * @iodepth: writes in flight per job
 * @jobs: workers
 * @errors: errors met
 */
struct rec_precond {
	const struct rec_dev *dev;
	int several;
	const char *mode;
	int complete;
	uint64_t bytes;
	uint64_t region;
	double seconds;
	uint64_t io_size;
	unsigned int iodepth;
	int jobs;
	uint64_t errors;
};

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
 * @ilat: interval: its own latency quantiles per direction (the job's are
 *	from the reduced histograms, never from these)
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
	struct lat_quant ilat[DIX_DIR_NR];
	double self_s;
	double self_user_s;
	double self_sys_s;
	int status;
	char why[256];
};

/**
 * struct rec_interval - one meter interval.
 * @o: the effective options (the caps in force)
 * @s: the total
 * @ds: with several targets, each one's own over the same instant
 *	(@ndevs of them, named by @devs); else NULL
 * @devs: the targets
 * @ndevs: entries in @devs
 * @ranks: under MPI, on rank 0: each rank's row (@nranks); else NULL
 * @nranks: entries in @ranks
 * @index: the run's count of intervals so far, this one included (1 for
 *	the first): what names the interval in JSON and in --metrics
 * @lat: the interval's latency histogram per direction, of the total
 *	(under MPI the job's: the ranks' reduced); @s->lat are its quantiles
 */
struct rec_interval {
	uint64_t index;
	const struct dix_opts *o;
	const struct meter_sample *s;
	const struct meter_sample *ds;
	const struct rec_dev *devs;
	int ndevs;
	const struct dix_rank_row *ranks;
	int nranks;
	const struct lat_hist *lat;
};

/**
 * struct rec_transition - one transition found after the load.
 * @tr: the levels and the verdict
 * @w: the spans the levels were measured over
 * @what: the event it follows
 * @dev: the target whose own throughput it is, or NULL for the total
 */
struct rec_transition {
	const struct dix_transition *tr;
	const struct tr_window *w;
	const char *what;
	const struct rec_dev *dev;
};

/* Ranks a cut-short record names at most (the rest are counted). */
#define DIX_CUT_NAMED	8

/**
 * struct rec_cut - an MPI job cut short: a rank was lost mid-run and the
 * launcher is killing the others (mpijob.h).  Plain data for the report.
 * @at: the job's time when this rank gave up waiting
 * @upto: the figures' end: the last interval every rank's record reached
 *	rank 0 for (0: none did)
 * @job: 1: rank 0's job figures (the reduced intervals up to the loss);
 *	0: a rank's own figures, up to its own end
 * @nlost: ranks known lost (0: this rank cannot tell which)
 * @lost: the first DIX_CUT_NAMED of them, by rank
 * @lost[].rank: its rank
 * @lost[].host: its host
 * @before: the job's time by which their record should have come
 */
struct rec_cut {
	double at;
	double upto;
	int job;
	int nlost;
	struct {
		int rank;
		char host[64];
	} lost[DIX_CUT_NAMED];
	double before;
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
 * @cut: under MPI, the job was cut short (a rank lost): why; else NULL
 * @inflight_ok: an engine of the run measured its requests in flight
 *	(lib/depth.h): @inflight_max and @inflight_mean hold what it measured
 *	over the load; 0: nothing measured them, and the reports leave them
 *	out rather than print the configured depth as if it were measured
 * @inflight_max: the most requests in flight at once, the run's workers
 *	together
 * @inflight_mean: their time-weighted mean over the load
 * @check_every: the engine checked every how many requests against its
 *	own reference (--verify-every); 0: no engine's reference checked
 * @check_cpu_s: the CPU seconds those checks took, the workers together
 * @check_kernel: they ran in the kernel (the kload engine's module): their
 *	share is of the machine's busy CPU time, not of dixload's
 */
/*
 * The checks' share of dixload's CPU from which the summary says they can
 * mask a driver change: at 1/4 a driver that took no time at all would
 * show at most 4x, and sid's xts(ecb(aes-lib)) against aesni's XTS
 * (2.65x unchecked) showed 1.02x with every result checked.
 */
#define REC_CHECK_MASKS	0.25

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
	const struct rec_cut *cut;
	int inflight_ok;
	uint64_t inflight_max;
	double inflight_mean;
	uint64_t check_every;
	double check_cpu_s;
	int check_kernel;
};

/*
 * rec_check_share() - the checks' share of the CPU they competed for:
 * dixload's own CPU time for a reference in dixload (kcapi), the machine's
 * busy time for one in the kernel (kload), whose work is not dixload's.
 * Return: the share, its base in CPU seconds in *@base; -1 when unknown.
 */
static inline double rec_check_share(const struct dix_totals *t, double *base)
{
	double b;

	if (!t->check_every || !t->cpu.valid)
		return -1;
	b = t->check_kernel ? t->cpu.busy_s : t->cpu.self_s;
	if (b <= 0)
		return -1;
	*base = b;
	return t->check_cpu_s / b;
}

/**
 * struct rec_summary - the end of the run.
 * @o: the effective options
 * @started: the measured load started (0: it never did)
 * @stopped: a stop was asked (signal, --max-errors)
 * @stop_sig: the signal that stopped the load before its end (SIGINT,
 *	SIGTERM), 0: none did (a stop by --max-errors, or a whole load)
 * @stop_at: its time, in seconds from the load's start (from
 *	preconditioning's when the load never started)
 * @pre_ran: some target's preconditioning ran
 * @pre_err: some target's preconditioning met errors
 * @t: the totals
 * @dt: each target's totals (@ndevs); with one target @t says it all
 * @devs: the targets
 * @ndevs: entries in @devs
 * @events: the run's events (transitions name theirs by index)
 * @tr: the total's transitions
 * @ntr: entries in @tr
 * @journal: a --journal was written: @journal_records records in
 *	@journal_batches synced batches, @journal_sync_s seconds of it
 * @extents_max: bad extents a job keeps at most
 * @status: the exit status
 */
struct rec_summary {
	const struct dix_opts *o;
	int started;
	int stopped;
	int stop_sig;
	double stop_at;
	int pre_ran;
	int pre_err;
	const struct dix_totals *t;
	const struct dix_totals *dt;
	const struct rec_dev *devs;
	int ndevs;
	const struct dix_event *events;
	const struct dix_transition *tr;
	int ntr;
	int journal;
	uint64_t journal_records;
	uint64_t journal_batches;
	double journal_sync_s;
	uint32_t extents_max;
	int status;
};

/** exit_status_text() - one-line meaning of an exit status. */
const char *exit_status_text(int status);

/** stop_signal_name() - "SIGINT", "SIGTERM", else "SIG<n>" (in @buf). */
const char *stop_signal_name(int sig, char *buf, size_t len);

/**
 * rec_extent_listed() - whether the summary lists extent @i of @t: up to
 * @max_report of each kind (a flood of one kind must not hide another).
 */
int rec_extent_listed(const struct dix_totals *t, size_t i,
		      uint64_t max_report);

#endif
