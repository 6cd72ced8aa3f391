/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpijob.h - several hosts under mpirun: each rank runs its own load; rank 0
 * prints the one meter and the one summary.
 *
 * The ranks agree on the setup (one that cannot open its device stops the
 * job, named by rank and host), start together (a barrier, then a start
 * time on the wall clock that rank 0 broadcasts, so hosts whose clocks NTP
 * keeps in step tick together), and meet once per interval: each rank's
 * sample, flags and new events go to rank 0, which sums the rates and
 * counters and sends back the verdict (go on, or stop: a rank stopped,
 * failed, or every rank covered its region).  What rank 0 gathered goes
 * back to the run, which records and reports it: this file knows MPI and
 * the records, not the run.  The summary
 * is reduced the same way; latency histograms are summed bucket by bucket,
 * so the total's percentiles are those of every I/O of the job, not an
 * average of the ranks' percentiles.
 *
 * Only the main thread of each rank calls MPI (MPI_THREAD_FUNNELED).
 * Ranks exchange C structs as bytes: every host must run the same build on
 * the same architecture, which one mpirun of one binary gives.
 *
 * A rank lost mid-run (Open MPI 4.1 has no fault tolerance, 5 aborts too)
 * cuts the job short: the tick is polled, so after mpirun's SIGTERM (1 s
 * before its SIGKILL on 4.1, 0.25 s on 5) rank 0 names the
 * ranks whose records did not come and reports the intervals every rank
 * reached it for; every rank reports its own figures to its --output.
 * dix_mpi_init() checks that first (buildid.h) and refuses a job that
 * mixes versions, byte orders or record layouts.
 *
 * Without HAVE_MPI the functions below are never called (run->mpi stays
 * NULL); the inline fallbacks only keep the call sites free of #ifdefs.
 */
#ifndef DIX_MPIJOB_H
#define DIX_MPIJOB_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event.h"
#include "report/record.h"

struct dix_mpi;

/**
 * struct dix_mpi_gather - what rank 0 gathered at a tick, for the run to
 * record and report (empty on the other ranks).
 * @ev: the other ranks' events since their last tick, each naming its
 *	host, in rank order (they go before the interval's line)
 * @nev: entries in @ev
 * @have: @job has a length (some rank measured something)
 * @job: the job's interval: the ranks' rates and counters summed
 * @rows: each rank's row (@nrows of them)
 * @nrows: the ranks
 * @lat: the job's latency histogram of the interval per direction: the
 *	ranks' reduced bucket by bucket (@job's lat are its quantiles)
 */
struct dix_mpi_gather {
	struct dix_event *ev;
	int nev;
	int have;
	struct meter_sample job;
	struct dix_rank_row *rows;
	int nrows;
	struct lat_hist lat[DIX_DIR_NR];
};

/* A rank's state at an interval; the verdict uses the same bits. */
#define DIX_MPI_DONE	0x1	/* its workers have finished */
#define DIX_MPI_STOP	0x2	/* it stopped: signal, --runtime, --max-errors */
#define DIX_MPI_FAILED	0x4	/* a worker could not run */
#define DIX_MPI_CUT	0x8	/* verdict: a rank was lost, the job is cut short */

/**
 * dix_mpi_launched() - whether mpirun (or another PMI launcher) started
 * this process: OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK is set.
 */
static inline int dix_mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
	       getenv("PMI_RANK");
}

#ifdef HAVE_MPI
/**
 * dix_mpi_init() - MPI_Init, then the rank, the host, whether this rank is
 * the lowest of its node (it runs the host's actions) and the host count.
 * From here on dix_err() lines start with "rank R (HOST): ".
 * Every rank must run the same build as rank 0 (version, byte order,
 * record sizes: buildid.h), else the job stops before anything else is
 * exchanged.
 * Return: 0, or -1 with @err set; when the builds differ @err is set on
 * rank 0 only (one line for the job) and empty on the others.
 */
int dix_mpi_init(struct dix_mpi **m, char *err, size_t errlen);

/**
 * dix_mpi_finish() - MPI_Finalize and free @m (NULL: nothing).  A job cut
 * short is not finalized: that would wait for the lost rank.
 */
void dix_mpi_finish(struct dix_mpi *m);

/**
 * dix_mpi_watch() - @signalled says whether a signal came: after one, a
 * tick gives up waiting for a rank that sends nothing (the job is cut
 * short); without one it waits, since a late rank is only late.  @lead
 * says how long before that signal mpirun's SIGCONT came (0: none): its
 * SIGKILL comes as long after the SIGTERM, so the tick's waits fit in it.
 */
void dix_mpi_watch(struct dix_mpi *m, int (*signalled)(void),
		   double (*lead)(void));

/**
 * dix_mpi_cut() - why the job was cut short (a tick returned DIX_MPI_CUT),
 * or NULL when it was not.  From then on no collective may be called.
 */
const struct rec_cut *dix_mpi_cut(const struct dix_mpi *m);

/**
 * dix_mpi_cut_totals() - rank 0 of a job cut short: the job's figures
 * from the last interval every rank's record reached it for, a row per
 * rank in *@rows (malloc'ed: the caller frees it), a lost rank's naming
 * its loss; the job's latency from those intervals' histograms, none per
 * rank and no CPU times (a rank's are reduced only at the end).
 * Return: 0, or -1 (another rank, or not cut short: nothing set).
 */
int dix_mpi_cut_totals(struct dix_mpi *m, struct dix_totals *job,
		       struct dix_rank_row **rows);

