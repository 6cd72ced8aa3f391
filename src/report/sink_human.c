// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_human.c - the records as the lines a person reads on stdout: the
 * start lines, the meter line per interval, events between them, and the
 * summary with its transition table.  The meter line's first fields are
 * the seed's and never change shape (scripts read them).
 *
 * MB/s is 10^6 bytes per second, over the measured interval.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "device/dmmap.h"
#include "report/sink.h"

#define MB 1e6

/* The sink's state is its stream: NULL is stdout (a test passes its own). */
static FILE *out(void *priv)
{
	return priv ? priv : stdout;
}

/* "256 MiB", "1.5 MiB": whole mebibytes without decimals. */
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

static void human_start(void *priv, const struct rec_start *r)
{
	FILE *f = out(priv);
	int i;

	fprintf(f, "dixload %s: ", PACKAGE_VERSION);
	opts_print_effective(f, r->o);
	fputc('\n', f);
	for (i = 0; i < r->ndevs; i++) {
		const struct rec_dev *d = &r->devs[i];

		integrity_print(f, d->t);
		if (d->t->dm)
			dmmap_print(f, d->t->dm);
		fprintf(f, "precondition%s%s: %s (%s)\n",
			r->ndevs > 1 ? " " : "",
			r->ndevs > 1 ? d->t->name : "",
			d->pre_on ? "on" : "off", d->pre_reason);
	}
	if (r->mpi_ranks)
		fprintf(f, "mpi: %d ranks; rank 0 on %s prints the job's meter (the ranks' rates summed)\n",
			r->mpi_ranks, r->mpi_host);
	fflush(f);
}

void sink_progress_line(void *priv, const struct rec_precond_progress *r)
{
	char a[32], b[32];
	double rate;

	(void)priv;
	if (r->seconds < 0) {
		fprintf(stderr, "\r%60s\r", "");
		fflush(stderr);
		return;
	}
	rate = r->seconds > 0 ? r->bytes / r->seconds : 0;
	snprintf(a, sizeof(a), "%.0f", r->bytes / 1048576.0);
	fprintf(stderr, "\rprecondition: %s/%s, %.0f MB/s", a,
		mib_str(r->region, b, sizeof(b)), rate / MB);
	if (rate > 0)
		fprintf(stderr, ", eta %.0f s", (r->region - r->bytes) / rate);
	fputs("    ", stderr);
	fflush(stderr);
}

