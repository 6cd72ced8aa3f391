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
 *
 * The tick is point-to-point, not a collective: each rank sends rank 0 its
 * row and its events and waits for the verdict, polling (MPI_Test) rather
 * than blocking.  Open MPI 4.1 has no fault tolerance: when a rank dies
 * the others wait in the tick until mpirun kills them (SIGTERM, then
 * SIGKILL odls_base_sigkill_timeout = 1 s later).  A blocking MPI_Gather
 * never returns to see the SIGTERM; a polled one does, and rank 0 knows
 * whose row did not come.  So after a signal rank 0 waits LOSS_GRACE_S
 * for the rows still missing (under SIGINT every rank is alive and they
 * come within milliseconds), then names the missing ranks, tells the
 * others, and the job is cut short: rank 0 reports the intervals every
 * rank reached it for, each rank its own figures, and none of them calls
 * MPI again (the next collective would wait for the dead rank).
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
#include "core/exitstatus.h"
#include "core/mpijob.h"
#include "lib/util.h"

/* Rank 0 starts the load this long after the start barrier: enough for
 * the broadcast to reach every host before the time it names. */
#define START_DELAY_NS	50000000L

/* After a signal, how long rank 0 waits for the rows still missing before
 * it calls their ranks lost, and how long the others wait beyond that for
 * rank 0's verdict: both well inside mpirun's 1 s before SIGKILL. */
#define LOSS_GRACE_S	0.3
#define VERDICT_GRACE_S	0.5

/* How long a rank other than 0 of a job cut short waits to be killed
 * before it exits on its own (mpirun's SIGKILL comes within 1 s). */
#define CUT_WAIT_S	5.0

/* Between two MPI_Test calls: a tick's wait costs no CPU and ends within
 * this of its message. */
#define POLL_NS		100000L

/* The tick's messages (on their own communicator) */
#define TAG_ROW		1
#define TAG_EV		2
#define TAG_VERDICT	3
#define TAG_LAT		4

/* What rank 0 has of a rank's tick (the row, events, histograms). */
#define GOT_ROW		0x1
#define GOT_EV		0x2
#define GOT_LAT		0x4
#define GOT_ALL		(GOT_ROW | GOT_EV | GOT_LAT)

/* A struct lat_hist is a run of uint64_t: max_ns, buckets. */
#define LAT_WORDS	(sizeof(struct lat_hist) / sizeof(uint64_t))

/* The verdict rank 0 sends each rank at a tick. */
struct verdict {
	int v;			/* DIX_MPI_STOP, DIX_MPI_CUT */
	struct rec_cut cut;	/* with DIX_MPI_CUT: whom rank 0 lost */
};

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
	MPI_Comm tick;		/* the tick's point-to-point messages */
	int (*signalled)(void);	/* a signal came (dix_mpi_watch()) */
	struct dix_rank_row *last;	/* rank 0: the last complete tick's rows */
	uint64_t *unwritten;	/* rank 0: each rank's, summed over ticks */
	double last_t;		/* rank 0: that tick's job time (0: none) */
	int cut;		/* the job was cut short: no more MPI */
	struct rec_cut why_cut;
	char (*hosts)[64];	/* every rank's host, from the build check */
	struct dix_rank_row row;	/* this rank's row in flight to rank 0 */
	char *evbuf;		/* and its events */
	struct lat_hist lat[DIX_DIR_NR];	/* and its histograms */
	struct lat_hist lat_sum[DIX_DIR_NR];	/* rank 0: the job's, summed
						 * over the complete ticks */
	struct verdict vd;	/* the verdict coming back */
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
	/* a failed send or receive of the tick returns, not aborts */
	MPI_Comm_dup(MPI_COMM_WORLD, &m->tick);
	MPI_Comm_set_errhandler(m->tick, MPI_ERRORS_RETURN);
	if (m->rank == 0) {
		m->last = xcalloc(m->size, sizeof(*m->last));
		m->unwritten = xcalloc(m->size, sizeof(*m->unwritten));
	}
	snprintf(m->prefix, sizeof(m->prefix), "rank %d (%s): ", m->rank,
		 m->host);
	if (!same_build(m, err, errlen)) {
		MPI_Comm_free(&m->tick);
		MPI_Finalize();
		free(m->named);
		free(m->last);
		free(m->unwritten);
		free(m->hosts);
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
	/* cut short, MPI_Finalize would wait for the lost rank */
	if (!m->cut) {
		MPI_Comm_free(&m->tick);
		MPI_Finalize();
	} else if (m->rank) {
		/*
		 * A rank that exits unfinalized makes Open MPI abort the
		 * others at once (4.1: rank 0 died in the middle of its
		 * summary, 1 run in 3); mpirun kills this one within its
		 * second anyway.  So it waits for that, its --output closed.
		 */
		double until = dix_now() + CUT_WAIT_S;
		struct timespec ts = { 0, 50000000L };

		while (dix_now() < until)
			nanosleep(&ts, NULL);
	}
	dix_msg_prefix = "";
	free(m->named);
	free(m->last);
	free(m->unwritten);
	free(m->hosts);
	free(m->evbuf);
	free(m);
}

