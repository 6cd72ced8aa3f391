// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_metrics.c - --metrics: the meter as an OpenMetrics / Prometheus
 * text endpoint, so a lab's monitoring scrapes a soak instead of wrapping
 * its JSON in an exporter.
 *
 * The sink copies the latest interval's values (and the events so far)
 * under its own lock when the record comes, once per meter period; the
 * HTTP thread (libmicrohttpd's, a kept server, not one written here)
 * renders them on each scrape.  The workers and the meter's arithmetic
 * gain nothing: the sink sees the records every other sink sees.
 *
 * Every gauge is the interval's: dixload_interval_index and
 * dixload_interval_end_seconds, rendered from the same copy, say which
 * one a scrape saw (labels would make a new series every interval).  The
 * names, labels and how they map onto the JSON records: doc/metrics.md.
 *
 * The address is bound here, before the load, so a bad address or a port
 * in use stops the run at its start with the errno of bind() itself.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "lib/util.h"
#include "report/sink.h"

static const char *const dirs[] = { "read", "write" };

/* One event as the endpoint lists it (the rest is in the JSON). */
struct mevent {
	double t;
	int kind;
	int ok;
	char *what;
	char *host;
};

/* One transition found after the load. */
struct mtrans {
	char *what;
	char *dev;
	double at, change_at, before, after, ratio;
	int both, significant;
};

struct metrics {
	struct MHD_Daemon *d;
	char addr[INET6_ADDRSTRLEN + 16];
	pthread_mutex_t lock;
	/* the start */
	int mpi_ranks;
	char **dev;
	int ndev;
	/* the latest interval: @s the total, @ds each device's (@nds) */
	uint64_t index;
	struct meter_sample s;
	struct meter_sample *ds;
	int nds;
	struct dix_rank_row *ranks;
	int nranks;
	struct mevent *ev;
	int nev;
	struct mtrans *tr;
	int ntr;
	int done;
	int status;
	/* a scrape that read @done was sent whole (sink_metrics_linger()) */
	pthread_cond_t read_cv;
	int read_done;
};

/* --- the exposition ------------------------------------------------ */

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

/* A gauge's value: 17 digits, which read back as the same double. */
static void value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf\n" : "-Inf\n", f);
	else
		fprintf(f, "%.17g\n", v);
}

static void count(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64 "\n", v);
}

/*
 * One row of counters and latencies: the total's (no labels), a device's
 * (dev) or a rank's (rank, host), its labels in @kv (@nkv pairs).
 */
struct crow {
	const struct dix_counters *c;
	const char *kv[4];
	int nkv;
	const struct lat_quant *lat;
};

/*
 * The interval's latency of @n rows, per direction: the quantiles as
 * seconds (quantile "1" is the maximum; NaN when the interval completed
 * none, where the JSON prints 0) and the completions they count.
 */
