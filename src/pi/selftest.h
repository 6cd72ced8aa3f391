/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selftest.h - the record of the machine-code builds that failed the
 * self-test of their first dispatch (the CRCs in pi/crc.c, the block
 * checks in verify/), so the run and crcbench can say which were refused
 * and what was used instead.  Each dispatch runs its own tests; this only
 * keeps and reports the verdicts.
 */
#ifndef DIX_SELFTEST_H
#define DIX_SELFTEST_H

#include <stddef.h>

/**
 * struct selftest_refusal - one build that was not used.
 * @path: what it computes ("crc16", "crc16 intervals", "DIXLOAD3 check")
 * @impl: the build refused ("vpclmul", "avx2")
 * @fallback: the build used instead
 * @why: what the self-test found wrong
 */
struct selftest_refusal {
	const char *path, *impl, *fallback;
	char why[192];
};

/**
 * selftest_refuse() - record that @impl of @path failed its self-test and
 * print one warning line naming it, what it got wrong and @fallback.
 * @path, @impl, @fallback: static strings (the dispatch tables' names)
 * @why: what was wrong (copied)
 *
 * Called once per refused build: by the dispatch, under its own lock.
 * Thread-safe.
 */
void selftest_refuse(const char *path, const char *impl, const char *fallback,
		     const char *why);

/**
 * selftest_refusals() - the builds refused so far (at most 16 are kept).
 * @out: set to the first record
 * Return: the number of records.
 */
size_t selftest_refusals(const struct selftest_refusal **out);

/** selftest_forget() - tests only: drop the records (not thread-safe). */
void selftest_forget(void);

#endif
