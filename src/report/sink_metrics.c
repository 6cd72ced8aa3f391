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
#include "report/metrics-int.h"
#include "report/sink.h"


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
	metrics_render(f, om, m);
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
	int nds = r->ds ? r->ndevs : 0, d;

	pthread_mutex_lock(&m->lock);
	m->index = r->index;
	m->s = *r->s;
	if (r->lat)
		for (d = 0; d < DIX_DIR_NR; d++)
			lat_merge(&m->cum[d], &r->lat[d]);
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
