// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hex2bin.c - write canned device responses (tests/data/NAME.hex, the
 * format of tests/unit/hexfile.h) as the raw bytes the fuzz targets take,
 * for their seed corpora: `hex2bin NAME.hex OUT` (NAME below
 * $top_srcdir/tests/data).  It reads the files with the unit tests' own
 * reader, so a seed is exactly the response the unit tests parse.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "../unit/hexfile.h"

int main(int argc, char **argv)
{
	static uint8_t buf[65536];
	long n;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: hex2bin NAME.hex OUT (NAME below $top_srcdir/tests/data)\n");
		return 2;
	}
	n = hexfile_read(argv[1], buf, sizeof(buf));
	if (n < 0)
		return 1;
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, n, f) != (size_t)n || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
