// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - human and JSON-lines output.
 *
 * MB/s is 10^6 bytes per second, over the measured interval.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "core/job.h"
#include "core/mpijob.h"
#include "report/report.h"
#include "report/transition.h"
#include "lib/util.h"

#define MB 1e6

/* The JSON records' layout, as documented in doc/json.md. */
#define DIX_JSON_SCHEMA_VERSION 1

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
	}
	return "unknown";
}

static int json(const struct dix_run *r)
{
	return r->o->format == OUT_JSON;
}

/* "256 MiB", "1.5 MiB": whole mebibytes without decimals. */
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

static const char *mib_str(uint64_t bytes, char *buf, size_t len)
{
	double m = bytes / 1048576.0;

	snprintf(buf, len, m == (double)(uint64_t)m || m >= 100 ? "%.0f MiB" :
		 "%.1f MiB", m);
	return buf;
}

/* A write size: "1 MiB", "512 KiB", "127 KiB", "3584 bytes". */
static const char *io_size_str(uint64_t v, char *buf, size_t len)
{
	if (v >= 1048576 && !(v % 1048576))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(v >> 20));
	else if (!(v % 1024))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)v);
	return buf;
}

/* The preconditioning decision as a JSON object (start line). */
static void precondition_plan_json(struct jw *w, const struct dix_run *r,
				   const struct dix_dev *d)
{
	jw_obj_open(w, "precondition");
	jw_str(w, "mode", precondition_names[r->o->precondition]);
	jw_str(w, "decided", d->pre.on ? "on" : "off");
	jw_str(w, "reason", d->pre.reason);
	jw_obj_close(w);
}

/* A target's own start members: path, size, lbs, integrity, plan. */
static void dev_start_json(struct jw *w, const struct dix_run *r,
			   const struct dix_dev *d, int settings)
{
	jw_str(w, "dev", d->t.path);
	jw_uint(w, "size", d->t.size);
	jw_uint(w, "lbs", d->t.lbs);
	jw_bool(w, "is_blk", d->t.is_blk);
	if (settings)
		opts_json(w, "settings", r->o);
	integrity_json(w, "integrity", &d->t);
	precondition_plan_json(w, r, d);
}