static void latency_families(FILE *f, int om, const char *prefix,
			     const struct crow *rows, int n)
{
	static const char *const qname[] = { "0.5", "0.99", "0.999", "1" };
	const char *kv[8];
	char name[96];
	int i, d, k, nkv;

	snprintf(name, sizeof(name), "dixload_%slatency_seconds", prefix);
	family(f, om, name, "gauge",
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

	family(f, om, "dixload_interval_index", "gauge",
	       "the interval every gauge describes: its index, 1 for the first (JSON interval record 'index')");
	sample(f, "dixload_interval_index", "", NULL);
	count(f, m->index);
	family(f, om, "dixload_interval_end_seconds", "gauge",
	       "end of that interval, seconds since the load started (JSON 't')");
	sample(f, "dixload_interval_end_seconds", "", NULL);
	value(f, s->t);
	family(f, om, "dixload_interval_length_seconds", "gauge",
	       "measured length of that interval (JSON 'dt')");
	sample(f, "dixload_interval_length_seconds", "", NULL);
	value(f, s->dt);
	family(f, om, "dixload_rate_bytes_per_second", "gauge",
	       "bytes per second over the interval, by direction (JSON 'read_bps', 'write_bps')");
	sample(f, "dixload_rate_bytes_per_second", "", "dir", "read", NULL);
	value(f, s->read_bps);
	sample(f, "dixload_rate_bytes_per_second", "", "dir", "write", NULL);
	value(f, s->write_bps);
	family(f, om, "dixload_rate_iops", "gauge",
	       "I/Os completed per second over the interval (JSON 'iops')");
	sample(f, "dixload_rate_iops", "", NULL);
	value(f, s->iops);
	family(f, om, "dixload_interval_unwritten_blocks", "gauge",
	       "blocks read in the interval without a dixload header (JSON 'unwritten')");
	sample(f, "dixload_interval_unwritten_blocks", "", NULL);
	count(f, s->unwritten);
	if (s->cpu.valid) {
		family(f, om, "dixload_cpu_busy_percent", "gauge",
		       "the machine's busy share of all CPUs over the interval (JSON 'cpu.busy_pct')");
		sample(f, "dixload_cpu_busy_percent", "", NULL);
		value(f, s->cpu.busy);
	}
	family(f, om, "dixload_cpu_self_percent", "gauge",
	       "dixload's own CPU time over the interval, percent of one CPU (JSON 'cpu.self_pct')");
	sample(f, "dixload_cpu_self_percent", "", NULL);
	value(f, s->cpu.self_pct);
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
		family(f, om, "dixload_exit_status", "gauge",
		       "the run is over: its exit status");
		sample(f, "dixload_exit_status", "", NULL);
		count(f, m->status);
	}
}

/* The whole exposition of @m (its lock held) to @f. */
static void render(FILE *f, int om, const struct metrics *m)
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

/* --- the HTTP side ------------------------------------------------- */

#define CT_OM	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_TEXT	"text/plain; version=0.0.4; charset=utf-8"

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int code,
			     const char *type, char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * GET /metrics: OpenMetrics when the scraper asks for it (Prometheus
 * does), else the 0.0.4 text format every Prometheus reads.
 */
static enum MHD_Result serve(void *cls, struct MHD_Connection *c,
			     const char *url, const char *method,
			     const char *version, const char *upload,
			     size_t *upload_size, void **con_cls)
{
	struct metrics *m = cls;
	const char *accept;
	char *body = NULL;
	size_t len = 0;
	FILE *f;
	int om;

	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     xstrdup("GET /metrics\n"), 13);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain",
			     xstrdup("dixload serves /metrics\n"), 24);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					     MHD_HTTP_HEADER_ACCEPT);
	om = accept && strstr(accept, "application/openmetrics-text");
	f = open_memstream(&body, &len);
	if (!f)
		return MHD_NO;
	pthread_mutex_lock(&m->lock);
	render(f, om, m);
	/* this reply holds the end: its completion ends a linger */
	if (m->done)
		*con_cls = m;
	pthread_mutex_unlock(&m->lock);
	if (fclose(f)) {
		free(body);
		return MHD_NO;
	}
	return reply(c, MHD_HTTP_OK, om ? CT_OM : CT_TEXT, body, len);
}

/* A reply sent: the one that held the end of the run ends a linger. */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct metrics *m = cls;

	if (!*con_cls || toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
		return;
	pthread_mutex_lock(&m->lock);
	m->read_done = 1;
	pthread_cond_broadcast(&m->read_cv);
	pthread_mutex_unlock(&m->lock);
}

/* --- the address --------------------------------------------------- */

/* @err formatted (set_err()), and -EINVAL: a --metrics value refused. */
#define refuse(err, errlen, ...) \
	(set_err(err, errlen, __VA_ARGS__), -EINVAL)

