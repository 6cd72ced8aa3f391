// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * event.c - copying, releasing and packing events.  The run keeps every
 * event, the sinks that render after the load (CSV, SVG) keep their own
 * copies, and an MPI rank sends its events to rank 0, so an event and the
 * facts it carries (struct dix_evdata) must outlive the producer's
 * buffers and cross a process boundary whole.
 *
 * The packed form is the members in a fixed order: numbers as their bytes,
 * strings as a 32-bit length (0: NULL, else strlen + 1) and their bytes.
 * Only one build reads what it wrote (mpijob.h checks the ranks' builds).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event.h"
#include "lib/util.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static char **strs_copy(char *const *v, int n)
{
	char **c = n ? xcalloc(n, sizeof(*c)) : NULL;
	int i;

	for (i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

static void alg_copy(struct dix_ev_alg *dst, const struct dix_ev_alg *src)
{
	dst->name = dup_or_null(src->name);
	dst->driver = dup_or_null(src->driver);
	dst->priority = src->priority;
	dst->module = dup_or_null(src->module);
}

static struct dix_ev_alg *algs_copy(const struct dix_ev_alg *v, int n)
{
	struct dix_ev_alg *c = n ? xcalloc(n, sizeof(*c)) : NULL;
	int i;

	for (i = 0; i < n; i++)
		alg_copy(&c[i], &v[i]);
	return c;
}

void dix_evdata_copy(struct dix_evdata *dst, const struct dix_evdata *src)
{
	int k;

	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->from = dup_or_null(src->from);
	dst->to = dup_or_null(src->to);
	for (k = 0; k < 2; k++)
		dst->sel[k] = src->sel[k] ? algs_copy(src->sel[k], 1) : NULL;
	dst->loaded = strs_copy(src->loaded, src->nloaded);
	dst->unloaded = strs_copy(src->unloaded, src->nunloaded);
	dst->added = algs_copy(src->added, src->nadded);
	dst->removed = algs_copy(src->removed, src->nremoved);
	dst->resolved = dup_or_null(src->resolved);
	dst->call = dup_or_null(src->call);
	dst->err = dup_or_null(src->err);
	dst->driver = dup_or_null(src->driver);
	dst->alg = dup_or_null(src->alg);
	dst->sels = src->nsels ? xcalloc(src->nsels, sizeof(*dst->sels)) : NULL;
	for (k = 0; k < src->nsels; k++) {
		int j;

		dst->sels[k].algorithm = dup_or_null(src->sels[k].algorithm);
		for (j = 0; j < 2; j++)
			dst->sels[k].sel[j] = src->sels[k].sel[j] ?
				algs_copy(src->sels[k].sel[j], 1) : NULL;
	}
}

static void strs_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void algs_free(struct dix_ev_alg *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].driver);
		free(v[i].module);
	}
	free(v);
}

void dix_evdata_clear(struct dix_evdata *d)
{
	int k;

	free(d->name);
	free(d->from);
	free(d->to);
	algs_free(d->sel[0], d->sel[0] ? 1 : 0);
	algs_free(d->sel[1], d->sel[1] ? 1 : 0);
	strs_free(d->loaded, d->nloaded);
	strs_free(d->unloaded, d->nunloaded);
	algs_free(d->added, d->nadded);
	algs_free(d->removed, d->nremoved);
	free(d->resolved);
	free(d->call);
	free(d->err);
	free(d->driver);
	free(d->alg);
	for (k = 0; k < d->nsels; k++) {
		free(d->sels[k].algorithm);
		algs_free(d->sels[k].sel[0], d->sels[k].sel[0] ? 1 : 0);
		algs_free(d->sels[k].sel[1], d->sels[k].sel[1] ? 1 : 0);
	}
	free(d->sels);
	memset(d, 0, sizeof(*d));
}

void dix_event_copy(struct dix_event *dst, const struct dix_event *src)
{
	*dst = *src;
	dst->what = xstrdup(src->what ? src->what : "");
	dst->detail = dup_or_null(src->detail);
	dix_evdata_copy(&dst->data, &src->data);
	dst->label = dup_or_null(src->label);
	dst->host = dup_or_null(src->host);
}