void report_start(struct dix_run *r)
{
	FILE *f = stdout;
	int i;

	if (r->silent)
		return;
	if (json(r)) {
		struct jw w;

		jw_init(&w, f);
		jw_obj_open(&w, NULL);
		jw_str(&w, "type", "start");
		/* doc/json.md: bumped when a key changes meaning or goes away */
		jw_int(&w, "schema_version", DIX_JSON_SCHEMA_VERSION);
		jw_str(&w, "version", PACKAGE_VERSION);
		/* the first target's members as always; every one in devices */
		dev_start_json(&w, r, &r->devs[0], 1);
		if (r->mpi) {
			jw_obj_open(&w, "mpi");
			jw_int(&w, "ranks", dix_mpi_size(r->mpi));
			jw_str(&w, "host", dix_mpi_host(r->mpi));
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
	} else {
		fprintf(f, "dixload %s: ", PACKAGE_VERSION);
		opts_print_effective(f, r->o);
		fputc('\n', f);
		for (i = 0; i < r->ndevs; i++) {
			const struct dix_dev *d = &r->devs[i];

			integrity_print(f, &d->t);
			fprintf(f, "precondition%s%s: %s (%s)\n",
				r->ndevs > 1 ? " " : "",
				r->ndevs > 1 ? d->t.name : "",
				d->pre.on ? "on" : "off", d->pre.reason);
		}
		if (r->mpi)
			fprintf(f, "mpi: %d ranks; rank 0 on %s prints the job's meter (the ranks' rates summed)\n",
				dix_mpi_size(r->mpi), dix_mpi_host(r->mpi));
	}
	fflush(f);
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

/* The CPU figure of the meter line: the machine's busy share, else dixload's. */
static double cpu_meter_pct(const struct cpu_usage *u)
{
	return u->valid ? u->busy : u->self_pct;
}

/*
 * The caps in force (--rate, --rate-iops), so a reader of the meter sees
 * why the level is flat: " | cap R 50 MB/s, W 20 MB/s, W 500 IOPS".
 */
static void cap_print(FILE *f, const struct dix_opts *o)
{
	static const char *const dn[] = { "R", "W" };
	int d, n = 0;

	for (d = 0; d < DIX_DIR_NR; d++)
		if (o->rate[d] > 0)
			fprintf(f, "%s%s %g MB/s", n++ ? ", " : " | cap ", dn[d],
				o->rate[d] / MB);
	for (d = 0; d < DIX_DIR_NR; d++)
		if (o->rate_iops[d] > 0)
			fprintf(f, "%s%s %g IOPS", n++ ? ", " : " | cap ", dn[d],
				o->rate_iops[d]);
}

/* The same as the interval record's "cap" object; absent without a cap. */
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

/* One device's row of an interval record's devices[]. */
static void dev_interval_json(struct jw *w, const struct dix_dev *d,
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
	jw_obj_close(w);
}

/* The seed's meter line, after @prefix ("" or "sdb: "). */
static void meter_line(FILE *f, const char *prefix, const struct dix_run *r,
		       const struct meter_sample *s)
{
	const struct dix_counters *c = &s->tot;
	unsigned long long ops = c->ops[DIX_READ] + c->ops[DIX_WRITE];
	unsigned long long err = counters_errors(c);

	/* the seed's fields first and unchanged, then the CPU share */
	fprintf(f, "%s[%5.1fs] R %7.2f MB/s, W %7.2f MB/s, IOPS %6.0f | Ops %8llu, Rec %2llu, Err %2llu | CPU %3.0f %%",
		prefix, s->t, s->read_bps / MB, s->write_bps / MB, s->iops,
		ops, (unsigned long long)c->recovered, err,
		cpu_meter_pct(&s->cpu));
	cap_print(f, r->o);
	fputc('\n', f);
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
	jw_obj_close(w);
}

static void interval_print(struct dix_run *r, const struct meter_sample *s,
			   const struct meter_sample *ds,
			   const struct dix_rank_row *rows, int nrows)
{
	FILE *f = stdout;
	const struct dix_counters *c = &s->tot;
	unsigned long long ops = c->ops[DIX_READ] + c->ops[DIX_WRITE];
	unsigned long long err = counters_errors(c);
	int i;

	if (r->silent)
		return;
	if (json(r)) {
		struct jw w;

		jw_init(&w, f);
		jw_obj_open(&w, NULL);
		jw_str(&w, "type", "interval");
		jw_num(&w, "t", s->t, 3);
		jw_num(&w, "dt", s->dt, 3);
		jw_num(&w, "read_bps", s->read_bps, 0);
		jw_num(&w, "write_bps", s->write_bps, 0);
		jw_num(&w, "iops", s->iops, 1);
		jw_uint(&w, "ops", ops);
		jw_uint(&w, "rec", c->recovered);
		jw_uint(&w, "err", err);
		jw_uint(&w, "unwritten", s->unwritten);
		errkind_counts(&w, "errors", c->errors, NULL);
		cpu_json(&w, &s->cpu);
		jw_obj_close(&w);	/* cpu */
		cap_json(&w, r->o);
		if (ds) {
			jw_arr_open(&w, "devices");
			for (i = 0; i < r->ndevs; i++)
				dev_interval_json(&w, &r->devs[i], &ds[i]);
			jw_arr_close(&w);
		}
		if (rows) {
			jw_arr_open(&w, "ranks");
			for (i = 0; i < nrows; i++)
				rank_interval_json(&w, &rows[i]);
			jw_arr_close(&w);
		}
		jw_obj_close(&w);
		jw_end_line(&w);
	} else if (!r->o->quiet) {
		meter_line(f, "", r, s);
		for (i = 0; ds && r->o->per_device && i < r->ndevs; i++) {
			char prefix[300];

			snprintf(prefix, sizeof(prefix), "%s: ",
				 r->devs[i].path);
			meter_line(f, prefix, r, &ds[i]);
		}
	}
	fflush(f);
}

void report_interval(struct dix_run *r, const struct meter_sample *s,
		     const struct meter_sample *ds)
{
	interval_print(r, s, ds, NULL, 0);
}

void report_interval_ranks(struct dix_run *r, const struct meter_sample *s,
			   const struct dix_rank_row *rows, int n)
{
	interval_print(r, s, NULL, rows, n);
}

void report_event(struct dix_run *r, const struct dix_event *ev)
{
	FILE *f = stdout;

	if (r->silent)
		return;
	if (json(r)) {
		struct jw w;

		jw_init(&w, f);
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
		/* members composed by the kernel side with jw_init_members() */
		if (ev->json)
			fputs(ev->json, f);
		jw_obj_close(&w);
		jw_end_line(&w);
	} else {
		fprintf(f, "[%5.1fs] %s%s%s", ev->t, ev->host ? ev->host : "",
			ev->host ? ": " : "", ev->what);
		if (ev->ok >= 0)
			fprintf(f, ": %s", ev->ok ? "ok" : "FAILED");
		if (ev->duration >= 0)
			fprintf(f, " (%.2f s)", ev->duration);
		if (ev->detail)
			fprintf(f, "%s%s", ev->ok >= 0 ? ": " : " - ",
				ev->detail);
		fputc('\n', f);
	}
	fflush(f);
}

void report_precondition_progress(struct dix_run *r, uint64_t bytes,
				  uint64_t region, double seconds)
{
	char a[32], b[32];
	double rate;

	if (seconds < 0) {
		fprintf(stderr, "\r%60s\r", "");
		fflush(stderr);
		return;
	}
	rate = seconds > 0 ? bytes / seconds : 0;
	snprintf(a, sizeof(a), "%.0f", bytes / 1048576.0);
	fprintf(stderr, "\rprecondition: %s/%s, %.0f MB/s", a,
		mib_str(region, b, sizeof(b)), rate / MB);
	if (rate > 0)
		fprintf(stderr, ", eta %.0f s", (region - bytes) / rate);
	(void)r;
	fputs("    ", stderr);
	fflush(stderr);
}

void report_precondition(struct dix_run *r, const struct dix_dev *d)
{
	const struct precond_result *p = &d->pres;
	const char *name = r->ndevs > 1 ? d->t.name : "";
	const char *sp = r->ndevs > 1 ? " " : "";

	if (r->silent)
		return;
	double rate = p->seconds > 0 ? p->bytes / p->seconds : 0;
	char a[32], b[32], c[32];
	FILE *f = stdout;

	if (json(r)) {
		struct jw w;

		jw_init(&w, f);
		jw_obj_open(&w, NULL);
		jw_str(&w, "type", "precondition");
		jw_str(&w, "mode", precondition_names[r->o->precondition]);
		jw_str(&w, "decided", "on");
		if (r->ndevs > 1)
			jw_str(&w, "dev", d->path);
		jw_str(&w, "reason", d->pre.reason);
		jw_bool(&w, "complete", p->complete);
		jw_uint(&w, "bytes", p->bytes);
		jw_uint(&w, "region", p->region);
		jw_num(&w, "seconds", p->seconds, 3);
		jw_num(&w, "bps", rate, 0);
		jw_num(&w, "mb_per_s", rate / MB, 2);
		jw_uint(&w, "io_size", p->io_size);
		jw_uint(&w, "iodepth", d->pre.iodepth);
		jw_int(&w, "jobs", d->nworkers);
		jw_uint(&w, "errors", p->errors);
		jw_obj_close(&w);
		jw_end_line(&w);
		return;
	}
	if (p->complete)
		fprintf(f, "precondition%s%s: %s written in %.2f s, %.1f MB/s (%s writes, QD%u); not counted in the load\n",
			sp, name, mib_str(p->bytes, a, sizeof(a)), p->seconds,
			rate / MB, io_size_str(p->io_size, c, sizeof(c)),
			d->pre.iodepth);
	else
		fprintf(f, "precondition%s%s: %s at %.0f/%s after %.2f s (%.1f MB/s): the load never started\n",
			sp, name, p->errors ? "failed" : "stopped", p->bytes / 1048576.0,
			mib_str(p->region, b, sizeof(b)), p->seconds,
			rate / MB);
	fflush(f);
}

/* A latency in ns as a short human string with its unit. */
static const char *lat_str(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 10000)
		snprintf(buf, len, "%llu us", (unsigned long long)(ns + 500) / 1000);
	else if (ns < 10000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	return buf;
}

/*
 * The summary lists up to --max-report extents of each kind: a flood of
 * one kind (every read failing) must not hide the one block of another.
 * t->ext is sorted by kind, then LBA: extent @i is listed when fewer than
 * --max-report of its kind come before it.
 */
static int extent_listed(const struct dix_run *r, const struct dix_totals *t,
			 size_t i)
{
	size_t first = i;

	while (first && t->ext[first - 1].kind == t->ext[i].kind)
		first--;
	return i - first < r->o->max_report;
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

static void transition_json(struct jw *w, const struct dix_run *r,
			    const struct dix_transition *tr)
{
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

static void cpu_per_gb_json(struct jw *w, const struct dix_run *r,
			    const struct dix_totals *t)
{
	static const char *const dirs[] = { "read", "write" };
	const struct cpu_usage *u = &t->cpu;
	uint64_t rd = t->c.bytes[DIX_READ], wr = t->c.bytes[DIX_WRITE];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double mach = u->valid ? u->busy / 100 * (ncpu > 0 ? ncpu : 1) *
			  t->elapsed : NAN;
	int d;

	(void)r;
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
	static const char *const dirs[] = { "read", "write" };
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

static void lat_json(struct jw *w, const struct dix_totals *t)
{
	static const char *const dirs[] = { "read", "write" };
	int d;

	jw_obj_open(w, "lat_ns");
	for (d = 0; d < DIX_DIR_NR; d++) {
		const struct lat_hist *h = &t->lat[d];

		jw_obj_open(w, dirs[d]);
		jw_uint(w, "p50", lat_percentile(h, 0.5));
		jw_uint(w, "p99", lat_percentile(h, 0.99));
		jw_uint(w, "p99.9", lat_percentile(h, 0.999));
		jw_uint(w, "max", h->max_ns);
		jw_obj_close(w);
	}
	jw_obj_close(w);
}

/*
 * The listed bad extents of one device's totals (each with "dev" when
 * several devices share the array); returns how many were listed.
 */
static size_t extents_json(struct jw *w, const struct dix_run *r,
			   const struct dix_totals *t, const struct dix_dev *d,
			   int named)
{
	size_t i, n = 0;

	for (i = 0; i < t->next; i++) {
		if (!extent_listed(r, t, i))
			continue;
		n++;
		jw_obj_open(w, NULL);
		if (named)
			jw_str(w, "dev", d->path);
		extent_json(w, &t->ext[i], d->t.lbs);
		jw_obj_close(w);
	}
	return n;
}

static void transitions_json(struct jw *w, const struct dix_run *r,
			     const struct dix_transition *tr, int n)
{
	int i;

	jw_arr_open(w, "transitions");
	for (i = 0; i < n; i++)
		transition_json(w, r, &tr[i]);
	jw_arr_close(w);
}

/* One device's row of the summary's devices[]. */
static void dev_summary_json(struct jw *w, const struct dix_run *r,
			     const struct dix_dev *d,
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
	lat_json(w, t);
	transitions_json(w, r, d->transitions, d->ntransitions);
	integrity_json(w, "integrity", &d->t);
	jw_obj_close(w);
}

/* One rank's row of the summary's ranks[] (MPI). */
static void rank_summary_json(struct jw *w, const struct dix_rank_row *x)
{
	static const char *const dirs[] = { "read", "write" };
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
	jw_obj_open(w, "lat_ns");
	for (d = 0; d < DIX_DIR_NR; d++) {
		jw_obj_open(w, dirs[d]);
		jw_uint(w, "p50", x->lat[d][0]);
		jw_uint(w, "p99", x->lat[d][1]);
		jw_uint(w, "p99.9", x->lat[d][2]);
		jw_uint(w, "max", x->lat[d][3]);
		jw_obj_close(w);
	}
	jw_obj_close(w);
	jw_num(w, "cpu_self_s", x->self_s, 3);
	jw_int(w, "exit", x->status);
	if (x->why[0])
		jw_str(w, "failed", x->why);
	jw_obj_close(w);
}

static void summary_json(struct dix_run *r, const struct dix_totals *t,
			 const struct dix_totals *dt, int status)
{
	uint64_t total = t->next + t->ext_dropped;
	struct jw w;
	size_t n = 0;
	int k, multi = r->ndevs > 1 && !t->ranks;

	jw_init(&w, stdout);
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
	if (r->o->journal && r->journal_write) {
		jw_obj_open(&w, "journal");
		jw_uint(&w, "records", r->journal_records);
		jw_uint(&w, "synced_batches", r->journal_batches);
		jw_num(&w, "sync_s", r->journal_sync_s, 6);
		jw_obj_close(&w);
	}
	lat_json(&w, t);
	cpu_json(&w, &t->cpu);
	cpu_per_gb_json(&w, r, t);
	jw_obj_close(&w);	/* cpu */
	transitions_json(&w, r, r->transitions, r->ntransitions);
	opts_json(&w, "settings", r->o);
	integrity_json(&w, "integrity", &r->devs[0].t);
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
	jw_int(&w, "exit", status);
	jw_str(&w, "exit_text", exit_status_text(status));
	jw_obj_close(&w);
	jw_end_line(&w);
}

/*
 * The bad extents by kind, up to --max-report of each, then what was not
 * listed: "bad extents: 2 (129 blocks)" and one line per extent.
 */
static void summary_extents(const struct dix_run *r,
			    const struct dix_totals *t, uint32_t lbs)
{
	uint64_t more = 0, more_blocks = 0;
	char line[1024];
	FILE *f = stdout;
	size_t i;

	if (!t->next && !t->ext_dropped)
		return;
	fprintf(f, "bad extents: %llu (%llu block%s)\n",
		(unsigned long long)(t->next + t->ext_dropped),
		(unsigned long long)(t->ext_blocks + t->ext_dropped_blocks),
		t->ext_blocks + t->ext_dropped_blocks == 1 ? "" : "s");
	for (i = 0; i < t->next; i++) {
		const struct bad_extent *e = &t->ext[i];

		if (extent_listed(r, t, i)) {
			extent_describe(e, lbs, line, sizeof(line));
			fprintf(f, "  %s\n", line);
		} else {
			more++;
			more_blocks += e->count;
		}
		if (more && (i + 1 == t->next || t->ext[i + 1].kind != e->kind)) {
			fprintf(f, "  %s: %llu more extent%s (%llu block%s) not listed (--max-report %llu)\n",
				dix_errkind_name(e->kind),
				(unsigned long long)more, more == 1 ? "" : "s",
				(unsigned long long)more_blocks,
				more_blocks == 1 ? "" : "s",
				(unsigned long long)r->o->max_report);
			more = more_blocks = 0;
		}
	}
	if (t->ext_dropped)
		fprintf(f, "  %llu more extents (%llu blocks) not kept: more than %u per job\n",
			(unsigned long long)t->ext_dropped,
			(unsigned long long)t->ext_dropped_blocks,
			DIX_EXTENTS_MAX);
}

/* "cpu: machine usr 12.0 %, sys 30.1 % ...; dixload 5.31 s ..., 0.53 s/GB" */
static void cpu_human(FILE *f, const struct dix_totals *t)
{
	const struct cpu_usage *u = &t->cpu;
	uint64_t rd = t->c.bytes[DIX_READ], wr = t->c.bytes[DIX_WRITE];

	fputs("cpu: ", f);
	if (u->valid)
		fprintf(f, "machine usr %.1f %%, sys %.1f %%, softirq %.1f %%, irq %.1f %%, iowait %.1f %%; ",
			u->usr, u->sys, u->softirq, u->irq, u->iowait);
	fprintf(f, "dixload %.2f s (user %.2f, sys %.2f)", u->self_s,
		u->self_user_s, u->self_sys_s);
	if (rd + wr)
		fprintf(f, ", %.3f CPU s/GB%s", per_gb(u->self_s, rd + wr),
			rd && wr ? " (reads and writes together)" :
			rd ? " (read)" : " (write)");
	fputc('\n', f);
}

/* The read and write lines and the ops/errors line. */
static void rates_human(FILE *f, const struct dix_totals *t)
{
	static const char *const dirs[] = { "read ", "write" };
	const struct dix_counters *c = &t->c;
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	char a[32], b[32], cc[32], d[32];
	int k, i;

	for (i = 0; i < DIX_DIR_NR; i++) {
		const struct lat_hist *h = &t->lat[i];

		fprintf(f, "%s: %10.2f MB in %.2f s = %8.2f MB/s, %8.0f IOPS",
			dirs[i], c->bytes[i] / MB, t->elapsed,
			(t->summed ? t->bps[i] : c->bytes[i] / el) / MB,
			t->summed ? t->iops[i] : c->ops[i] / el);
		if (h->count)
			fprintf(f, ", lat p50 %s, p99 %s, p99.9 %s, max %s",
				lat_str(lat_percentile(h, 0.5), a, sizeof(a)),
				lat_str(lat_percentile(h, 0.99), b, sizeof(b)),
				lat_str(lat_percentile(h, 0.999), cc, sizeof(cc)),
				lat_str(h->max_ns, d, sizeof(d)));
		fputc('\n', f);
	}
	fprintf(f, "ops %llu, recovered %llu, errors %llu (",
		(unsigned long long)(c->ops[0] + c->ops[1]),
		(unsigned long long)c->recovered,
		(unsigned long long)counters_errors(c));
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s%s %llu", k ? ", " : "", dix_errkind_name(k),
			(unsigned long long)c->errors[k]);
	fputs(")\n", f);
}

/*
 * A row without a verdict because a window's reads found never-written
 * blocks too often: each side's share, and the limit it crossed.
 */
static void unchecked_human(FILE *f, const struct dix_transition *tr)
{
	struct tr_params p;

	tr_params_default(&p);
	fputs("no verdict: reads of never-written blocks", f);
	if (!isnan(tr->before_unwritten))
		fprintf(f, " %.0f %% before", 100 * tr->before_unwritten);
	if (!isnan(tr->after_unwritten))
		fprintf(f, "%s %.0f %% after",
			isnan(tr->before_unwritten) ? "" : ",",
			100 * tr->after_unwritten);
	fprintf(f, " (over %.0f %%)\n", 100 * p.unwritten_max);
}

/* The transition table of the total or of one device. */
static void transitions_human(FILE *f, const struct dix_run *r,
			      const struct dix_transition *trs, int n,
			      int preconditioned)
{
	int i;

	if (!n)
		return;
	fprintf(f, "%-44s %7s %7s %9s %9s %6s  %s\n", "transition",
		"at s", "chg s", "before", "after", "ratio",
		"(MB/s, mean ± sd over steady intervals)");
	for (i = 0; i < n; i++) {
		const struct dix_transition *tr = &trs[i];
		char chg[16];

		if (isnan(tr->change_at))
			snprintf(chg, sizeof(chg), "-");
		else
			snprintf(chg, sizeof(chg), "%.1f", tr->change_at);
		if (!tr->nbefore || !tr->nafter) {
			fprintf(f, "%-44.44s %7.1f %7s %9s %9s %6s  too few steady intervals (%d before, %d after)\n",
				r->events[tr->event].what, tr->at, chg,
				"-", "-", "-", tr->nbefore, tr->nafter);
			continue;
		}
		fprintf(f, "%-44.44s %7.1f %7s %9.2f %9.2f %6.2f  ±%.2f/±%.2f ",
			r->events[tr->event].what, tr->at, chg,
			tr->before / MB, tr->after / MB, tr->ratio,
			tr->before_sd / MB, tr->after_sd / MB);
		if (!tr->steady && !tr->drift) {
			unchecked_human(f, tr);
		} else if (!tr->steady) {
			fprintf(f, "before not steady: %+.0f %% over %.0f s",
				100 * tr->before_trend, tr->before_span);
			/* the cause, when reads met never-written blocks */
			if (!isnan(tr->before_unwritten_from) &&
			    fmax(tr->before_unwritten_from,
				 tr->before_unwritten_to) >= 0.005)
				fprintf(f, " (reads of never-written blocks %.0f %% -> %.0f %%)",
					100 * tr->before_unwritten_from,
					100 * tr->before_unwritten_to);
			fputc('\n', f);
		} else
			fputs(tr->significant ? "significant\n" :
			      "no significant change\n", f);
	}
	for (i = 0; i < n; i++)
		if (!trs[i].steady && !trs[i].drift)
			break;
	if (i < n)
		fputs("reads of never-written blocks carry no dixload header and, on a PI device, the escape tag: neither the kernel nor scsi_debug checks them, so a level over them measures those cheaper reads, not the checked path (--precondition on writes the region first and gives the real ratio)\n",
		      f);
	for (i = 0; i < n; i++)
		if (trs[i].drift)
			break;
	if (i < n)
		fputs(preconditioned ?
		      "the level drifted before the event although the region was preconditioned (a busy host?): the ratio compares a drift, not a step\n" :
		      "the level drifted before the event: the ratio compares a drift, not a step (on a PI device, reads of never-written blocks skip the guard check; --precondition on writes the region first)\n",
		      f);
}

static void unwritten_human(FILE *f, const struct dix_run *r,
			    const struct dix_totals *t)
{
	if (t->unwritten && r->o->verify != VERIFY_OFF)
		fprintf(f, "blocks read without a dixload header (never written): %llu\n",
			(unsigned long long)t->unwritten);
}

/* One rank's section of the summary (MPI). */
static void rank_human(FILE *f, const struct dix_rank_row *x)
{
	static const char *const dirs[] = { "read ", "write" };
	char a[32], b[32], cc[32], d[32];
	int i, k;

	fprintf(f, "--- rank %d (%s): %.2f s ---\n", x->rank, x->host,
		x->elapsed);
	for (i = 0; i < DIX_DIR_NR; i++) {
		fprintf(f, "%s: %10.2f MB in %.2f s = %8.2f MB/s, %8.0f IOPS",
			dirs[i], x->c.bytes[i] / MB, x->elapsed,
			x->bps[i] / MB, x->iops[i]);
		if (x->c.ops[i])
			fprintf(f, ", lat p50 %s, p99 %s, p99.9 %s, max %s",
				lat_str(x->lat[i][0], a, sizeof(a)),
				lat_str(x->lat[i][1], b, sizeof(b)),
				lat_str(x->lat[i][2], cc, sizeof(cc)),
				lat_str(x->lat[i][3], d, sizeof(d)));
		fputc('\n', f);
	}
	fprintf(f, "ops %llu, recovered %llu, errors %llu (",
		(unsigned long long)(x->c.ops[0] + x->c.ops[1]),
		(unsigned long long)x->c.recovered,
		(unsigned long long)counters_errors(&x->c));
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s%s %llu", k ? ", " : "", dix_errkind_name(k),
			(unsigned long long)x->c.errors[k]);
	fputs(")\n", f);
	if (x->bad_extents)
		fprintf(f, "bad extents: %llu (%llu blocks), listed on the rank's stderr\n",
			(unsigned long long)x->bad_extents,
			(unsigned long long)x->bad_blocks);
	if (x->why[0])
		fprintf(f, "failed: %s\n", x->why);
}

static void summary_human(struct dix_run *r, const struct dix_totals *t,
			  const struct dix_totals *dt, int status)
{
	FILE *f = stdout;
	int k, pre_ran = 0, pre_err = 0;
	int multi = r->ndevs > 1 && !t->ranks;

	for (k = 0; k < r->ndevs; k++) {
		pre_ran |= r->devs[k].pres.ran;
		pre_err |= r->devs[k].pres.errors != 0;
	}
	if (!r->started) {
		if (multi)
			fprintf(f, "--- %d devices: ", r->ndevs);
		else
			fprintf(f, "--- %s: ", r->devs[0].t.path);
		fprintf(f, "the load never started (%s) ---\n",
			pre_err ? "errors during preconditioning" :
			r->stop ? "stopped during preconditioning" :
			"preconditioning failed");
		fprintf(f, "exit status %d: %s\n", status,
			exit_status_text(status));
		return;
	}
	for (k = 0; multi && k < r->ndevs; k++) {
		const struct dix_dev *d = &r->devs[k];

		fprintf(f, "--- %s: %.2f s ---\n", d->path, dt[k].elapsed);
		rates_human(f, &dt[k]);
		summary_extents(r, &dt[k], d->t.lbs);
		unwritten_human(f, r, &dt[k]);
		transitions_human(f, r, d->transitions, d->ntransitions,
				  d->pres.ran);
	}
	for (k = 0; k < t->nranks; k++)
		rank_human(f, &t->ranks[k]);
	if (t->ranks)
		fprintf(f, "--- total of %d ranks on %d host%s: %.2f s (rates: the ranks' summed) ---\n",
			t->nranks, t->nhosts, t->nhosts == 1 ? "" : "s",
			t->elapsed);
	else if (multi)
		fprintf(f, "--- total of %d devices: %.2f s ---\n", r->ndevs,
			t->elapsed);
	else
		fprintf(f, "--- %s: %.2f s ---\n", r->devs[0].t.path,
			t->elapsed);
	rates_human(f, t);
	if (t->ranks) {
		if (t->ext_blocks + t->ext_dropped_blocks)
			fprintf(f, "bad blocks: %llu (each rank listed its own)\n",
				(unsigned long long)(t->ext_blocks +
						     t->ext_dropped_blocks));
	} else if (!multi) {
		summary_extents(r, t, r->devs[0].t.lbs);
	} else if (t->ext_blocks + t->ext_dropped_blocks) {
		fprintf(f, "bad blocks: %llu, on",
			(unsigned long long)(t->ext_blocks + t->ext_dropped_blocks));
		for (k = 0; k < r->ndevs; k++)
			if (dt[k].ext_blocks + dt[k].ext_dropped_blocks)
				fprintf(f, " %s", r->devs[k].path);
		fputc('\n', f);
	}
	if ((t->ext_blocks + t->ext_dropped_blocks) && r->o->error_log)
		fprintf(f, "every bad block: %s (--error-log)\n",
			r->o->error_log);
	cpu_human(f, t);
	unwritten_human(f, r, t);
	transitions_human(f, r, r->transitions, r->ntransitions, pre_ran);
	fprintf(f, "exit status %d: %s\n", status, exit_status_text(status));
}

void report_summary(struct dix_run *r, const struct dix_totals *t,
		    const struct dix_totals *dt, int status)
{
	if (r->silent)
		return;
	if (json(r))
		summary_json(r, t, dt, status);
	else
		summary_human(r, t, dt, status);
	fflush(stdout);
}
