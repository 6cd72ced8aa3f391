// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-jobfile.c - fio's job-file syntax (conf/jobfile) and its mapping
 * onto dixload's options (conf/jobmap).  The expected values are fio's:
 * fio(1)'s tables of size suffixes, and what `fio --parse-only --debug=parse`
 * 3.33 made of the same text (noted where measured).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/jobfile.h"
#include "conf/jobmap.h"
#include "conf/options.h"
#include "engines/engine.h"
#include "lib/util.h"
#include "tap.h"

static const char *fake_env(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, "SIZE"))
		return "64m";
	if (!strcmp(name, "EMPTY"))
		return "";
	return NULL;
}

static const struct jf_sys sys = {
	.getenv = fake_env, .pagesize = 4096, .mb_memory = 2048, .ncpus = 8,
};

static const char *val(const struct jf_doc *d, int s, const char *key)
{
	int k;

	for (k = 0; k < d->s[s].nkv; k++)
		if (!strcmp(d->s[s].kv[k].key, key))
			return d->s[s].kv[k].val ? d->s[s].kv[k].val : "(none)";
	return NULL;
}

static void test_sizes(void)
{
	static const struct {
		const char *in;
		unsigned int kb;
		uint64_t want;
	} t[] = {
		/* fio(1) "Examples with kb_base=1024 (default)" */
		{ "4096", 1024, 4096 }, { "4k", 1024, 4096 }, { "4kb", 1024, 4096 },
		{ "4KB", 1024, 4096 }, { "4K", 1024, 4096 }, { "1m", 1024, 1048576 },
		{ "1024k", 1024, 1048576 }, { "1mi", 1024, 1000000 },
		{ "1000ki", 1024, 1000000 }, { "1t", 1024, 1099511627776ull },
		{ "1ti", 1024, 1000000000000ull }, { "0x1000", 1024, 4096 },
		/* kb_base=1000: the prefixes swap */
		{ "1k", 1000, 1000 }, { "1ki", 1000, 1024 }, { "1m", 1000, 1000000 },
		/* arithmetic in parentheses (fio(1) "JOB FILE PARAMETERS") */
		{ "(4096/2)", 1024, 2048 }, { "(1+2*3)", 1024, 7 }, { "(2^10)", 1024, 1024 },
		{ "(10%3)", 1024, 1 },
	};
	static const char *const bad[] = { "", "4q", "4k4", "1+2", "(1+2", "-4k", "(1/0)" };
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		uint64_t got = 0;
		int r = jf_size(t[i].in, t[i].kb, &got, err, sizeof(err));

		ok(!r && got == t[i].want, "size '%s' (kb_base=%u) = %llu (got %llu, %s)",
		   t[i].in, t[i].kb, (unsigned long long)t[i].want,
		   (unsigned long long)got, r ? err : "ok");
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		uint64_t got;

		ok(jf_size(bad[i], 1024, &got, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "allowed") ? 1 : !!strstr(err, "'"),
		   "size '%s' refused, saying what is allowed: %s", bad[i], err);
	}
}

