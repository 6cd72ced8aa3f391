// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * buildid.c - a build's identity and its comparison (buildid.h).  Pure: no
 * MPI here, so the unit test needs no launcher.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/buildid.h"

void dix_build_id_init(struct dix_build_id *b,
		       const uint32_t sizes[DIX_BUILD_RECORDS])
{
	memset(b, 0, sizeof(*b));
	snprintf(b->version, sizeof(b->version), "%s", PACKAGE_VERSION);
	/* stored natively: its first byte is 0x04 on a little-endian host */
	b->order = 0x01020304u;
	memcpy(b->sizes, sizes, sizeof(b->sizes));
}

/* "dixload 0.1.0, little-endian, records of 400/1234/40/2064 bytes" */
static void describe(const struct dix_build_id *b, char *buf, size_t len)
{
	const char *order;
	uint8_t first;

	/* the sender's bytes as it stored them */
	memcpy(&first, &b->order, 1);
	order = first == 1 ? "big-endian" : first == 4 ? "little-endian" :
		"unknown byte order";
	snprintf(buf, len, "dixload %.*s, %s, records of %" PRIu32 "/%" PRIu32
		 "/%" PRIu32 "/%" PRIu32 " bytes",
		 (int)strnlen(b->version, sizeof(b->version)), b->version, order,
		 b->sizes[0], b->sizes[1], b->sizes[2], b->sizes[3]);
}

int dix_build_id_diff(const struct dix_build_id *a,
		      const struct dix_build_id *b, char *why, size_t len)
{
	char da[128], db[128];

	if (!strncmp(a->version, b->version, sizeof(a->version)) &&
	    a->order == b->order &&
	    !memcmp(a->sizes, b->sizes, sizeof(a->sizes)))
		return 0;
	describe(a, da, sizeof(da));
	describe(b, db, sizeof(db));
	snprintf(why, len, "%s against %s", db, da);
	return 1;
}
