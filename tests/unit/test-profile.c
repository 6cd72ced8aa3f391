// SPDX-License-Identifier: GPL-2.0-or-later
/* test-profile.c - profile parsing, lookup and error messages. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/options.h"
#include "conf/profile.h"
#include "engines/engine.h"
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
	enum profile_origin from[8];
	int n;
	int stop_at;	/* return non-zero at this many directories, 0: never */
} walk;

static int walk_dir(const char *d, enum profile_origin from, void *arg)
{
	if (arg != &walk || walk.n >= 8)
		return -1;
	walk.from[walk.n] = from;
	snprintf(walk.dirs[walk.n++], sizeof(walk.dirs[0]), "%s", d);
	return walk.n == walk.stop_at ? walk.n : 0;
}

/* Actions are refused in profiles, naming file and line, for each kind. */
static void test_actions(void)
{
	static const char *const keys[] = { "hotload", "unload", "sysfs", "exec" };
	static const char *const vals[] = { "crct10dif_pclmul@3", "crct10dif_pclmul@9",
		"/sys/block/sda/integrity/read_verify=0@5", "touch /tmp/pwned@0" };
	struct dix_opts o;
	char err[1024], text[256], want[1024];
	const char *p;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		snprintf(text, sizeof(text), "# a workload\nrw=randrw\n\n%s = %s\nbs=64k\n",
			 keys[i], vals[i]);
		p = write_file("act.profile", text);
		opts_init(&o);
		is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL,
		       "a profile carrying an action is refused");
		snprintf(want, sizeof(want),
			 "%s:4: '%s' is an action: actions (hotload, unload, sysfs, exec, dm-reload, priority) are accepted only on the command line, never from a profile; pass it there as --%s '%s'",
			 p, keys[i], keys[i], vals[i]);
		is_str(err, want, "the message names file, line, the key and the command-line form");
		ok(o.hotload.n + o.unload.n + o.sysfs.n + o.exec.n == 0,
		   "%s: nothing of the action was kept", keys[i]);
		opts_free(&o);
	}
}

/* Where the shipped profiles are: by the binary's location. */
static void test_datadir(void)
{
	enum profile_origin from = PROFILE_FROM_ENV;
	char exe[4200], want[4200], build[4096];
	const char *d;

	d = profile_datadir("/usr/bin/dixload", &from);
	is_str(d, DIX_PROFILEDIR, "an installed binary: the installed data directory");
	is_int(from, PROFILE_FROM_DATADIR, "... from the data directory");
	d = profile_datadir(NULL, &from);
	is_str(d, DIX_PROFILEDIR, "binary location unknown: the installed data directory");
#ifndef DIX_BUILDDIR
	/*
	 * --disable-build-tree-profiles (the Debian package): even the
	 * binary of this build reads only the installed directory.
	 */
	(void)want;
	if (!getcwd(build, sizeof(build))) {
		ok(0, "getcwd");
		return;
	}
	snprintf(exe, sizeof(exe), "%s/dixload", build);
	d = profile_datadir(exe, &from);
	is_str(d, DIX_PROFILEDIR, "no build-tree lookup: this build's binary reads the installed directory");
	is_int(from, PROFILE_FROM_DATADIR, "... from the data directory");
#else
	if (!realpath(DIX_BUILDDIR, build)) {
		ok(0, "realpath(%s)", DIX_BUILDDIR);
		return;
	}
	snprintf(exe, sizeof(exe), "%s/dixload", build);
	snprintf(want, sizeof(want), "%s/profiles", DIX_SRCDIR);
	d = profile_datadir(exe, &from);
	is_str(d, want, "the binary of this build tree: the source tree's profiles/");
	is_int(from, PROFILE_FROM_BUILD, "... from the build tree");
	snprintf(exe, sizeof(exe), "%s/tests/unit/test-profile", build);
	d = profile_datadir(exe, &from);
	is_str(d, DIX_PROFILEDIR, "another binary in the build tree: the installed directory");
	snprintf(exe, sizeof(exe), "%s/dixload.copy", build);
	d = profile_datadir(exe, &from);
	is_str(d, DIX_PROFILEDIR, "a differently named binary: the installed directory");
#endif
	is_str(profile_origin_name(PROFILE_FROM_ENV), "from $DIXLOAD_PROFILE_PATH",
	       "origin words: environment");
}

/*
 * A ./profiles/dif1.profile in the current directory (carrying exec=) is
 * never found by name, and --list-profiles does not walk it.
 */
