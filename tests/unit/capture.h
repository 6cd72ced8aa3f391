/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h - what a function printed on stderr, for the unit tests that
 * hold a one-time warning (a self-test's refusal) to its words.
 */
#ifndef DIX_CAPTURE_H
#define DIX_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * capture_stderr() - run @fn(@arg) with stderr going to an unlinked
 * temporary file; return what it printed (a static buffer, the first 4 KiB,
 * "" when the file could not be made).
 */
static inline const char *capture_stderr(void (*fn)(void *), void *arg)
{
	static char out[4096];
	char path[] = "/tmp/dixload-capture-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	ssize_t n;

	out[0] = '\0';
	if (fd < 0 || saved < 0)
		return out;
	unlink(path);
	fflush(stderr);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return out;
}

#endif
