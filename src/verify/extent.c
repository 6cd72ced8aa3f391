// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * extent.c - coalescing bad blocks into extents, describing them, and the
 * per-worker tracker that decides when an extent is complete enough to
 * print while the load runs.
 *
 * Everything but cause_intern() is pure (no locks, no clock): the tracker
 * takes the time from its caller, so the unit tests drive it by hand.
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "verify/extent.h"
#include "lib/stats.h"
#include "lib/util.h"

/* ---- causes ---- */

static pthread_mutex_t cause_lock = PTHREAD_MUTEX_INITIALIZER;
static char **causes;
static size_t ncauses;

const char *cause_intern(const char *s)
{
	const char *r = NULL;
	size_t i;

	pthread_mutex_lock(&cause_lock);
	for (i = 0; i < ncauses && !r; i++)
		if (!strcmp(causes[i], s))
			r = causes[i];
	if (!r) {
		causes = xrealloc(causes, (ncauses + 1) * sizeof(*causes));
		r = causes[ncauses++] = xstrdup(s);
	}
	pthread_mutex_unlock(&cause_lock);
	return r;
}

/* ---- coalescing ---- */

void extent_free(struct bad_extent *e)
{
	free(e->detail);
	e->detail = NULL;
}

/* Misplaced data joins only when the source moves in step with the LBA. */
static uint64_t shift(const struct bad_extent *e)
{
	return e->has_src ? e->src - e->lba : 0;
}

int extent_join(struct bad_extent *e, struct bad_extent *b)
{
	uint64_t e_end = e->lba + e->count, b_end = b->lba + b->count;

	if (e->kind != b->kind || e->cause != b->cause ||
	    e->has_src != b->has_src || shift(e) != shift(b))
		return 0;
	if (b->lba > e_end || b_end < e->lba)
		return 0;
	if (b->lba < e->lba) {
		/* @b's first block is the extent's first block now */
		free(e->detail);
		e->detail = b->detail;
		e->byte = b->byte;
		e->expected = b->expected;
		e->found = b->found;
		e->src = b->src;
		e->lba = b->lba;
	} else {
		free(b->detail);
	}
	b->detail = NULL;
	e->count = (b_end > e_end ? b_end : e_end) - e->lba;
	return 1;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Grouping order: everything that may join is adjacent, by LBA. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct bad_extent *a = pa, *b = pb;
	int c;

	c = cmp_u64(a->kind, b->kind);
	if (!c)
		c = cmp_u64((uintptr_t)a->cause, (uintptr_t)b->cause);
	if (!c)
		c = cmp_u64(a->has_src, b->has_src);
	if (!c)
		c = cmp_u64(shift(a), shift(b));
	return c ? c : cmp_u64(a->lba, b->lba);
}

/* Report order: by kind, then LBA (then cause text, for a stable order). */
static int cmp_report(const void *pa, const void *pb)
{
	const struct bad_extent *a = pa, *b = pb;
	int c;

	c = cmp_u64(a->kind, b->kind);
	if (!c)
		c = cmp_u64(a->lba, b->lba);
	return c ? c : strcmp(a->cause, b->cause);
}

size_t extents_merge(struct bad_extent *v, size_t n)
{
	size_t i, out = 0;

	if (n < 2)
		return n;
	qsort(v, n, sizeof(*v), cmp_group);
	for (i = 0; i < n; i++) {
		if (out && extent_join(&v[out - 1], &v[i]))
			continue;
		v[out++] = v[i];
	}
	qsort(v, out, sizeof(*v), cmp_report);
	return out;
}

/* ---- text ---- */

const char *extent_size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < ARRAY_SIZE(unit) && bytes && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, unit[u]);
	return buf;
}

/* "2560-2687" or "65537" */
static void lba_range(uint64_t lba, uint64_t count, char *buf, size_t len)
{
	if (count > 1)
		snprintf(buf, len, "%" PRIu64 "-%" PRIu64, lba, lba + count - 1);
	else
		snprintf(buf, len, "%" PRIu64, lba);
}

