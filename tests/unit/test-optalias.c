// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-optalias.c - fio's option names: each command-line alias sets the
 * dixload option its row names with fio's value converted, fio's value
 * syntax (sizes with kb_base as fio's HOWTO states it, rates in bytes per
 * second, times with units), refusals that name the option and the reason,
 * the difference notes, and the did-you-mean search (edit distances
 * checked against values worked by hand: kitten/sitting 3, ca/abc 3 under
 * optimal string alignment).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "tap.h"

static void test_values(void)
{
	uint64_t u = 0;
	double r[2], t = 0;

	/* fio's HOWTO, kb_base: 1024 is "compatibility mode", KiB the odd one */
	is_int(fio_parse_size("10m", 1024, &u), 0, "10m");
	is_int(u, 10485760, "10m is 10 MiB with kb_base=1024");
	fio_parse_size("4KB", 1024, &u);
	is_int(u, 4096, "4KB is 4096 with kb_base=1024");
	fio_parse_size("4KiB", 1024, &u);
	is_int(u, 4000, "4KiB is 4000 with kb_base=1024 (fio's compatibility mode)");
	fio_parse_size("4k", 1000, &u);
	is_int(u, 4000, "4k is 4000 with kb_base=1000");
	fio_parse_size("4kib", 1000, &u);
	is_int(u, 4096, "4kib is 4096 with kb_base=1000");
	fio_parse_size("1p", 1024, &u);
	is_int(u, 1ull << 50, "1p");
	is_int(fio_parse_size("4q", 1024, &u), -EINVAL, "4q refused");
	is_int(fio_parse_size("k", 1024, &u), -EINVAL, "no digits refused");
	is_int(fio_parse_size("20000p", 1024, &u), -ERANGE, "overflow refused");
	is_int(fio_parse_rate("10m", 1024, r), 0, "rate 10m");
	ok(r[0] == 10485760 && r[1] == 10485760, "rate 10m: both directions 10 MiB/s");
	is_int(fio_parse_rate(",500k", 1024, r), 0, "rate ,500k");
	ok(r[0] == 0 && r[1] == 512000, "rate ,500k: write only");
	is_int(fio_parse_rate("1,2,3", 1024, r), -EINVAL, "a trim rate refused");
	is_int(fio_parse_rate("0000000000000000000000000000000000000005", 1024, r), -EINVAL,
	       "a side too long to hold is refused, not cut to its zeros");
	is_int(fio_parse_time("500ms", &t), 0, "500ms");
	ok(t == 0.5, "500ms is 0.5 s");
	fio_parse_time("2m", &t);
	ok(t == 120, "2m is two minutes, as in fio's time options");
	fio_parse_time("90", &t);
	ok(t == 90, "a bare number is seconds");
	is_int(fio_parse_time("5x", &t), -EINVAL, "5x refused");
}

