/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu.h - what the load costs in CPU: the machine's time split from
 * /proc/stat and dixload's own CPU seconds (getrusage), per meter interval
 * and over the run.  Offload (QAT) shows as much in CPU per byte as in
 * MB/s: a driver that moves crypto off the cores lowers these at equal
 * throughput.
 *
 * The parser is a pure function over the text of /proc/stat, so the unit
 * test feeds it canned files.
 */
#ifndef DIX_CPU_H
#define DIX_CPU_H

#include <stdint.h>

/**
 * struct cpu_snap - one reading.
 * @have_stat: /proc/stat's "cpu" line was read
 * @user, @nice, @system, @idle, @iowait, @irq, @softirq, @steal: its
 *	clock ticks, summed over all CPUs
 * @self_user/@self_sys: dixload's own CPU seconds (all threads)
 * @t: dix_now() when taken
 */
struct cpu_snap {
	int have_stat;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	double self_user, self_sys;
	double t;
};

/**
 * struct cpu_usage - between two readings.
 * @valid: the machine's shares are known (both readings had /proc/stat)
 * @usr, @sys, @softirq, @irq, @iowait: percent of all CPUs' time (usr
 *	includes nice)
 * @busy: percent of all CPUs' time not idle and not waiting for I/O
 * @busy_s: the same time in CPU seconds, all CPUs together
 * @self_s: dixload's CPU seconds (user + system)
 * @self_user_s/@self_sys_s: its parts
 * @self_pct: @self_s as percent of one CPU over the wall time
 */
struct cpu_usage {
	int valid;
	double usr, sys, softirq, irq, iowait, busy, busy_s;
	double self_s, self_user_s, self_sys_s, self_pct;
};

/**
 * cpu_parse_stat() - the "cpu " line of /proc/stat's text @text into @s.
 * Return: 0, or -EINVAL when there is no such line.
 */
int cpu_parse_stat(const char *text, struct cpu_snap *s);

/** cpu_read() - take a reading now (a missing /proc/stat leaves have_stat 0). */
void cpu_read(struct cpu_snap *s);

/** cpu_between() - the usage from @a to @b into @u. */
void cpu_between(const struct cpu_snap *a, const struct cpu_snap *b,
		 struct cpu_usage *u);

#endif
