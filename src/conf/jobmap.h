/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobmap.h - what each fio job-file key means to dixload.
 *
 * One row per fio key, of one of three kinds: mapped onto a dixload
 * option, accepted with a stated difference (said once per run), or
 * refused with the reason.  A key in no row is refused too, unless it is
 * one of dixload's own option names (pi, precondition, verify=strict, ...),
 * which work in job files as in profiles; actions (--hotload, --exec,
 * --sysfs, ...) stay command-line only.  Nothing is ignored silently.
 * doc/fio.md lists the same table (tests/sh/fio-jobmap-doc.sh compares).
 */
#ifndef DIX_JOBMAP_H
#define DIX_JOBMAP_H

#include <stdint.h>
#include <stdio.h>

#include "conf/jobfile.h"

enum jm_kind { JM_MAPPED, JM_DIFFERENT, JM_REFUSED };

/**
 * struct jm_row - one fio key.
 * @key: fio's name
 * @kind: mapped, different, refused
 * @dix: what it becomes in dixload (an option, or what the runner does)
 * @note: the difference (JM_DIFFERENT) or the reason (JM_REFUSED)
 */
struct jm_row {
	const char *key;
	enum jm_kind kind;
	const char *dix;
	const char *note;
};

extern const struct jm_row jm_rows[];

/** jm_find() - the row of fio key @key, or NULL. */
const struct jm_row *jm_find(const char *key);

/** jm_kind_name() - "mapped", "different", "refused". */
const char *jm_kind_name(enum jm_kind k);

/**
 * struct jm_job - one job of a job file, as the runner starts it.
 * @name: fio's job name (name=, else the section's)
 * @file/@line/@section: where its section is
 * @file_no: which job file on the command line (each is a group, as in fio)
 * @argv/@argc: its dixload options ("--bs", "4096", ...), targets apart
 * @targets: the files or devices it names (filename=, directory=/nrfiles),
 *	NULL-free array of @ntargets
 * @size_given: the job gave size= or filesize=
 * @stonewall: wait for every job before it
 * @new_group: starts a new reporting group
 * @wait_for: the name of an earlier job to wait for, or NULL
 * @startdelay: seconds to wait before starting
 * @loops: times to run the job
 * @verify_after: a write job with verify=: read the region back afterwards
 * @reads: the job reads (its files are laid out first)
 * @buffered: through the page cache (fio's direct=0, its default)
 * @jobs: numjobs
 * @engine: dixload's engine name
 */
struct jm_job {
	char *name;
	const char *file;
	int line;
	const char *section;
	int file_no;
	char **argv;
	int argc;
	char **targets;
	int ntargets;
	int size_given;
	int stonewall, new_group;
	char *wait_for;
	double startdelay;
	unsigned int loops;
	int verify_after;
	int reads;
	int buffered;
	unsigned int jobs;
	const char *engine;
};

/* The differences met, each said once per run. */
struct jm_notes {
	char **v;
	int n;
};

/**
 * jm_build() - the jobs of @d (its sections, in order), each with the
 * [global] values above it and its own.
 * @file_no: the job file's position (its jobs' @file_no)
 * @dir_override: the command line's --directory, or NULL
 * @jobs/@njobs: appended to
 * @notes: the differences met, appended once each
 * @err: every refusal, one per line: "FILE:LINE: [SECTION] KEY=VALUE: reason"
 *
 * Return: 0, or -EINVAL when anything was refused (@err lists all).
 */
int jm_build(const struct jf_doc *d, int file_no, const char *dir_override,
	     struct jm_job **jobs, int *njobs, struct jm_notes *notes,
	     char *err, size_t errlen);

/** jm_free() - free @n jobs at @jobs, and @notes. */
void jm_free(struct jm_job *jobs, int n, struct jm_notes *notes);

/** jm_print_table() - the rows as a markdown table (doc/fio.md's). */
void jm_print_table(FILE *f);

#endif
