/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hexfile.h - load canned device responses from tests/data/NAME.hex.
 *
 * Format: whitespace-separated two-digit hex bytes; '#' starts a comment
 * that runs to the end of the line; "@OFFSET" (hex) moves the write
 * position, zero-filling any gap, so a 4096-byte Identify structure can be
 * written as the few bytes that matter.  The length is the highest position
 * written or moved to.  `dixload probe --raw-dir` writes this format.
 */
#ifndef DIX_HEXFILE_H
#define DIX_HEXFILE_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

/**
 * hexfile_read() - parse tests/data/@name below $top_srcdir into @buf.
 * Return: the number of bytes, or -1 (reason on stderr) when the file is
 * missing, malformed or longer than @max.
 */
static inline long hexfile_read(const char *name, uint8_t *buf, size_t max)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	size_t pos = 0, end = 0;
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "# cannot open %s\n", path);
		return -1;
	}
	memset(buf, 0, max);
	while ((c = fgetc(f)) != EOF) {
		char tok[32];
		int n = 0;

		if (isspace(c))
			continue;
		if (c == '#') {
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		while (c != EOF && !isspace(c) && n < (int)sizeof(tok) - 1) {
			tok[n++] = (char)c;
			c = fgetc(f);
		}
		tok[n] = '\0';
		if (tok[0] == '@') {
			char *e;

			pos = strtoul(tok + 1, &e, 16);
			if (*e || pos > max)
				goto bad;
		} else {
			char *e;
			unsigned long v = strtoul(tok, &e, 16);

			if (n != 2 || *e || pos >= max)
				goto bad;
			buf[pos++] = (uint8_t)v;
		}
		if (pos > end)
			end = pos;
		continue;
bad:
		fprintf(stderr, "# %s: bad token '%s' (or beyond %zu bytes)\n",
			path, tok, max);
		fclose(f);
		return -1;
	}
	fclose(f);
	return (long)end;
}

/**
 * hexfile_load() - hexfile_read(), and a failed TAP test of its own when
 * the file cannot be loaded, so the checks of the parsed data that follow
 * do not fail without the cause.
 * Return: as hexfile_read().
 */
static inline long hexfile_load(const char *name, uint8_t *buf, size_t max)
{
	long n = hexfile_read(name, buf, max);

	if (n < 0)
		ok(0, "load %s", name);
	return n;
}

#endif
