// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_latlog.c - the --lat-log sink: each interval's latency histograms,
 * one JSON line per interval, written and flushed as the interval closes
 * (a soak cut short keeps every interval it finished).  The last interval
 * is closed after the workers drained, however short (run_meter_tail()),
 * so the lines hold every completion the summary counts and a compare of
 * a run with its own lat-log is 0.0 % on every row.
 *
 * The quantiles in the JSON records are a fixed view of the histogram; the
 * histogram itself lets a reader merge intervals, runs or ranks and take
 * any quantile afterwards, as fio's histogram logs do.  Its buckets are
 * written sparse, each as [lo, hi, count] in ns, so a line means the same
 * without knowing the bucket layout (doc/json.md, record lat_hist), and
 * one line is valid JSON on its own.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/util.h"
#include "report/sink.h"

struct latlog {
	char *path;
	FILE *f;
	int failed;
};

void *sink_latlog_new(const char *path)
{
	struct latlog *l = xcalloc(1, sizeof(*l));

	l->path = xstrdup(path);
	return l;
}

/* One direction: its quantiles (as the JSON interval's) and its buckets. */
static void hist_json(struct jw *w, const char *key, const struct lat_hist *h,
		      const struct lat_quant *q)
{
	uint64_t lo, hi;
	unsigned int b;

	jw_obj_open(w, key);
	jw_uint(w, "n", q->n);
	jw_uint(w, "p50", q->p50);
	jw_uint(w, "p99", q->p99);
	jw_uint(w, "p99.9", q->p999);
	jw_uint(w, "max", q->max);
	jw_arr_open(w, "buckets");
	for (b = 0; b < LAT_BUCKETS; b++) {
		if (!h->bucket[b] || lat_bucket_bounds(b, &lo, &hi))
			continue;
		jw_arr_open(w, NULL);
		jw_uint(w, NULL, lo);
		jw_uint(w, NULL, hi);
		jw_uint(w, NULL, h->bucket[b]);
		jw_arr_close(w);
	}
	jw_arr_close(w);
	jw_obj_close(w);
}

static void latlog_start(void *priv, const struct rec_start *r)
{
	struct latlog *l = priv;

	(void)r;
	l->f = fopen(l->path, "w");
	if (!l->f) {
		dix_err("--lat-log %s: %s", l->path, strerror(errno));
		l->failed = 1;
	}
}

static void latlog_interval(void *priv, const struct rec_interval *r)
{
	static const char *const dirs[] = { "read", "write" };
	struct latlog *l = priv;
	struct jw w;
	int d;

	if (!l->f || !r->lat)
		return;
	jw_init(&w, l->f);
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "lat_hist");
	jw_uint(&w, "index", r->index);
	jw_num(&w, "t", r->s->t, 3);
	jw_num(&w, "dt", r->s->dt, 3);
	for (d = 0; d < DIX_DIR_NR; d++)
		hist_json(&w, dirs[d], &r->lat[d], &r->s->lat[d]);
	jw_obj_close(&w);
	jw_end_line(&w);
	if (fflush(l->f) && !l->failed) {
		dix_err("--lat-log %s: %s", l->path, strerror(errno));
		l->failed = 1;
	}
}

static void latlog_close(void *priv)
{
	struct latlog *l = priv;

	if (l->f && fclose(l->f) && !l->failed)
		dix_err("--lat-log %s: %s", l->path, strerror(errno));
	free(l->path);
	free(l);
}

const struct dix_sink_ops sink_latlog_ops = {
	.name = "lat-log",
	.start = latlog_start,
	.interval = latlog_interval,
	.close = latlog_close,
};