static void test_times_rates_ranges(void)
{
	char err[256];
	double s = -1;
	uint64_t lo = 0, hi = 0, rate[2];
	struct jf_split sp[8];
	int n = 0;

	ok(!jf_time("10m", &s, err, sizeof(err)) && s == 600, "time 10m is 10 minutes (%g s)", s);
	ok(!jf_time("900", &s, err, sizeof(err)) && s == 900, "time 900 is seconds");
	ok(!jf_time("250ms", &s, err, sizeof(err)) && s == 0.25, "time 250ms");
	ok(!jf_time("2h", &s, err, sizeof(err)) && s == 7200, "time 2h");
	ok(!jf_time("(1500000)", &s, err, sizeof(err)) && s == 1.5,
	   "time in an expression is microseconds (fio(1))");
	ok(jf_time("10x", &s, err, sizeof(err)) == -EINVAL && strstr(err, "m (minutes)"),
	   "time 10x refused naming the units: %s", err);

	ok(!jf_range("1k-4k", 1024, &lo, &hi, err, sizeof(err)) && lo == 1024 && hi == 4096,
	   "bsrange 1k-4k");
	ok(!jf_range("512:64k", 1024, &lo, &hi, err, sizeof(err)) && lo == 512 && hi == 65536,
	   "range with ':'");
	ok(jf_range("4k-1k", 1024, &lo, &hi, err, sizeof(err)) == -EINVAL, "range upside down refused");

	ok(!jf_rate("10m", 1024, rate, err, sizeof(err)) && rate[0] == 10485760 &&
	   rate[1] == 10485760, "rate=10m is 10 MiB/s each way (fio: bytes per second, kb_base 1024)");
	ok(!jf_rate(",500k", 1024, rate, err, sizeof(err)) && rate[0] == 0 &&
	   rate[1] == 512000, "rate=,500k caps writes only");
	ok(!jf_rate("1m,", 1024, rate, err, sizeof(err)) && rate[0] == 1048576 &&
	   rate[1] == 0, "rate=1m, caps reads only");
	ok(jf_rate("1m,1m,1m", 1024, rate, err, sizeof(err)) == -EINVAL &&
	   strstr(err, "trim"), "a trim rate refused, naming why");

	ok(!jf_bssplit("4k/10:64k/50:32k/40", 1024, sp, 8, &n, err, sizeof(err)) &&
	   n == 3 && sp[0].bs == 4096 && sp[0].pct == 10 && sp[1].bs == 65536 &&
	   sp[2].pct == 40, "bssplit 4k/10:64k/50:32k/40");
	ok(!jf_bssplit("4k/50:8k/:16k/", 1024, sp, 8, &n, err, sizeof(err)) && n == 3 &&
	   sp[1].pct == 25 && sp[2].pct == 25, "bssplit empty shares take the rest evenly (%u, %u)",
	   sp[1].pct, sp[2].pct);
	ok(!jf_bssplit("64k/40:1024k/60,1024k/100", 1024, sp, 8, &n, err, sizeof(err)) &&
	   n == 2 && sp[1].bs == 1048576, "bssplit with a write list (cmdprio-bssplit.fio's)");
	ok(jf_bssplit("4k/10:64k/50", 1024, sp, 8, &n, err, sizeof(err)) == -EINVAL &&
	   strstr(err, "60 %"), "bssplit not adding to 100 refused: %s", err);
	ok(jf_bssplit("4k", 1024, sp, 8, &n, err, sizeof(err)) == -EINVAL &&
	   strstr(err, "/PCT"), "bssplit without shares refused");
}

static void test_reader(void)
{
	struct jf_doc d = { 0 };
	char err[1024];
	int r;

	r = jf_read_text(&d,
		"; a comment\n"
		"# another\n"
		"[global]\n"
		"bs=4k ; fio strips this (measured: ptr=4k)\n"
		"size=${SIZE}\n"
		"time_based\n"
		"[job1]\n"
		"iodepth=($ncpus*2)\n"
		"offset=8*$mb_memory\n"
		"nrfiles=$pagesize\n"
		"  rw = randread  \n"
		"[job2]\n"
		"stonewall\n", "t.fio", &sys, err, sizeof(err));
	ok(!r, "a job file reads (%s)", r ? err : "ok");
	if (!r) {
		ok(d.ns == 3 && d.s[0].global && !d.s[1].global, "three sections, the first global");
		is_str(val(&d, 0, "bs"), "4k", "a comment after a value is cut");
		is_str(val(&d, 0, "size"), "64m", "${SIZE} from the environment");
		is_str(val(&d, 0, "time_based"), "(none)", "an option without a value");
		is_str(val(&d, 1, "iodepth"), "16", "($ncpus*2) evaluated");
		/* measured: fio 3.33 turns size=8*$mb_memory into 8 x MiB count */
		is_str(val(&d, 1, "offset"), "16384", "8*$mb_memory evaluated without parentheses, as fio does");
		is_str(val(&d, 1, "nrfiles"), "4096", "$pagesize");
		is_str(val(&d, 1, "rw"), "randread", "spaces around key and value");
		ok(d.s[1].kv[3].line == 11, "a key remembers its line (%d)", d.s[1].kv[3].line);
	}
	jf_free(&d);

	r = jf_read_text(&d, "[a]\nsize=${NOPE}1m\n", "u.fio", &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "u.fio:2: [a] size=${NOPE}1m: ${NOPE} is not set") &&
	   strstr(err, "empty string"),
	   "an undefined variable is refused, naming file, line, section, key and it: %s", err);
	jf_free(&d);
	r = jf_read_text(&d, "[a]\nsize=${EMPTY}1m\n", "e.fio", &sys, err, sizeof(err));
	ok(!r && !strcmp(val(&d, 0, "size"), "1m"), "a variable set to empty expands to nothing");
	jf_free(&d);
	r = jf_read_text(&d, "bs=4k\n[a]\n", "n.fio", &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "n.fio:1:") && strstr(err, "before any [section]"),
	   "an option before any section refused: %s", err);
	jf_free(&d);
	r = jf_read_text(&d, "[a\nbs=4k\n", "h.fio", &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "h.fio:1:") && strstr(err, "[NAME]"),
	   "a broken header refused: %s", err);
	jf_free(&d);
	r = jf_read_text(&d, "[a]\nsize=($mb_memory/)\n", "x.fio", &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "x.fio:2: [a] size=") && strstr(err, "arithmetic"),
	   "bad arithmetic refused: %s", err);
	jf_free(&d);
}

