// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-options.c - the option table: defaults, parsing, errors, output; and
 * the engines' rows: taken only for their engine, refused for another one
 * naming the engines that take them, their defaults set, shown in the
 * settings of their engine's run only, dumped once when two engines share
 * a name.  The engines here are made up: the parser knows no real one.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "lib/json.h"
#include "conf/options.h"
#include "tap.h"

/* Two made-up engines sharing --wait (seconds, 1 ms to 10 s) and one with --ways. */
static const char *const ways_names[] = { "one", "two", NULL };
#define WAIT_ROW {							\
	.name = "wait", .type = OPT_SECONDS,				\
	.off = (long)offsetof(struct dix_opts, timeout), .def = "0",	\
	.min = 1, .max = 10000, .metavar = "SEC", .help = "wait",	\
	.refusal = "never waits",					\
}
static const struct dix_option tab_a[] = {
	WAIT_ROW,
	{
		.name = "ways", .type = OPT_ENUM,
		.off = (long)offsetof(struct dix_opts, submit), .def = "two",
		.allowed = ways_names, .metavar = "W", .help = "ways",
	},
	{ .name = NULL },
};
static const struct dix_option tab_b[] = {
	WAIT_ROW,
	{ .name = NULL },
};

static char *effective(const struct dix_opts *o)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	opts_print_effective(f, o);
	fclose(f);
	return buf;
}

static void test_engine_rows(void)
{
	struct dix_opts o;
	char err[512], *buf;
	size_t len;
	FILE *f;

	opts_add_engine("ea", tab_a);
	opts_add_engine("eb", tab_b);
	opts_add_engine("ea", tab_b);	/* a second call changes nothing */
	opts_init(&o);
	is_int(o.submit, 1, "an engine row's default is set (--ways two)");
	ok(opt_find("ways") == &tab_a[1], "opt_find() finds an engine's row");

	o.opt_engine = "ea";
	is_int(opt_set(&o, "ways", "one", err, sizeof(err)), 0,
	       "the parse's engine takes its own option");
	is_int(o.submit, 0, "  into its field");
	is_int(opt_set(&o, "wait", "0.0001", err, sizeof(err)), -EINVAL,
	       "a seconds row's range is checked");
	is_str(err, "--wait: 0.0001 is outside 0.001 to 10 seconds (0: the default)",
	       "  naming option, value and range");
	is_int(opt_set(&o, "wait", "0", err, sizeof(err)), 0, "  0 (the default) is always taken");
	is_int(opt_set(&o, "wait", "2.5", err, sizeof(err)), 0, "  2.5 s is within");

	buf = effective(&o);
	ok(strstr(buf, " wait=2.5 ways=one") == NULL,
	   "another engine's run shows no engine option: %s", buf);
	free(buf);
	free(o.engine);
	o.engine = strdup("ea");
	buf = effective(&o);
	ok(strstr(buf, " wait=2.5 ways=one") != NULL &&
	   !strstr(buf, " wait=2.5 ways=one wait"),
	   "its engine's run shows them, after the run's own: %s", buf);
	free(buf);

	o.opt_engine = "eb";
	is_int(opt_set(&o, "ways", "two", err, sizeof(err)), -EINVAL,
	       "another engine's option is refused");
	is_str(err, "--ways two: --engine eb does not take it; engines that take --ways: ea",
	       "  naming the option, its value, this engine and the one that takes it");
	is_int(opt_set(&o, "wait", "20", err, sizeof(err)), -EINVAL,
	       "a shared row is checked for the parse's engine too");
	o.opt_engine = "libaio";
	is_int(opt_set(&o, "wait", "1", err, sizeof(err)), -EINVAL,
	       "an engine without the row refuses it");
	is_str(err, "--wait 1: --engine libaio never waits; engines that take --wait: ea, eb",
	       "  with the row's own words, every engine that takes it listed");
	is_int(opt_set(&o, "nosuch", "1", err, sizeof(err)), -ENOENT,
	       "a name no table has is unknown");
	opts_free(&o);

	f = open_memstream(&buf, &len);
	opts_dump(f, "ea eb");
	fclose(f);
	ok(strstr(buf, "\nwait\tvalue\t\n") && !strstr(strstr(buf, "\nwait\t") + 1, "\nwait\t") &&
	   strstr(buf, "\nways\tenum\tone two\n"),
	   "--dump-options lists the engines' rows, a shared name once");
	free(buf);
}

