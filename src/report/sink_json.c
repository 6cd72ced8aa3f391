// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_json.c - the records as JSON lines on stdout (--output-format
 * json): one complete object per line, flushed per line so a pipe sees
 * each as it happens.  The keys are a contract: doc/json.md.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "device/dmmap.h"
#include "pi/selftest.h"
#include "report/sink.h"
#include "report/sink_json-int.h"

#define MB 1e6

/* The sink's state is its stream: NULL is stdout (a test passes its own). */
static FILE *out(void *priv)
{
	return priv ? priv : stdout;
}

/* The JSON records' layout, as documented in doc/json.md. */
#define DIX_JSON_SCHEMA_VERSION 1

static const char *const dirs[] = { "read", "write" };

/*
 * One count per error kind as a JSON object {"io":…,"verify":…,…}, plus
 * "recovered" when @recovered is given (the summary's errors object).
 */
static void errkind_counts(struct jw *w, const char *key, const uint64_t *v,
			   const uint64_t *recovered)
{
	int k;

	jw_obj_open(w, key);
	for (k = 0; k < DIX_ERR_NR; k++)
		jw_uint(w, dix_errkind_name(k), v[k]);
	if (recovered)
		jw_uint(w, "recovered", *recovered);
	jw_obj_close(w);
}

/* A target's own start members: path, size, lbs, integrity, plan. */
static void dev_start_json(struct jw *w, const struct rec_start *r,
			   const struct rec_dev *d, int settings)
{
	jw_str(w, "dev", d->t->path);
	jw_uint(w, "size", d->t->size);
	jw_uint(w, "lbs", d->t->lbs);
	jw_bool(w, "is_blk", d->t->is_blk);
	if (settings)
		opts_json(w, "settings", r->o);
	integrity_json(w, "integrity", d->t);
	if (d->t->dm)
		dmmap_json(w, "dm", d->t->dm);
	jw_obj_open(w, "precondition");
	jw_str(w, "mode", precondition_names[r->o->precondition]);
	jw_str(w, "decided", d->pre_on ? "on" : "off");
	jw_str(w, "reason", d->pre_reason);
	jw_obj_close(w);
}

static void json_start(void *priv, const struct rec_start *r)
{
	struct jw w;
	int i;

	jw_init(&w, out(priv));
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "start");
	/* doc/json.md: bumped when a key changes meaning or goes away */
	jw_int(&w, "schema_version", DIX_JSON_SCHEMA_VERSION);
	jw_str(&w, "version", PACKAGE_VERSION);
	/* the first target's members as always; every one in devices */
	dev_start_json(&w, r, &r->devs[0], 1);
	if (r->mpi_ranks) {
		jw_obj_open(&w, "mpi");
		jw_int(&w, "ranks", r->mpi_ranks);
		jw_str(&w, "host", r->mpi_host);
		jw_obj_close(&w);
	}
	if (r->ndevs > 1) {
		jw_arr_open(&w, "devices");
		for (i = 0; i < r->ndevs; i++) {
			jw_obj_open(&w, NULL);
			dev_start_json(&w, r, &r->devs[i], 0);
			jw_obj_close(&w);
		}
		jw_arr_close(&w);
	}
	jw_obj_close(&w);
	jw_end_line(&w);
	fflush(out(priv));
}

static void json_precond(void *priv, const struct rec_precond *p)
{
	double rate = p->seconds > 0 ? p->bytes / p->seconds : 0;
	struct jw w;

	jw_init(&w, out(priv));
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "precondition");
	jw_str(&w, "mode", p->mode);
	jw_str(&w, "decided", "on");
	if (p->several)
		jw_str(&w, "dev", p->dev->path);
	jw_str(&w, "reason", p->dev->pre_reason);
	jw_bool(&w, "complete", p->complete);
	jw_uint(&w, "bytes", p->bytes);
	jw_uint(&w, "region", p->region);
	jw_num(&w, "seconds", p->seconds, 3);
	jw_num(&w, "bps", rate, 0);
	jw_num(&w, "mb_per_s", rate / MB, 2);
	jw_uint(&w, "io_size", p->io_size);
	jw_uint(&w, "iodepth", p->iodepth);
	jw_int(&w, "jobs", p->jobs);
	jw_uint(&w, "errors", p->errors);
	jw_obj_close(&w);
	jw_end_line(&w);
}