static void test_cli_aliases(void)
{
	struct dix_opts o;
	char err[512];

	opts_init(&o);
	is_int(opt_set(&o, "numjobs", "3", err, sizeof(err)), 0, "--numjobs 3");
	is_int(o.jobs, 3, "--numjobs sets --jobs");
	ok(o.fio_noted != 0, "--numjobs recorded for its note");
	is_int(opt_set(&o, "numjobs", "0", err, sizeof(err)), -EINVAL, "--numjobs 0");
	ok(strstr(err, "--numjobs is fio's name for --jobs") && strstr(err, "out of range"),
	   "the error names both and the range: %s", err);
	is_int(opt_set(&o, "ioengine", "psync", err, sizeof(err)), 0, "--ioengine psync");
	is_str(o.engine, "sync", "psync is dixload's sync (pread/pwrite)");
	opt_set(&o, "ioengine", "io_uring", err, sizeof(err));
	is_str(o.engine, "io_uring", "io_uring by its name");
	is_int(opt_set(&o, "filename", "a\\:1:b", err, sizeof(err)), 0, "--filename a\\:1:b");
	is_str(o.dev, "a:1,b", "fio's ':' separates targets, '\\:' is a colon");
	is_int(opt_set(&o, "rate_iops", ",200", err, sizeof(err)), 0, "--rate_iops ,200");
	ok(o.rate_iops[0] == 0 && o.rate_iops[1] == 200, "--rate_iops caps the writes");
	is_int(opt_set(&o, "direct", NULL, err, sizeof(err)), 0, "--direct");
	ok(o.buffered == 0, "--direct: O_DIRECT");
	is_int(opt_set(&o, "direct", "0", err, sizeof(err)), 0, "--direct=0 taken");
	ok(o.buffered == 1, "--direct=0 is --buffered");
	is_int(opt_set(&o, "direct", "1", err, sizeof(err)), 0, "--direct=1 taken");
	ok(o.buffered == 0, "--direct=1 is O_DIRECT again");
	is_int(opt_set(&o, "direct", "maybe", err, sizeof(err)), -EINVAL, "--direct=maybe refused");
	ok(strstr(err, "allowed: 1, 0") != NULL, "naming what is allowed: %s", err);
	is_int(opt_set(&o, "readwrite", "readwrite", err, sizeof(err)), 0, "--readwrite readwrite");
	is_int(o.rw, RW_RW, "readwrite is rw");
	is_int(opt_set(&o, "rw", "readwrite", err, sizeof(err)), 0, "--rw readwrite (fio's value of a shared name)");
	is_int(opt_set(&o, "rw", "randtrim", err, sizeof(err)), -EINVAL, "--rw randtrim refused");
	ok(strstr(err, "allowed:") != NULL, "with the allowed values: %s", err);
	is_int(opt_set(&o, "readwrite", "trimwrite", err, sizeof(err)), -EINVAL, "--readwrite trimwrite");
	ok(strstr(err, "does not trim") != NULL, "trims are refused by reason: %s", err);
	is_int(opt_set(&o, "rwmixwrite", "30", err, sizeof(err)), 0, "--rwmixwrite 30");
	is_int(o.rwmixread, 70, "rwmixwrite 30 is rwmixread 70");
	is_int(opt_set(&o, "runtime", "500ms", err, sizeof(err)), 0, "--runtime 500ms (fio's unit)");
	ok(o.runtime == 0.5, "runtime 0.5 s");
	is_int(opt_set(&o, "runtime", "5x", err, sizeof(err)), -EINVAL, "--runtime 5x");
	ok(strstr(err, "number of seconds") != NULL, "dixload's reason stands: %s", err);
	is_int(opt_set(&o, "time_based", NULL, err, sizeof(err)), 0, "--time_based");
	is_int(opt_set(&o, "name", "seqread", err, sizeof(err)), 0, "--name");
	/* --rate on the command line is dixload's MB/s */
	is_int(opt_set(&o, "rate", "10", err, sizeof(err)), 0, "--rate 10");
	ok(o.rate[0] == 10e6, "--rate 10 is 10 MB/s");
	is_int(opt_set(&o, "rate", "10m", err, sizeof(err)), -EINVAL, "--rate 10m");
	ok(strstr(err, "MB/s (10^6 bytes per second") && strstr(err, "--rate 10.48576"),
	   "the error gives the unit and fio's meaning in it: %s", err);
	is_int(opt_set(&o, "rate-iops", "x", err, sizeof(err)), -EINVAL, "--rate-iops x");
	ok(strstr(err, "I/Os per second") != NULL, "--rate-iops' unit: %s", err);
	opts_free(&o);
}

