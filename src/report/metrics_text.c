// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics_text.c - the --metrics exposition: the endpoint's copy of the
 * latest interval, events and results as OpenMetrics 1.0.0 or Prometheus
 * text 0.0.4 (the names and how they map onto the JSON: doc/metrics.md).
 * Apart from sink_metrics.c, which takes the records and serves HTTP, so
 * that the format is one file's concern and the server another's.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/util.h"
#include "report/metrics-int.h"

static const char *const dirs[] = { "read", "write" };

/* A label value or HELP text: \, " and newline escaped (both formats). */
static void put_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/*
 * A family's HELP and TYPE lines.  OpenMetrics names a counter's family
 * without the _total its samples carry and has an info type; the 0.0.4
 * text format names the sample and knows no info (a gauge of 1).
 */
static void family(FILE *f, int om, const char *name, const char *type,
		   const char *help)
{
	const char *suffix = "";

	if (!om && !strcmp(type, "counter"))
		suffix = "_total";
	else if (!om && !strcmp(type, "info"))
		suffix = "_info", type = "gauge";
	fprintf(f, "# HELP %s%s ", name, suffix);
	put_escaped(f, help);
	fprintf(f, "\n# TYPE %s%s %s\n", name, suffix, type);
}

/* A sample's name and its @n label pairs @kv (name, value, ...). */
static void sample_kv(FILE *f, const char *name, const char *suffix,
		      const char *const *kv, int n)
{
	int i;

	fprintf(f, "%s%s", name, suffix);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "{", kv[2 * i]);
		put_escaped(f, kv[2 * i + 1]);
		fputc('"', f);
	}
	fputs(n ? "} " : " ", f);
}

/* As sample_kv(), the pairs as arguments ending with NULL. */
static void sample(FILE *f, const char *name, const char *suffix, ...)
{
	const char *kv[16];
	va_list ap;
	int n = 0;

	va_start(ap, suffix);
	while (n < 8 && (kv[2 * n] = va_arg(ap, const char *))) {
		kv[2 * n + 1] = va_arg(ap, const char *);
		n++;
	}
	va_end(ap);
	sample_kv(f, name, suffix, kv, n);
}

/* A number in the fewest digits that read back as the same double. */
static const char *num(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "NaN";
	if (isinf(v))
		return v > 0 ? "+Inf" : "-Inf";
	return format_double(v, buf, len);
}

/* A gauge's value (num()) and the end of its line. */
static void value(FILE *f, double v)
{
	char buf[32];

	fprintf(f, "%s\n", num(v, buf, sizeof(buf)));
}

static void count(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64 "\n", v);
}

/*
 * One row of counters and latencies: the total's (no labels), a device's
 * (dev) or a rank's (rank, host), its labels in @kv (@nkv pairs).
 */
/* A gauge family of one sample without labels: @name, its HELP, @v. */
static void gauge(FILE *f, int om, const char *name, const char *help,
		  double v)
{
	family(f, om, name, "gauge", help);
	sample(f, name, "", NULL);
	value(f, v);
}

/* The same, for a whole number. */
static void gauge_count(FILE *f, int om, const char *name, const char *help,
			uint64_t v)
{
	family(f, om, name, "gauge", help);
	sample(f, name, "", NULL);
	count(f, v);
}

struct crow {
	const struct dix_counters *c;
	const char *kv[4];
	int nkv;
	const struct lat_quant *lat;
};

/*
 * The exposed buckets: dixload's histogram has 16 sub-buckets per power
 * of two (~6 %); every 4th sub-bucket's end is an `le`, from 1023 ns to
 * 2^35 - 1 ns (34 s): 101 buckets and +Inf per direction, each at most
 * 25 % wider than the one below (2^(n) * {1.25, 1.5, 1.75, 2}), so a
 * histogram_quantile() lands within one of them; below 1023 ns all is
 * the first bucket, above 34 s +Inf.  The `le` is the bucket's last
 * nanosecond (latencies are whole ns), so "<= le" counts it exactly.
 */
#define EXP_MSB_LO	10	/* first octave with 4 buckets: 2^10 ns */
#define EXP_MSB_HI	35	/* the last ends at 2^35 - 1 ns */
#define EXP_PER_OCTAVE	4

