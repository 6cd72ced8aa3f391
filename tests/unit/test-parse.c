// SPDX-License-Identifier: GPL-2.0-or-later
/* test-parse.c - sizes, integers, seconds and SPEC@SEC schedules. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "lib/parse.h"
#include "tap.h"

static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int r = parse_size(s, &v);

	ok(r == 0 && v == want, "parse_size(\"%s\") = %llu (got %llu, r=%d)",
	   s, (unsigned long long)want, (unsigned long long)v, r);
}

static void size_bad(const char *s, int want)
{
	uint64_t v;

	is_int(parse_size(s, &v), want, s);
}

int main(void)
{
	uint64_t u;
	double d;
	char spec[64], buf[32];

	size_ok("4096", 4096);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kb", 4096);
	size_ok("256k", 262144);
	size_ok("1m", 1048576);
	size_ok("2g", 2147483648ull);
	size_ok("1t", 1ull << 40);
	size_ok("512b", 512);
	size_bad("", -EINVAL);
	size_bad("k", -EINVAL);
	size_bad("-4k", -EINVAL);
	size_bad("4x", -EINVAL);
	size_bad("4kx", -EINVAL);
	size_bad("4 k", -EINVAL);
	size_bad("99999999999999999999", -ERANGE);
	size_bad("17179869184g", -ERANGE);

	is_int(parse_u64("42", &u), 0, "parse_u64 42");
	is_int(u, 42, "parse_u64 value");
	is_int(parse_u64("0x10", &u), 0, "parse_u64 hex");
	is_int(u, 16, "parse_u64 hex value");
	is_int(parse_u64("-1", &u), -EINVAL, "parse_u64 rejects negative");
	is_int(parse_u64("12abc", &u), -EINVAL, "parse_u64 rejects garbage");
	is_int(parse_u64("", &u), -EINVAL, "parse_u64 rejects empty");
	/* decimal unless "0x": strtoull's base 0 made "050" octal */
	is_int(parse_u64("050", &u), 0, "parse_u64 050");
	is_int(u, 50, "parse_u64 050 is decimal");
	is_int(parse_u64("0X1f", &u), 0, "parse_u64 0X1f");
	is_int(u, 31, "parse_u64 0X1f value");
	is_int(parse_u64("0x", &u), -EINVAL, "parse_u64 rejects a bare 0x");
	is_int(parse_u64("0x-5", &u), -EINVAL, "parse_u64 rejects 0x-5");
	is_int(parse_u64("0x0x10", &u), -EINVAL, "parse_u64 rejects 0x0x10");
	is_int(parse_u64("+5", &u), -EINVAL, "parse_u64 rejects a sign");
	is_int(parse_u64(" 5", &u), -EINVAL, "parse_u64 rejects a blank");
	is_int(parse_u64("18446744073709551616", &u), -ERANGE,
	       "parse_u64 2^64: -ERANGE");

	ok(!parse_seconds("2.5", &d) && d == 2.5, "seconds 2.5");
	ok(!parse_seconds("90s", &d) && d == 90, "seconds 90s");
	ok(!parse_seconds("2m", &d) && d == 120, "seconds 2m");
	ok(parse_seconds("-1", &d) == -EINVAL, "seconds rejects negative");
	ok(parse_seconds("abc", &d) == -EINVAL, "seconds rejects text");
	ok(parse_seconds("1x", &d) == -EINVAL, "seconds rejects unit x");
	/* what fuzz-options found: a unit that overflows to infinity */
	{
		char *t = datafile_text("fuzz/options/seconds-1e308m", NULL);

		if (t) {
			d = 7;
			is_int(parse_seconds(t, &d), -EINVAL,
			       "seconds rejects 1e308m (infinite seconds)");
			ok(d == 7, "and leaves the value alone");
			free(t);
		}
	}
	ok(!parse_seconds("1e300", &d) && d == 1e300, "seconds 1e300 (finite)");
	ok(parse_seconds("1e306h", &d) == -EINVAL, "seconds rejects 1e306h");
	ok(parse_at("m@1e308m", spec, sizeof(spec), &d) == -EINVAL,
	   "parse_at rejects an infinite time");

	ok(!parse_at("crct10dif_pclmul@10", spec, sizeof(spec), &d) &&
	   !strcmp(spec, "crct10dif_pclmul") && d == 10, "parse_at module");
	ok(!parse_at("/sys/a=b@c=0@2.5", spec, sizeof(spec), &d) &&
	   !strcmp(spec, "/sys/a=b@c=0") && d == 2.5,
	   "parse_at splits at the last @");
	is_int(parse_at("noat", spec, sizeof(spec), &d), -EINVAL, "parse_at needs @");
	is_int(parse_at("@3", spec, sizeof(spec), &d), -EINVAL, "parse_at needs spec");
	is_int(parse_at("x@soon", spec, sizeof(spec), &d), -EINVAL, "parse_at needs seconds");
	is_int(parse_at("abcdefgh@1", spec, 4, &d), -ENAMETOOLONG, "parse_at length");

	is_str(format_size(262144, buf, sizeof(buf)), "256k", "format 256k");
	is_str(format_size(1 << 20, buf, sizeof(buf)), "1m", "format 1m");
	is_str(format_size(4100, buf, sizeof(buf)), "4100", "format 4100");
	is_str(format_size(0, buf, sizeof(buf)), "0", "format 0");
	ok(is_pow2(4096) && !is_pow2(0) && !is_pow2(4100), "is_pow2");
	return tap_done();
}
