// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csvlog.c - the --log CSV file.
 *
 * One table rather than two files: a spreadsheet or pandas reads it in one
 * go and the "type" column separates intervals from events, whose rows sit
 * where they happened between the intervals.  Columns added later go at
 * the end, so scripts that index columns keep working: unwritten (blocks
 * read that no run had written, the drift a preconditioned run removes),
 * the CPU shares the meter and JSON show (machine busy %, dixload's own %
 * of one CPU), and the interval's latency quantiles per direction (the
 * JSON interval's lat_ns).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/csvlog.h"
#include "lib/util.h"

void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void interval_row(FILE *f, const struct meter_sample *s)
{
	const struct dix_counters *c = &s->tot;
	int d;

	fprintf(f, "interval,%.3f,%.3f,%.0f,%.0f,%.0f,%.1f,%llu,%llu,%llu,,,,,,%llu,",
		s->t, s->dt, s->read_bps, s->write_bps,
		s->read_bps + s->write_bps, s->iops,
		(unsigned long long)(c->ops[DIX_READ] + c->ops[DIX_WRITE]),
		(unsigned long long)counters_errors(c),
		(unsigned long long)c->recovered,
		(unsigned long long)s->unwritten);
	/* the machine's busy share is empty when /proc/stat was unreadable,
	 * as the JSON's busy_pct is null; dixload's own share always exists */
	if (s->cpu.valid)
		fprintf(f, "%.1f", s->cpu.busy);
	fprintf(f, ",%.1f", s->cpu.self_pct);
	for (d = 0; d < DIX_DIR_NR; d++)
		fprintf(f, ",%llu,%llu,%llu,%llu",
			(unsigned long long)s->lat[d].p50,
			(unsigned long long)s->lat[d].p99,
			(unsigned long long)s->lat[d].p999,
			(unsigned long long)s->lat[d].max);
	fputc('\n', f);
}

static void event_row(FILE *f, const struct dix_event *e)
{
	fprintf(f, "event,%.3f,,,,,,,,,%s,", e->t,
		e->kind == EV_ACTION ? "action" :
		e->kind == EV_CHANGE ? "change" : "note");
	csv_field(f, e->what ? e->what : "");
	fputc(',', f);
	if (e->ok >= 0)
		fputs(e->ok ? "1" : "0", f);
	fputc(',', f);
	if (e->duration >= 0)
		fprintf(f, "%.3f", e->duration);
	fputc(',', f);
	csv_field(f, e->detail ? e->detail : "");
	fputs(",,,,,,,,,,,\n", f);
}

/* By time, then by recording order: stable, so simultaneous events keep
 * the order they were printed in. */
static int cmp_event(const void *a, const void *b, void *arg)
{
	const struct dix_event *base = arg;
	int x = *(const int *)a, y = *(const int *)b;
	double tx = base[x].t, ty = base[y].t;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x - y;
}

int csv_write(FILE *f, const struct meter_sample *s, size_t n,
	      const struct dix_event *ev, int nev)
{
	int *ord = xmalloc((nev + 1) * sizeof(*ord));
	size_t i = 0;
	int j = 0;

	/* events are recorded when they end (an --exec may finish after
	 * later events) but carry their start time */
	for (j = 0; j < nev; j++)
		ord[j] = j;
	qsort_r(ord, nev, sizeof(*ord), cmp_event, (void *)ev);
	j = 0;

	fputs("type,t,dt,read_bps,write_bps,total_bps,iops,ops,errors,recovered,"
	      "kind,what,ok,duration,detail,unwritten,cpu_busy_pct,cpu_self_pct,"
	      "read_lat_p50_ns,read_lat_p99_ns,read_lat_p999_ns,read_lat_max_ns,"
	      "write_lat_p50_ns,write_lat_p99_ns,write_lat_p999_ns,write_lat_max_ns\n",
	      f);
	/* merge by time; an event at the very end of an interval comes
	 * after it, as it does on the terminal */
	while (i < n || j < nev) {
		if (j == nev || (i < n && s[i].t <= ev[ord[j]].t))
			interval_row(f, &s[i++]);
		else
			event_row(f, &ev[ord[j++]]);
	}
	free(ord);
	return ferror(f) ? -EIO : 0;
}