/* The exposed bucket @k's last nanosecond (k = 0: 2^EXP_MSB_LO - 1). */
static uint64_t exp_le_ns(int k)
{
	int msb, s;

	if (!k)
		return (1ull << EXP_MSB_LO) - 1;
	msb = EXP_MSB_LO + (k - 1) / EXP_PER_OCTAVE;
	s = ((k - 1) % EXP_PER_OCTAVE + 1) * (LAT_SUB / EXP_PER_OCTAVE);
	return ((uint64_t)(LAT_SUB + s) << (msb - LAT_SUB_BITS)) - 1;
}

#define EXP_BUCKETS	(1 + (EXP_MSB_HI - EXP_MSB_LO) * EXP_PER_OCTAVE)

/*
 * The total's latency since the start as a Prometheus histogram per
 * direction: cumulative `le` buckets summed from dixload's own, _count
 * their whole, and _sum estimated from each bucket's middle (dixload keeps
 * no sum: within half a sub-bucket, ~3 %, of the true one).
 */
static void latency_histogram(FILE *f, int om, const struct metrics *m)
{
	static const char *const name = "dixload_latency_seconds";
	char le[32], v[32];
	uint64_t seen, lo, hi;
	unsigned int b;
	double sum;
	int d, k;

	family(f, om, name, "histogram",
	       "completion latency of the total's I/Os since the load started, by direction, from dixload's histogram (le: the bucket's last ns; under MPI the job's; summary JSON lat_ns)");
	for (d = 0; d < DIX_DIR_NR; d++) {
		const struct lat_hist *h = &m->cum[d];

		seen = 0;
		b = 0;
		for (k = 0; k < EXP_BUCKETS; k++) {
			uint64_t end = exp_le_ns(k);

			for (; b < LAT_BUCKETS && !lat_bucket_bounds(b, &lo, &hi) &&
			       hi <= end; b++)
				seen += h->bucket[b];
			sample(f, name, "_bucket", "dir", dirs[d], "le",
			       num(end / 1e9, le, sizeof(le)), NULL);
			count(f, seen);
		}
		sample(f, name, "_bucket", "dir", dirs[d], "le", "+Inf", NULL);
		count(f, lat_count(h));
		for (sum = 0, b = 0; b < LAT_BUCKETS; b++)
			if (h->bucket[b] && !lat_bucket_bounds(b, &lo, &hi))
				sum += h->bucket[b] * ((lo + hi) / 2.0);
		sample(f, name, "_sum", "dir", dirs[d], NULL);
		fprintf(f, "%s\n", num(sum / 1e9, v, sizeof(v)));
		sample(f, name, "_count", "dir", dirs[d], NULL);
		count(f, lat_count(h));
	}
}

/*
 * The interval's latency of @n rows, per direction: the quantiles as
 * seconds (quantile "1" is the maximum; NaN when the interval completed
 * none, where the JSON prints 0) and the completions they count.  A
 * summary (quantiles over a recent window, here the interval), which is
 * what a quantile label means to Prometheus.  The total's are
 * dixload_interval_latency_seconds: dixload_latency_seconds is its
 * histogram since the start.
 */
static void latency_families(FILE *f, int om, const char *prefix,
			     const struct crow *rows, int n)
{
	static const char *const qname[] = { "0.5", "0.99", "0.999", "1" };
	const char *kv[8];
	char name[96];
	int i, d, k, nkv;

	snprintf(name, sizeof(name), "dixload_%slatency_seconds",
		 *prefix ? prefix : "interval_");
	family(f, om, name, "summary",
	       "completion latency of the interval's I/Os by direction, from its histogram: quantile 0.5, 0.99, 0.999 and 1 (the maximum); NaN when it completed none (JSON lat_ns, in ns)");
	for (i = 0; i < n; i++)
		for (d = 0; d < DIX_DIR_NR; d++) {
			const struct lat_quant *q = &rows[i].lat[d];
			const uint64_t v[] = { q->p50, q->p99, q->p999, q->max };

			nkv = rows[i].nkv;
			memcpy(kv, rows[i].kv, sizeof(rows[i].kv));
			kv[2 * nkv] = "dir";
			kv[2 * nkv + 1] = dirs[d];
			kv[2 * nkv + 2] = "quantile";
			for (k = 0; k < 4; k++) {
				kv[2 * nkv + 3] = qname[k];
				sample_kv(f, name, "", kv, nkv + 2);
				value(f, q->n ? v[k] / 1e9 : NAN);
			}
		}
	snprintf(name, sizeof(name), "dixload_%slatency_ios", prefix);
	family(f, om, name, "gauge",
	       "completions in the interval the latencies count, by direction (JSON lat_ns.DIR.n)");
	for (i = 0; i < n; i++)
		for (d = 0; d < DIX_DIR_NR; d++) {
			nkv = rows[i].nkv;
			memcpy(kv, rows[i].kv, sizeof(rows[i].kv));
			kv[2 * nkv] = "dir";
			kv[2 * nkv + 1] = dirs[d];
			sample_kv(f, name, "", kv, nkv + 1);
			count(f, rows[i].lat[d].n);
		}
}

