// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-devdesc.c - fitting the region to the target: every rejection names
 * the quantity it shows (the target's size is called its size, never
 * confused with the offset), and --size is cut to whole --bs x --jobs.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "conf/options.h"
#include "device/devdesc.h"
#include "tap.h"

/* Fit the region of a 17825792-byte, 512-byte-block file named "X". */
static int fit(const char *bs, const char *offset, const char *size,
	       const char *jobs, struct dix_opts *o, char *err, char *warn)
{
	struct dix_devdesc t;
	char why[256];

	memset(&t, 0, sizeof(t));
	t.path = "X";
	t.size = 17825792;
	t.lbs = 512;
	opts_init(o);
	if (opt_set(o, "bs", bs, why, sizeof(why)) ||
	    opt_set(o, "offset", offset, why, sizeof(why)) ||
	    opt_set(o, "size", size, why, sizeof(why)) ||
	    opt_set(o, "jobs", jobs, why, sizeof(why))) {
		printf("# opt_set: %s\n", why);
		return -100;
	}
	err[0] = '\0';
	return devdesc_fit_region(&t, o, err, 512, warn, 512);
}

int main(void)
{
	struct dix_opts o;
	char err[512], warn[512];

	is_int(fit("64k", "17825792", "0", "1", &o, err, warn), -EINVAL,
	       "offset at the end refused");
	is_str(err, "--offset 17825792 is at or past the end of X: its size is 17825792 bytes",
	       "the message calls the target's size its size");
	opts_free(&o);
	is_int(fit("64k", "20m", "0", "1", &o, err, warn), -EINVAL,
	       "offset past the end refused");
	ok(strstr(err, "--offset 20971520 is at or past the end of X: its size is 17825792 bytes") != NULL,
	   "past the end: offset and size both named (%s)", err);
	opts_free(&o);

	is_int(fit("64k", "1000", "0", "1", &o, err, warn), -EINVAL,
	       "unaligned offset refused");
	is_str(err, "--offset 1000 is not a multiple of X's logical block size (512 bytes)",
	       "unaligned offset: names the block size");
	opts_free(&o);

	is_int(fit("64k", "0", "0", "1", &o, err, warn), 0, "whole target");
	is_int(o.size, 17825792, "size 0 means to the end");
	is_str(warn, "", "no warning when --size was not given");
	opts_free(&o);

	is_int(fit("64k", "16m", "4m", "1", &o, err, warn), 0,
	       "size passing the end is cut");
	is_int(o.size, 1048576, "cut at the end: 1 MiB left after 16 MiB");
	is_str(warn, "--size 4194304 from --offset 16777216 passes the end of X (its size is 17825792 bytes); using the 1048576 bytes from the offset to the end",
	       "the warning names size, offset, the target's size and what is used");
	opts_free(&o);

	is_int(fit("64k", "0", "1000k", "3", &o, err, warn), 0, "3 jobs");
	is_int(o.size, 983040, "cut down to whole bs x jobs (5 x 3 x 64k)");
	opts_free(&o);

	is_int(fit("1m", "16m", "0", "2", &o, err, warn), -EINVAL,
	       "region smaller than bs x jobs refused");
	is_str(err, "the region of X (1048576 bytes from --offset 16777216) is smaller than --bs x --jobs (1048576 x 2 bytes)",
	       "too small: names the region's size and its offset");
	opts_free(&o);
	return tap_done();
}
