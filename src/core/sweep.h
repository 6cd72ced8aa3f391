/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep.h - dixload sweep: one run per point of a parameter grid.
 */
#ifndef DIX_SWEEP_H
#define DIX_SWEEP_H

struct dix_run_hook;

/**
 * sweep_main() - "dixload sweep KEY=V1,V2 ... [--json] -- RUN-OPTIONS".
 * @run: runs one load from a dixload command line (argv[0] first), telling
 *	@hook of it (core/runstate.h), and returns its exit status
 * Return: the worst exit status of the points, or 1 on a usage error.
 */
int sweep_main(int argc, char **argv,
	       int (*run)(int, char **, const struct dix_run_hook *hook));

#endif
