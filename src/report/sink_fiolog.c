// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_fiolog.c - --bw-log and --iops-log (fio's write_bw_log and
 * write_iops_log): the total's intervals in fio's log format, so that
 * fio's own tools (fio2gnuplot, fio_generate_plots) plot a dixload run.
 *
 * fio 3.33 with log_avg_msec=N writes, per direction with I/O, a line
 * "msec, value, direction, 0, 0" each N ms: the time at the window's end,
 * the window's mean (bandwidth in KiB/s, I/Os per second), 0 read, 1
 * write, then the block size and the priority, both 0 when averaged
 * (measured: fio --write_bw_log=p --log_avg_msec=500).  dixload's
 * window is its meter's --interval, so a line is an interval of the JSON
 * and CSV outputs, the last partial one included; fio without
 * log_avg_msec logs each I/O instead, which dixload does not keep.
 * The files are PREFIX_bw.1.log and PREFIX_iops.1.log: fio's name for
 * the first job.  Written at the end of a run that started, as --log.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report/sink.h"

struct fiolog {
	struct sink_log *l;
	char *bw, *iops;	/* prefixes, or NULL */
	int dir[DIX_DIR_NR];	/* the workload does this direction */
};

void *sink_fiolog_new(const char *bw, const char *iops, int reads, int writes)
{
	struct fiolog *f = xcalloc(1, sizeof(*f));

	f->l = sink_log_new(bw ? bw : iops);
	f->bw = bw ? xstrdup(bw) : NULL;
	f->iops = iops ? xstrdup(iops) : NULL;
	f->dir[DIX_READ] = reads;
	f->dir[DIX_WRITE] = writes;
	return f;
}

static void fl_interval(void *priv, const struct rec_interval *r)
{
	sink_log_interval(((struct fiolog *)priv)->l, r);
}

/* One file: @iops 0 the bandwidth log, 1 the I/Os-per-second log. */
static int write_log(const struct fiolog *f, const char *prefix, int iops)
{
	const struct sample_log *sl = &f->l->samples;
	uint64_t prev[DIX_DIR_NR] = { 0, 0 };
	char path[4096];
	size_t i;
	FILE *out;
	int d, e = 0;

	snprintf(path, sizeof(path), "%s_%s.1.log", prefix, iops ? "iops" : "bw");
	out = fopen(path, "w");
	if (!out)
		return -errno;
	for (i = 0; i < sl->n; i++) {
		const struct meter_sample *s = &sl->s[i];
		double bps[DIX_DIR_NR] = { s->read_bps, s->write_bps };

		for (d = 0; d < DIX_DIR_NR; d++) {
			uint64_t ops = s->tot.ops[d] - prev[d];
			double v = iops ? (s->dt > 0 ? ops / s->dt : 0) : bps[d] / 1024;

			prev[d] = s->tot.ops[d];
			if (f->dir[d])
				fprintf(out, "%.0f, %.0f, %d, 0, 0\n", round(s->t * 1000),
					round(v), d == DIX_READ ? 0 : 1);
		}
	}
	if (ferror(out))
		e = -EIO;
	if (fclose(out) && !e)
		e = -errno;
	if (e)
		dix_err("--%s-log: %s: %s", iops ? "iops" : "bw", path, strerror(-e));
	return e;
}

static void fl_summary(void *priv, const struct rec_summary *r)
{
	struct fiolog *f = priv;

	if (!r->started)
		return;
	if (f->bw)
		write_log(f, f->bw, 0);
	if (f->iops)
		write_log(f, f->iops, 1);
}

static void fl_free(void *priv)
{
	struct fiolog *f = priv;

	sink_log_free(f->l);
	free(f->bw);
	free(f->iops);
	free(f);
}

const struct dix_sink_ops sink_fiolog_ops = {
	.name = "fiolog",
	.interval = fl_interval,
	.summary = fl_summary,
	.close = fl_free,
};
