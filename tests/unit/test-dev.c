// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-dev.c - splitting --dev into targets: commas, repeated --dev (the
 * option table joins them), %r / %h under MPI only, and the values refused.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "conf/options.h"
#include "tap.h"

static void free_paths(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void test_split(void)
{
	char err[512], **v;
	int n;

	is_int(dev_split("/dev/sda", -1, NULL, &v, &n, err, sizeof(err)), 0,
	       "one path");
	is_int(n, 1, "one target");
	is_str(v[0], "/dev/sda", "the path as given");
	free_paths(v, n);

	is_int(dev_split("/a,/b,/c", -1, NULL, &v, &n, err, sizeof(err)), 0,
	       "three paths");
	is_int(n, 3, "three targets");
	if (n == 3) {
		is_str(v[0], "/a", "first");
		is_str(v[1], "/b", "second");
		is_str(v[2], "/c", "third, in order");
	}
	free_paths(v, n);

	/* without MPI a '%' is part of the name, as it always was */
	is_int(dev_split("/tmp/x%r.img", -1, NULL, &v, &n, err, sizeof(err)),
	       0, "%r without MPI");
	is_str(v[0], "/tmp/x%r.img", "kept literally");
	free_paths(v, n);

	is_int(dev_split("/d/%h-%r.img,/e/%r%%", 12, "node7", &v, &n, err,
			 sizeof(err)), 0, "%h, %r and %% under MPI");
	if (n == 2) {
		is_str(v[0], "/d/node7-12.img", "host and rank");
		is_str(v[1], "/e/12%", "rank and a literal %");
	}
	free_paths(v, n);

	is_int(dev_split("/d/%x", 0, "h", &v, &n, err, sizeof(err)), -EINVAL,
	       "%x refused under MPI");
	ok(strstr(err, "'%x' is not allowed") != NULL, "names %%x: %s", err);
	ok(v == NULL && n == 0, "nothing returned on failure");
	is_int(dev_split("/d/%", 0, "h", &v, &n, err, sizeof(err)), -EINVAL,
	       "a trailing % refused under MPI");

	is_int(dev_split("/a,,/b", -1, NULL, &v, &n, err, sizeof(err)),
	       -EINVAL, "an empty element");
	ok(strstr(err, "--dev /a,,/b: an empty path") != NULL, "says so: %s",
	   err);
	is_int(dev_split("/a,", -1, NULL, &v, &n, err, sizeof(err)), -EINVAL,
	       "a trailing comma");
	is_int(dev_split("/a,/b,/a", -1, NULL, &v, &n, err, sizeof(err)),
	       -EINVAL, "a repeated path");
	ok(strstr(err, "/a is given twice") != NULL, "names it: %s", err);
	/* two ranks' expansions differ, one rank's must not repeat */
	is_int(dev_split("/x%r,/x%r", 3, "h", &v, &n, err, sizeof(err)),
	       -EINVAL, "a repeat after expansion");
}

static void test_too_many(void)
{
	char spec[DIX_DEVS_MAX * 8 + 16], err[512], **v;
	size_t used = 0;
	int i, n;

	for (i = 0; i <= DIX_DEVS_MAX; i++)
		used += snprintf(spec + used, sizeof(spec) - used, "%s/d%d",
				 i ? "," : "", i);
	is_int(dev_split(spec, -1, NULL, &v, &n, err, sizeof(err)), -EINVAL,
	       "more than DIX_DEVS_MAX targets");
	ok(strstr(err, "more than 64 targets") != NULL, "says so: %s", err);
}

static void test_join(void)
{
	struct dix_opts o;
	char err[256];

	opts_init(&o);
	is_int(opt_set(&o, "dev", "/a", err, sizeof(err)), 0, "--dev /a");
	is_int(opt_set(&o, "dev", "/b,/c", err, sizeof(err)), 0,
	       "--dev /b,/c again");
	is_str(o.dev, "/a,/b,/c", "a repeated --dev appends");
	is_int(opt_set(&o, "engine", "sync", err, sizeof(err)), 0, "--engine");
	is_int(opt_set(&o, "engine", "libaio", err, sizeof(err)), 0,
	       "--engine again");
	is_str(o.engine, "libaio", "other strings: the last one wins");
	opts_free(&o);
}

int main(void)
{
	test_split();
	test_too_many();
	test_join();
	return tap_done();
}
