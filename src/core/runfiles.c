// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runfiles.c - --error-log and --journal: created (or read) before the
 * load, so a path that cannot be written is a setup error, not a
 * surprise after a long run; closed at its end, and after a signal.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/runfiles.h"
#include "lib/util.h"
#include "verify/journal.h"

/*
 * --error-log: created (truncated) before the load, so a path that cannot
 * be written is a setup error, not a surprise after a long run.
 */
int run_errlog_open(struct dix_run *r)
{
	const char *path = r->o->error_log;

	pthread_mutex_init(&r->errlog_lock, NULL);
	if (!path)
		return 0;
	r->errlog = fopen(path, "we");
	if (!r->errlog) {
		dix_err("--error-log %s: cannot write: %s", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * --journal: a run that writes records into it (created before the load,
 * so a bad path fails before any I/O); a read-only run checks against it.
 */
int run_journal_open(struct dix_run *r)
{
	const struct dix_opts *o = r->o;
	char err[512];

	if (!o->journal)
		return 0;
	r->journal_write = rw_writes(o->rw);
	/* records name byte offsets of one target, written by one process */
	if (r->ndevs > 1 || r->mpi) {
		dix_err("--journal %s: one device in one process only (%s)",
			o->journal, r->mpi ? "MPI ranks would share the file" :
			"several --dev would share offsets");
		return -1;
	}
	if (!r->journal_write && o->verify == VERIFY_OFF) {
		dix_err("--journal %s with --rw %s checks the version of every block read: it needs --verify on or strict",
			o->journal, rw_names[o->rw]);
		return -1;
	}
	if (r->journal_write ?
	    journal_create(&r->journal, o->journal, o->seed, r->devs[0].t.lbs, err,
			   sizeof(err)) :
	    journal_load(&r->journal, o->journal, err, sizeof(err))) {
		dix_err("%s", err);
		return -1;
	}
	return 0;
}

/* Everything written reaches the file: at the end, and after a signal. */
void run_journal_finish(struct dix_run *r)
{
	uint64_t batches, records, ns;

	if (!r->journal)
		return;
	if (r->journal_write) {
		journal_stats(r->journal, &batches, &records, &ns);
		r->journal_batches = batches;
		r->journal_records = records;
		r->journal_sync_s = ns / 1e9;
		fprintf(stderr, "dixload: --journal %s: %llu records, %llu synced batches, %.3f s writing and syncing them\n",
			r->o->journal, (unsigned long long)records,
			(unsigned long long)batches, ns / 1e9);
	}
	if (journal_close(r->journal))
		dix_err("--journal %s: writing failed: the journal is incomplete",
			r->o->journal);
	r->journal = NULL;
}

void run_errlog_close(struct dix_run *r)
{
	if (r->errlog && fclose(r->errlog))
		dix_err("--error-log %s: %s", r->o->error_log,
			strerror(errno));
	r->errlog = NULL;
}
