/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crcbench.h - the `dixload crcbench` subcommand: throughput of every guard
 * implementation, of the PI generate/verify path, and of the kernel's
 * crct10dif driver through AF_ALG where the kernel offers it.
 */
#ifndef DIX_CRCBENCH_H
#define DIX_CRCBENCH_H

/**
 * crcbench_main() - run `dixload crcbench [options]`.
 * @argc: argument count
 * @argv: arguments; argv[0] is "crcbench"
 *
 * Options: --seconds S (per measurement, default 0.1), --json (one JSON
 * object per line), --guard G, --impl NAME (filters), --data FILE (bytes to
 * checksum instead of pseudo-random ones), --help.
 * Return: an exit status: DIX_EXIT_OK, or DIX_EXIT_USAGE for bad options or
 * an unreadable --data file.
 */
int crcbench_main(int argc, char **argv);

#endif
