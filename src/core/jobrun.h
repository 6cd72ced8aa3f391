/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobrun.h - `dixload [OPTIONS] JOBFILE...`: run fio job files.
 *
 * Each section is a job; each job is one dixload run (its numjobs are that
 * run's --jobs) in a child process of its own, so the jobs of one group run
 * at the same time without sharing any process state (a run still keeps
 * some in globals: issue 34, point 0).  The children's lines come back
 * through pipes and are printed with the job's name: "[NAME] ..." for the
 * human format, a "job" member first in each JSON object.
 */
#ifndef DIX_JOBRUN_H
#define DIX_JOBRUN_H

/**
 * jobrun_files() - how many job files @argv names: the arguments that are
 * neither an option nor an option's value; 0 unless each of them exists.
 */
int jobrun_files(int argc, char **argv);

/**
 * jobrun_main() - read the job files among @argv, map them (conf/jobmap),
 * and run the jobs, ordered as fio orders them (stonewall, wait_for; each
 * job file is a group of its own), each through @run with its options
 * followed by the command line's, which so override the files' values.
 *
 * Return: the exit status: the worst of the jobs' (exit_worst()), or 1
 * for a file that cannot be read or holds a refused option.
 */
struct dix_run_hook;
int jobrun_main(int argc, char **argv,
		int (*run)(int, char **, const struct dix_run_hook *));

#endif