void dix_event_clear(struct dix_event *e)
{
	free(e->what);
	free(e->detail);
	dix_evdata_clear(&e->data);
	free(e->label);
	free(e->host);
	memset(e, 0, sizeof(*e));
}

/* --------------------------------------------------------------------- */
/* packing */

struct out {
	char **buf;
	size_t *len;
};

static void put(struct out *o, const void *p, size_t n)
{
	*o->buf = xrealloc(*o->buf, *o->len + n);
	memcpy(*o->buf + *o->len, p, n);
	*o->len += n;
}

static void put_str(struct out *o, const char *s)
{
	uint32_t n = s ? strlen(s) + 1 : 0;

	put(o, &n, sizeof(n));
	if (n)
		put(o, s, n);
}

static void put_alg(struct out *o, const struct dix_ev_alg *a)
{
	put_str(o, a->name);
	put_str(o, a->driver);
	put(o, &a->priority, sizeof(a->priority));
	put_str(o, a->module);
}

void dix_event_pack(const struct dix_event *e, char **buf, size_t *len)
{
	const struct dix_evdata *d = &e->data;
	struct out o = { buf, len };
	int i, k, have;

	put(&o, &e->t, sizeof(e->t));
	put(&o, &e->kind, sizeof(e->kind));
	put(&o, &e->ok, sizeof(e->ok));
	put(&o, &e->duration, sizeof(e->duration));
	put_str(&o, e->what);
	put_str(&o, e->detail);
	put_str(&o, e->label);
	put(&o, &d->type, sizeof(d->type));
	put_str(&o, d->name);
	put_str(&o, d->from);
	put_str(&o, d->to);
	for (k = 0; k < 2; k++) {
		have = d->sel[k] != NULL;
		put(&o, &have, sizeof(have));
		if (have)
			put_alg(&o, d->sel[k]);
	}
	put(&o, &d->nloaded, sizeof(int));
	for (i = 0; i < d->nloaded; i++)
		put_str(&o, d->loaded[i]);
	put(&o, &d->nunloaded, sizeof(int));
	for (i = 0; i < d->nunloaded; i++)
		put_str(&o, d->unloaded[i]);
	put(&o, &d->nadded, sizeof(int));
	for (i = 0; i < d->nadded; i++)
		put_alg(&o, &d->added[i]);
	put(&o, &d->nremoved, sizeof(int));
	for (i = 0; i < d->nremoved; i++)
		put_alg(&o, &d->removed[i]);
	put_str(&o, d->resolved);
	put_str(&o, d->call);
	put(&o, &d->returned, sizeof(d->returned));
	put_str(&o, d->err);
	put(&o, &d->seconds, sizeof(d->seconds));
	put_str(&o, d->driver);
	put_str(&o, d->alg);
	put(&o, &d->prio_from, sizeof(d->prio_from));
	put(&o, &d->prio_to, sizeof(d->prio_to));
	put(&o, &d->pflags, sizeof(d->pflags));
	put(&o, &d->nsels, sizeof(int));
	for (i = 0; i < d->nsels; i++) {
		put_str(&o, d->sels[i].algorithm);
		for (k = 0; k < 2; k++) {
			have = d->sels[i].sel[k] != NULL;
			put(&o, &have, sizeof(have));
			if (have)
				put_alg(&o, d->sels[i].sel[k]);
		}
	}
}

struct in {
	const char *p, *end;
	int bad;
};

static void get(struct in *in, void *v, size_t n)
{
	if (in->bad || (size_t)(in->end - in->p) < n) {
		in->bad = 1;
		memset(v, 0, n);
		return;
	}
	memcpy(v, in->p, n);
	in->p += n;
}

static char *get_str(struct in *in)
{
	uint32_t n;
	char *s;

	get(in, &n, sizeof(n));
	if (!n || in->bad)
		return NULL;
	if ((size_t)(in->end - in->p) < n || in->p[n - 1]) {
		in->bad = 1;
		return NULL;
	}
	s = xstrdup(in->p);
	in->p += n;
	return s;
}