static void test_job_file_entry(void)
{
	struct dix_opts o;
	char err[512], *buf;
	size_t len;
	FILE *f;

	opts_init(&o);
	ok(opt_fio_alias("rate") && opt_fio_alias("bs") && !opt_fio_alias("nosuch"),
	   "fio names shared with dixload have rows; unknown ones none");
	ok(!opt_cli_alias("rate") && opt_cli_alias("numjobs"),
	   "the command line's --rate is dixload's, --numjobs an alias");
	is_int(opt_set_fio(&o, "rate", "10m", 1024, err, sizeof(err)), 1, "rate=10m: accepted, with a difference");
	ok(o.rate[0] == 10485760 && o.rate[1] == 10485760, "fio's rate=10m is 10 MiB/s");
	is_int(opt_set_fio(&o, "bs", "4k", 1000, err, sizeof(err)), -EINVAL, "bs=4k with kb_base=1000");
	ok(strstr(err, "power of two") != NULL, "4000 is no power of two: %s", err);
	is_int(opt_set_fio(&o, "bs", "4k", 1024, err, sizeof(err)), 0, "bs=4k");
	is_int(o.bs, 4096, "bs=4k is 4096");
	is_int(opt_set_fio(&o, "size", "50%", 1024, err, sizeof(err)), -EINVAL, "size=50%");
	ok(strstr(err, "share of the target") != NULL, "refused with the reason: %s", err);
	is_int(opt_set_fio(&o, "bs", "4k,8k", 1024, err, sizeof(err)), -EINVAL, "bs=4k,8k");
	is_int(opt_set_fio(&o, "runtime", "1m", 1024, err, sizeof(err)), 0, "runtime=1m");
	ok(o.runtime == 60, "runtime=1m is a minute");
	is_int(opt_set_fio(&o, "verify_pattern", "0", 1024, err, sizeof(err)), -ENOENT, "an unknown fio name");
	f = open_memstream(&buf, &len);
	opts_fio_notes(f, &o);
	fclose(f);
	ok(strstr(buf, "note: --rate: fio's rate is bytes per second") != NULL,
	   "the note of rate's difference: %s", buf);
	free(buf);
	opts_free(&o);
}

static void test_suggest(void)
{
	static const char *const own[] = { "help", "version", NULL };
	char buf[128];

	is_int(opt_distance("kitten", "sitting"), 3, "kitten/sitting 3");
	is_int(opt_distance("ca", "abc"), 3, "ca/abc 3 (optimal string alignment)");
	is_int(opt_distance("jbos", "jobs"), 1, "a swap is one edit");
	is_int(opt_distance("rate_iops", "rate-iops"), 0, "'_' is '-'");
	is_int(opt_suggest("numjob", own, buf, sizeof(buf)), 0, "--numjob");
	is_str(buf, "--numjobs (fio's name for --jobs)", "--numjob: --numjobs, named as fio's");
	opt_suggest("jbos", own, buf, sizeof(buf));
	is_str(buf, "--jobs", "--jbos: --jobs");
	opt_suggest("iodept", own, buf, sizeof(buf));
	is_str(buf, "--iodepth", "--iodept: --iodepth");
	opt_suggest("ioengin", own, buf, sizeof(buf));
	is_str(buf, "--ioengine (fio's name for --engine)", "--ioengin: --ioengine");
	opt_suggest("verison", own, buf, sizeof(buf));
	is_str(buf, "--version", "a name the caller handles: --version");
	opt_suggest("time-based", own, buf, sizeof(buf));
	ok(!strncmp(buf, "--time_based (fio's name", 24), "--time-based: --time_based: %s", buf);
	is_int(opt_suggest("xyzzy", own, buf, sizeof(buf)), -ENOENT, "--xyzzy: nothing close");
	is_str(buf, "", "and no text");
	is_int(opt_suggest("q", own, buf, sizeof(buf)), -ENOENT, "a one-letter name matches nothing");
	is_int(opt_suggest("frobnicatorium", own, buf, sizeof(buf)), -ENOENT, "a long unrelated name: nothing");
}

int main(void)
{
	test_values();
	test_cli_aliases();
	test_job_file_entry();
	test_suggest();
	return tap_done();
}
