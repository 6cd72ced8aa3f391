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
 * The tick, point-to-point and polled, is mpitick.c's.
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
#include "core/mpijob-int.h"
#include "lib/util.h"

/* Rank 0 starts the load this long after the start barrier: enough for
 * the broadcast to reach every host before the time it names. */
#define START_DELAY_NS	50000000L

/* How long a rank of a job cut short waits to be killed before it exits
 * on its own (mpirun's SIGKILL comes within 1 s). */
#define CUT_WAIT_S	5.0

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
	} else {
		/*
		 * A rank that exits unfinalized makes Open MPI abort the
		 * others at once (4.1: rank 0 died in the middle of its
		 * summary, 1 run in 3; 5.0: rank 0's exit ends PRRTE's
		 * sleep before its SIGKILL, which came 36 ms after it, 66 ms
		 * early, when the others' summaries may still be due);
		 * mpirun kills this one within its gap anyway.  So it waits
		 * for that, its --output closed.
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

void dix_mpi_watch(struct dix_mpi *m, int (*signalled)(void),
		   double (*lead)(void))
{
	m->signalled = signalled;
	m->lead = lead;
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

void name_failure(struct dix_mpi *m, int rank, const char *host,
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
	/* the statuses' ranks (exitstatus.c), so MPI_MAX picks the winner */
	int mine = exit_rank(status), job;

	(void)m;
	MPI_Allreduce(&mine, &job, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return exit_of_rank(job);
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

void row_init(const struct dix_mpi *m, struct dix_rank_row *x,
		     int flags, const char *why)
{
	memset(x, 0, sizeof(*x));
	x->rank = m->rank;
	snprintf(x->host, sizeof(x->host), "%s", m->host);
	x->flags = flags;
	if (why)
		snprintf(x->why, sizeof(x->why), "%s", why);
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