static void test_cwd_not_searched(void)
{
	char cwd[4096], path[4096];
	const char *p;

	ok(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
	snprintf(path, sizeof(path), "%s/profiles", dir);
	mkdir(path, 0755);
	p = write_file("profiles/planted.profile", "exec=touch /tmp/pwned@0\n");
	ok(p != NULL, "planted ./profiles/planted.profile");
	if (chdir(dir))
		return;
	unsetenv("DIXLOAD_PROFILE_PATH");
	is_int(profile_find("planted", path, sizeof(path)), -ENOENT,
	       "a profile in ./profiles is not found by name");
	ok(!strstr(path, "./profiles") && !strstr(path, dir),
	   "the directories searched do not include the current one: %s", path);
	walk.n = 0;
	walk.stop_at = 0;
	profile_foreach_dir(walk_dir, &walk);
	is_int(walk.n, 1, "without $DIXLOAD_PROFILE_PATH one directory is walked");
	ok(walk.n == 1 && !strcmp(walk.dirs[0], DIX_PROFILEDIR) &&
	   walk.from[0] == PROFILE_FROM_DATADIR,
	   "... the data directory (%s)", walk.dirs[0]);
	is_int(profile_find("./profiles/planted.profile", path, sizeof(path)), 0,
	       "named as a path, a file in the current directory is used");
	if (chdir(cwd))
		ok(0, "chdir back");
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
		       "# a test profile\n[global]\n  rw = randwrite  \nbs=128k\n\n; comment\ninject = guard@7\n");
	is_int(profile_load(p, &o, err, sizeof(err)), 0, "good profile loads");
	is_int(o.rw, RW_RANDWRITE, "rw from profile");
	is_int(o.bs, 131072, "bs from profile");
	is_int(o.inject.n, 1, "a list option (inject) from profile");
	opts_free(&o);
	test_actions();

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
	/*
	 * A line longer than the old 4096-byte buffer: its tail was read as
	 * a line of its own, so "bs=4k" at its end was applied.
	 */
	{
		static char text[6000];
		size_t k;

		strcpy(text, "pi-format=");
		for (k = strlen(text); k < 4094; k++)
			text[k] = 'x';
		strcpy(text + k, "bs=4k\n");
		p = write_file("long.profile", text);
		opts_free(&o);
		opts_init(&o);
		r = profile_load(p, &o, err, sizeof(err));
		is_int(r, -EINVAL, "a line over PROFILE_LINE_MAX is refused");
		ok(strstr(err, "long.profile:1: line of 4100 bytes") != NULL,
		   "long line: file, line and length (%s)", err);
		is_int(o.bs, 65536, "its tail was not applied");
	}
	p = write_file("bad4.profile", "force=1\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "force not allowed in profiles");
	ok(strstr(err, "only allowed on the command line") != NULL, "cli-only message: %s", err);
	/* files dixload truncates as root: named on the command line only */
	p = write_file("bad5.profile", "bs=4k\nerror-log=/etc/passwd\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "error-log not allowed in profiles");
	ok(strstr(err, "bad5.profile:2: 'error-log' is only allowed on the command line") != NULL,
	   "error-log: file, line and rule (%s)", err);
	p = write_file("bad6.profile", "log=/etc/passwd\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "log not allowed in profiles");
	p = write_file("bad7.profile", "plot=/etc/passwd\n");
	is_int(profile_load(p, &o, err, sizeof(err)), -EINVAL, "plot not allowed in profiles");
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
	ok(walk.n == 3 && !strcmp(walk.dirs[0], "/d/one") &&
	   !strcmp(walk.dirs[1], "/d/two") &&
	   !strcmp(walk.dirs[2], DIX_PROFILEDIR),
	   "walk: the path in order, then the data dir; never ./profiles (%d dirs)",
	   walk.n);
	ok(walk.from[0] == PROFILE_FROM_ENV && walk.from[1] == PROFILE_FROM_ENV &&
	   walk.from[2] == PROFILE_FROM_DATADIR, "walk: each directory's origin");
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
		ok(walk.n == 2 && !strcmp(walk.dirs[0], dir) &&
		   !strcmp(walk.dirs[1], DIX_PROFILEDIR),
		   "duplicates walked once: %d dirs", walk.n);
	}
	test_datadir();
	test_cwd_not_searched();
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
			/* a PI profile measures a steady baseline (issue 9) */
			ok(o.precondition == PRECOND_ON,
			   "shipped profile %s sets precondition=on", names[i]);
			if (i == 0)
				ok(o.rw == RW_RANDRW && o.rwmixread == 50 && o.bs == 262144,
				   "dif1 is the seed workload: randrw 50/50 256k");
			opts_free(&o);
		}
		/* the 2023 seed's two sides (issue 22): the thread's module
		 * (one TFM, sync, 112 requests) and an offload's async depth;
		 * their keys are the kcapi engine's own options */
#ifdef HAVE_KCAPI_ENGINE
		engine_options_register();
		snprintf(path, sizeof(path), "%s/profiles/kcapi-sync.profile", src);
		opts_init(&o);
		r = profile_load(path, &o, err, sizeof(err));
		ok(r == 0 && !strcmp(o.engine, "kcapi") && o.alg &&
		   !strcmp(o.alg, "xts(aes)") && o.tfms == 1 &&
		   o.submit == SUBMIT_SYNC && o.iodepth == 112,
		   "shipped profile kcapi-sync: xts(aes), 1 TFM, sync, 112 requests (%s)",
		   r ? err : "loaded");
		opts_free(&o);
		snprintf(path, sizeof(path), "%s/profiles/kcapi-async.profile", src);
		opts_init(&o);
		r = profile_load(path, &o, err, sizeof(err));
		ok(r == 0 && !strcmp(o.engine, "kcapi") && o.alg &&
		   !strcmp(o.alg, "xts(aes)") && o.tfms > 1 &&
		   o.submit == SUBMIT_ASYNC && o.iodepth >= 16 &&
		   o.iodepth_batch == o.iodepth,
		   "shipped profile kcapi-async: several TFMs, async, deep queues (%s)",
		   r ? err : "loaded");
		opts_free(&o);
#else
		skip_dep("kcapi-sync: no kcapi engine in this build");
		skip_dep("kcapi-async: no kcapi engine in this build");
#endif
	} else {
		skip_dep("top_srcdir not set");
	}
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 99;
	}
	return tap_done();
}