int sink_metrics_addr(const char *spec, struct sockaddr_storage *ss,
		      socklen_t *sslen, char *err, size_t errlen)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *port, *colon;
	unsigned long p;
	size_t hl;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':')
			return refuse(err, errlen,
				       "--metrics %s: an IPv6 address is written [ADDR]:PORT",
				       spec);
		hl = close - spec - 1;
		port = close + 2;
		if (hl >= sizeof(host))
			hl = sizeof(host) - 1;
		memcpy(host, spec + 1, hl);
		host[hl] = '\0';
	} else if ((colon = strrchr(spec, ':'))) {
		if (memchr(spec, ':', colon - spec))
			return refuse(err, errlen,
				       "--metrics %s: an IPv6 address goes in brackets: [ADDR]:PORT",
				       spec);
		hl = colon - spec;
		port = colon + 1;
		if (hl >= sizeof(host))
			hl = sizeof(host) - 1;
		memcpy(host, spec, hl);
		host[hl] = '\0';
	} else {
		strcpy(host, "127.0.0.1");
		port = spec;
	}
	errno = 0;
	p = strtoul(port, &end, 10);
	if (!*port || *end || *port < '0' || *port > '9' || errno || !p ||
	    p > 65535)
		return refuse(err, errlen,
			       "--metrics %s: '%s' is not a port (allowed: 1-65535)",
			       spec, port);
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (spec[0] == '[' && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(p);
		*sslen = sizeof(*v6);
		return 0;
	}
	if (spec[0] != '[' && inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(p);
		*sslen = sizeof(*v4);
		return 0;
	}
	return refuse(err, errlen,
		       "--metrics %s: '%s' is not an address to listen on (allowed: an IPv4 address such as 127.0.0.1 or 0.0.0.0, localhost, an IPv6 address in brackets such as [::1])",
		       spec, host);
}

void *sink_metrics_open(const char *spec, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	pthread_condattr_t ca;
	struct metrics *m;
	socklen_t len;
	int fd, one = 1, e;
	char a[INET6_ADDRSTRLEN];

	if (sink_metrics_addr(spec, &ss, &len, err, errlen))
		return NULL;
	if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
			  a, sizeof(a));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, a,
			  sizeof(a));
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		set_err(err, errlen, "--metrics %s: socket: %s", spec,
			strerror(errno));
		return NULL;
	}
	/* a port in TIME_WAIT from the last run is free; a listener's is not */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 16)) {
		e = errno;
		set_err(err, errlen, "--metrics %s: cannot listen on %s%s%s:%u: %s%s",
			spec, ss.ss_family == AF_INET6 ? "[" : "", a,
			ss.ss_family == AF_INET6 ? "]" : "",
			ntohs(((struct sockaddr_in *)&ss)->sin_port),
			strerror(e), e == EADDRINUSE ?
			" (another process listens there: choose another port)" :
			e == EADDRNOTAVAIL ?
			" (no interface of this host has that address)" : "");
		close(fd);
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->read_cv, &ca);
	pthread_condattr_destroy(&ca);
	snprintf(m->addr, sizeof(m->addr), "%s%s%s:%u",
		 ss.ss_family == AF_INET6 ? "[" : "", a,
		 ss.ss_family == AF_INET6 ? "]" : "",
		 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	m->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				0, NULL, NULL, serve, m,
				MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_TIMEOUT, 10u,
				MHD_OPTION_NOTIFY_COMPLETED, completed, m,
				MHD_OPTION_END);
	if (!m->d) {
		set_err(err, errlen, "--metrics %s: libmicrohttpd did not start on %s",
			spec, m->addr);
		close(fd);
		pthread_cond_destroy(&m->read_cv);
		pthread_mutex_destroy(&m->lock);
		free(m);
		return NULL;
	}
	return m;
}

const char *sink_metrics_where(void *priv)
{
	return ((struct metrics *)priv)->addr;
}

