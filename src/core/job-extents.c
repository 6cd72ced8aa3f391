// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-extents.c - what a worker reports of the failures it finds: bad
 * extents (counted, one --error-log line each at once, kept by the tracker
 * and printed when they close) and the notes of retried I/Os.
 *
 * A failure is rare next to the I/Os around it, so these are plain calls
 * out of the depth loop; what the loop does per I/O stays in job-loop.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job-extents.h"
#include "lib/json.h"
#include "lib/util.h"

/* Retry notes printed per worker before they are only counted. */
#define NOTE_PRINT_LIMIT	20

void print_note(struct wctx *x, const char *msg)
{
	if (x->notes >= NOTE_PRINT_LIMIT)
		return;
	pthread_mutex_lock(&x->r->lock);
	fprintf(stderr, "dixload: %s%s%s\n", dev_prefix(x), x->r->ndevs > 1 ?
		": " : "", msg);
	if (++x->notes == NOTE_PRINT_LIMIT)
		fprintf(stderr,
			"dixload: job %d: further retries are not announced\n",
			x->w->id);
	pthread_mutex_unlock(&x->r->lock);
}

/*
 * Print the closed extent while fewer than --max-report extents have been
 * printed in the whole run, then say once that the rest are only counted.
 */
void job_extent_closed(const struct bad_extent *e, void *arg)
{
	struct wctx *x = arg;
	uint64_t max = x->o->max_report;
	uint64_t n = __atomic_add_fetch(&x->r->extents_closed, 1,
					__ATOMIC_RELAXED);
	char line[1024];

	if (n > max + 1)
		return;
	pthread_mutex_lock(&x->r->lock);
	if (n <= max) {
		extent_describe(e, x->lbs, line, sizeof(line));
		fprintf(stderr, "dixload: %s%s%s\n", dev_prefix(x),
			x->r->ndevs > 1 ? ": " : "", line);
	} else {
		fprintf(stderr,
			"dixload: further bad extents are counted, not printed (--max-report %llu)\n",
			(unsigned long long)max);
	}
	pthread_mutex_unlock(&x->r->lock);
}

/* One --error-log line; flushed when the I/O is released. */
static void log_bad(struct wctx *x, const struct bad_extent *b)
{
	struct jw w;

	pthread_mutex_lock(&x->r->errlog_lock);
	jw_init(&w, x->r->errlog);
	jw_obj_open(&w, NULL);
	jw_num(&w, "t", run_elapsed(x->r), 3);
	if (x->r->ndevs > 1)
		jw_str(&w, "dev", x->w->dev->path);
	jw_int(&w, "job", x->w->id);
	jw_uint(&w, "offset", b->lba * x->lbs);
	extent_json(&w, b, x->lbs);
	jw_obj_close(&w);
	fputc('\n', x->r->errlog);
	pthread_mutex_unlock(&x->r->errlog_lock);
	x->logged++;
}

void errlog_flush(struct wctx *x)
{
	pthread_mutex_lock(&x->r->errlog_lock);
	fflush(x->r->errlog);
	pthread_mutex_unlock(&x->r->errlog_lock);
	x->logged = 0;
}

void record_bad(struct wctx *x, struct bad_extent *b)
{
	struct dix_worker *w = x->w;

	cadd(&w->c.errors[b->kind], 1);
	if (x->r->errlog)
		log_bad(x, b);
	tracker_add(&w->ext, b, dix_now());
	if (x->o->max_errors && counters_errors(&w->c) >= x->o->max_errors)
		run_request_stop(x->r);
}

void bad_init(const struct wctx *x, struct bad_extent *b, int kind,
	      uint64_t offset, uint64_t count, const char *cause)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->lba = offset / x->lbs;
	b->count = count;
	b->byte = -1;
	b->cause = cause_intern(cause);
}

/*
 * The cause names the failed check in words with the device's code ("read
 * failed: guard check failed (ASC 10/01)"), or the errno in words, EILSEQ
 * as "integrity check failed (EILSEQ)"; what the device said goes in the
 * detail.
 */
void failure_extent(const struct wctx *x, const struct dix_io *io, int kind,
		    struct bad_extent *b)
{
	const char *dir = devdesc_verb(&x->w->dev->t, io->dir != DIX_READ);
	const char *check = dix_errkind_check(kind);
	char cause[160];

	if (x->w->dev->t.self_checked && kind == DIX_ERR_VERIFY &&
	    io->status[0])
		snprintf(cause, sizeof(cause), "%s: %s check failed", dir,
			 io->status);
	else if (io->res >= 0)
		snprintf(cause, sizeof(cause), "short %s", dir);
	else if (check && io->status[0])
		snprintf(cause, sizeof(cause), "%s failed: %s (%s)", dir, check,
			 io->status);
	else
		snprintf(cause, sizeof(cause), "%s failed: %s", dir,
			 dix_io_strerror(-io->res));
	bad_init(x, b, kind, io->offset, io->len / x->lbs, cause);
	if (io->res >= 0) {
		if (asprintf(&b->detail, "%d of %u bytes", io->res,
			     io->len) < 0)
			b->detail = NULL;
	} else if (io->detail[0]) {
		b->detail = strndup(io->detail, sizeof(io->detail));
	} else if (kind == DIX_ERR_UNKNOWN) {
		b->detail = strdup("the block layer does not say which tag");
	}
}