static void test_include(void)
{
	char dir[] = "/tmp/dixload-test-jobfile-XXXXXX", path[256], cwd[4096];
	struct jf_doc d = { 0 };
	char err[1024];
	FILE *f;
	int r;

	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd))) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/inc.fio", dir);
	f = fopen(path, "w");
	fputs("iodepth=7\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sect.fio", dir);
	f = fopen(path, "w");
	fputs("[oops]\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/main.fio", dir);
	f = fopen(path, "w");
	fputs("[a]\ninclude inc.fio\nbs=4k\n", f);
	fclose(f);
	/* from elsewhere: found beside the including file */
	if (chdir("/"))
		ok(0, "chdir");
	r = jf_read_file(&d, path, &sys, err, sizeof(err));
	ok(!r && val(&d, 0, "iodepth") && !strcmp(val(&d, 0, "iodepth"), "7") &&
	   !strcmp(val(&d, 0, "bs"), "4k"),
	   "include beside the including file, into its section (%s)", r ? err : "ok");
	ok(!r && strstr(d.s[0].kv[0].file, "inc.fio") && d.s[0].kv[0].line == 1,
	   "an included line names its own file and line");
	jf_free(&d);
	f = fopen(path, "w");
	fputs("[a]\ninclude sect.fio\n", f);
	fclose(f);
	r = jf_read_file(&d, path, &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "sect.fio:1:") && strstr(err, "no sections"),
	   "an included file holding a section refused: %s", err);
	jf_free(&d);
	snprintf(path, sizeof(path), "%s/loop1.fio", dir);
	f = fopen(path, "w");
	fputs("include loop2.fio\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/loop2.fio", dir);
	f = fopen(path, "w");
	fputs("include loop1.fio\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/main.fio", dir);
	f = fopen(path, "w");
	fputs("[a]\ninclude loop1.fio\n", f);
	fclose(f);
	r = jf_read_file(&d, path, &sys, err, sizeof(err));
	ok(r == -EINVAL && strstr(err, "deeper"), "an include loop stops: %s", err);
	jf_free(&d);
	/* the working directory first */
	if (chdir(dir))
		ok(0, "chdir");
	r = jf_read_text(&d, "[a]\ninclude inc.fio\n", "w.fio", &sys, err, sizeof(err));
	ok(!r && !strcmp(val(&d, 0, "iodepth"), "7"), "include from the working directory");
	jf_free(&d);
	r = jf_read_text(&d, "[a]\ninclude none.fio\n", "w.fio", &sys, err, sizeof(err));
	ok(r == -ENOENT && strstr(err, "w.fio:2: [a] include none.fio: cannot read"),
	   "a missing include named: %s", err);
	jf_free(&d);
	if (chdir(cwd))
		ok(0, "chdir back");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		ok(0, "cleanup");
}

static int has_arg(const struct jm_job *j, const char *a)
{
	int i;

	for (i = 0; i < j->argc; i++)
		if (!strcmp(j->argv[i], a))
			return 1;
	return 0;
}