/*
 * The counter families of @n rows, @prefix naming their scope ("",
 * "device_", "rank_"): one family at a time over every row, as both
 * formats require.
 */
static void counter_families(FILE *f, int om, const char *prefix,
			     const struct crow *rows, int n)
{
	static const struct {
		const char *name, *help;
	} fam[] = {
		{ "bytes", "bytes transferred, by direction" },
		{ "ops", "I/Os completed, by direction" },
		{ "errors", "errors met, by kind (JSON 'errors')" },
		{ "recovered", "I/Os that failed and then succeeded on a retry (JSON 'rec')" },
		{ "injected", "faults dixload injected on purpose, by kind" },
		{ "caught", "injected faults the device caught, by kind" },
		{ "submitted", "I/Os handed to the engine, retries included" },
	};
	const char *kv[6];
	char name[96];
	unsigned int j;
	int i, x, nkv;

	for (j = 0; j < ARRAY_SIZE(fam); j++) {
		snprintf(name, sizeof(name), "dixload_%s%s", prefix,
			 fam[j].name);
		family(f, om, name, "counter", fam[j].help);
		for (i = 0; i < n; i++) {
			const struct dix_counters *c = rows[i].c;
			const uint64_t *v = j == 2 ? c->errors :
				j == 4 ? c->injected : c->caught;

			nkv = rows[i].nkv;
			memcpy(kv, rows[i].kv, sizeof(rows[i].kv));
			switch (j) {
			case 0:
			case 1:
				kv[2 * nkv] = "dir";
				for (x = 0; x < DIX_DIR_NR; x++) {
					kv[2 * nkv + 1] = dirs[x];
					sample_kv(f, name, "_total", kv, nkv + 1);
					count(f, j ? c->ops[x] : c->bytes[x]);
				}
				break;
			case 2:
			case 4:
			case 5:
				kv[2 * nkv] = "kind";
				for (x = 0; x < DIX_ERR_NR; x++) {
					kv[2 * nkv + 1] = dix_errkind_name(x);
					sample_kv(f, name, "_total", kv, nkv + 1);
					count(f, v[x]);
				}
				break;
			default:
				sample_kv(f, name, "_total", kv, nkv);
				count(f, j == 3 ? c->recovered : c->submitted);
				break;
			}
		}
	}
}

/* The interval's own gauges of the total. */
static void total_gauges(FILE *f, int om, const struct metrics *m)
{
	const struct meter_sample *s = &m->s;

	gauge_count(f, om, "dixload_interval_index",
	      "the interval every gauge describes: its index, 1 for the first (JSON interval record 'index')",
	      m->index);
	gauge(f, om, "dixload_interval_end_seconds",
	      "end of that interval, seconds since the load started (JSON 't')",
	      s->t);
	gauge(f, om, "dixload_interval_length_seconds",
	      "measured length of that interval (JSON 'dt')",
	      s->dt);
	family(f, om, "dixload_rate_bytes_per_second", "gauge",
	       "bytes per second over the interval, by direction (JSON 'read_bps', 'write_bps')");
	sample(f, "dixload_rate_bytes_per_second", "", "dir", "read", NULL);
	value(f, s->read_bps);
	sample(f, "dixload_rate_bytes_per_second", "", "dir", "write", NULL);
	value(f, s->write_bps);
	gauge(f, om, "dixload_rate_iops",
	      "I/Os completed per second over the interval (JSON 'iops')",
	      s->iops);
	gauge_count(f, om, "dixload_interval_unwritten_blocks",
	      "blocks read in the interval without a dixload header (JSON 'unwritten')",
	      s->unwritten);
	if (s->cpu.valid) {
		gauge(f, om, "dixload_cpu_busy_percent",
		      "the machine's busy share of all CPUs over the interval (JSON 'cpu.busy_pct')",
		      s->cpu.busy);
	}
	gauge(f, om, "dixload_cpu_self_percent",
	      "dixload's own CPU time over the interval, percent of one CPU (JSON 'cpu.self_pct')",
	      s->cpu.self_pct);
}

