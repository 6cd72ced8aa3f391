// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink.c - the registry of sinks: which ones a run's options ask for, and
 * every record handed to each of them in registration order.
 *
 * Registration order is output order: the human or JSON lines come first,
 * then their --output copy, then --plot, then --log, then --lat-log, as the files were written before the records
 * had sinks (a --plot failure's message comes before a --log one's).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report/sink.h"

int sinks_add(struct dix_sinks *s, const struct dix_sink_ops *ops,
	      void *priv)
{
	if (s->n >= DIX_SINKS_MAX)
		return -ENOSPC;
	s->v[s->n].ops = ops;
	s->v[s->n].priv = priv;
	s->n++;
	return 0;
}

int sinks_open(struct dix_sinks *s, const struct dix_opts *o, int silent,
	       FILE *output)
{
	int e = 0;

	/* --output first: a launcher that stops reading stdout once it is
	 * signalled (mpirun aborting a job) blocks a write there, and the
	 * file must already hold the record by then */
	if (output)
		e = sinks_add(s, &sink_output_ops, sink_output_new(output, o));
	if (!e && !silent)
		e = sinks_add(s, o->format == OUT_JSON ? &sink_json_ops :
			      &sink_human_ops, NULL);
	if (silent)
		return e;
	if (!e && o->plot)
		e = sinks_add(s, &sink_svg_ops, sink_svg_new(o->plot));
	if (!e && o->log)
		e = sinks_add(s, &sink_csv_ops, sink_csv_new(o->log));
	if (!e && o->lat_log)
		e = sinks_add(s, &sink_latlog_ops, sink_latlog_new(o->lat_log));
	if (!e && (o->bw_log || o->iops_log))
		e = sinks_add(s, &sink_fiolog_ops,
			      sink_fiolog_new(o->bw_log, o->iops_log,
					      rw_reads(o->rw), rw_writes(o->rw)));
	return e;
}

void sinks_close(struct dix_sinks *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].ops->close)
			s->v[i].ops->close(s->v[i].priv);
	memset(s, 0, sizeof(*s));
}

/* Each record kind to every sink that has an op for it. */
#define SINKS_EACH(s, op, rec)						\
	do {								\
		int i_;							\
		for (i_ = 0; i_ < (s)->n; i_++)				\
			if ((s)->v[i_].ops->op)				\
				(s)->v[i_].ops->op((s)->v[i_].priv, rec); \
	} while (0)

void sinks_start(struct dix_sinks *s, const struct rec_start *r)
{
	SINKS_EACH(s, start, r);
}

void sinks_precond_progress(struct dix_sinks *s,
			    const struct rec_precond_progress *r)
{
	SINKS_EACH(s, precond_progress, r);
}

void sinks_precond(struct dix_sinks *s, const struct rec_precond *r)
{
	SINKS_EACH(s, precond, r);
}

void sinks_interval(struct dix_sinks *s, const struct rec_interval *r)
{
	SINKS_EACH(s, interval, r);
}

void sinks_event(struct dix_sinks *s, const struct dix_event *r)
{
	if (r->kind == EV_CHANGE)
		SINKS_EACH(s, change, r);
	else
		SINKS_EACH(s, event, r);
}

void sinks_transition(struct dix_sinks *s, const struct rec_transition *r)
{
	SINKS_EACH(s, transition, r);
}

void sinks_summary(struct dix_sinks *s, const struct rec_summary *r)
{
	SINKS_EACH(s, summary, r);
}

struct sink_log *sink_log_new(const char *path)
{
	struct sink_log *l = xcalloc(1, sizeof(*l));

	l->path = xstrdup(path);
	return l;
}

void sink_log_interval(void *log, const struct rec_interval *r)
{
	struct sink_log *l = log;

	sample_log_add(&l->samples, r->s);
}

void sink_log_event(void *log, const struct dix_event *ev)
{
	struct sink_log *l = log;

	l->ev = xrealloc(l->ev, (l->nev + 1) * sizeof(*l->ev));
	dix_event_copy(&l->ev[l->nev++], ev);
}

void sink_log_free(void *log)
{
	struct sink_log *l = log;
	int i;

	if (!l)
		return;
	for (i = 0; i < l->nev; i++)
		dix_event_clear(&l->ev[i]);
	free(l->ev);
	sample_log_free(&l->samples);
	free(l->path);
	free(l);
}

const char *exit_status_text(int status)
{
	switch (status) {
	case DIX_EXIT_OK:
		return "success";
	case DIX_EXIT_USAGE:
		return "usage or setup error, or nothing measured";
	case DIX_EXIT_IO:
		return "I/O errors";
	case DIX_EXIT_INTEGRITY:
		return "integrity errors (PI or data verification)";
	case DIX_EXIT_ACTION:
		return "a scheduled action failed";
	case DIX_EXIT_REGRESSION:
		return "run B regressed beyond the threshold";
	case DIX_EXIT_STOPPED:
		return "stopped by a signal before the load's end";
	}
	return "unknown";
}

const char *stop_signal_name(int sig, char *buf, size_t len)
{
	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, len, "SIG%d", sig);
	return buf;
}

/*
 * t->ext is sorted by kind, then LBA: extent @i is listed when fewer than
 * @max_report of its kind come before it.
 */
int rec_extent_listed(const struct dix_totals *t, size_t i,
		      uint64_t max_report)
{
	size_t first = i;

	while (first && t->ext[first - 1].kind == t->ext[i].kind)
		first--;
	return i - first < max_report;
}