/*
 * The "cpu" object of an interval or the summary: the machine's shares of
 * all CPUs' time (null when /proc/stat could not be read) and dixload's
 * own CPU seconds.  The object is left open: the summary adds its per-GB
 * figures; the caller closes it.
 */
static void cpu_json(struct jw *w, const struct cpu_usage *u)
{
	jw_obj_open(w, "cpu");
	if (u->valid) {
		jw_num(w, "usr_pct", u->usr, 1);
		jw_num(w, "sys_pct", u->sys, 1);
		jw_num(w, "softirq_pct", u->softirq, 1);
		jw_num(w, "irq_pct", u->irq, 1);
		jw_num(w, "iowait_pct", u->iowait, 1);
		jw_num(w, "busy_pct", u->busy, 1);
	} else {
		jw_null(w, "busy_pct");
	}
	jw_num(w, "self_s", u->self_s, 3);
	jw_num(w, "self_user_s", u->self_user_s, 3);
	jw_num(w, "self_sys_s", u->self_sys_s, 3);
	jw_num(w, "self_pct", u->self_pct, 1);
}

/* The caps in force (--rate, --rate-iops); absent without a cap. */
static void cap_json(struct jw *w, const struct dix_opts *o)
{
	if (!o->rate[0] && !o->rate[1] && !o->rate_iops[0] && !o->rate_iops[1])
		return;
	jw_obj_open(w, "cap");
	jw_num(w, "read_bps", o->rate[DIX_READ], 0);
	jw_num(w, "write_bps", o->rate[DIX_WRITE], 0);
	jw_num(w, "read_iops", o->rate_iops[DIX_READ], 0);
	jw_num(w, "write_iops", o->rate_iops[DIX_WRITE], 0);
	jw_obj_close(w);
}

/*
 * "lat_ns": p50, p99, p99.9 and max per direction, after the I/Os they
 * count, n, when @with_n (an interval's; the summary's has its counts in
 * read_ops and write_ops).
 */
static void quant_json(struct jw *w, const struct lat_quant *q, int with_n)
{
	int d;

	jw_obj_open(w, "lat_ns");
	for (d = 0; d < DIX_DIR_NR; d++) {
		jw_obj_open(w, dirs[d]);
		if (with_n)
			jw_uint(w, "n", q[d].n);
		jw_uint(w, "p50", q[d].p50);
		jw_uint(w, "p99", q[d].p99);
		jw_uint(w, "p99.9", q[d].p999);
		jw_uint(w, "max", q[d].max);
		jw_obj_close(w);
	}
	jw_obj_close(w);
}

/* An interval's latency (n and the quantiles). */
static void ilat_json(struct jw *w, const struct lat_quant *q)
{
	quant_json(w, q, 1);
}

/* One device's row of an interval record's devices[]. */
static void dev_interval_json(struct jw *w, const struct rec_dev *d,
			      const struct meter_sample *s)
{
	const struct dix_counters *c = &s->tot;

	jw_obj_open(w, NULL);
	jw_str(w, "dev", d->path);
	jw_num(w, "dt", s->dt, 3);
	jw_num(w, "read_bps", s->read_bps, 0);
	jw_num(w, "write_bps", s->write_bps, 0);
	jw_num(w, "iops", s->iops, 1);
	jw_uint(w, "ops", c->ops[DIX_READ] + c->ops[DIX_WRITE]);
	jw_uint(w, "rec", c->recovered);
	jw_uint(w, "err", counters_errors(c));
	jw_uint(w, "unwritten", s->unwritten);
	errkind_counts(w, "errors", c->errors, NULL);
	ilat_json(w, s->lat);
	jw_obj_close(w);
}

/* One rank's row of an interval record's ranks[]. */
static void rank_interval_json(struct jw *w, const struct dix_rank_row *x)
{
	jw_obj_open(w, NULL);
	jw_int(w, "rank", x->rank);
	jw_str(w, "host", x->host);
	jw_num(w, "dt", x->dt, 3);
	jw_num(w, "read_bps", x->bps[DIX_READ], 0);
	jw_num(w, "write_bps", x->bps[DIX_WRITE], 0);
	jw_num(w, "iops", x->rate_iops, 1);
	jw_uint(w, "ops", x->c.ops[DIX_READ] + x->c.ops[DIX_WRITE]);
	jw_uint(w, "rec", x->c.recovered);
	jw_uint(w, "err", counters_errors(&x->c));
	ilat_json(w, x->ilat);
	jw_obj_close(w);
}

