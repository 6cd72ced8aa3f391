// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpitick.c - the MPI job's interval tick: each rank's row, events and
 * latency histograms to rank 0, rank 0's verdict back; and the job cut
 * short when a rank is lost.
 *
 * The tick is point-to-point, not a collective: each rank sends rank 0 its
 * row and its events and waits for the verdict, polling (MPI_Test) rather
 * than blocking.  Open MPI 4.1 has no fault tolerance (and 5 aborts the
 * job too): when a rank dies the others wait in the tick until mpirun
 * kills them (SIGCONT, SIGTERM, SIGKILL, odls_base_sigkill_timeout = 1 s
 * apart on 4.1, 0.25 s on 5).  A blocking MPI_Gather
 * never returns to see the SIGTERM; a polled one does, and rank 0 knows
 * whose row did not come.  So after a signal rank 0 waits LOSS_GRACE_S
 * for the rows still missing (under SIGINT every rank is alive and they
 * come within milliseconds), then names the missing ranks, tells the
 * others, and the job is cut short: rank 0 reports the intervals every
 * rank reached it for, each rank its own figures, and none of them calls
 * MPI again (the next collective would wait for the dead rank).
 */
#include "config.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exitstatus.h"
#include "core/mpijob.h"
#include "core/mpijob-int.h"
#include "lib/util.h"

/* After a signal, how long rank 0 waits for the rows still missing before
 * it calls their ranks lost, and how long the others wait beyond that for
 * rank 0's verdict: both well inside Open MPI 4.1's KILL_GAP_S between
 * mpirun's SIGTERM and its SIGKILL.  Open MPI 5's PRRTE leaves 0.25 s, not
 * an MCA parameter (measured: SIGCONT at +5 ms from the rank's death,
 * SIGTERM at +255 ms, SIGKILL at +505 ms): when the SIGCONT that opens
 * mpirun's kill sequence says the gap is shorter, both shrink with it
 * (75 and 125 ms there), so rank 0's summary is written before the
 * SIGKILL.  A live rank's row comes within milliseconds of the SIGTERM
 * that every rank gets at once. */
#define LOSS_GRACE_S	0.3
#define VERDICT_GRACE_S	0.5
#define KILL_GAP_S	1.0

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
	double now, lead;

	if (!m->signalled || !m->signalled())
		return 0;
	now = dix_now();
	if (!*since)
		*since = now;
	/* mpirun's SIGKILL comes @lead after its SIGTERM */
	lead = m->lead ? m->lead() : 0;
	if (lead > 0 && lead < KILL_GAP_S)
		grace *= lead / KILL_GAP_S;
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
	if (evlen)	/* no events: @ev is NULL, which memcpy may not take */
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
