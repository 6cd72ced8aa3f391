/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.h - where the records (record.h) go: sinks registered when the run
 * starts, each rendering the records it wants in its own format.
 *
 * A new output is one file with one designated-initialiser ops struct; an
 * op left NULL is a record kind that sink has no use for.  The run calls
 * sinks_*() with its lock held, so the lines of different records never
 * interleave, and in registration order, so what one sink prints on
 * stdout and another's messages on stderr keep the order they had.
 */
#ifndef DIX_SINK_H
#define DIX_SINK_H

#include <stdio.h>

#include "report/record.h"

/**
 * struct dix_sink_ops - one output format.
 * @name: for messages ("human", "json", "csv", "svg")
 * @start: the run starts (the first record)
 * @precond_progress: preconditioning so far
 * @precond: what preconditioning of one target did
 * @interval: one meter interval
 * @event: an action or a note (struct dix_event, kind EV_ACTION/EV_NOTE)
 * @change: something the kernel watch saw change (kind EV_CHANGE)
 * @transition: a transition found after the load (before the summary)
 * @summary: the end of the run (the last record)
 * @close: release @priv (NULL: nothing to release)
 */
struct dix_sink_ops {
	const char *name;
	void (*start)(void *priv, const struct rec_start *r);
	void (*precond_progress)(void *priv,
				 const struct rec_precond_progress *r);
	void (*precond)(void *priv, const struct rec_precond *r);
	void (*interval)(void *priv, const struct rec_interval *r);
	void (*event)(void *priv, const struct dix_event *r);
	void (*change)(void *priv, const struct dix_event *r);
	void (*transition)(void *priv, const struct rec_transition *r);
	void (*summary)(void *priv, const struct rec_summary *r);
	void (*close)(void *priv);
};

/* Human or JSON, --output, SVG, CSV, the latency log, the metrics endpoint
 * and room for a test's. */
#define DIX_SINKS_MAX	8

/** struct dix_sinks - the registry: the sinks of one run. */
struct dix_sinks {
	struct {
		const struct dix_sink_ops *ops;
		void *priv;
	} v[DIX_SINKS_MAX];
	int n;
};

/**
 * sinks_add() - register @ops with its state @priv at the end of @s.
 * Return: 0, or -ENOSPC when DIX_SINKS_MAX are registered already.
 */
int sinks_add(struct dix_sinks *s, const struct dix_sink_ops *ops,
	      void *priv);

/**
 * sinks_open() - register the built-in sinks @o asks for: --output's
 * lines in @output (NULL: none) first, so a stdout that blocks cannot
 * hold them back, then the same human or JSON lines on stdout
 * (--output-format) unless @silent, then --plot's SVG, --log's CSV and
 * --lat-log's histograms.
 * Return: 0, or -ENOSPC (sinks_add()).
 */
int sinks_open(struct dix_sinks *s, const struct dix_opts *o, int silent,
	       FILE *output);

/** sinks_close() - close every sink of @s and empty it. */
void sinks_close(struct dix_sinks *s);

void sinks_start(struct dix_sinks *s, const struct rec_start *r);
void sinks_precond_progress(struct dix_sinks *s,
			    const struct rec_precond_progress *r);
void sinks_precond(struct dix_sinks *s, const struct rec_precond *r);
void sinks_interval(struct dix_sinks *s, const struct rec_interval *r);
/** sinks_event() - an event: to @change for EV_CHANGE, else to @event. */
void sinks_event(struct dix_sinks *s, const struct dix_event *r);
void sinks_transition(struct dix_sinks *s, const struct rec_transition *r);
void sinks_summary(struct dix_sinks *s, const struct rec_summary *r);

/* The built-in sinks (sink_human.c, sink_json.c, sink_csv.c, sink_svg.c). */
extern const struct dix_sink_ops sink_human_ops;
extern const struct dix_sink_ops sink_json_ops;
extern const struct dix_sink_ops sink_csv_ops;
extern const struct dix_sink_ops sink_svg_ops;

