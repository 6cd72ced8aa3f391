// SPDX-License-Identifier: GPL-2.0-or-later
/* test-profile.c - profile parsing, lookup and error messages. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "profile.h"
#include "tap.h"

static char dir[] = "/tmp/dixload-test-profile-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static struct {
	char dirs[8][256];
	int n;
	int stop_at;	/* return non-zero at this many directories, 0: never */
} walk;

static int walk_dir(const char *d, void *arg)
{
	if (arg != &walk || walk.n >= 8)
		return -1;
	snprintf(walk.dirs[walk.n++], sizeof(walk.dirs[0]), "%s", d);
	return walk.n == walk.stop_at ? walk.n : 0;
}

int main(void)
{
	struct dix_opts o;
	char err[1024], path[4096];
	const char *p;
	char *src = getenv("top_srcdir");
	int r;

	if (!mkdtemp(dir))
		return 99;

	opts_init(&o);
	p = write_file("good.profile",
		       "# a test profile\n[global]\n  rw = randwrite  \nbs=128k\n\n; comment\nhotload = m@3\n");
	is_int(profile_load(p, &o, err, sizeof(err)), 0, "good profile loads");
	is_int(o.rw, RW_RANDWRITE, "rw from profile");
	is_int(o.bs, 131072, "bs from profile");
	is_int(o.hotload.n, 1, "hotload from profile");
	opts_free(&o);

	opts_init(&o);
	p = write_file("bad1.profile", "rw=randrw\nthis line is wrong\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "line without =");
	ok(strstr(err, "bad1.profile:2:") && strstr(err, "this line is wrong"),
	   "error names file, line and text: %s", err);
	p = write_file("bad2.profile", "\n\nbs=3k\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "bad value");
	ok(strstr(err, "bad2.profile:3:") && strstr(err, "power of two") &&
	   strstr(err, "bs=3k"), "bad value message: %s", err);
	p = write_file("bad3.profile", "colour=blue\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "unknown key");
	ok(strstr(err, ":1: unknown key 'colour'") != NULL, "unknown key message: %s", err);
	p = write_file("bad4.profile", "force=1\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "force not allowed in profiles");
	ok(strstr(err, "only allowed on the command line") != NULL, "cli-only message: %s", err);
	ok(profile_load("/nonexistent/x.profile", &o, err, sizeof(err)) == -ENOENT,
	   "missing file is -ENOENT");
	opts_free(&o);

	/* lookup through $DIXLOAD_PROFILE_PATH */
	setenv("DIXLOAD_PROFILE_PATH", dir, 1);
	is_int(profile_find("good", path, sizeof(path)), 0, "found via DIXLOAD_PROFILE_PATH");
	ok(strstr(path, dir) != NULL, "path is in that dir: %s", path);
	is_int(profile_find("nope", path, sizeof(path)), -ENOENT, "missing profile");
	ok(strstr(path, dir) != NULL, "not-found lists the dirs searched: %s", path);
	is_int(profile_find("./nope/x.profile", path, sizeof(path)), -ENOENT,
	       "a path with / is read as a file");

	/* the search order profile_find() and probe share */
	setenv("DIXLOAD_PROFILE_PATH", "/d/one:/d/two", 1);
	walk.n = 0;
	walk.stop_at = 0;
	is_int(profile_foreach_dir(walk_dir, &walk), 0, "walk to the end returns 0");
	ok(walk.n == 4 && !strcmp(walk.dirs[0], "./profiles") &&
	   !strcmp(walk.dirs[1], "/d/one") && !strcmp(walk.dirs[2], "/d/two") &&
	   !strcmp(walk.dirs[3], DIX_PROFILEDIR),
	   "walk: ./profiles, the path in order, the data dir (%d dirs)", walk.n);
	walk.n = 0;
	walk.stop_at = 2;
	is_int(profile_foreach_dir(walk_dir, &walk), 2, "a non-zero return ends the walk");
	is_int(walk.n, 2, "no directory after the one that ended the walk");
	/* a directory named twice (also via a trailing slash) is walked once */
	{
		char twice[1200];

		snprintf(twice, sizeof(twice), "%s:%s/:%s", dir, dir, DIX_PROFILEDIR);
		setenv("DIXLOAD_PROFILE_PATH", twice, 1);
		walk.n = 0;
		walk.stop_at = 0;
		profile_foreach_dir(walk_dir, &walk);
		ok(walk.n == 3 && !strcmp(walk.dirs[1], dir) &&
		   !strcmp(walk.dirs[2], DIX_PROFILEDIR),
		   "duplicates walked once: %d dirs", walk.n);
	}
	setenv("DIXLOAD_PROFILE_PATH", dir, 1);

	/* every shipped profile parses and declares its format */
	if (src) {
		static const char *const names[] = { "dif1", "dif2", "dif3", "dix-ip", "nvme-crc64" };
		static const char *const fmts[] = { "T10-DIF-TYPE1-CRC", "T10-DIF-TYPE1-CRC",
			"T10-DIF-TYPE3-CRC", "T10-DIF-TYPE1-IP", "EXT-DIF-TYPE1-CRC64" };
		unsigned int i;

		for (i = 0; i < 5; i++) {
			snprintf(path, sizeof(path), "%s/profiles/%s.profile", src, names[i]);
			opts_init(&o);
			/* loaded before ok() reads o.pi_format: the load frees
			 * the default string, and the order in which arguments
			 * are evaluated is unspecified */
			r = profile_load(path, &o, err, sizeof(err));
			ok(r == 0 && !strcmp(o.pi_format, fmts[i]),
			   "shipped profile %s (%s)", names[i], o.pi_format);
			if (i == 0)
				ok(o.rw == RW_RANDRW && o.rwmixread == 50 && o.bs == 262144,
				   "dif1 is the seed workload: randrw 50/50 256k");
			opts_free(&o);
		}
	} else {
		ok(1, "# SKIP top_srcdir not set");
	}
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 99;
	}
	return tap_done();
}