int dix_mpi_rank(const struct dix_mpi *m);
int dix_mpi_size(const struct dix_mpi *m);
const char *dix_mpi_host(const struct dix_mpi *m);
/** dix_mpi_leader() - the lowest rank of its node: it runs the actions. */
int dix_mpi_leader(const struct dix_mpi *m);

/**
 * dix_mpi_agree() - collective: did every rank get here with @ok?  Rank 0
 * prints "rank R (HOST) failed: WHY" for each one that did not.
 * @why: this rank's reason when !@ok (its last error message)
 * Return: 1 when every rank is ok, else 0.
 */
int dix_mpi_agree(struct dix_mpi *m, int ok, const char *why);

/**
 * dix_mpi_status() - collective: the job's exit status from every rank's
 * @status, by the precedence of the exit statuses (exit_worst():
 * 3 > 2 > 1 > 6 > 4 > 5 > 0).
 */
int dix_mpi_status(struct dix_mpi *m, int status);

/**
 * dix_mpi_start() - collective: a barrier, then wait for the start time
 * rank 0 broadcasts (its wall clock + 50 ms).
 * Return: dix_now() at the start: the rank's t = 0.
 */
double dix_mpi_start(struct dix_mpi *m);

/**
 * dix_mpi_pack_events() - this rank's events since its last call, packed
 * for dix_mpi_tick() (nothing on rank 0, which records its own).
 * @ev: every event of the run so far (@nev of them)
 * @outlen: receives the bytes packed
 * Return: the malloc'ed bytes, or NULL when there are none.
 */
char *dix_mpi_pack_events(struct dix_mpi *m, const struct dix_event *ev,
			  int nev, int *outlen);

/**
 * dix_mpi_tick() - collective, once per interval on every rank: send @s
 * (NULL: nothing measured since the last tick) with its latency histogram
 * @lat (DIX_DIR_NR; NULL with @s), @flags (DIX_MPI_*), when
 * failed @why, and this rank's packed events @ev (@evlen bytes) to rank
 * 0, which sums the interval into @g (@t: the job's time when it has no
 * sample of its own).  The caller frees @g (dix_mpi_gather_free()).
 * Return: the verdict: DIX_MPI_STOP when the job must end now, with
 * DIX_MPI_CUT when it is cut short (dix_mpi_cut()).
 */
int dix_mpi_tick(struct dix_mpi *m, const struct meter_sample *s,
		 const struct lat_hist *lat, double t, int flags,
		 const char *why, const char *ev, int evlen,
		 struct dix_mpi_gather *g);

/** dix_mpi_gather_free() - release what dix_mpi_tick() put in @g. */
void dix_mpi_gather_free(struct dix_mpi_gather *g);

/**
 * dix_mpi_summary() - collective at the end: every rank's totals @t (with
 * @bad_extents, its devices' together) and @status to rank 0, which sums
 * them into @job with a row per rank in *@rows (malloc'ed: the caller
 * frees it; NULL on the other ranks) for the run to report.
 * Return: the job's exit status (the same on every rank).
 */
int dix_mpi_summary(struct dix_mpi *m, const struct dix_totals *t,
		    uint64_t bad_extents, int status, struct dix_totals *job,
		    struct dix_rank_row **rows);
#else
static inline int dix_mpi_init(struct dix_mpi **m, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	*m = NULL;
	return -1;
}
static inline void dix_mpi_finish(struct dix_mpi *m) { (void)m; }
static inline void dix_mpi_watch(struct dix_mpi *m, int (*signalled)(void),
				 double (*lead)(void))
{
	(void)m; (void)signalled; (void)lead;
}
static inline const struct rec_cut *dix_mpi_cut(const struct dix_mpi *m)
{
	(void)m;
	return NULL;
}
static inline int dix_mpi_cut_totals(struct dix_mpi *m, struct dix_totals *job,
				     struct dix_rank_row **rows)
{
	(void)m; (void)job;
	*rows = NULL;
	return -1;
}
static inline int dix_mpi_rank(const struct dix_mpi *m) { (void)m; return -1; }
static inline int dix_mpi_size(const struct dix_mpi *m) { (void)m; return 1; }
static inline const char *dix_mpi_host(const struct dix_mpi *m) { (void)m; return ""; }
static inline int dix_mpi_leader(const struct dix_mpi *m) { (void)m; return 1; }
static inline int dix_mpi_agree(struct dix_mpi *m, int ok, const char *why)
{
	(void)m; (void)why;
	return ok;
}
static inline int dix_mpi_status(struct dix_mpi *m, int status)
{
	(void)m;
	return status;
}
static inline double dix_mpi_start(struct dix_mpi *m) { (void)m; return 0; }
static inline char *dix_mpi_pack_events(struct dix_mpi *m,
					const struct dix_event *ev, int nev,
					int *outlen)
{
	(void)m; (void)ev; (void)nev;
	*outlen = 0;
	return NULL;
}
static inline int dix_mpi_tick(struct dix_mpi *m, const struct meter_sample *s,
			       const struct lat_hist *lat, double t, int flags,
			       const char *why, const char *ev, int evlen,
			       struct dix_mpi_gather *g)
{
	(void)m; (void)s; (void)lat; (void)t; (void)why; (void)ev; (void)evlen;
	memset(g, 0, sizeof(*g));
	return flags & DIX_MPI_STOP;
}
static inline void dix_mpi_gather_free(struct dix_mpi_gather *g) { (void)g; }
static inline int dix_mpi_summary(struct dix_mpi *m,
				  const struct dix_totals *t,
				  uint64_t bad_extents, int status,
				  struct dix_totals *job,
				  struct dix_rank_row **rows)
{
	(void)m; (void)t; (void)bad_extents; (void)job;
	*rows = NULL;
	return status;
}
#endif

#endif
