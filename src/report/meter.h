/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meter.h - per-interval sampling.
 *
 * Pure interval arithmetic: the caller passes the time (so tests inject a
 * clock) and the cumulative counters; the meter returns rates over the
 * *measured* elapsed time since the previous sample and the next absolute
 * deadline.  Deadlines are start + k * period, so sleeping late never
 * drifts the schedule; if the caller oversleeps past several deadlines
 * (stopped process, clock trouble), the missed ones are skipped rather than
 * reported as empty intervals.
 */
#ifndef DIX_METER_H
#define DIX_METER_H

#include <stddef.h>
#include <stdint.h>

#include "report/cpu.h"
#include "lib/stats.h"

/**
 * struct meter_sample - one interval.
 * @t: end of the interval, seconds since the start of the load
 * @dt: measured length of the interval in seconds
 * @read_bps: bytes read per second over @dt
 * @write_bps: bytes written per second over @dt
 * @iops: I/Os completed per second over @dt
 * @unwritten: blocks read in the interval that carried no dixload header
 *	(never written: on a PI device, reads whose guard nobody checks)
 * @tot: cumulative counters at @t (Ops, Rec, Err are derived from them)
 * @cpu: CPU time over the interval, the machine's and dixload's (filled by
 *	the run loop, not by meter_sample())
 * @lat: completion latency of the interval's I/Os per direction (filled by
 *	the run loop from the interval's histogram; under MPI the job's from
 *	the ranks' histograms reduced)
 */
struct meter_sample {
	double t;
	double dt;
	double read_bps;
	double write_bps;
	double iops;
	uint64_t unwritten;
	struct dix_counters tot;
	struct cpu_usage cpu;
	struct lat_quant lat[DIX_DIR_NR];
};

struct meter {
	double start;
	double period;
	double last;
	uint64_t k;
	struct dix_counters prev;
};

/** meter_init() - start at time @start with @period seconds (> 0). */
void meter_init(struct meter *m, double start, double period);

/** meter_deadline() - absolute time of the next sample. */
double meter_deadline(const struct meter *m);

/**
 * meter_sample() - close the interval ending at @now.
 * @tot: cumulative counters at @now
 * @s: filled with the interval's rates
 *
 * Return: 0; -EAGAIN when @now is not after the previous sample (nothing
 * measurable: no sample is produced).
 */
int meter_sample(struct meter *m, double now, const struct dix_counters *tot,
		 struct meter_sample *s);

/** struct sample_log - every sample of a run, for analysis, plot and CSV. */
struct sample_log {
	struct meter_sample *s;
	size_t n, cap;
};

void sample_log_add(struct sample_log *l, const struct meter_sample *s);
void sample_log_free(struct sample_log *l);

#endif
