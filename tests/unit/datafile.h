/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * datafile.h - read a file of tests/data (below $top_srcdir) whole, for the
 * unit tests that replay what a fuzz target found (tests/data/fuzz/TARGET/)
 * through the parser it broke.
 */
#ifndef DIX_DATAFILE_H
#define DIX_DATAFILE_H

#include <stdio.h>
#include <stdlib.h>

#include "tap.h"

/** datafile_path() - the path of tests/data/@name into @buf. */
static inline const char *datafile_path(const char *name, char *buf,
					size_t len)
{
	const char *top = getenv("top_srcdir");

	snprintf(buf, len, "%s/tests/data/%s", top ? top : ".", name);
	return buf;
}

/**
 * datafile_text() - tests/data/@name as a malloc'ed NUL-terminated string
 * (its bytes up to a first NUL), its length in *@size when @size is not
 * NULL; NULL, and a failed TAP test, when it cannot be read.
 */
static inline char *datafile_text(const char *name, size_t *size)
{
	char path[1024], *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f = fopen(datafile_path(name, path, sizeof(path)), "rb");
	int c;

	if (!f) {
		ok(0, "read %s", path);
		return NULL;
	}
	while ((c = fgetc(f)) != EOF) {
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 256;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		buf[n++] = (char)c;
	}
	fclose(f);
	if (!buf) {
		buf = malloc(1);
		if (!buf)
			abort();
	}
	buf[n] = '\0';
	if (size)
		*size = n;
	return buf;
}

#endif