int extent_describe(const struct bad_extent *e, uint32_t lbs, char *buf,
		    size_t len)
{
	char lbas[48], src[48], size[32], where[128];

	lba_range(e->lba, e->count, lbas, sizeof(lbas));
	if (e->count > 1)
		snprintf(where, sizeof(where), "LBA %s (%" PRIu64 " blocks, %s)",
			 lbas, e->count,
			 extent_size_text(e->count * lbs, size, sizeof(size)));
	else
		snprintf(where, sizeof(where), "LBA %s", lbas);
	if (e->has_src) {
		lba_range(e->src, e->count, src, sizeof(src));
		return snprintf(buf, len, "%s: %s: %s, holds data written for LBA %s",
				dix_errkind_name(e->kind), where, e->cause, src);
	}
	if (!strcmp(e->cause, CAUSE_CHANGED) && e->byte >= 0) {
		if (e->count == 1)
			return snprintf(buf, len,
					"%s: %s: %s at byte %d of the block, expected 0x%02x, found 0x%02x",
					dix_errkind_name(e->kind), where,
					e->cause, e->byte, e->expected,
					e->found);
		return snprintf(buf, len,
				"%s: %s: %s, first at byte %d of LBA %" PRIu64 ", expected 0x%02x, found 0x%02x",
				dix_errkind_name(e->kind), where, e->cause,
				e->byte, e->lba, e->expected, e->found);
	}
	return snprintf(buf, len, "%s: %s: %s%s%s%s", dix_errkind_name(e->kind),
			where, e->cause, e->detail ? " (" : "",
			e->detail ? e->detail : "", e->detail ? ")" : "");
}

void extent_json(struct jw *w, const struct bad_extent *e, uint32_t lbs)
{
	char text[1024];

	jw_str(w, "kind", dix_errkind_name(e->kind));
	jw_uint(w, "lba", e->lba);
	jw_uint(w, "count", e->count);
	jw_uint(w, "bytes", e->count * lbs);
	jw_str(w, "cause", e->cause);
	if (e->has_src)
		jw_uint(w, "written_for_lba", e->src);
	if (!strcmp(e->cause, CAUSE_CHANGED) && e->byte >= 0) {
		jw_int(w, "byte", e->byte);
		jw_uint(w, "expected", e->expected);
		jw_uint(w, "found", e->found);
	}
	if (e->detail)
		jw_str(w, "detail", e->detail);
	extent_describe(e, lbs, text, sizeof(text));
	jw_str(w, "text", text);
}

/* ---- the tracker ---- */

void tracker_init(struct extent_tracker *t, uint64_t lo, uint64_t hi,
		  size_t max, void (*closed)(const struct bad_extent *e,
					     void *arg), void *arg)
{
	memset(t, 0, sizeof(*t));
	t->lo = lo;
	t->hi = hi;
	t->max = max;
	t->closed = closed;
	t->arg = arg;
}

/*
 * Keep a closed extent.  When the list is full, coalescing it first gets
 * rid of repeats (a --runtime loop finds the same damage every pass);
 * beyond @max extents are counted, not kept.
 */
static void keep(struct extent_tracker *t, struct bad_extent *e)
{
	if (t->n == t->cap) {
		if (t->n >= 1024)
			t->n = extents_merge(t->v, t->n);
		if (t->n * 4 >= t->cap * 3 && t->cap < t->max) {
			t->cap = t->cap ? t->cap * 2 : 64;
			if (t->cap > t->max)
				t->cap = t->max;
			t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		}
	}
	if (t->n < t->cap) {
		t->v[t->n++] = *e;
		return;
	}
	t->dropped++;
	t->dropped_blocks += e->count;
	extent_free(e);
}

static void close_open(struct extent_tracker *t, int i)
{
	struct bad_extent e = t->open[i].e;

	t->open[i] = t->open[--t->nopen];
	if (t->closed)
		t->closed(&e, t->arg);
	keep(t, &e);
}

/*
 * Open extent @i grew: join any other open extent it now touches (a block
 * that bridged two of them), keeping the outer sides' state.
 */
