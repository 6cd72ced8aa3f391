/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runfiles.h - the files a run writes besides its output: --error-log
 * and --journal, opened before the load so a bad path fails before I/O.
 */
#ifndef DIX_RUNFILES_H
#define DIX_RUNFILES_H

#include "core/runstate.h"

/** run_errlog_open() - create --error-log.  Return: 0, or -1 (printed). */
int run_errlog_open(struct dix_run *r);

/** run_errlog_close() - close it (a write error is printed). */
void run_errlog_close(struct dix_run *r);

/**
 * run_journal_open() - --journal: created for a run that writes, loaded
 * for one that reads.  Return: 0, or -1 (printed).
 */
int run_journal_open(struct dix_run *r);

/** run_journal_finish() - sync and close the journal (errors printed). */
void run_journal_finish(struct dix_run *r);

#endif