static void human_precond(void *priv, const struct rec_precond *p)
{
	const char *name = p->several ? p->dev->t->name : "";
	const char *sp = p->several ? " " : "";
	double rate = p->seconds > 0 ? p->bytes / p->seconds : 0;
	char a[32], b[32], c[32];
	FILE *f = out(priv);

	if (p->complete)
		fprintf(f, "precondition%s%s: %s written in %.2f s, %.1f MB/s (%s writes, QD%u); not counted in the load\n",
			sp, name, mib_str(p->bytes, a, sizeof(a)), p->seconds,
			rate / MB, io_size_str(p->io_size, c, sizeof(c)),
			p->iodepth);
	else
		fprintf(f, "precondition%s%s: %s at %.0f/%s after %.2f s (%.1f MB/s): the load never started\n",
			sp, name, p->errors ? "failed" : "stopped", p->bytes / 1048576.0,
			mib_str(p->region, b, sizeof(b)), p->seconds,
			rate / MB);
	fflush(f);
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

/*
 * --meter-lat: the interval's p99 per direction, " | p99 R 1.23 ms, W 456
 * us" ("-" for a direction without I/O in the interval).
 */
static void lat_print(FILE *f, const struct meter_sample *s)
{
	static const char *const dn[] = { "R", "W" };
	char buf[32];
	int d;

	fputs(" | p99", f);
	for (d = 0; d < DIX_DIR_NR; d++)
		fprintf(f, "%s %s %s", d ? "," : "", dn[d],
			s->lat[d].n ? lat_str(s->lat[d].p99, buf, sizeof(buf)) :
			"-");
}

/* The seed's meter line, after @prefix ("" or "sdb: "). */
static void meter_line(FILE *f, const char *prefix, const struct dix_opts *o,
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
	cap_print(f, o);
	if (o->meter_lat)
		lat_print(f, s);
	fputc('\n', f);
}

static void human_interval(void *priv, const struct rec_interval *r)
{
	int i;

	if (r->o->quiet)
		return;
	meter_line(out(priv), "", r->o, r->s);
	for (i = 0; r->ds && r->o->per_device && i < r->ndevs; i++) {
		char prefix[300];

		snprintf(prefix, sizeof(prefix), "%s: ", r->devs[i].path);
		meter_line(out(priv), prefix, r->o, &r->ds[i]);
	}
	fflush(out(priv));
}

static void human_event(void *priv, const struct dix_event *ev)
{
	FILE *f = out(priv);

	fprintf(f, "[%5.1fs] %s%s%s", ev->t, ev->host ? ev->host : "",
		ev->host ? ": " : "", ev->what);
	if (ev->ok >= 0)
		fprintf(f, ": %s", ev->ok ? "ok" : "FAILED");
	if (ev->duration >= 0)
		fprintf(f, " (%.2f s)", ev->duration);
	if (ev->detail)
		fprintf(f, "%s%s", ev->ok >= 0 ? ": " : " - ", ev->detail);
	fputc('\n', f);
	fflush(f);
}

/*
 * The bad extents by kind, up to --max-report of each, then what was not
 * listed: "bad extents: 2 (129 blocks)" and one line per extent.
 */
static void summary_extents(FILE *f, const struct rec_summary *r,
			    const struct dix_totals *t, uint32_t lbs)
{
	uint64_t more = 0, more_blocks = 0, max = r->o->max_report;
	char line[1024];
	size_t i;

	if (!t->next && !t->ext_dropped)
		return;
	fprintf(f, "bad extents: %llu (%llu block%s)\n",
		(unsigned long long)(t->next + t->ext_dropped),
		(unsigned long long)(t->ext_blocks + t->ext_dropped_blocks),
		t->ext_blocks + t->ext_dropped_blocks == 1 ? "" : "s");
	for (i = 0; i < t->next; i++) {
		const struct bad_extent *e = &t->ext[i];

		if (rec_extent_listed(t, i, max)) {
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
				(unsigned long long)max);
			more = more_blocks = 0;
		}
	}
	if (t->ext_dropped)
		fprintf(f, "  %llu more extents (%llu blocks) not kept: more than %u per job\n",
			(unsigned long long)t->ext_dropped,
			(unsigned long long)t->ext_dropped_blocks,
			r->extents_max);
}

/* CPU seconds per GB (10^9 bytes) processed. */
static double per_gb(double s, uint64_t bytes)
{
	return bytes ? s / (bytes / 1e9) : NAN;
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

/*
 * The read and write lines: "read : 10.00 MB in 1.00 s = ... IOPS" and
 * the latency when @lat (p50, p99, p99.9, max per direction) is given.
 */
static void rate_line(FILE *f, int dir, uint64_t bytes, double elapsed,
		      double bps, double iops, const uint64_t *lat)
{
	static const char *const dirs[] = { "read ", "write" };
	char a[32], b[32], cc[32], d[32];

	fprintf(f, "%s: %10.2f MB in %.2f s = %8.2f MB/s, %8.0f IOPS",
		dirs[dir], bytes / MB, elapsed, bps / MB, iops);
	if (lat)
		fprintf(f, ", lat p50 %s, p99 %s, p99.9 %s, max %s",
			lat_str(lat[0], a, sizeof(a)),
			lat_str(lat[1], b, sizeof(b)),
			lat_str(lat[2], cc, sizeof(cc)),
			lat_str(lat[3], d, sizeof(d)));
	fputc('\n', f);
}

/* "ops 10, recovered 0, errors 0 (io 0, ...)" */
static void ops_line(FILE *f, const struct dix_counters *c)
{
	int k;

	fprintf(f, "ops %llu, recovered %llu, errors %llu (",
		(unsigned long long)(c->ops[0] + c->ops[1]),
		(unsigned long long)c->recovered,
		(unsigned long long)counters_errors(c));
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s%s %llu", k ? ", " : "", dix_errkind_name(k),
			(unsigned long long)c->errors[k]);
	fputs(")\n", f);
}