static void json_interval(void *priv, const struct rec_interval *r)
{
	const struct meter_sample *s = r->s;
	const struct dix_counters *c = &s->tot;
	struct jw w;
	int i;

	jw_init(&w, out(priv));
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "interval");
	jw_uint(&w, "index", r->index);
	jw_num(&w, "t", s->t, 3);
	jw_num(&w, "dt", s->dt, 3);
	jw_num(&w, "read_bps", s->read_bps, 0);
	jw_num(&w, "write_bps", s->write_bps, 0);
	jw_num(&w, "iops", s->iops, 1);
	jw_uint(&w, "ops", c->ops[DIX_READ] + c->ops[DIX_WRITE]);
	jw_uint(&w, "rec", c->recovered);
	jw_uint(&w, "err", counters_errors(c));
	jw_uint(&w, "unwritten", s->unwritten);
	errkind_counts(&w, "errors", c->errors, NULL);
	ilat_json(&w, s->lat);
	cpu_json(&w, &s->cpu);
	jw_obj_close(&w);	/* cpu */
	cap_json(&w, r->o);
	if (r->ds) {
		jw_arr_open(&w, "devices");
		for (i = 0; i < r->ndevs; i++)
			dev_interval_json(&w, &r->devs[i], &r->ds[i]);
		jw_arr_close(&w);
	}
	if (r->ranks) {
		jw_arr_open(&w, "ranks");
		for (i = 0; i < r->nranks; i++)
			rank_interval_json(&w, &r->ranks[i]);
		jw_arr_close(&w);
	}
	jw_obj_close(&w);
	jw_end_line(&w);
	fflush(out(priv));
}

static void json_event(void *priv, const struct dix_event *ev)
{
	struct jw w;

	jw_init(&w, out(priv));
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "event");
	jw_num(&w, "t", ev->t, 3);
	jw_str(&w, "kind", ev->kind == EV_ACTION ? "action" :
	       ev->kind == EV_CHANGE ? "change" : "note");
	jw_str(&w, "what", ev->what);
	if (ev->host)
		jw_str(&w, "host", ev->host);
	if (ev->ok >= 0)
		jw_bool(&w, "ok", ev->ok);
	if (ev->duration >= 0)
		jw_num(&w, "duration", ev->duration, 3);
	if (ev->detail)
		jw_str(&w, "detail", ev->detail);
	event_data_json(&w, &ev->data);
	jw_obj_close(&w);
	jw_end_line(&w);
	fflush(out(priv));
}

/* A number or null: a side without steady intervals has no mean, not 0. */
static void num_or_null(struct jw *w, const char *key, bool have, double v,
			int decimals)
{
	if (have)
		jw_num(w, key, v, decimals);
	else
		jw_null(w, key);
}

static void transitions_json(struct jw *w, const struct rec_summary *r,
			     const struct dix_transition *trs, int n)
{
	int i;

	jw_arr_open(w, "transitions");
	for (i = 0; i < n; i++) {
		const struct dix_transition *tr = &trs[i];
		bool both = tr->nbefore && tr->nafter;

		jw_obj_open(w, NULL);
		jw_str(w, "event", r->events[tr->event].what);
		jw_num(w, "at", tr->at, 3);
		jw_num(w, "change_at", tr->change_at, 3);
		num_or_null(w, "before", both, tr->before, 0);
		num_or_null(w, "after", both, tr->after, 0);
		num_or_null(w, "ratio", both, tr->ratio, 3);
		num_or_null(w, "before_sd", both, tr->before_sd, 0);
		num_or_null(w, "after_sd", both, tr->after_sd, 0);
		jw_int(w, "n_before", tr->nbefore);
		jw_int(w, "n_after", tr->nafter);
		jw_bool(w, "significant", tr->significant);
		if (tr->significant)
			jw_str(w, "direction", tr->ratio < 1 ? "fall" : "rise");
		jw_num(w, "before_trend", tr->before_trend, 4);
		if (isnan(tr->before_unwritten_from)) {
			jw_null(w, "before_unwritten");
		} else {
			jw_obj_open(w, "before_unwritten");
			jw_num(w, "from", tr->before_unwritten_from, 4);
			jw_num(w, "to", tr->before_unwritten_to, 4);
			jw_num(w, "share", tr->before_unwritten, 4);
			jw_obj_close(w);
		}
		if (isnan(tr->after_unwritten)) {
			jw_null(w, "after_unwritten");
		} else {
			jw_obj_open(w, "after_unwritten");
			jw_num(w, "share", tr->after_unwritten, 4);
			jw_obj_close(w);
		}
		jw_bool(w, "steady", tr->steady);
		jw_obj_close(w);
	}
	jw_arr_close(w);
}