static void bridge(struct extent_tracker *t, int i)
{
	int j;

	for (j = 0; j < t->nopen; j++) {
		struct extent_open a = t->open[i], c = t->open[j];

		if (j == i || !extent_join(&t->open[i].e, &t->open[j].e))
			continue;
		t->open[i].lo_done = a.e.lba <= c.e.lba ? a.lo_done : c.lo_done;
		t->open[i].hi_done = a.e.lba + a.e.count >= c.e.lba + c.e.count ?
				     a.hi_done : c.hi_done;
		if (c.touched > t->open[i].touched)
			t->open[i].touched = c.touched;
		t->open[j] = t->open[--t->nopen];
		if (i == t->nopen)
			i = j;		/* @i was the last: it moved to @j */
		j = -1;			/* it may touch another one now */
	}
}

/* Was LBA @lba checked recently (in one of the remembered ranges)? */
static int seen(const struct extent_tracker *t, uint64_t lba)
{
	unsigned int i, n = t->nseen < EXTENT_HISTORY ? t->nseen : EXTENT_HISTORY;

	for (i = 0; i < n; i++)
		if (lba >= t->seen[i][0] && lba < t->seen[i][1])
			return 1;
	return 0;
}

/* The side state of an extent from [@lba, @end): the slice ends, history. */
static int lo_known(const struct extent_tracker *t, uint64_t lba)
{
	return lba <= t->lo || seen(t, lba - 1);
}

static int hi_known(const struct extent_tracker *t, uint64_t end)
{
	return end >= t->hi || seen(t, end);
}

void tracker_add(struct extent_tracker *t, struct bad_extent *b, double now)
{
	uint64_t end = b->lba + b->count;
	int i, oldest;

	for (i = 0; i < t->nopen; i++) {
		struct extent_open *o = &t->open[i];
		uint64_t lba = o->e.lba, oend = o->e.lba + o->e.count;

		if (!extent_join(&o->e, b))
			continue;
		if (o->e.lba < lba)
			o->lo_done = lo_known(t, o->e.lba);
		if (o->e.lba + o->e.count > oend)
			o->hi_done = hi_known(t, o->e.lba + o->e.count);
		o->touched = now;
		bridge(t, i);
		return;
	}
	if (t->nopen == EXTENT_OPEN_MAX) {
		for (i = 1, oldest = 0; i < t->nopen; i++)
			if (t->open[i].touched < t->open[oldest].touched)
				oldest = i;
		close_open(t, oldest);
	}
	t->open[t->nopen].e = *b;
	t->open[t->nopen].touched = now;
	t->open[t->nopen].lo_done = lo_known(t, b->lba);
	t->open[t->nopen].hi_done = hi_known(t, end);
	t->nopen++;
	b->detail = NULL;
}

void tracker_close_checked(struct extent_tracker *t, uint64_t lba,
			   uint64_t end, double now)
{
	int i;

	/* backwards: close_open() moves the last entry into the hole */
	for (i = t->nopen - 1; i >= 0; i--) {
		struct extent_open *o = &t->open[i];
		uint64_t below = o->e.lba - 1, after = o->e.lba + o->e.count;

		if (o->e.lba > 0 && below >= lba && below < end)
			o->lo_done = 1;
		if (after >= lba && after < end)
			o->hi_done = 1;
		if ((o->lo_done && o->hi_done) ||
		    now - o->touched >= EXTENT_OPEN_SECONDS)
			close_open(t, i);
	}
}

void tracker_close_all(struct extent_tracker *t)
{
	int i, first;

	/* in LBA order, so the live print reads in order */
	while (t->nopen) {
		for (i = 1, first = 0; i < t->nopen; i++)
			if (t->open[i].e.lba < t->open[first].e.lba)
				first = i;
		close_open(t, first);
	}
}

void tracker_free(struct extent_tracker *t)
{
	size_t i;
	int k;

	for (i = 0; i < t->n; i++)
		extent_free(&t->v[i]);
	for (k = 0; k < t->nopen; k++)
		extent_free(&t->open[k].e);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
	t->nopen = 0;
}
