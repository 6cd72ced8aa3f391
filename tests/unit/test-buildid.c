// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-buildid.c - MPI ranks compare their builds before exchanging raw
 * records: the same build passes, and another version, byte order or
 * record size is refused with both builds in words.
 */
#include "config.h"

#include <string.h>

#include "lib/buildid.h"
#include "tap.h"

int main(void)
{
	const uint32_t sizes[DIX_BUILD_RECORDS] = { 400, 1234, 40, 2064 };
	struct dix_build_id a, b;
	char why[320], want[320];
	const char *order;
	uint8_t first;

	dix_build_id_init(&a, sizes);
	memcpy(&first, &a.order, 1);
	order = first == 4 ? "little-endian" : "big-endian";

	dix_build_id_init(&b, sizes);
	why[0] = '\0';
	is_int(dix_build_id_diff(&a, &b, why, sizeof(why)), 0, "the same build");
	is_str(why, "", "and no reason written");

	snprintf(b.version, sizeof(b.version), "9.9.9");
	is_int(dix_build_id_diff(&a, &b, why, sizeof(why)), 1, "another version");
	snprintf(want, sizeof(want), "dixload 9.9.9, %s, records of 400/1234/40/2064 bytes against dixload %s, %s, records of 400/1234/40/2064 bytes",
		 order, PACKAGE_VERSION, order);
	is_str(why, want, "both builds named, the rank's first");

	dix_build_id_init(&b, sizes);
	b.sizes[1] = 1242;
	is_int(dix_build_id_diff(&a, &b, why, sizeof(why)), 1,
	       "the same version with another rank row layout");
	ok(strstr(why, "records of 400/1242/40/2064 bytes against") != NULL,
	   "the sizes that differ are shown: %s", why);

	dix_build_id_init(&b, sizes);
	b.order = __builtin_bswap32(b.order);
	is_int(dix_build_id_diff(&a, &b, why, sizeof(why)), 1,
	       "another byte order");
	ok(strstr(why, first == 4 ? ", big-endian," : ", little-endian,") &&
	   strstr(why, first == 4 ? "against dixload " PACKAGE_VERSION ", little-endian" :
		  "against dixload " PACKAGE_VERSION ", big-endian"),
	   "the byte orders are named: %s", why);

	/* a version filling the field has no NUL: never read past it */
	dix_build_id_init(&b, sizes);
	memset(b.version, 'x', sizeof(b.version));
	is_int(dix_build_id_diff(&a, &b, why, sizeof(why)), 1,
	       "a version without a NUL");
	ok(strstr(why, "dixload xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, ") == why,
	   "read to the field's end only: %s", why);
	return tap_done();
}
