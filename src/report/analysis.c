// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis.c - from a run's events and intervals to its transitions, the
 * --plot SVG and the --log CSV.
 *
 * Which events get a transition row: every action that succeeded, and every
 * transform or driver selection change that no action explains.  A change
 * observed within 2 s after an action that succeeded (plus the action's own
 * duration) is that action's doing - crc_t10dif switches its transform a
 * moment after crct10dif_pclmul registers, the next watch tick sees it - so
 * it is folded into the action's row; a burst of changes seen together
 * (one module load replacing six AES drivers) is one row too.  One real
 * transition, one row.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/csvlog.h"
#include "report/analysis.h"
#include "lib/parse.h"
#include "report/plot.h"
#include "core/run.h"
#include "report/transition.h"
#include "lib/util.h"

#define FOLD_SEC 2.0
#define MB 1e6

static int is_selection_change(const struct dix_event *e)
{
	return e->kind == EV_CHANGE && e->json &&
	       (strstr(e->json, "\"change\":\"transform\"") ||
		strstr(e->json, "\"change\":\"driver\""));
}

static int cmp_event(const void *a, const void *b, void *arg)
{
	const struct dix_event *ev = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (ev[x].t != ev[y].t)
		return ev[x].t < ev[y].t ? -1 : 1;
	return x - y;
}

/* Indices of the events that get a transition row, in time order. */
static int candidates(const struct dix_run *r, int **out)
{
	const struct dix_event *ev = r->events;
	int *ord = xmalloc((r->nevents + 1) * sizeof(*ord));
	int *c = xmalloc((r->nevents + 1) * sizeof(*c));
	int i, j, n = 0;

	for (i = 0; i < r->nevents; i++)
		ord[i] = i;
	qsort_r(ord, r->nevents, sizeof(*ord), cmp_event, (void *)ev);
	for (i = 0; i < r->nevents; i++) {
		const struct dix_event *e = &ev[ord[i]];
		int folded = 0;

		if (e->kind == EV_ACTION && e->ok == 1) {
			c[n++] = ord[i];
			continue;
		}
		if (!is_selection_change(e))
			continue;
		for (j = 0; j < r->nevents && !folded; j++) {
			const struct dix_event *a = &ev[j];

			folded = a->kind == EV_ACTION && a->ok == 1 &&
				 e->t >= a->t &&
				 e->t <= a->t + fmax(a->duration, 0) + FOLD_SEC;
		}
		if (!folded && n && ev[c[n - 1]].kind == EV_CHANGE &&
		    e->t - ev[c[n - 1]].t <= FOLD_SEC)
			folded = 1;
		if (!folded)
			c[n++] = ord[i];
	}
	free(ord);
	*out = c;
	return n;
}

/*
 * Analyse every candidate; @w (may be NULL) receives the spans used.
 * Return: the number of transitions in *@tr (malloc'ed).
 */
static int analyse(const struct dix_run *r, const struct sample_log *l,
		   uint32_t lbs, struct dix_transition **tr,
		   struct tr_window **w)
{
	double *t, *dt, *y, *share, *reads;
	struct tr_series s;
	struct tr_params p;
	int *c, n, k;
	size_t i;

	*tr = NULL;
	if (w)
		*w = NULL;
	/* nothing was measured (--interval 0): nothing to compare */
	if (!l->n)
		return 0;
	n = candidates(r, &c);
	if (!n) {
		free(c);
		return 0;
	}
	t = xmalloc(l->n * sizeof(*t));
	dt = xmalloc(l->n * sizeof(*dt));
	y = xmalloc(l->n * sizeof(*y));
	share = xmalloc(l->n * sizeof(*share));
	reads = xmalloc(l->n * sizeof(*reads));
	for (i = 0; i < l->n; i++) {
		/* blocks read in the interval: headers are checked per block */
		double blocks = lbs ? l->s[i].read_bps * l->s[i].dt / lbs : 0;

		t[i] = l->s[i].t;
		dt[i] = l->s[i].dt;
		y[i] = l->s[i].read_bps + l->s[i].write_bps;
		share[i] = blocks >= 1 ? l->s[i].unwritten / blocks : NAN;
		/* the samples carry running totals */
		reads[i] = l->s[i].tot.ops[DIX_READ] -
			   (i ? l->s[i - 1].tot.ops[DIX_READ] : 0);
	}
	/* without verification nothing counts never-written blocks */
	s = (struct tr_series){ .t = t, .dt = dt, .y = y, .n = l->n,
				.share = r->o->verify != VERIFY_OFF && lbs ?
					 share : NULL,
				.reads = reads };
	tr_params_default(&p);
	*tr = xcalloc(n, sizeof(**tr));
	if (w)
		*w = xcalloc(n, sizeof(**w));
	for (k = 0; k < n; k++) {
		double lo = k ? r->events[c[k - 1]].t : 0;
		double hi = k + 1 < n ? r->events[c[k + 1]].t : INFINITY;

		tr_analyse(&s, r->events[c[k]].t, lo, hi, &p, &(*tr)[k],
			   w ? &(*w)[k] : NULL);
		(*tr)[k].event = c[k];
	}
	free(t);
	free(dt);
	free(y);
	free(share);
	free(reads);
	free(c);
	return n;
}