static void get_alg(struct in *in, struct dix_ev_alg *a)
{
	a->name = get_str(in);
	a->driver = get_str(in);
	get(in, &a->priority, sizeof(a->priority));
	a->module = get_str(in);
}

/* A count that the bytes left could hold (each entry takes 4 or more). */
static int get_count(struct in *in)
{
	int n;

	get(in, &n, sizeof(n));
	if (n < 0 || (size_t)n > (size_t)(in->end - in->p) / 4) {
		in->bad = 1;
		return 0;
	}
	return n;
}

int dix_event_unpack(const char **p, const char *end, struct dix_event *e)
{
	struct in in = { *p, end, 0 };
	struct dix_evdata *d = &e->data;
	int i, k, have;

	memset(e, 0, sizeof(*e));
	get(&in, &e->t, sizeof(e->t));
	get(&in, &e->kind, sizeof(e->kind));
	get(&in, &e->ok, sizeof(e->ok));
	get(&in, &e->duration, sizeof(e->duration));
	e->what = get_str(&in);
	e->detail = get_str(&in);
	e->label = get_str(&in);
	get(&in, &d->type, sizeof(d->type));
	d->name = get_str(&in);
	d->from = get_str(&in);
	d->to = get_str(&in);
	for (k = 0; k < 2; k++) {
		get(&in, &have, sizeof(have));
		if (have && !in.bad) {
			d->sel[k] = xcalloc(1, sizeof(*d->sel[k]));
			get_alg(&in, d->sel[k]);
		}
	}
	d->nloaded = get_count(&in);
	d->loaded = d->nloaded ? xcalloc(d->nloaded, sizeof(char *)) : NULL;
	for (i = 0; i < d->nloaded; i++)
		d->loaded[i] = get_str(&in);
	d->nunloaded = get_count(&in);
	d->unloaded = d->nunloaded ? xcalloc(d->nunloaded, sizeof(char *)) : NULL;
	for (i = 0; i < d->nunloaded; i++)
		d->unloaded[i] = get_str(&in);
	d->nadded = get_count(&in);
	d->added = d->nadded ? xcalloc(d->nadded, sizeof(*d->added)) : NULL;
	for (i = 0; i < d->nadded; i++)
		get_alg(&in, &d->added[i]);
	d->nremoved = get_count(&in);
	d->removed = d->nremoved ? xcalloc(d->nremoved, sizeof(*d->removed)) : NULL;
	for (i = 0; i < d->nremoved; i++)
		get_alg(&in, &d->removed[i]);
	d->resolved = get_str(&in);
	d->call = get_str(&in);
	get(&in, &d->returned, sizeof(d->returned));
	d->err = get_str(&in);
	get(&in, &d->seconds, sizeof(d->seconds));
	d->driver = get_str(&in);
	d->alg = get_str(&in);
	get(&in, &d->prio_from, sizeof(d->prio_from));
	get(&in, &d->prio_to, sizeof(d->prio_to));
	get(&in, &d->pflags, sizeof(d->pflags));
	d->nsels = get_count(&in);
	d->sels = d->nsels ? xcalloc(d->nsels, sizeof(*d->sels)) : NULL;
	for (i = 0; i < d->nsels; i++) {
		d->sels[i].algorithm = get_str(&in);
		for (k = 0; k < 2; k++) {
			get(&in, &have, sizeof(have));
			if (have && !in.bad) {
				d->sels[i].sel[k] = xcalloc(1, sizeof(*d->sels[i].sel[k]));
				get_alg(&in, d->sels[i].sel[k]);
			}
		}
	}
	if (!e->what && !in.bad)
		e->what = xstrdup("");
	if (in.bad) {
		/* strs_free() needs whole arrays: NULL entries free fine */
		dix_event_clear(e);
		return -1;
	}
	*p = in.p;
	return 0;
}