int main(void)
{
	struct dix_opts o;
	char err[512], *buf;
	size_t len;
	FILE *f;
	struct jw w;

	opts_init(&o);
	is_int(o.rw, RW_RANDRW, "default rw is randrw");
	is_int(o.bs, 65536, "default bs 64k");
	is_int(o.iodepth, 1, "default iodepth 1");
	is_int(o.interval_ms, 1000, "default interval 1000 ms");
	is_int(o.verify, VERIFY_ON, "default verify on");
	is_str(o.engine, "libaio", "default engine libaio");
	is_str(o.pi_format, "any", "default pi-format any");
	is_int(o.seed_set, 0, "seed not set by default");

	is_int(opt_set(&o, "bs", "256k", err, sizeof(err)), 0, "bs 256k");
	is_int(o.bs, 262144, "bs value");
	is_int(opt_set(&o, "bs", "3k", err, sizeof(err)), -EINVAL, "bs 3k rejected");
	ok(strstr(err, "power of two") != NULL, "bs error says power of two: %s", err);
	is_int(opt_set(&o, "bs", "256", err, sizeof(err)), -EINVAL, "bs below 512 rejected");
	ok(strstr(err, "allowed: 512") != NULL, "range error names the bounds: %s", err);
	is_int(opt_set(&o, "rw", "randread", err, sizeof(err)), 0, "rw randread");
	is_int(o.rw, RW_RANDREAD, "rw value");
	is_int(opt_set(&o, "rw", "sideways", err, sizeof(err)), -EINVAL, "rw bad value");
	ok(strstr(err, "allowed: read, write, randread, randwrite, rw, randrw") != NULL,
	   "enum error lists allowed values: %s", err);
	is_int(opt_set(&o, "rwmixread", "101", err, sizeof(err)), -EINVAL, "rwmixread 101");
	is_int(opt_set(&o, "runtime", "1.5", err, sizeof(err)), 0, "runtime 1.5");
	ok(o.runtime == 1.5, "runtime value");
	is_int(opt_set(&o, "seed", "7", err, sizeof(err)), 0, "seed 7");
	is_int(o.seed_set, 1, "seed marked as set");
	is_int(opt_set(&o, "nosuch", "1", err, sizeof(err)), -ENOENT, "unknown option");
	is_int(opt_set(&o, "hotload", "a@1", err, sizeof(err)), 0, "hotload 1");
	is_int(opt_set(&o, "hotload", "b@2", err, sizeof(err)), 0, "hotload 2");
	is_int(o.hotload.n, 2, "hotload is repeatable");
	is_str(o.hotload.v[1], "b@2", "hotload keeps order");
	is_int(opt_set(&o, "force", NULL, err, sizeof(err)), 0, "flag without value");
	is_int(o.force, 1, "force set");
	is_int(opt_set(&o, "quiet", "maybe", err, sizeof(err)), -EINVAL, "flag bad value");
	is_int(opt_set(&o, "dev", "", err, sizeof(err)), -EINVAL, "empty dev rejected");

	f = open_memstream(&buf, &len);
	opts_print_effective(f, &o);
	fclose(f);
	ok(strstr(buf, "rw=randread") && strstr(buf, "bs=256k") &&
	   strstr(buf, "hotload=a@1 hotload=b@2"),
	   "effective settings line: %s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	jw_init(&w, f);
	jw_obj_open(&w, NULL);
	opts_json(&w, "settings", &o);
	jw_obj_close(&w);
	fclose(f);
	ok(strstr(buf, "{\"settings\":{") && strstr(buf, "\"bs\":262144") && strstr(buf, "\"rw\":\"randread\"") &&
	   strstr(buf, "\"hotload\":[\"a@1\",\"b@2\"]") && strstr(buf, "\"runtime\":1.5"),
	   "effective settings JSON: %s", buf);
	free(buf);
	opts_free(&o);

	/*
	 * What fuzz-options found: a leading zero made the value octal
	 * (--rwmixread 050 was 40).  Replayed from its file, as NAME=VALUE.
	 */
	opts_init(&o);
	buf = datafile_text("fuzz/options/rwmixread-050", NULL);
	if (buf) {
		char *eq = strchr(buf, '=');
		int r = -1;

		if (eq) {
			*eq = '\0';
			r = opt_set(&o, buf, eq + 1, err, sizeof(err));
		}
		is_int(r, 0, "rwmixread=050 accepted");
		is_int(o.rwmixread, 50, "rwmixread=050 is 50");
		free(buf);
	}
	is_int(opt_set(&o, "iodepth", "010", err, sizeof(err)), 0,
	       "iodepth 010 accepted");
	is_int(o.iodepth, 10, "iodepth 010 is ten");
	is_int(opt_set(&o, "iodepth", "08", err, sizeof(err)), 0,
	       "iodepth 08 accepted (it was 'not an integer' as octal)");
	is_int(o.iodepth, 8, "iodepth 08 is eight");
	opts_free(&o);

	/* --rate R,W in MB/s kept as bytes/s; one number caps both */
	opts_init(&o);
	is_int(opt_set(&o, "rate", "50,20", NULL, 0), 0, "--rate 50,20");
	ok(o.rate[0] == 50e6 && o.rate[1] == 20e6, "R 50 MB/s, W 20 MB/s");
	is_int(opt_set(&o, "rate", ",2.5", NULL, 0), 0, "--rate ,2.5");
	ok(o.rate[0] == 0 && o.rate[1] == 2.5e6, "reads uncapped, W 2.5 MB/s");
	is_int(opt_set(&o, "rate-iops", "300", NULL, 0), 0, "--rate-iops 300");
	ok(o.rate_iops[0] == 300 && o.rate_iops[1] == 300, "300 IOPS each way");
	is_int(opt_set(&o, "rate", ",", NULL, 0), -EINVAL, "--rate , rejected");
	is_int(opt_set(&o, "rate", "-5", NULL, 0), -EINVAL, "negative rejected");
	is_int(opt_set(&o, "rate", "5,x", NULL, 0), -EINVAL, "junk rejected");
	/* a number too long for the parser's buffer was cut to its zeros */
	buf = datafile_text("fuzz/options/rate-64-digits", NULL);
	if (buf) {
		char *eq = strchr(buf, '=');

		if (eq)
			*eq = '\0';
		is_int(eq ? opt_set(&o, buf, eq + 1, NULL, 0) : 0, -EINVAL,
		       "rate of 64 digits refused, not cut to 0");
		free(buf);
	}
	ok(o.rate[0] == 0 && o.rate[1] == 2.5e6, "and the caps stay as they were");
	f = open_memstream(&buf, &len);
	opts_print_effective(f, &o);
	fclose(f);
	ok(strstr(buf, "rate=,2.5") && strstr(buf, "rate-iops=300"),
	   "effective line keeps the user's units: %s", buf);
	free(buf);
	opts_free(&o);
	test_engine_rows();
	return tap_done();
}
