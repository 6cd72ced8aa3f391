// SPDX-License-Identifier: GPL-2.0-or-later
/* test-options.c - the option table: defaults, parsing, errors, output. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "options.h"
#include "tap.h"

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
	return tap_done();
}
