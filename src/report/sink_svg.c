// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_svg.c - the --plot sink: keeps the total's intervals, the events
 * (markers) and the total's transitions (their before/after levels over
 * the spans they were measured on), and draws them (plot.h) when a run
 * that started ends; a run that never started writes no file.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/util.h"
#include "report/plot.h"
#include "report/sink.h"

#define MB 1e6

struct svg {
	struct sink_log log;	/* first: the log's ops take the sink's state */
	char *title;
	struct dix_transition *tr;
	struct tr_window *w;
	int ntr;
};

void *sink_svg_new(const char *path)
{
	struct svg *v = xcalloc(1, sizeof(*v));

	v->log.path = xstrdup(path);
	return v;
}

/* "dixload /dev/sda: randrw 256k QD1 x1, T10-DIF-TYPE1-CRC, profile dif1" */
static void svg_start(void *priv, const struct rec_start *r)
{
	const struct dix_opts *o = r->o;
	struct svg *v = priv;
	char bs[32];

	format_size(o->bs, bs, sizeof(bs));
	free(v->title);
	if (asprintf(&v->title, "dixload %s: %s %s QD%llu x%llu, %s%s%s",
		     r->ndevs > 1 ? o->dev : r->devs[0].t->path, rw_names[o->rw],
		     bs, (unsigned long long)o->iodepth,
		     (unsigned long long)o->jobs,
		     r->devs[0].t->integrity.format,
		     o->profile ? ", profile " : "",
		     o->profile ? o->profile : "") < 0)
		v->title = xstrdup("dixload");
}

/* The total's transitions draw levels; a device's own do not. */
static void svg_transition(void *priv, const struct rec_transition *r)
{
	struct svg *v = priv;

	if (r->dev)
		return;
	v->tr = xrealloc(v->tr, (v->ntr + 1) * sizeof(*v->tr));
	v->w = xrealloc(v->w, (v->ntr + 1) * sizeof(*v->w));
	v->tr[v->ntr] = *r->tr;
	v->w[v->ntr++] = *r->w;
}

static int svg_write(struct svg *v, const char *path)
{
	const struct sink_log *l = &v->log;
	struct plot_marker *m = xcalloc(l->nev + 1, sizeof(*m));
	struct plot_level *lv = xcalloc(2 * v->ntr + 1, sizeof(*lv));
	char **texts = xcalloc(l->nev + 2 * v->ntr + 1, sizeof(*texts));
	const struct dix_transition *tr = v->tr;
	const struct tr_window *w = v->w;
	struct plot_data d;
	int i, nm = 0, nlv = 0, e;
	FILE *f;

	for (i = 0; i < l->nev; i++) {
		const struct dix_event *ev = &l->ev[i];
		const char *label = ev->label ? ev->label : ev->what;

		if (ev->kind == EV_NOTE)
			continue;
		m[nm].t = ev->t;
		m[nm].style = ev->kind == EV_CHANGE ? PLOT_CHANGE :
			      ev->ok ? PLOT_ACTION : PLOT_FAILED;
		if (ev->kind == EV_ACTION && !ev->ok) {
			if (asprintf(&texts[i], "%s FAILED", label) < 0)
				texts[i] = xstrdup(label);
			label = texts[i];
		}
		m[nm++].label = label;
	}
	for (i = 0; i < v->ntr; i++) {
		char **bt = &texts[l->nev + 2 * i];

		if (tr[i].nbefore) {
			if (asprintf(&bt[0], "before %.1f MB/s", tr[i].before / MB) < 0)
				bt[0] = NULL;
			lv[nlv++] = (struct plot_level){ w[i].b0, w[i].b1,
							 tr[i].before, bt[0] };
		}
		if (tr[i].nafter) {
			int a;

			if (tr[i].significant)
				a = asprintf(&bt[1], "after %.1f MB/s (\u00d7%.2f)",
					     tr[i].after / MB, tr[i].ratio);
			else
				/* "n.s.": not significant, the summary says it
				 * in full; the label must fit beside the level */
				a = asprintf(&bt[1], "after %.1f MB/s (n.s.)",
					     tr[i].after / MB);
			if (a < 0)
				bt[1] = NULL;
			lv[nlv++] = (struct plot_level){ w[i].a0, w[i].a1,
							 tr[i].after, bt[1] };
		}
	}
	d = (struct plot_data){
		.title = v->title ? v->title : "dixload",
		.s = l->samples.s, .n = l->samples.n,
		.m = m, .nm = nm, .lv = lv, .nlv = nlv,
	};
	f = fopen(path, "w");
	if (!f) {
		e = -errno;
	} else {
		e = plot_svg(f, &d);
		if (fclose(f) && !e)
			e = -errno;
	}
	for (i = 0; i < l->nev + 2 * v->ntr; i++)
		free(texts[i]);
	free(texts);
	free(m);
	free(lv);
	return e;
}

static void svg_summary(void *priv, const struct rec_summary *r)
{
	struct svg *v = priv;
	int e;

	if (!r->started)
		return;
	e = svg_write(v, v->log.path);
	if (e)
		dix_err("--plot %s: %s", v->log.path, strerror(-e));
	else if (!v->log.samples.n)
		dix_warn("--plot %s: no intervals were measured (the meter is off with --interval 0)",
			 v->log.path);
}

static void svg_close(void *priv)
{
	struct svg *v = priv;

	if (!v)
		return;
	free(v->title);
	free(v->tr);
	free(v->w);
	/* the log is the first member: it frees the block */
	sink_log_free(&v->log);
}

const struct dix_sink_ops sink_svg_ops = {
	.name = "svg",
	.start = svg_start,
	.interval = sink_log_interval,
	.event = sink_log_event,
	.change = sink_log_event,
	.transition = svg_transition,
	.summary = svg_summary,
	.close = svg_close,
};