/* Each device's gauges (several --dev only). */
static void device_gauges(FILE *f, int om, const struct metrics *m)
{
	int i, x;

	if (!m->nds)
		return;
	family(f, om, "dixload_device_interval_length_seconds", "gauge",
	       "a device's measured interval (JSON devices[].dt)");
	for (i = 0; i < m->nds; i++) {
		sample(f, "dixload_device_interval_length_seconds", "",
		       "dev", m->dev[i], NULL);
		value(f, m->ds[i].dt);
	}
	family(f, om, "dixload_device_rate_bytes_per_second", "gauge",
	       "a device's bytes per second over the interval, by direction");
	for (i = 0; i < m->nds; i++)
		for (x = 0; x < DIX_DIR_NR; x++) {
			sample(f, "dixload_device_rate_bytes_per_second", "",
			       "dev", m->dev[i], "dir", dirs[x], NULL);
			value(f, x ? m->ds[i].write_bps : m->ds[i].read_bps);
		}
	family(f, om, "dixload_device_rate_iops", "gauge",
	       "a device's I/Os per second over the interval");
	for (i = 0; i < m->nds; i++) {
		sample(f, "dixload_device_rate_iops", "", "dev", m->dev[i],
		       NULL);
		value(f, m->ds[i].iops);
	}
	family(f, om, "dixload_device_interval_unwritten_blocks", "gauge",
	       "a device's blocks read in the interval without a dixload header");
	for (i = 0; i < m->nds; i++) {
		sample(f, "dixload_device_interval_unwritten_blocks", "",
		       "dev", m->dev[i], NULL);
		count(f, m->ds[i].unwritten);
	}
}

/* Each rank's gauges (MPI, rank 0). */
static void rank_gauges(FILE *f, int om, const struct metrics *m,
			char (*rk)[16])
{
	int i, x;

	if (!m->nranks)
		return;
	family(f, om, "dixload_rank_interval_length_seconds", "gauge",
	       "a rank's measured interval, 0 when it measured nothing (JSON ranks[].dt)");
	for (i = 0; i < m->nranks; i++) {
		sample(f, "dixload_rank_interval_length_seconds", "",
		       "rank", rk[i], "host", m->ranks[i].host, NULL);
		value(f, m->ranks[i].dt);
	}
	family(f, om, "dixload_rank_rate_bytes_per_second", "gauge",
	       "a rank's bytes per second over the interval, by direction");
	for (i = 0; i < m->nranks; i++)
		for (x = 0; x < DIX_DIR_NR; x++) {
			sample(f, "dixload_rank_rate_bytes_per_second", "",
			       "rank", rk[i], "host", m->ranks[i].host,
			       "dir", dirs[x], NULL);
			value(f, m->ranks[i].bps[x]);
		}
	family(f, om, "dixload_rank_rate_iops", "gauge",
	       "a rank's I/Os per second over the interval");
	for (i = 0; i < m->nranks; i++) {
		sample(f, "dixload_rank_rate_iops", "", "rank", rk[i],
		       "host", m->ranks[i].host, NULL);
		value(f, m->ranks[i].rate_iops);
	}
}

static const char *const ev_kinds[] = { "action", "change", "note" };

