// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis.c - from a run's events and intervals to its transitions.
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

#include "report/analysis.h"
#include "lib/util.h"

#define FOLD_SEC 2.0

static int is_selection_change(const struct dix_event *e)
{
	return e->kind == EV_CHANGE && (e->data.type == EVD_TRANSFORM ||
					e->data.type == EVD_DRIVER);
}

static int cmp_event(const void *a, const void *b, void *arg)
{
	const struct dix_event *ev = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (ev[x].t != ev[y].t)
		return ev[x].t < ev[y].t ? -1 : 1;
	return x - y;
}

/*
 * Indices of the events that get a transition row, in time order.  An
 * event at or after @t_end, the end of the last interval measured, gets
 * none: nothing was measured after it, so its row could only say "too few
 * steady intervals".  These are the restores a run makes once its load has
 * stopped (--priority, --sysfs); the event log still lists them.
 */
static int candidates(const struct dix_event *ev, int nev, double t_end,
		      int **out)
{
	int *ord = xmalloc((nev + 1) * sizeof(*ord));
	int *c = xmalloc((nev + 1) * sizeof(*c));
	int i, j, n = 0;

	for (i = 0; i < nev; i++)
		ord[i] = i;
	qsort_r(ord, nev, sizeof(*ord), cmp_event, (void *)ev);
	for (i = 0; i < nev; i++) {
		const struct dix_event *e = &ev[ord[i]];
		int folded = 0;

		if (e->t >= t_end)
			continue;
		if (e->kind == EV_ACTION && e->ok == 1) {
			c[n++] = ord[i];
			continue;
		}
		if (!is_selection_change(e))
			continue;
		for (j = 0; j < nev && !folded; j++) {
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

int analysis_transitions(const struct dix_event *ev, int nev,
			 const struct sample_log *l, uint32_t lbs, int verify,
			 struct dix_transition **tr, struct tr_window **w)
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
	n = candidates(ev, nev, l->s[l->n - 1].t, &c);
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
				.share = verify && lbs ?
					 share : NULL,
				.reads = reads };
	tr_params_default(&p);
	*tr = xcalloc(n, sizeof(**tr));
	if (w)
		*w = xcalloc(n, sizeof(**w));
	for (k = 0; k < n; k++) {
		double lo = k ? ev[c[k - 1]].t : 0;
		double hi = k + 1 < n ? ev[c[k + 1]].t : INFINITY;

		tr_analyse(&s, ev[c[k]].t, lo, hi, &p, &(*tr)[k],
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
