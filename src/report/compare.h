/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - "dixload compare A.json B.json": the settings that differ and
 * the change of every summary metric from run A to run B.
 */
#ifndef DIX_COMPARE_H
#define DIX_COMPARE_H

/*
 * A 10 % drop: run-to-run spread of one file-backed run on a quiet host is
 * a few %, so 10 % flags a real change without crying wolf on every run.
 */
#define COMPARE_DEFAULT_THRESHOLD 10.0

/**
 * compare_main() - the compare subcommand (@argv[0] is "compare").
 *
 * Return: 0 no regression; 1 usage error or unreadable input; 5 (
 * DIX_EXIT_REGRESSION) B regressed beyond the threshold.
 */
int compare_main(int argc, char **argv);

#endif