/**
 * struct sink_log - what a sink that renders after the load keeps: the
 * total's intervals and copies of the events, in the order they came.
 */
struct sink_log {
	char *path;
	struct sample_log samples;
	struct dix_event *ev;
	int nev;
};

/** sink_log_new() - an empty log for the file @path. */
struct sink_log *sink_log_new(const char *path);
/** sink_log_interval() - keep the total of @r. */
void sink_log_interval(void *log, const struct rec_interval *r);
/** sink_log_event() - keep a copy of @ev. */
void sink_log_event(void *log, const struct dix_event *ev);
/** sink_log_free() - release @log and all it kept. */
void sink_log_free(void *log);

/**
 * sink_progress_line() - "precondition: 128/256 MiB, 61 MB/s, eta 2 s" on
 * stderr, rewritten in place (for a terminal only; both stdout sinks).
 */
void sink_progress_line(void *priv, const struct rec_precond_progress *r);

/**
 * sink_csv_new() - the --log sink's state: it keeps the intervals and
 * events and writes @path at the summary of a run that started.
 */
void *sink_csv_new(const char *path);

/** sink_svg_new() - the --plot sink's state, as sink_csv_new(). */
void *sink_svg_new(const char *path);

/* The --lat-log sink (sink_latlog.c). */
extern const struct dix_sink_ops sink_latlog_ops;

/**
 * sink_latlog_new() - the --lat-log sink's state: it opens @path when the
 * run starts and writes a line per interval (doc/json.md, lat_hist).
 */
void *sink_latlog_new(const char *path);

/* The --bw-log and --iops-log sink (sink_fiolog.c): fio's log format. */
extern const struct dix_sink_ops sink_fiolog_ops;

/**
 * sink_fiolog_new() - its state: the intervals kept, PREFIX_bw.1.log for
 * @bw and PREFIX_iops.1.log for @iops (either may be NULL) written at the
 * summary of a run that started, a line per interval for each direction
 * the workload does (@reads, @writes).
 */
void *sink_fiolog_new(const char *bw, const char *iops, int reads, int writes);

/* The --output sink (sink_output.c). */
extern const struct dix_sink_ops sink_output_ops;

/**
 * sink_output_new() - the --output sink's state: the lines @o's stdout
 * sink prints (human or JSON, --output-format), written to @f too and
 * flushed per line.  @f stays the caller's to close.
 */
void *sink_output_new(FILE *f, const struct dix_opts *o);

/* The --metrics sink (sink_metrics.c, built with libmicrohttpd). */
extern const struct dix_sink_ops sink_metrics_ops;

struct sockaddr_storage;

/**
 * sink_metrics_addr() - the socket address of a --metrics value: PORT
 * (127.0.0.1), IPV4:PORT, localhost:PORT or [IPV6]:PORT; the port 1-65535.
 * Return: 0 with @ss and @sslen set, or -EINVAL with @err saying which
 * part is wrong and what is allowed.
 */
int sink_metrics_addr(const char *spec, struct sockaddr_storage *ss,
		      unsigned int *sslen, char *err, size_t errlen);

/**
 * sink_metrics_open() - bind and listen at @spec (sink_metrics_addr()) and
 * start the HTTP thread that serves /metrics; the sink's records fill it.
 * Return: the sink's state, or NULL with @err set (a bad address, a port
 * in use: bind()'s own error).  The caller frees it (sink_metrics_free())
 * after the run's sinks are closed.
 */
void *sink_metrics_open(const char *spec, char *err, size_t errlen);

/** sink_metrics_where() - the address it listens on, as "127.0.0.1:9100". */
const char *sink_metrics_where(void *priv);

/**
 * sink_metrics_linger() - after the run's summary, wait until one scrape
 * has read it whole, at most @seconds (a run that never reached its
 * summary, or @seconds <= 0: no wait), so the scraper sees the end.
 */
void sink_metrics_linger(void *priv, double seconds);

/** sink_metrics_free() - stop serving and release @priv (NULL: nothing). */
void sink_metrics_free(void *priv);

#endif