static void test_map(void)
{
	struct jf_doc d = { 0 };
	struct jm_job *jobs = NULL;
	struct jm_notes notes = { 0 };
	char err[4096];
	int nj = 0, r;

	r = jf_read_text(&d,
		"[global]\n"
		"ioengine=psync\n"
		"bs=8k\n"
		"rate=10m\n"
		"direct=1\n"
		"filename=/dev/XXX\n"
		"[w]\n"
		"rw=randwrite\n"
		"verify=crc32c\n"
		"numjobs=4\n"
		"runtime=2m\n"
		"size=1g\n"
		"pi=off\n"
		"[r]\n"
		"stonewall\n"
		"rw=read\n"
		"rwmixwrite=30\n"
		"direct=0\n"
		"directory=/data\n"
		"filename=\n"
		"nrfiles=2\n"
		"filesize=16m\n"
		"wait_for=w\n",
		"m.fio", &sys, err, sizeof(err));
	ok(!r, "mapping input reads (%s)", r ? err : "ok");
	r = jm_build(&d, 0, NULL, &jobs, &nj, &notes, err, sizeof(err));
	ok(!r && nj == 2, "two jobs (%s)", r ? err : "ok");
	if (!r && nj == 2) {
		ok(has_arg(&jobs[0], "--engine=sync"), "psync is dixload's sync");
		ok(has_arg(&jobs[0], "--bs=8192"), "bs from [global]");
		ok(has_arg(&jobs[0], "--rate=10.485760,10.485760"),
		   "rate=10m (10 MiB/s) is 10.48576 of dixload's MB/s");
		ok(has_arg(&jobs[0], "--jobs=4") && jobs[0].jobs == 4, "numjobs is --jobs");
		ok(has_arg(&jobs[0], "--runtime=120.000000"), "runtime=2m is 2 minutes");
		ok(has_arg(&jobs[0], "--size=1073741824"), "size");
		ok(has_arg(&jobs[0], "--pi=off"), "dixload's own key in a job file");
		ok(jobs[0].verify_after && !jobs[0].reads, "a write job with verify= gets a read-back");
		ok(!jobs[0].buffered, "direct=1: O_DIRECT");
		ok(jobs[0].ntargets == 1 && !strcmp(jobs[0].targets[0], "/dev/XXX"), "filename");
		ok(jobs[1].stonewall && jobs[1].wait_for && !strcmp(jobs[1].wait_for, "w"),
		   "stonewall and wait_for");
		ok(has_arg(&jobs[1], "--rwmixread=70"), "rwmixwrite=30 is rwmixread 70");
		ok(jobs[1].buffered && has_arg(&jobs[1], "--buffered=1"), "direct=0: buffered");
		ok(jobs[1].reads && !jobs[1].verify_after, "a read job reads, no read-back");
		ok(jobs[1].ntargets == 2 && !strcmp(jobs[1].targets[0], "/data/r.0.0") &&
		   !strcmp(jobs[1].targets[1], "/data/r.0.1"),
		   "directory + nrfiles: fio's NAME.0.N (%s)", jobs[1].ntargets ? jobs[1].targets[0] : "");
		ok(has_arg(&jobs[1], "--size=16777216"), "filesize per file");
		ok(notes.n >= 2 && strstr(notes.v[0], "verify (m.fio:9, [w])") &&
		   strstr(notes.v[0], "stronger"), "verify=crc32c's difference said, with its place");
	}
	jm_free(jobs, nj, &notes);
	jobs = NULL;
	nj = 0;
	jf_free(&d);

	r = jf_read_text(&d,
		"[a]\n"
		"bssplit=4k/50:8k/50\n"
		"no_such_key=3\n"
		"hotload=dm_crypt@2\n"
		"rw=trim\n"
		"bs=4k,8k\n"
		"ioengine=mmap\n"
		"[b]\n"
		"bssplit=4k/10\n"
		"force\n",
		"z.fio", &sys, err, sizeof(err));
	ok(!r, "refusal input reads");
	r = jm_build(&d, 0, NULL, &jobs, &nj, &notes, err, sizeof(err));
	ok(r == -EINVAL, "refused");
	ok(strstr(err, "z.fio:2: [a] bssplit=4k/50:8k/50: refused: dixload runs one block size") != NULL,
	   "bssplit refused with the reason");
	ok(strstr(err, "z.fio:3: [a] no_such_key=3: not an fio option dixload knows") != NULL,
	   "an unknown key refused, never ignored");
	ok(strstr(err, "z.fio:4: [a] hotload=dm_crypt@2: an action") != NULL,
	   "an action refused in a file");
	ok(strstr(err, "z.fio:5: [a] rw=trim") != NULL, "rw=trim refused");
	ok(strstr(err, "z.fio:6: [a] bs=4k,8k: reads and writes of different sizes") != NULL,
	   "split block sizes refused");
	ok(strstr(err, "z.fio:7: [a] ioengine=mmap: dixload has no engine 'mmap'") != NULL,
	   "an engine dixload lacks refused, naming the allowed ones");
	ok(strstr(err, "z.fio:9: [b] bssplit=4k/10: '4k/10': the shares add up to 10 %") != NULL,
	   "a malformed bssplit is named as malformed");
	ok(strstr(err, "z.fio:10: [b] force: only allowed on the command line") != NULL,
	   "a command-line-only dixload key refused");
	jm_free(jobs, nj, &notes);
	jf_free(&d);
}

static void test_table(void)
{
	const struct jm_row *r;
	int n = 0, bad = 0;

	for (r = jm_rows; r->key; r++, n++)
		if ((r->kind != JM_MAPPED && !r->note) || (r->kind != JM_REFUSED && !r->dix))
			bad++;
	ok(n > 100 && !bad, "%d rows, each different/refused one with its note (%d without)", n, bad);
	ok(jm_find("verify") && jm_find("verify")->kind == JM_DIFFERENT, "verify is a difference");
	ok(jm_find("ramp_time") && jm_find("ramp_time")->kind == JM_REFUSED, "ramp_time refused");
	ok(!jm_find("pi"), "dixload's own keys are not fio rows");
}

int main(void)
{
	engine_options_register();
	test_sizes();
	test_times_rates_ranges();
	test_reader();
	test_include();
	test_map();
	test_table();
	return tap_done();
}
