// SPDX-License-Identifier: GPL-2.0-or-later
/* test-inflight.c - in-flight range conflicts. */
#include "config.h"

#include "lib/inflight.h"
#include "tap.h"

int main(void)
{
	struct inflight fl;

	is_int(inflight_init(&fl, 4), 0, "init");
	is_int(inflight_conflicts(&fl, 0, 4096, 1), 0, "empty: no conflict");
	inflight_add(&fl, 0, 8192, 4096, 1);		/* write [8192, 12288) */
	is_int(inflight_conflicts(&fl, 8192, 4096, 0), 1, "read of a block being written");
	is_int(inflight_conflicts(&fl, 4096, 8192, 0), 1, "partial overlap read");
	is_int(inflight_conflicts(&fl, 4096, 4096, 0), 0, "adjacent before");
	is_int(inflight_conflicts(&fl, 12288, 4096, 0), 0, "adjacent after");
	is_int(inflight_conflicts(&fl, 8192, 4096, 1), 1, "write over a write");
	inflight_add(&fl, 1, 0, 4096, 0);		/* read [0, 4096) */
	is_int(inflight_conflicts(&fl, 0, 4096, 0), 0, "read over a read is fine");
	is_int(inflight_conflicts(&fl, 0, 4096, 1), 1, "write over a read conflicts");
	inflight_del(&fl, 0);
	is_int(inflight_conflicts(&fl, 8192, 4096, 0), 0, "after the write completes");
	is_int(fl.nwrites, 0, "write count back to 0");
	inflight_del(&fl, 0);
	is_int(fl.nused, 1, "double delete is harmless");
	inflight_add(&fl, 1, 65536, 512, 1);		/* slot reuse */
	is_int(fl.nused, 1, "reusing a slot replaces it");
	is_int(inflight_conflicts(&fl, 0, 4096, 1), 0, "old range gone");
	is_int(inflight_conflicts(&fl, 65536, 512, 0), 1, "new range present");
	inflight_free(&fl);
	return tap_done();
}