void sink_metrics_linger(void *priv, double seconds)
{
	struct metrics *m = priv;
	struct timespec until;
	double end;

	if (!m || seconds <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &until);
	end = until.tv_sec + until.tv_nsec / 1e9 + seconds;
	until.tv_sec = (time_t)end;
	until.tv_nsec = (long)((end - until.tv_sec) * 1e9);
	pthread_mutex_lock(&m->lock);
	while (m->done && !m->read_done &&
	       pthread_cond_timedwait(&m->read_cv, &m->lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&m->lock);
}

void sink_metrics_free(void *priv)
{
	struct metrics *m = priv;
	int i;

	if (!m)
		return;
	/* the HTTP thread ends (and closes the socket) before the state goes */
	MHD_stop_daemon(m->d);
	for (i = 0; i < m->ndev; i++)
		free(m->dev[i]);
	free(m->dev);
	free(m->ds);
	free(m->ranks);
	for (i = 0; i < m->nev; i++) {
		free(m->ev[i].what);
		free(m->ev[i].host);
	}
	free(m->ev);
	for (i = 0; i < m->ntr; i++) {
		free(m->tr[i].what);
		free(m->tr[i].dev);
	}
	free(m->tr);
	pthread_cond_destroy(&m->read_cv);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* --- the records --------------------------------------------------- */

static void metrics_start(void *priv, const struct rec_start *r)
{
	struct metrics *m = priv;
	int i;

	pthread_mutex_lock(&m->lock);
	m->mpi_ranks = r->mpi_ranks;
	m->dev = xcalloc(r->ndevs, sizeof(*m->dev));
	for (i = 0; i < r->ndevs; i++)
		m->dev[i] = xstrdup(r->devs[i].path);
	m->ndev = r->ndevs;
	pthread_mutex_unlock(&m->lock);
}

static void metrics_interval(void *priv, const struct rec_interval *r)
{
	struct metrics *m = priv;
	int nds = r->ds ? r->ndevs : 0;

	pthread_mutex_lock(&m->lock);
	m->index = r->index;
	m->s = *r->s;
	if (nds > m->ndev)
		nds = m->ndev;
	if (nds && !m->ds)
		m->ds = xcalloc(m->ndev, sizeof(*m->ds));
	if (nds)
		memcpy(m->ds, r->ds, nds * sizeof(*m->ds));
	m->nds = nds;
	if (r->nranks != m->nranks)
		m->ranks = xrealloc(m->ranks, r->nranks * sizeof(*m->ranks));
	if (r->nranks)
		memcpy(m->ranks, r->ranks, r->nranks * sizeof(*m->ranks));
	m->nranks = r->nranks;
	pthread_mutex_unlock(&m->lock);
}

static void metrics_event(void *priv, const struct dix_event *ev)
{
	struct metrics *m = priv;
	struct mevent e = {
		.t = ev->t, .ok = ev->ok,
		.kind = ev->kind == EV_ACTION ? 0 : ev->kind == EV_CHANGE ? 1 : 2,
		.what = xstrdup(ev->what ? ev->what : ""),
		.host = ev->host ? xstrdup(ev->host) : NULL,
	};

	pthread_mutex_lock(&m->lock);
	m->ev = xrealloc(m->ev, (m->nev + 1) * sizeof(*m->ev));
	m->ev[m->nev++] = e;
	pthread_mutex_unlock(&m->lock);
}

static void metrics_transition(void *priv, const struct rec_transition *r)
{
	struct metrics *m = priv;
	struct mtrans t = {
		.what = xstrdup(r->what ? r->what : ""),
		.dev = r->dev ? xstrdup(r->dev->path) : NULL,
		.at = r->tr->at, .change_at = r->tr->change_at,
		.before = r->tr->before, .after = r->tr->after,
		.ratio = r->tr->ratio,
		.both = r->tr->nbefore && r->tr->nafter,
		.significant = r->tr->significant,
	};

	pthread_mutex_lock(&m->lock);
	m->tr = xrealloc(m->tr, (m->ntr + 1) * sizeof(*m->tr));
	m->tr[m->ntr++] = t;
	pthread_mutex_unlock(&m->lock);
}

static void metrics_summary(void *priv, const struct rec_summary *r)
{
	struct metrics *m = priv;

	pthread_mutex_lock(&m->lock);
	m->done = 1;
	m->status = r->status;
	pthread_mutex_unlock(&m->lock);
}

const struct dix_sink_ops sink_metrics_ops = {
	.name = "metrics",
	.start = metrics_start,
	.interval = metrics_interval,
	.event = metrics_event,
	.change = metrics_event,
	.transition = metrics_transition,
	.summary = metrics_summary,
	/* the caller owns the endpoint: sink_metrics_free() */
};