/*
 * The logical block size the never-written share of @r's total is counted
 * in: the devices' common one; 0 (no share) when they differ.
 */
static uint32_t total_lbs(const struct dix_run *r)
{
	int k;

	for (k = 1; k < r->ndevs; k++)
		if (r->devs[k].t.lbs != r->devs[0].t.lbs)
			return 0;
	return r->devs[0].t.lbs;
}

void analysis_run(struct dix_run *r)
{
	int k;

	free(r->transitions);
	r->ntransitions = analyse(r, &r->samples, total_lbs(r),
				  &r->transitions, NULL);
	/* each device's own throughput around the same events */
	for (k = 0; r->ndevs > 1 && k < r->ndevs; k++) {
		struct dix_dev *d = &r->devs[k];

		free(d->transitions);
		d->ntransitions = analyse(r, &d->samples, d->t.lbs,
					  &d->transitions, NULL);
	}
}

/* "dixload /dev/sda: randrw 256k QD1 x1, T10-DIF-TYPE1-CRC, profile dif1" */
static char *plot_title(const struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	char bs[32], *s = NULL;

	format_size(o->bs, bs, sizeof(bs));
	if (asprintf(&s, "dixload %s: %s %s QD%llu x%llu, %s%s%s",
		     r->ndevs > 1 ? o->dev : r->devs[0].t.path, rw_names[o->rw], bs,
		     (unsigned long long)o->iodepth,
		     (unsigned long long)o->jobs, r->devs[0].t.integrity.format,
		     o->profile ? ", profile " : "",
		     o->profile ? o->profile : "") < 0)
		return xstrdup("dixload");
	return s;
}

static int write_plot(struct dix_run *r, const char *path)
{
	struct plot_marker *m = xcalloc(r->nevents + 1, sizeof(*m));
	struct plot_level *lv;
	struct dix_transition *tr;
	struct tr_window *w;
	struct plot_data d;
	char **texts;
	int nt, i, nm = 0, nlv = 0, e = 0;
	FILE *f;

	nt = analyse(r, &r->samples, total_lbs(r), &tr, &w);
	lv = xcalloc(2 * nt + 1, sizeof(*lv));
	texts = xcalloc(r->nevents + 2 * nt + 1, sizeof(*texts));
	for (i = 0; i < r->nevents; i++) {
		const struct dix_event *ev = &r->events[i];
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
	for (i = 0; i < nt; i++) {
		char **bt = &texts[r->nevents + 2 * i];

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
		.title = plot_title(r), .s = r->samples.s, .n = r->samples.n,
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
	if (e)
		dix_err("--plot %s: %s", path, strerror(-e));
	else if (!r->samples.n)
		dix_warn("--plot %s: no intervals were measured (the meter is off with --interval 0)",
			 path);
	for (i = 0; i < r->nevents + 2 * nt; i++)
		free(texts[i]);
	free(texts);
	free((char *)d.title);
	free(m);
	free(lv);
	free(tr);
	free(w);
	return e;
}

static int write_log(struct dix_run *r, const char *path)
{
	FILE *f = fopen(path, "w");
	int e;

	if (!f) {
		e = -errno;
	} else {
		e = csv_write(f, r->samples.s, r->samples.n, r->events,
			      r->nevents);
		if (fclose(f) && !e)
			e = -errno;
	}
	if (e)
		dix_err("--log %s: %s", path, strerror(-e));
	return e;
}

int analysis_write_files(struct dix_run *r)
{
	int e = 0, e2 = 0;

	if (r->o->plot)
		e = write_plot(r, r->o->plot);
	if (r->o->log)
		e2 = write_log(r, r->o->log);
	return e ? e : e2;
}
