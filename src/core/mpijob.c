// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpijob.c - the MPI job: setup agreement, common start, the per-interval and
 * the final reduction to rank 0 (see mpijob.h for the design).
 *
 * Every collective here is called the same number of times on every rank:
 * one dix_mpi_agree() after the setup (and one after preconditioning), one
 * dix_mpi_start(), one dix_mpi_tick() per interval until the verdict says
 * stop, one dix_mpi_summary().  A rank that stops on its own (a signal,
 * --runtime, --max-errors) ticks at once instead of at its deadline, so
 * the others learn it at their next tick.
 */
#include "config.h"

#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/buildid.h"
#include "core/mpijob.h"
#include "lib/util.h"

/* Rank 0 starts the load this long after the start barrier: enough for
 * the broadcast to reach every host before the time it names. */
#define START_DELAY_NS	50000000L

/* A struct lat_hist is a run of uint64_t: max_ns, buckets. */
#define LAT_WORDS	(sizeof(struct lat_hist) / sizeof(uint64_t))

struct dix_mpi {
	int rank;
	int size;
	int leader;
	int nhosts;
	char host[64];
	char prefix[128];
	int ev_sent;		/* this rank's events already sent to rank 0 */
	int job_failed;		/* rank 0: a rank failed (exit status 1) */
	char *named;		/* rank 0: ranks whose failure was printed */
};

static int same_build(struct dix_mpi *m, char *err, size_t errlen);

int dix_mpi_init(struct dix_mpi **mp, char *err, size_t errlen)
{
	struct dix_mpi *m;
	MPI_Comm node;
	int provided, noderank, e;

	*mp = NULL;
	e = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	if (e != MPI_SUCCESS) {
		snprintf(err, errlen, "MPI_Init_thread failed (error %d)", e);
		return -1;
	}
	m = xcalloc(1, sizeof(*m));
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->size);
	if (gethostname(m->host, sizeof(m->host) - 1))
		snprintf(m->host, sizeof(m->host), "unknown");
	/* the ranks sharing memory with this one: one node, one host */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m->rank,
			    MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &noderank);
	MPI_Comm_free(&node);
	m->leader = noderank == 0;
	MPI_Allreduce(&m->leader, &m->nhosts, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	m->named = xcalloc(m->size, 1);
	snprintf(m->prefix, sizeof(m->prefix), "rank %d (%s): ", m->rank,
		 m->host);
	if (!same_build(m, err, errlen)) {
		MPI_Finalize();
		free(m->named);
		free(m);
		return -1;
	}
	dix_msg_prefix = m->prefix;
	*mp = m;
	return 0;
}

void dix_mpi_finish(struct dix_mpi *m)
{
	if (!m)
		return;
	MPI_Finalize();
	dix_msg_prefix = "";
	free(m->named);
	free(m);
}

int dix_mpi_rank(const struct dix_mpi *m)
{
	return m->rank;
}

int dix_mpi_size(const struct dix_mpi *m)
{
	return m->size;
}

const char *dix_mpi_host(const struct dix_mpi *m)
{
	return m->host;
}

int dix_mpi_leader(const struct dix_mpi *m)
{
	return m->leader;
}

/* Rank 0 names a failed rank once: "rank 2 (node7) failed: WHY". */
static void name_failure(struct dix_mpi *m, int rank, const char *host,
			 const char *why)
{
	m->job_failed = 1;
	if (m->named[rank])
		return;
	m->named[rank] = 1;
	fprintf(stderr, "dixload: rank %d (%s) failed: %s; the job stops\n",
		rank, host, why[0] ? why : "no reason given");
}

struct agree_row {
	int ok;
	char host[64];
	char why[256];
};

int dix_mpi_agree(struct dix_mpi *m, int ok, const char *why)
{
	struct agree_row me, *all = NULL;
	int i, all_ok = ok;

	memset(&me, 0, sizeof(me));
	me.ok = ok;
	snprintf(me.host, sizeof(me.host), "%s", m->host);
	snprintf(me.why, sizeof(me.why), "%s", ok ? "" : why ? why : "");
	if (m->rank == 0)
		all = xcalloc(m->size, sizeof(*all));
	MPI_Gather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, 0,
		   MPI_COMM_WORLD);
	if (m->rank == 0) {
		for (i = 0; i < m->size; i++) {
			if (all[i].ok)
				continue;
			all_ok = 0;
			name_failure(m, i, all[i].host, all[i].why);
		}
		free(all);
	}
	MPI_Bcast(&all_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return all_ok;
}