void dix_mpi_watch(struct dix_mpi *m, int (*signalled)(void))
{
	m->signalled = signalled;
}

const struct rec_cut *dix_mpi_cut(const struct dix_mpi *m)
{
	return m->cut ? &m->why_cut : NULL;
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

int dix_mpi_status(struct dix_mpi *m, int status)
{
	/* the statuses in the order they win, so MPI_MAX picks the winner */
	static const int order[] = { DIX_EXIT_OK, DIX_EXIT_ACTION,
				      DIX_EXIT_USAGE, DIX_EXIT_IO,
				      DIX_EXIT_INTEGRITY };
	int mine = 0, job, k;

	(void)m;
	for (k = 0; k < (int)ARRAY_SIZE(order); k++)
		if (order[k] == status)
			mine = k;
	MPI_Allreduce(&mine, &job, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return order[job];
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

static void nap(void)
{
	struct timespec ts = { 0, POLL_NS };

	nanosleep(&ts, NULL);
}

/*
 * Whether a tick's wait has lasted @grace seconds since it first saw a
 * signal (@since: when that was, 0 until then).  Without a signal a wait
 * never gives up: a late rank is only late.
 */
static int gave_up(struct dix_mpi *m, double *since, double grace)
{
	double now;

	if (!m->signalled || !m->signalled())
		return 0;
	now = dix_now();
	if (!*since)
		*since = now;
	return now - *since >= grace;
}

/*
 * Rank 0: every other rank's row (into @rows), events (@evs, @evlens) and
 * histograms (@lat, DIX_DIR_NR per rank) of this tick; @got[i] becomes
 * GOT_ALL for each rank whose all came.
 * Return: the ranks still missing, which is 0 unless a signal came and
 * they stayed missing LOSS_GRACE_S after it.
 */
static int gather_rows(struct dix_mpi *m, struct dix_rank_row *rows,
		       char **evs, int *evlens, struct lat_hist *lat,
		       char *got)
{
	MPI_Request *req = xcalloc(2 * m->size, sizeof(*req));
	double since = 0;
	int i, missing;

	for (i = 1; i < m->size; i++) {
		MPI_Irecv(&rows[i], sizeof(rows[i]), MPI_BYTE, i, TAG_ROW,
			  m->tick, &req[2 * i]);
		MPI_Irecv(&lat[i * DIX_DIR_NR],
			  (int)(DIX_DIR_NR * LAT_WORDS), MPI_UINT64_T, i,
			  TAG_LAT, m->tick, &req[2 * i + 1]);
	}
	for (;;) {
		missing = 0;
		for (i = 1; i < m->size; i++) {
			MPI_Status st;
			int flag = 0, n = 0;

			if (!(got[i] & GOT_ROW) &&
			    MPI_Test(&req[2 * i], &flag, MPI_STATUS_IGNORE) ==
			    MPI_SUCCESS && flag)
				got[i] |= GOT_ROW;
			flag = 0;
			if (!(got[i] & GOT_LAT) &&
			    MPI_Test(&req[2 * i + 1], &flag,
				     MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)
				got[i] |= GOT_LAT;
			flag = 0;
			if (!(got[i] & GOT_EV) &&
			    MPI_Iprobe(i, TAG_EV, m->tick, &flag, &st) ==
			    MPI_SUCCESS && flag) {
				MPI_Get_count(&st, MPI_BYTE, &n);
				evs[i] = xmalloc(n ? n : 1);
				MPI_Recv(evs[i], n, MPI_BYTE, i, TAG_EV, m->tick,
					 MPI_STATUS_IGNORE);
				evlens[i] = n;
				got[i] |= GOT_EV;
			}
			missing += got[i] != GOT_ALL;
		}
		if (!missing || gave_up(m, &since, LOSS_GRACE_S))
			break;
		nap();
	}
	/* a receive still posted is left so: cut short, MPI is done */
	free(req);
	return missing;
}

/*
 * Rank 0, rows missing after a signal: the job is cut short at @t.  The
 * ranks whose rows came are told whom it lost (best effort: a send that
 * has not left within 50 ms is abandoned), and the loss is said on
 * stderr.
 */
static void cut_job(struct dix_mpi *m, const char *got, double t,
		    double before)
{
	struct rec_cut *c = &m->why_cut;
	struct verdict vd;
	MPI_Request *req = xcalloc(m->size, sizeof(*req));
	double until = dix_now() + 0.05;
	char names[DIX_CUT_NAMED * 80] = "";
	size_t len = 0;
	int i, n = 0, pending;

	memset(c, 0, sizeof(*c));
	c->at = t;
	c->upto = m->last_t;
	c->before = before;
	c->job = 1;
	for (i = 1; i < m->size; i++) {
		if (got[i] == GOT_ALL)
			continue;
		if (c->nlost < DIX_CUT_NAMED) {
			c->lost[c->nlost].rank = i;
			snprintf(c->lost[c->nlost].host,
				 sizeof(c->lost[c->nlost].host), "%s",
				 m->hosts[i]);
			len += snprintf(names + len, sizeof(names) - len,
					"%srank %d (%s)", c->nlost ? ", " : "",
					i, m->hosts[i]);
		}
		c->nlost++;
	}
	m->cut = 1;
	memset(&vd, 0, sizeof(vd));
	vd.v = DIX_MPI_STOP | DIX_MPI_CUT;
	vd.cut = *c;
	for (i = 1; i < m->size; i++)
		if (got[i] == GOT_ALL)
			MPI_Isend(&vd, sizeof(vd), MPI_BYTE, i, TAG_VERDICT,
				  m->tick, &req[n++]);
	do {
		pending = 0;
		for (i = 0; i < n; i++) {
			int flag = 1;

			if (req[i] != MPI_REQUEST_NULL &&
			    MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE) ==
			    MPI_SUCCESS && !flag)
				pending++;
		}
		if (pending)
			nap();
	} while (pending && dix_now() < until);
	free(req);
	fprintf(stderr, "dixload: the job is cut short at %.2f s: %s%s lost (no record of the interval after %.2f s, due by %.2f s); the summary covers the intervals to %.2f s\n",
		t, names, c->nlost > DIX_CUT_NAMED ? " and more" : "",
		c->upto, before, c->upto);
}

/*
 * Rank 0's part of a tick: the rows, then either the job's interval in
 * @g and the verdict to every rank, or the job cut short.
 */
static int tick_root(struct dix_mpi *m, const struct dix_rank_row *me,
		     const struct meter_sample *s, const struct lat_hist *mine,
		     double t, struct dix_mpi_gather *g)
{
	struct dix_rank_row *rows = xcalloc(m->size, sizeof(*rows));
	struct lat_hist *lat = xcalloc(m->size * DIX_DIR_NR, sizeof(*lat));
	struct meter_sample *job = &g->job;
	char **evs = xcalloc(m->size, sizeof(*evs));
	int *evlens = xcalloc(m->size, sizeof(*evlens));
	char *got = xcalloc(m->size, 1);
	struct verdict vd;
	double t_in = dix_now();
	int done = 1, i, d;

	rows[0] = *me;
	if (mine)
		memcpy(lat, mine, DIX_DIR_NR * sizeof(*lat));
	got[0] = GOT_ALL;
	if (gather_rows(m, rows, evs, evlens, lat, got)) {
		/* at: the job's time now, after the grace */
		cut_job(m, got, t + dix_now() - t_in, s ? s->t : t);
		for (i = 0; i < m->size; i++)
			free(evs[i]);
		free(evs);
		free(evlens);
		free(got);
		free(rows);
		free(lat);
		return DIX_MPI_STOP | DIX_MPI_CUT;
	}
	memset(&vd, 0, sizeof(vd));
	/* the events of the interval go before its line */
	for (i = 1; i < m->size; i++) {
		unpack_events(g, evs[i], evlens[i], rows[i].host);
		free(evs[i]);
	}
	free(evs);
	free(evlens);
	free(got);
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
			vd.v = DIX_MPI_STOP;
		if (!(x->flags & DIX_MPI_DONE))
			done = 0;
		if (x->flags & DIX_MPI_FAILED)
			name_failure(m, i, x->host, x->why);
	}
	if (done)
		vd.v = DIX_MPI_STOP;
	g->have = job->dt > 0;
	g->rows = rows;
	g->nrows = m->size;
	/*
	 * The job's interval latency: the ranks' histograms summed bucket
	 * by bucket (a percentile of the job is not any mean of the
	 * ranks'); the maximum is the largest of the ranks', which their
	 * rows carry.
	 */
	memset(g->lat, 0, sizeof(g->lat));
	for (d = 0; d < DIX_DIR_NR; d++) {
		for (i = 0; i < m->size; i++) {
			lat_merge(&g->lat[d], &lat[i * DIX_DIR_NR + d]);
			if (rows[i].ilat[d].max > g->lat[d].max_ns)
				g->lat[d].max_ns = rows[i].ilat[d].max;
		}
		lat_quantiles(&g->lat[d], &job->lat[d]);
	}
	free(lat);
	/* what a cut-short summary will be made of */
	if (g->have) {
		memcpy(m->last, rows, m->size * sizeof(*rows));
		for (i = 0; i < m->size; i++)
			m->unwritten[i] += rows[i].unwritten;
		for (d = 0; d < DIX_DIR_NR; d++)
			lat_merge(&m->lat_sum[d], &g->lat[d]);
		m->last_t = job->t;
	}
	for (i = 1; i < m->size; i++)
		MPI_Send(&vd, sizeof(vd), MPI_BYTE, i, TAG_VERDICT, m->tick);
	return vd.v;
}

/*
 * Another rank's part: its row and events to rank 0, then its verdict.
 * No verdict VERDICT_GRACE_S after a signal: rank 0 (or whoever it waits
 * for) is lost, and this rank cannot tell which.
 */
static int tick_other(struct dix_mpi *m, const struct dix_rank_row *me,
		      const struct lat_hist *lat, double t, const char *ev,
		      int evlen)
{
	MPI_Request sr[3], rr;
	struct verdict vd;
	double since = 0, t_in = dix_now();
	int flag;

	/* the buffers outlive a cut-short tick's abandoned sends */
	free(m->evbuf);
	m->evbuf = xmalloc(evlen ? evlen : 1);
	memcpy(m->evbuf, ev, evlen);
	m->row = *me;
	if (lat)
		memcpy(m->lat, lat, sizeof(m->lat));
	else
		memset(m->lat, 0, sizeof(m->lat));
	MPI_Isend(&m->row, sizeof(m->row), MPI_BYTE, 0, TAG_ROW, m->tick,
		  &sr[0]);
	MPI_Isend(m->evbuf, evlen, MPI_BYTE, 0, TAG_EV, m->tick, &sr[1]);
	MPI_Isend(m->lat, (int)(DIX_DIR_NR * LAT_WORDS), MPI_UINT64_T, 0,
		  TAG_LAT, m->tick, &sr[2]);
	MPI_Irecv(&m->vd, sizeof(m->vd), MPI_BYTE, 0, TAG_VERDICT, m->tick,
		  &rr);
	for (;;) {
		flag = 0;
		if (MPI_Test(&rr, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
		    flag)
			break;
		if (gave_up(m, &since, VERDICT_GRACE_S)) {
			memset(&m->why_cut, 0, sizeof(m->why_cut));
			m->why_cut.at = t + dix_now() - t_in;
			m->why_cut.before = t;
			m->cut = 1;
			return DIX_MPI_STOP | DIX_MPI_CUT;
		}
		nap();
	}
	vd = m->vd;
	MPI_Waitall(3, sr, MPI_STATUSES_IGNORE);
	if (vd.v & DIX_MPI_CUT) {
		m->why_cut = vd.cut;
		m->why_cut.at = t + dix_now() - t_in;
		m->why_cut.job = 0;
		m->cut = 1;
	}
	return vd.v;
}

int dix_mpi_tick(struct dix_mpi *m, const struct meter_sample *s,
		 const struct lat_hist *lat, double t, int flags,
		 const char *why, const char *ev, int evlen,
		 struct dix_mpi_gather *g)
{
	struct dix_rank_row me;

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
	if (m->rank)
		return tick_other(m, &me, s ? lat : NULL, t, ev, evlen);
	return tick_root(m, &me, s, s ? lat : NULL, t, g);
}

int dix_mpi_cut_totals(struct dix_mpi *m, struct dix_totals *job,
		       struct dix_rank_row **rowsp)
{
	struct dix_rank_row *rows;
	double el = m->last_t > 0 ? m->last_t : 1e-9;
	int d, i, k;

	*rowsp = NULL;
	if (m->rank || !m->cut)
		return -1;
	rows = xcalloc(m->size, sizeof(*rows));
	memset(job, 0, sizeof(*job));
	for (i = 0; i < m->size; i++) {
		struct dix_rank_row *x = &rows[i];

		/* before the first complete tick there is only the host */
		if (m->last_t > 0)
			*x = m->last[i];
		x->rank = i;
		snprintf(x->host, sizeof(x->host), "%s", m->hosts[i]);
		x->elapsed = m->last_t;
		x->unwritten = m->unwritten[i];
		x->status = counters_status(&x->c);
		for (d = 0; d < DIX_DIR_NR; d++) {
			x->bps[d] = x->c.bytes[d] / el;
			x->iops[d] = x->c.ops[d] / el;
			job->bps[d] += x->bps[d];
			job->iops[d] += x->iops[d];
		}
		for (k = 0; k < m->why_cut.nlost && k < DIX_CUT_NAMED; k++)
			if (m->why_cut.lost[k].rank == i) {
				x->status = exit_worst(x->status,
						       DIX_EXIT_USAGE);
				snprintf(x->why, sizeof(x->why),
					 "lost between %.2f s and %.2f s",
					 m->why_cut.upto, m->why_cut.before);
			}
		counters_add(&job->c, &x->c);
		job->unwritten += x->unwritten;
	}
	/* the job's latency is its intervals' histograms merged; a rank's
	 * own is reduced only at the end: its row has none */
	for (d = 0; d < DIX_DIR_NR; d++)
		job->lat[d] = m->lat_sum[d];
	job->elapsed = m->last_t;
	job->summed = 1;
	job->ranks = rows;
	job->nranks = m->size;
	job->nhosts = m->nhosts;
	job->cut = &m->why_cut;
	*rowsp = rows;
	return 0;
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
		if (m->job_failed)
			job = exit_worst(job, DIX_EXIT_USAGE);
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
	m->hosts = xcalloc(m->size, sizeof(*m->hosts));
	for (i = 0; i < m->size; i++)
		snprintf(m->hosts[i], sizeof(m->hosts[i]), "%.63s", all[i].host);
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