/* The read and write lines and the ops/errors line. */
static void rates_human(FILE *f, const struct dix_totals *t)
{
	const struct dix_counters *c = &t->c;
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	int i;

	for (i = 0; i < DIX_DIR_NR; i++) {
		const struct lat_hist *h = &t->lat[i];
		uint64_t lat[4] = {
			lat_percentile(h, 0.5), lat_percentile(h, 0.99),
			lat_percentile(h, 0.999), h->max_ns,
		};

		rate_line(f, i, c->bytes[i], t->elapsed,
			  t->summed ? t->bps[i] : c->bytes[i] / el,
			  t->summed ? t->iops[i] : c->ops[i] / el,
			  lat_count(h) ? lat : NULL);
	}
	ops_line(f, c);
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
static void transitions_human(FILE *f, const struct rec_summary *r,
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
		const char *what = r->events[tr->event].what;
		char chg[16];

		if (isnan(tr->change_at))
			snprintf(chg, sizeof(chg), "-");
		else
			snprintf(chg, sizeof(chg), "%.1f", tr->change_at);
		if (!tr->nbefore || !tr->nafter) {
			fprintf(f, "%-44.44s %7.1f %7s %9s %9s %6s  too few steady intervals (%d before, %d after)\n",
				what, tr->at, chg, "-", "-", "-", tr->nbefore,
				tr->nafter);
			continue;
		}
		fprintf(f, "%-44.44s %7.1f %7s %9.2f %9.2f %6.2f  ±%.2f/±%.2f ",
			what, tr->at, chg, tr->before / MB, tr->after / MB,
			tr->ratio, tr->before_sd / MB, tr->after_sd / MB);
		if (tr->unwritten_over) {
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
			/* a fall as plainly as a rise: the 2023 seed's
			 * measurement is a fall (offload at 4001 losing) */
			fputs(!tr->significant ? "no significant change\n" :
			      tr->ratio < 1 ? "significant fall\n" :
			      "significant rise\n", f);
	}
	for (i = 0; i < n; i++)
		if (trs[i].unwritten_over)
			break;
	if (i < n)
		fputs("reads of never-written blocks carry no dixload header and, on a PI device, the escape tag: neither the kernel nor scsi_debug checks them, so a level over them measures those cheaper reads, not the checked path (--precondition on writes the region first and gives the real ratio)\n",
		      f);
	for (i = 0; i < n; i++)
		if (trs[i].drift && !trs[i].unwritten_over)
			break;
	if (i < n)
		fputs(preconditioned ?
		      "the level drifted before the event although the region was preconditioned (a busy host?): the ratio compares a drift, not a step\n" :
		      "the level drifted before the event: the ratio compares a drift, not a step (on a PI device, reads of never-written blocks skip the guard check; --precondition on writes the region first)\n",
		      f);
}

/*
 * The never-written blocks of @t (@read: the blocks read, 0 when not
 * known), their share, and what makes them errors: a user who wrote the
 * region in an earlier run reads "not errors" and learns that a write
 * lost there passes unless --verify strict or that run's --journal says
 * otherwise (a run that wrote the blocks itself fails them anyway).
 */
static void unwritten_human(FILE *f, const struct rec_summary *r,
			    const struct dix_totals *t, uint64_t read)
{
	double pct;

	if (!t->unwritten || r->o->verify == VERIFY_OFF)
		return;
	fprintf(f, "blocks read without a dixload header (never written): %llu",
		(unsigned long long)t->unwritten);
	if (read >= t->unwritten && read) {
		pct = 100.0 * t->unwritten / read;
		fprintf(f, pct < 0.1 ? " of %llu read (%.2g %%)" :
			" of %llu read (%.1f %%)", (unsigned long long)read, pct);
	}
	fputs(r->o->verify == VERIFY_STRICT ? "; errors (--verify strict)\n" :
	      "; not errors: --verify strict makes them errors, and --journal FILE (kept by the run that wrote) those it wrote\n",
	      f);
}

/* Blocks read on target @k (@lbs its logical block size). */
static uint64_t blocks_read(const struct dix_totals *t, uint32_t lbs)
{
	return lbs ? t->c.bytes[DIX_READ] / lbs : 0;
}

/* One rank's section of the summary (MPI). */
static void rank_human(FILE *f, const struct dix_rank_row *x)
{
	int i;

	fprintf(f, "--- rank %d (%s): %.2f s ---\n", x->rank, x->host,
		x->elapsed);
	for (i = 0; i < DIX_DIR_NR; i++)
		rate_line(f, i, x->c.bytes[i], x->elapsed, x->bps[i],
			  x->iops[i], x->c.ops[i] && x->lat[i][3] ?
			  x->lat[i] : NULL);	/* a cut-short row has none */
	ops_line(f, &x->c);
	if (x->bad_extents)
		fprintf(f, "bad extents: %llu (%llu blocks), listed on the rank's stderr\n",
			(unsigned long long)x->bad_extents,
			(unsigned long long)x->bad_blocks);
	if (x->why[0])
		fprintf(f, "failed: %s\n", x->why);
}

/*
 * An MPI job cut short: who was lost (or that this rank cannot tell) and
 * what the figures above cover.
 */
static void cut_human(FILE *f, const struct rec_cut *c)
{
	int k;

	fprintf(f, "cut short at %.2f s: ", c->at);
	if (!c->nlost)
		fputs("no verdict from rank 0 after the signal, so this rank cannot tell which rank was lost (mpirun's message names it)",
		      f);
	for (k = 0; k < c->nlost && k < DIX_CUT_NAMED; k++)
		fprintf(f, "%srank %d (%s)", k ? ", " : "", c->lost[k].rank,
			c->lost[k].host);
	if (c->nlost > DIX_CUT_NAMED)
		fprintf(f, " and %d more", c->nlost - DIX_CUT_NAMED);
	if (c->nlost)
		fprintf(f, " lost between %.2f s and %.2f s", c->upto,
			c->before);
	if (c->job)
		fprintf(f, "; the figures are the job's intervals to %.2f s (a rank's latency and CPU are reduced only at the end: none)\n",
			c->upto);
	else
		fputs("; these are this rank's own figures, to its end\n", f);
}

/*
 * A load a signal stopped before its end: which signal, when, and of what
 * runtime, so the figures above are not read as a whole run's.
 */
static void stopped_human(FILE *f, const struct rec_summary *r)
{
	char buf[16];

	fprintf(f, "stopped by %s at %.2f s",
		stop_signal_name(r->stop_sig, buf, sizeof(buf)), r->stop_at);
	if (r->o->runtime > 0)
		fprintf(f, " of --runtime %g s", r->o->runtime);
	else
		fputs(" (the region once, not covered)", f);
	fputs(": the figures cover the load up to there\n", f);
}

/* The summary of a load that never started: why, and the exit status. */
static void never_started(FILE *f, const struct rec_summary *r, int multi)
{
	char buf[16];

	if (multi)
		fprintf(f, "--- %d devices: ", r->ndevs);
	else
		fprintf(f, "--- %s: ", r->devs[0].t->path);
	if (r->stop_sig && !r->pre_err)
		fprintf(f, "the load never started (stopped by %s during preconditioning, at %.2f s) ---\n",
			stop_signal_name(r->stop_sig, buf, sizeof(buf)),
			r->stop_at);
	else
		fprintf(f, "the load never started (%s) ---\n",
			r->pre_err ? "errors during preconditioning" :
			r->stopped ? "stopped during preconditioning" :
			"preconditioning failed");
	fprintf(f, "exit status %d: %s\n", r->status,
		exit_status_text(r->status));
}

/*
 * The engine's own checks (the crypto engines' reference): their share of
 * dixload's CPU over the load, and when it is large enough to hide a
 * driver change: with the share s, a driver that did its part in no time
 * would raise MB/s at most 1 / s (record.h, REC_CHECK_MASKS).
 */
static void checks_human(FILE *f, const struct dix_totals *t)
{
	double s, base;

	s = rec_check_share(t, &base);
	if (s < 0)
		return;
	if (t->check_every == 1)
		fprintf(f, "checks: every request");
	else
		fprintf(f, "checks: 1 request in %llu",
			(unsigned long long)t->check_every);
	fprintf(f, " (--verify-every %llu): %.2f CPU s, %.0f %% of %s %.2f s",
		(unsigned long long)t->check_every, t->check_cpu_s, s * 100,
		t->check_kernel ? "the machine's busy CPU (in the kernel)" :
		"dixload's", base);
	if (s >= REC_CHECK_MASKS)
		fprintf(f, ": they can mask a driver change, a faster driver raising MB/s %.1fx at most (--verify-every N or --verify off give the kernel's work more of the CPU; doc/crypto.md)",
			1 / s);
	fputc('\n', f);
}

static void human_summary(void *priv, const struct rec_summary *r)
{
	const struct dix_totals *t = r->t, *dt = r->dt;
	FILE *f = out(priv);
	int k, multi = r->ndevs > 1 && !t->ranks;
	uint64_t bad = t->ext_blocks + t->ext_dropped_blocks, nread;

	if (!r->started) {
		never_started(f, r, multi);
		fflush(f);
		return;
	}
	for (k = 0; multi && k < r->ndevs; k++) {
		const struct rec_dev *d = &r->devs[k];

		fprintf(f, "--- %s: %.2f s ---\n", d->path, dt[k].elapsed);
		rates_human(f, &dt[k]);
		summary_extents(f, r, &dt[k], d->t->lbs);
		unwritten_human(f, r, &dt[k], blocks_read(&dt[k], d->t->lbs));
		transitions_human(f, r, d->tr, d->ntr, d->pre_ran);
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
		fprintf(f, "--- %s: %.2f s ---\n", r->devs[0].t->path,
			t->elapsed);
	rates_human(f, t);
	if (t->inflight_ok)
		fprintf(f, "in flight: max %llu, mean %.2f (measured: requests in the kernel at once, every job together)\n",
			(unsigned long long)t->inflight_max, t->inflight_mean);
	checks_human(f, t);
	if (t->ranks) {
		if (bad)
			fprintf(f, "bad blocks: %llu (each rank listed its own)\n",
				(unsigned long long)bad);
	} else if (!multi) {
		summary_extents(f, r, t, r->devs[0].t->lbs);
	} else if (bad) {
		fprintf(f, "bad blocks: %llu, on", (unsigned long long)bad);
		for (k = 0; k < r->ndevs; k++)
			if (dt[k].ext_blocks + dt[k].ext_dropped_blocks)
				fprintf(f, " %s", r->devs[k].path);
		fputc('\n', f);
	}
	if (bad && r->o->error_log)
		fprintf(f, "every bad block: %s (--error-log)\n",
			r->o->error_log);
	/* the CPU seconds are reduced at the end only */
	if (!t->cut || !t->cut->job)
		cpu_human(f, t);
	if (multi)
		for (nread = 0, k = 0; k < r->ndevs; k++)
			nread += blocks_read(&dt[k], r->devs[k].t->lbs);
	else
		nread = blocks_read(t, r->devs[0].t->lbs);
	unwritten_human(f, r, t, nread);
	transitions_human(f, r, r->tr, r->ntr, r->pre_ran);
	if (t->cut)
		cut_human(f, t->cut);
	if (r->stop_sig)
		stopped_human(f, r);
	fprintf(f, "exit status %d: %s\n", r->status,
		exit_status_text(r->status));
	fflush(f);
}

const struct dix_sink_ops sink_human_ops = {
	.name = "human",
	.start = human_start,
	.precond_progress = sink_progress_line,
	.precond = human_precond,
	.interval = human_interval,
	.event = human_event,
	.change = human_event,
	.summary = human_summary,
};
