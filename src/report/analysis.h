/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis.h - after the load: transition rows from the samples and the
 * events, and the --plot (SVG) / --log (CSV) files.
 */
#ifndef DIX_ANALYSIS_H
#define DIX_ANALYSIS_H

struct dix_run;

/**
 * analysis_run() - compute r->transitions from r->samples and r->events
 * (one per action and per kernel change event).
 */
void analysis_run(struct dix_run *r);

/**
 * analysis_write_files() - write --plot (SVG) and --log (CSV) if asked.
 * Return: 0, or -errno after printing which file failed.
 */
int analysis_write_files(struct dix_run *r);

#endif
