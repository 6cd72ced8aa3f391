/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csvlog.h - the --log CSV file: every interval and every event, one row
 * each, in time order, under one header.
 */
#ifndef DIX_CSVLOG_H
#define DIX_CSVLOG_H

#include <stddef.h>
#include <stdio.h>

#include "report/meter.h"
#include "lib/event.h"

/**
 * csv_write() - write the log to @f.
 * @s/@n: the intervals
 * @ev/@nev: the events (in time order, as run_event() records them)
 *
 * Columns: type,t,dt,read_bps,write_bps,total_bps,iops,ops,errors,
 * recovered,kind,what,ok,duration,detail,unwritten,cpu_busy_pct,
 * cpu_self_pct, then per direction (read_, write_) lat_p50_ns,
 * lat_p99_ns, lat_p999_ns, lat_max_ns.  Interval rows leave the event
 * columns empty and the other way round; t is seconds since the start
 * (the interval's end for intervals).  Fields are quoted per RFC 4180.
 * Return: 0, or -EIO when writing failed.
 */
int csv_write(FILE *f, const struct meter_sample *s, size_t n,
	      const struct dix_event *ev, int nev);

/** csv_field() - write @s as one CSV field, quoted when it needs to be. */
void csv_field(FILE *f, const char *s);

#endif