/* The precedence of the exit statuses (util.h): 3 > 2 > 1 > 4 > 0. */
static int status_rank(int s)
{
	switch (s) {
	case DIX_EXIT_INTEGRITY:
		return 4;
	case DIX_EXIT_IO:
		return 3;
	case DIX_EXIT_USAGE:
		return 2;
	case DIX_EXIT_ACTION:
		return 1;
	}
	return 0;
}

static int status_of_rank(int k)
{
	static const int s[] = { DIX_EXIT_OK, DIX_EXIT_ACTION, DIX_EXIT_USAGE,
				 DIX_EXIT_IO, DIX_EXIT_INTEGRITY };

	return s[k];
}

int dix_mpi_status(struct dix_mpi *m, int status)
{
	int mine = status_rank(status), job;

	(void)m;
	MPI_Allreduce(&mine, &job, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return status_of_rank(job);
}

double dix_mpi_start(struct dix_mpi *m)
{
	struct timespec ts;
	int64_t v[2];

	MPI_Barrier(MPI_COMM_WORLD);
	if (m->rank == 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += START_DELAY_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		v[0] = ts.tv_sec;
		v[1] = ts.tv_nsec;
	}
	MPI_Bcast(v, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
	ts.tv_sec = v[0];
	ts.tv_nsec = v[1];
	/* a host whose clock is ahead by more than the delay starts at once */
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	return dix_now();
}

/* An event on the wire: this header, then what, detail, json, label. */
char *dix_mpi_pack_events(struct dix_mpi *m, const struct dix_event *ev,
			  int nev, int *outlen)
{
	char *buf = NULL;
	size_t len = 0;
	int i;

	for (i = m->ev_sent; m->rank && i < nev; i++)
		dix_event_pack(&ev[i], &buf, &len);
	m->ev_sent = nev;
	*outlen = (int)len;
	return buf;
}

/* Rank 0: a rank's events, each named with its host, appended to @g. */
static void unpack_events(struct dix_mpi_gather *g, const char *p, int len,
			  const char *host)
{
	const char *end = p + len;
	struct dix_event ev;

	while (p < end && !dix_event_unpack(&p, end, &ev)) {
		ev.host = xstrdup(host);
		g->ev = xrealloc(g->ev, (g->nev + 1) * sizeof(*g->ev));
		g->ev[g->nev++] = ev;
	}
}

static void row_init(const struct dix_mpi *m, struct dix_rank_row *x,
		     int flags, const char *why)
{
	memset(x, 0, sizeof(*x));
	x->rank = m->rank;
	snprintf(x->host, sizeof(x->host), "%s", m->host);
	x->flags = flags;
	if (why)
		snprintf(x->why, sizeof(x->why), "%s", why);
}

void dix_mpi_gather_free(struct dix_mpi_gather *g)
{
	int i;

	for (i = 0; i < g->nev; i++)
		dix_event_clear(&g->ev[i]);
	free(g->ev);
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

/*
 * The job's interval latency: the ranks' histograms summed bucket by
 * bucket (a percentile of the job is not any mean of the ranks'); the
 * maximum is the largest of the ranks', which their rows carry.
 */
static void lat_reduce(const struct dix_mpi *m, const struct lat_hist *lat,
		       struct dix_mpi_gather *g)
{
	static const struct lat_hist none[DIX_DIR_NR];
	int i, d;

	MPI_Reduce(lat ? lat : none, g->lat, (int)(DIX_DIR_NR * LAT_WORDS),
		   MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (m->rank)
		return;
	for (d = 0; d < DIX_DIR_NR; d++) {
		g->lat[d].max_ns = 0;
		for (i = 0; i < m->size; i++)
			if (g->rows[i].ilat[d].max > g->lat[d].max_ns)
				g->lat[d].max_ns = g->rows[i].ilat[d].max;
		lat_quantiles(&g->lat[d], &g->job.lat[d]);
	}
}

int dix_mpi_tick(struct dix_mpi *m, const struct meter_sample *s,
		 const struct lat_hist *lat, double t, int flags,
		 const char *why, const char *ev, int evlen,
		 struct dix_mpi_gather *g)
{
	struct dix_rank_row me, *rows = NULL;
	int *lens = NULL, *displs = NULL, verdict = 0, done = 1, i;
	char *all = NULL;

	memset(g, 0, sizeof(*g));
	row_init(m, &me, flags, why);
	if (s) {
		me.dt = s->dt;
		me.bps[DIX_READ] = s->read_bps;
		me.bps[DIX_WRITE] = s->write_bps;
		me.rate_iops = s->iops;
		me.c = s->tot;
		me.unwritten = s->unwritten;
		memcpy(me.ilat, s->lat, sizeof(me.ilat));
	}
	if (m->rank == 0) {
		rows = xcalloc(m->size, sizeof(*rows));
		lens = xcalloc(m->size, sizeof(*lens));
		displs = xcalloc(m->size, sizeof(*displs));
	}
	MPI_Gather(&me, sizeof(me), MPI_BYTE, rows, sizeof(me), MPI_BYTE, 0,
		   MPI_COMM_WORLD);
	MPI_Gather(&evlen, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (m->rank == 0) {
		int sum = 0;

		for (i = 0; i < m->size; i++) {
			displs[i] = sum;
			sum += lens[i];
		}
		all = xmalloc(sum ? sum : 1);
	}
	MPI_Gatherv(ev, evlen, MPI_BYTE, all, lens, displs, MPI_BYTE, 0,
		    MPI_COMM_WORLD);
	if (m->rank == 0) {
		struct meter_sample *job = &g->job;

		/* the events of the interval go before its line */
		for (i = 1; i < m->size; i++)
			unpack_events(g, all + displs[i], lens[i],
				      rows[i].host);
		memset(job, 0, sizeof(*job));
		if (s)
			*job = *s;	/* its t and the CPU of rank 0's host */
		else
			job->t = t;
		job->dt = 0;
		job->read_bps = job->write_bps = job->iops = 0;
		job->unwritten = 0;
		memset(&job->tot, 0, sizeof(job->tot));
		for (i = 0; i < m->size; i++) {
			const struct dix_rank_row *x = &rows[i];

			if (x->dt > job->dt)
				job->dt = x->dt;
			job->read_bps += x->bps[DIX_READ];
			job->write_bps += x->bps[DIX_WRITE];
			job->iops += x->rate_iops;
			job->unwritten += x->unwritten;
			counters_add(&job->tot, &x->c);
			if (x->flags & (DIX_MPI_STOP | DIX_MPI_FAILED))
				verdict = DIX_MPI_STOP;
			if (!(x->flags & DIX_MPI_DONE))
				done = 0;
			if (x->flags & DIX_MPI_FAILED)
				name_failure(m, i, x->host, x->why);
		}
		if (done)
			verdict = DIX_MPI_STOP;
		g->have = job->dt > 0;
		g->rows = rows;
		g->nrows = m->size;
		free(lens);
		free(displs);
		free(all);
	}
	lat_reduce(m, s ? lat : NULL, g);
	MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return verdict;
}

int dix_mpi_summary(struct dix_mpi *m, const struct dix_totals *t,
		    uint64_t bad_extents, int status, struct dix_totals *tot,
		    struct dix_rank_row **rowsp)
{
	struct dix_rank_row me, *rows = NULL;
	struct lat_hist sum[DIX_DIR_NR];
	uint64_t mx[DIX_DIR_NR], jmx[DIX_DIR_NR];
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	int d, i, job;

	*rowsp = NULL;
	row_init(m, &me, 0, NULL);
	me.elapsed = t->elapsed;
	me.c = t->c;
	me.unwritten = t->unwritten;
	me.bad_extents = bad_extents;
	me.bad_blocks = t->ext_blocks + t->ext_dropped_blocks;
	me.self_s = t->cpu.self_s;
	me.self_user_s = t->cpu.self_user_s;
	me.self_sys_s = t->cpu.self_sys_s;
	me.status = status;
	for (d = 0; d < DIX_DIR_NR; d++) {
		me.bps[d] = t->c.bytes[d] / el;
		me.iops[d] = t->c.ops[d] / el;
		me.lat[d][0] = lat_percentile(&t->lat[d], 0.5);
		me.lat[d][1] = lat_percentile(&t->lat[d], 0.99);
		me.lat[d][2] = lat_percentile(&t->lat[d], 0.999);
		me.lat[d][3] = t->lat[d].max_ns;
		mx[d] = t->lat[d].max_ns;
	}
	if (m->rank == 0)
		rows = xcalloc(m->size, sizeof(*rows));
	MPI_Gather(&me, sizeof(me), MPI_BYTE, rows, sizeof(me), MPI_BYTE, 0,
		   MPI_COMM_WORLD);
	/* histograms merge by adding buckets (and counts); maxima by max */
	MPI_Reduce(t->lat, sum, (int)(DIX_DIR_NR * LAT_WORDS), MPI_UINT64_T,
		   MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(mx, jmx, DIX_DIR_NR, MPI_UINT64_T, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	job = dix_mpi_status(m, status);
	if (m->rank == 0) {
		if (m->job_failed && status_rank(job) < status_rank(DIX_EXIT_USAGE))
			job = DIX_EXIT_USAGE;
		memset(tot, 0, sizeof(*tot));
		for (d = 0; d < DIX_DIR_NR; d++) {
			tot->lat[d] = sum[d];
			tot->lat[d].max_ns = jmx[d];
		}
		for (i = 0; i < m->size; i++) {
			const struct dix_rank_row *x = &rows[i];

			counters_add(&tot->c, &x->c);
			if (x->elapsed > tot->elapsed)
				tot->elapsed = x->elapsed;
			for (d = 0; d < DIX_DIR_NR; d++) {
				tot->bps[d] += x->bps[d];
				tot->iops[d] += x->iops[d];
			}
			tot->ext_blocks += x->bad_blocks;
			tot->unwritten += x->unwritten;
			tot->cpu.self_s += x->self_s;
			tot->cpu.self_user_s += x->self_user_s;
			tot->cpu.self_sys_s += x->self_sys_s;
		}
		/* the machines' shares are per host: only dixload's own adds up */
		tot->cpu.valid = 0;
		tot->cpu.self_pct = tot->elapsed > 0 ?
				    100 * tot->cpu.self_s / tot->elapsed : 0;
		tot->summed = 1;
		tot->ranks = rows;
		tot->nranks = m->size;
		tot->nhosts = m->nhosts;
		*rowsp = rows;
	}
	MPI_Bcast(&job, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return job;
}

/*
 * Before any record goes between the ranks: is every rank the same build
 * as rank 0 (buildid.h)?  Every rank learns every identity (one
 * allgather), so all of them give up together; rank 0 names the first rank
 * that differs and how many more do, the others leave @err empty so the
 * job prints one line, not one per rank.
 * Return: 1 the same everywhere, 0 not.
 */
static int same_build(struct dix_mpi *m, char *err, size_t errlen)
{
	const uint32_t sizes[DIX_BUILD_RECORDS] = {
		sizeof(struct agree_row), sizeof(struct dix_rank_row),
		sizeof(struct dix_evdata), sizeof(struct lat_hist),
	};
	struct build_row {
		struct dix_build_id id;
		char host[64];
	} me, *all = xcalloc(m->size, sizeof(*all));
	char why[320], more[48] = "";
	int i, first = 0, bad = 0;

	memset(&me, 0, sizeof(me));
	dix_build_id_init(&me.id, sizes);
	snprintf(me.host, sizeof(me.host), "%s", m->host);
	MPI_Allgather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE,
		      MPI_COMM_WORLD);
	/* downwards: @why is left holding the lowest differing rank's */
	for (i = m->size - 1; i > 0; i--)
		if (dix_build_id_diff(&all[0].id, &all[i].id, why, sizeof(why))) {
			first = i;
			bad++;
		}
	err[0] = '\0';
	if (bad && m->rank == 0) {
		if (bad > 1)
			snprintf(more, sizeof(more), " (and %d more rank%s)",
				 bad - 1, bad > 2 ? "s" : "");
		snprintf(err, errlen, "rank %d (%.63s)%s runs another build than rank 0 (%.63s): %s; ranks exchange raw records, so every host must run the same dixload build",
			 first, all[first].host, more, all[0].host, why);
	}
	free(all);
	return !bad;
}