/*
 * CPU seconds per GB (10^9 bytes) processed: dixload's own, and the
 * machine's busy seconds over all CPUs.  Per direction only when the run
 * moved bytes in that direction alone (one CPU second cannot be split
 * between reads and writes that ran together); the total always.
 */
static double per_gb(double s, uint64_t bytes)
{
	return bytes ? s / (bytes / 1e9) : NAN;
}

static void cpu_per_gb_json(struct jw *w, const struct dix_totals *t)
{
	const struct cpu_usage *u = &t->cpu;
	uint64_t rd = t->c.bytes[DIX_READ], wr = t->c.bytes[DIX_WRITE];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double mach = u->valid ? u->busy / 100 * (ncpu > 0 ? ncpu : 1) *
			  t->elapsed : NAN;
	int d;

	jw_obj_open(w, "s_per_gb");
	jw_num(w, "self", per_gb(u->self_s, rd + wr), 3);
	jw_num(w, "machine", per_gb(mach, rd + wr), 3);
	for (d = 0; d < DIX_DIR_NR; d++) {
		uint64_t other = t->c.bytes[!d];

		jw_obj_open(w, dirs[d]);
		jw_num(w, "self", other ? NAN : per_gb(u->self_s, t->c.bytes[d]), 3);
		jw_num(w, "machine", other ? NAN : per_gb(mach, t->c.bytes[d]), 3);
		jw_obj_close(w);
	}
	jw_obj_close(w);
}

/* Bytes, ops, rates and error counts: the summary's and a device row's. */
static void counts_json(struct jw *w, const struct dix_totals *t)
{
	const struct dix_counters *c = &t->c;
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	char key[32];
	int d;

	for (d = 0; d < DIX_DIR_NR; d++) {
		snprintf(key, sizeof(key), "%s_bytes", dirs[d]);
		jw_uint(w, key, c->bytes[d]);
		snprintf(key, sizeof(key), "%s_ops", dirs[d]);
		jw_uint(w, key, c->ops[d]);
		snprintf(key, sizeof(key), "%s_bps", dirs[d]);
		jw_num(w, key, t->summed ? t->bps[d] : c->bytes[d] / el, 0);
		snprintf(key, sizeof(key), "%s_iops", dirs[d]);
		jw_num(w, key, t->summed ? t->iops[d] : c->ops[d] / el, 1);
	}
	jw_uint(w, "ops", c->ops[0] + c->ops[1]);
	jw_uint(w, "submitted", c->submitted);
	jw_uint(w, "rec", c->recovered);
	jw_uint(w, "err", counters_errors(c));
	errkind_counts(w, "errors", c->errors, &c->recovered);
	errkind_counts(w, "injected", c->injected, NULL);
	errkind_counts(w, "caught", c->caught, NULL);
}

/* The summary's latency, from histograms or a rank row. */
static void lat_json(struct jw *w, const struct lat_hist *h,
		     const uint64_t (*v)[4])
{
	struct lat_quant q[DIX_DIR_NR];
	int d;

	for (d = 0; d < DIX_DIR_NR; d++) {
		if (h) {
			lat_quantiles(&h[d], &q[d]);
			/* the summary's max was always the histogram's */
			q[d].max = h[d].max_ns;
		} else {
			q[d] = (struct lat_quant){ 0, v[d][0], v[d][1],
						   v[d][2], v[d][3] };
		}
	}
	quant_json(w, q, 0);
}

/*
 * The listed bad extents of one device's totals (each with "dev" when
 * several devices share the array); returns how many were listed.
 */
static size_t extents_json(struct jw *w, const struct rec_summary *r,
			   const struct dix_totals *t, const struct rec_dev *d,
			   int named)
{
	size_t i, n = 0;

	for (i = 0; i < t->next; i++) {
		if (!rec_extent_listed(t, i, r->o->max_report))
			continue;
		n++;
		jw_obj_open(w, NULL);
		if (named)
			jw_str(w, "dev", d->path);
		extent_json(w, &t->ext[i], d->t->lbs);
		jw_obj_close(w);
	}
	return n;
}