/* The events so far: a count per kind and one series per event. */
static void events(FILE *f, int om, const struct metrics *m)
{
	char seq[16];
	int i, k, n;

	family(f, om, "dixload_events", "counter",
	       "events so far, by kind (action: dixload did it; change: the kernel watch saw it; note)");
	for (k = 0; k < 3; k++) {
		for (i = 0, n = 0; i < m->nev; i++)
			n += m->ev[i].kind == k;
		sample(f, "dixload_events", "_total", "kind", ev_kinds[k],
		       NULL);
		count(f, n);
	}
	if (!m->nev)
		return;
	family(f, om, "dixload_event_seconds", "gauge",
	       "when each event happened, seconds since the load started (JSON event 't'); seq counts from 1 in the order they came");
	for (i = 0; i < m->nev; i++) {
		const struct mevent *e = &m->ev[i];
		const char *kv[10] = { "seq", seq, "kind", ev_kinds[e->kind],
				       "what", e->what };

		snprintf(seq, sizeof(seq), "%d", i + 1);
		/* an empty label is an absent one to Prometheus: left out */
		n = 3;
		if (e->ok >= 0) {
			kv[2 * n] = "ok";
			kv[2 * n++ + 1] = e->ok ? "true" : "false";
		}
		if (e->host) {
			kv[2 * n] = "host";
			kv[2 * n++ + 1] = e->host;
		}
		sample_kv(f, "dixload_event_seconds", "", kv, n);
		value(f, e->t);
	}
}

/* The transitions found after the load, and the exit status. */
static void results(FILE *f, int om, const struct metrics *m)
{
	char seq[16];
	int i;

	if (m->ntr) {
		family(f, om, "dixload_transition_ratio", "gauge",
		       "a throughput transition found after the load: after / before (NaN without steady intervals on both sides)");
		for (i = 0; i < m->ntr; i++) {
			const struct mtrans *t = &m->tr[i];
			const char *kv[8] = { "seq", seq, "event", t->what,
					      "significant", t->significant ?
					      "true" : "false", "dev", t->dev };

			snprintf(seq, sizeof(seq), "%d", i + 1);
			sample_kv(f, "dixload_transition_ratio", "", kv,
				  t->dev ? 4 : 3);
			value(f, t->both ? t->ratio : NAN);
		}
		family(f, om, "dixload_transition_change_seconds", "gauge",
		       "the second the transition's change was found at");
		for (i = 0; i < m->ntr; i++) {
			snprintf(seq, sizeof(seq), "%d", i + 1);
			sample(f, "dixload_transition_change_seconds", "",
			       "seq", seq, NULL);
			value(f, m->tr[i].change_at);
		}
	}
	if (m->done) {
		gauge_count(f, om, "dixload_exit_status",
		      "the run is over: its exit status",
		      m->status);
	}
}

/* The whole exposition of @m (its lock held) to @f. */
void metrics_render(FILE *f, int om, const struct metrics *m)
{
	struct crow total = { .c = &m->s.tot, .lat = m->s.lat }, *v;
	char (*rk)[16];
	char nr[16];
	int i;

	family(f, om, "dixload_run", "info", "this dixload");
	snprintf(nr, sizeof(nr), "%d", m->mpi_ranks);
	sample(f, "dixload_run", "_info", "version", PACKAGE_VERSION,
	       "ranks", nr, NULL);
	fputs("1\n", f);
	events(f, om, m);
	if (m->index) {
		total_gauges(f, om, m);
		counter_families(f, om, "", &total, 1);
		latency_families(f, om, "", &total, 1);
		latency_histogram(f, om, m);
	}
	if (m->index && m->nds) {
		v = xcalloc(m->nds, sizeof(*v));
		for (i = 0; i < m->nds; i++)
			v[i] = (struct crow){ &m->ds[i].tot,
					      { "dev", m->dev[i] }, 1,
					      m->ds[i].lat };
		device_gauges(f, om, m);
		counter_families(f, om, "device_", v, m->nds);
		latency_families(f, om, "device_", v, m->nds);
		free(v);
	}
	if (m->index && m->nranks) {
		rk = xcalloc(m->nranks, sizeof(*rk));
		v = xcalloc(m->nranks, sizeof(*v));
		for (i = 0; i < m->nranks; i++) {
			snprintf(rk[i], sizeof(rk[i]), "%d", m->ranks[i].rank);
			v[i] = (struct crow){ &m->ranks[i].c,
					      { "rank", rk[i], "host",
						m->ranks[i].host }, 2,
					      m->ranks[i].ilat };
		}
		rank_gauges(f, om, m, rk);
		counter_families(f, om, "rank_", v, m->nranks);
		latency_families(f, om, "rank_", v, m->nranks);
		free(v);
		free(rk);
	}
	results(f, om, m);
	if (om)
		fputs("# EOF\n", f);
}
