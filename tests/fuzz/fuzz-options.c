// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-options.c - the parsers of the values users type: parse_size(),
 * parse_u64(), parse_seconds(), parse_at() on any text, and opt_set() of
 * one option from the run's table or an engine's.  The input is "NAME=VALUE" (an unknown NAME
 * still feeds VALUE to the plain parsers).
 *
 * Checks: a size prints back (format_size()) to text that parses to the
 * same value; seconds are finite and not negative; a schedule splits into
 * a non-empty spec and such a time; an accepted option value is within the
 * table's bounds; a rate is what its text says, per direction.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "conf/options.h"
#include "engines/engine.h"
#include "lib/parse.h"

static void plain_parsers(const char *v)
{
	char buf[64], spec[256];
	uint64_t u, back;
	double s;

	if (!parse_size(v, &u)) {
		format_size(u, buf, sizeof(buf));
		FUZZ_CHECK(!parse_size(buf, &back) && back == u,
			   "size '%s' = %llu prints as '%s'", v,
			   (unsigned long long)u, buf);
	}
	if (!parse_u64(v, &u)) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
		FUZZ_CHECK(!parse_u64(buf, &back) && back == u,
			   "integer '%s' = %llu", v, (unsigned long long)u);
		/* digits alone are decimal, as parse.h says: "010" is ten */
		if (strspn(v, "0123456789") == strlen(v))
			FUZZ_CHECK(u == strtoull(v, NULL, 10),
				   "decimal '%s' read as %llu", v,
				   (unsigned long long)u);
	}
	if (!parse_seconds(v, &s))
		FUZZ_CHECK(isfinite(s) && s >= 0, "seconds '%s' = %g", v, s);
	if (!parse_at(v, spec, sizeof(spec), &s)) {
		FUZZ_CHECK(spec[0] && strlen(spec) < sizeof(spec),
			   "schedule '%s': spec '%s'", v, spec);
		FUZZ_CHECK(isfinite(s) && s >= 0, "schedule '%s' at %g", v, s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *eq = strchr(text, '=');
	const struct dix_option *d;
	struct dix_opts o;
	char err[512];
	const char *value = eq ? eq + 1 : text;
	static int registered;

	if (!registered++)
		engine_options_register();
	plain_parsers(value);
	if (!eq)
		goto out;
	*eq = '\0';
	d = opt_find(text);
	if (!d)
		goto out;
	opts_init(&o);
	err[0] = '\0';
	if (!opt_set(&o, text, value, err, sizeof(err))) {
		if (d->type == OPT_UINT || d->type == OPT_SIZE) {
			uint64_t v = *(uint64_t *)((char *)&o + d->off);

			FUZZ_CHECK(v >= d->min && (!d->max || v <= d->max),
				   "--%s %s = %llu", d->name, value,
				   (unsigned long long)v);
		}
		if (d->type == OPT_RATE) {
			double *r = (double *)((char *)&o + d->off);
			char *end;
			double one = strtod(value, &end);

			FUZZ_CHECK(isfinite(r[0]) && r[0] >= 0 &&
				   isfinite(r[1]) && r[1] >= 0,
				   "--%s %s = %g,%g", d->name, value, r[0], r[1]);
			/* one number caps both directions at that number */
			if (!strchr(value, ','))
				FUZZ_CHECK(r[0] == one * d->unit &&
					   r[1] == r[0],
					   "--%s '%s' = %g,%g, not %g", d->name,
					   value, r[0], r[1], one * d->unit);
		}
		if (d->type == OPT_SECONDS) {
			double v = *(double *)((char *)&o + d->off);

			FUZZ_CHECK(isfinite(v) && v >= 0, "--%s %s = %g",
				   d->name, value, v);
			/* a row's range is in milliseconds, 0 the default */
			FUZZ_CHECK(v == 0 || ((!d->min || v * 1000 >= d->min) &&
					      (!d->max || v * 1000 <= d->max)),
				   "--%s %s = %g s, outside the row's %llu to %llu ms",
				   d->name, value, v,
				   (unsigned long long)d->min,
				   (unsigned long long)d->max);
		}
		fuzz_print_opts(&o);
	} else {
		FUZZ_CHECK(err[0], "--%s '%s' refused without a reason",
			   d->name, value);
	}
	opts_free(&o);
out:
	free(text);
	return 0;
}