/* One device's row of the summary's devices[]. */
static void dev_summary_json(struct jw *w, const struct rec_summary *r,
			     const struct rec_dev *d,
			     const struct dix_totals *t)
{
	size_t n;

	jw_obj_open(w, NULL);
	jw_str(w, "dev", d->path);
	counts_json(w, t);
	jw_arr_open(w, "bad_extents");
	n = extents_json(w, r, t, d, 0);
	jw_arr_close(w);
	jw_uint(w, "bad_extents_total", t->next + t->ext_dropped);
	jw_uint(w, "bad_extents_unlisted", t->next + t->ext_dropped - n);
	jw_uint(w, "bad_blocks", t->ext_blocks + t->ext_dropped_blocks);
	jw_uint(w, "unwritten_blocks", t->unwritten);
	lat_json(w, t->lat, NULL);
	transitions_json(w, r, d->tr, d->ntr);
	integrity_json(w, "integrity", d->t);
	jw_obj_close(w);
}

/* One rank's row of the summary's ranks[] (MPI). */
static void rank_summary_json(struct jw *w, const struct dix_rank_row *x)
{
	char key[32];
	int d;

	jw_obj_open(w, NULL);
	jw_int(w, "rank", x->rank);
	jw_str(w, "host", x->host);
	jw_num(w, "elapsed", x->elapsed, 6);
	for (d = 0; d < DIX_DIR_NR; d++) {
		snprintf(key, sizeof(key), "%s_bytes", dirs[d]);
		jw_uint(w, key, x->c.bytes[d]);
		snprintf(key, sizeof(key), "%s_ops", dirs[d]);
		jw_uint(w, key, x->c.ops[d]);
		snprintf(key, sizeof(key), "%s_bps", dirs[d]);
		jw_num(w, key, x->bps[d], 0);
		snprintf(key, sizeof(key), "%s_iops", dirs[d]);
		jw_num(w, key, x->iops[d], 1);
	}
	jw_uint(w, "ops", x->c.ops[0] + x->c.ops[1]);
	jw_uint(w, "rec", x->c.recovered);
	jw_uint(w, "err", counters_errors(&x->c));
	errkind_counts(w, "errors", x->c.errors, &x->c.recovered);
	jw_uint(w, "bad_extents_total", x->bad_extents);
	jw_uint(w, "bad_blocks", x->bad_blocks);
	lat_json(w, NULL, x->lat);
	jw_num(w, "cpu_self_s", x->self_s, 3);
	jw_int(w, "exit", x->status);
	if (x->why[0])
		jw_str(w, "failed", x->why);
	jw_obj_close(w);
}

/*
 * A load a signal stopped before its end: the summary's "stopped" object,
 * so a reader of the JSON alone cannot take it for a whole run.
 */
static void stopped_json(struct jw *w, const struct rec_summary *r)
{
	char buf[16];

	jw_obj_open(w, "stopped");
	jw_str(w, "signal", stop_signal_name(r->stop_sig, buf, sizeof(buf)));
	jw_str(w, "phase", r->started ? "load" : "precondition");
	jw_num(w, "at_s", r->stop_at, 3);
	if (r->o->runtime > 0)
		jw_num(w, "runtime_s", r->o->runtime, 3);
	else
		jw_null(w, "runtime_s");	/* the region once */
	jw_obj_close(w);
}

/*
 * The machine-code builds this process refused at their first dispatch
 * (pi/selftest.h): each was wrong on this CPU and another computed the
 * run's checks, so a reader of the JSON alone learns it, not only stderr.
 */
static void selftest_json(struct jw *w)
{
	const struct selftest_refusal *x;
	size_t i, n = selftest_refusals(&x);

	if (!n)
		return;
	jw_arr_open(w, "selftest_refused");
	for (i = 0; i < n; i++) {
		jw_obj_open(w, NULL);
		jw_str(w, "path", x[i].path);
		jw_str(w, "impl", x[i].impl);
		jw_str(w, "fallback", x[i].fallback);
		jw_str(w, "why", x[i].why);
		jw_obj_close(w);
	}
	jw_arr_close(w);
}

/* An MPI job cut short: the summary's cut_short object. */
static void cut_json(struct jw *w, const struct rec_cut *c)
{
	int k;

	jw_obj_open(w, "cut_short");
	jw_num(w, "at", c->at, 3);
	jw_bool(w, "job", c->job);
	if (c->job)
		jw_num(w, "upto", c->upto, 3);
	jw_int(w, "lost_total", c->nlost);
	jw_arr_open(w, "lost");
	for (k = 0; k < c->nlost && k < DIX_CUT_NAMED; k++) {
		jw_obj_open(w, NULL);
		jw_int(w, "rank", c->lost[k].rank);
		jw_str(w, "host", c->lost[k].host);
		jw_num(w, "after", c->upto, 3);
		jw_num(w, "before", c->before, 3);
		jw_obj_close(w);
	}
	jw_arr_close(w);
	jw_obj_close(w);
}

static void json_summary(void *priv, const struct rec_summary *r)
{
	const struct dix_totals *t = r->t, *dt = r->dt;
	uint64_t total = t->next + t->ext_dropped;
	double share, base;
	struct jw w;
	size_t n = 0;
	int k, multi = r->ndevs > 1 && !t->ranks;

	jw_init(&w, out(priv));
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "summary");
	jw_bool(&w, "load_started", r->started);
	jw_num(&w, "elapsed", t->elapsed, 6);
	counts_json(&w, t);
	jw_arr_open(&w, "bad_extents");
	if (t->ranks) {
		/* each rank listed its extents on its own stderr */
		for (k = 0, total = 0; k < t->nranks; k++)
			total += t->ranks[k].bad_extents;
	} else if (!multi) {
		n = extents_json(&w, r, t, &r->devs[0], 0);
	} else {
		total = 0;
		for (k = 0; k < r->ndevs; k++) {
			n += extents_json(&w, r, &dt[k], &r->devs[k], 1);
			total += dt[k].next + dt[k].ext_dropped;
		}
	}
	jw_arr_close(&w);
	jw_uint(&w, "bad_extents_total", total);
	jw_uint(&w, "bad_extents_unlisted", total - n);
	jw_uint(&w, "bad_blocks", t->ext_blocks + t->ext_dropped_blocks);
	jw_uint(&w, "unwritten_blocks", t->unwritten);
	if ((share = rec_check_share(t, &base)) >= 0) {
		double s = share;

		jw_obj_open(&w, "checks");
		jw_uint(&w, "every", t->check_every);
		jw_num(&w, "cpu_s", t->check_cpu_s, 3);
		jw_num(&w, "cpu_share", s, 4);
		jw_str(&w, "cpu_share_of", t->check_kernel ? "machine" : "dixload");
		jw_bool(&w, "masks_driver_change", s >= REC_CHECK_MASKS);
		jw_obj_close(&w);
	}
	/* measured only (record.h): absent, never the configured depth */
	if (t->inflight_ok) {
		jw_uint(&w, "inflight_max", t->inflight_max);
		jw_num(&w, "inflight_mean", t->inflight_mean, 3);
	}
	if (r->journal) {
		jw_obj_open(&w, "journal");
		jw_uint(&w, "records", r->journal_records);
		jw_uint(&w, "synced_batches", r->journal_batches);
		jw_num(&w, "sync_s", r->journal_sync_s, 6);
		jw_obj_close(&w);
	}
	lat_json(&w, t->lat, NULL);
	cpu_json(&w, &t->cpu);
	cpu_per_gb_json(&w, t);
	jw_obj_close(&w);	/* cpu */
	transitions_json(&w, r, r->tr, r->ntr);
	opts_json(&w, "settings", r->o);
	integrity_json(&w, "integrity", r->devs[0].t);
	if (multi) {
		jw_arr_open(&w, "devices");
		for (k = 0; k < r->ndevs; k++)
			dev_summary_json(&w, r, &r->devs[k], &dt[k]);
		jw_arr_close(&w);
	}
	if (t->ranks) {
		jw_int(&w, "hosts", t->nhosts);
		jw_arr_open(&w, "ranks");
		for (k = 0; k < t->nranks; k++)
			rank_summary_json(&w, &t->ranks[k]);
		jw_arr_close(&w);
	}
	if (t->cut)
		cut_json(&w, t->cut);
	if (r->stop_sig)
		stopped_json(&w, r);
	selftest_json(&w);
	jw_int(&w, "exit", r->status);
	jw_str(&w, "exit_text", exit_status_text(r->status));
	jw_obj_close(&w);
	jw_end_line(&w);
	fflush(out(priv));
}

const struct dix_sink_ops sink_json_ops = {
	.name = "json",
	.start = json_start,
	/* the progress line is for a terminal's eyes whatever stdout holds */
	.precond_progress = sink_progress_line,
	.precond = json_precond,
	.interval = json_interval,
	.event = json_event,
	.change = json_event,
	.summary = json_summary,
};
