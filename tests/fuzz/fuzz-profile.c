// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-profile.c - profile_read() on any profile text (through fmemopen(),
 * the FILE * entry point profile_load() uses once the file is open), then
 * the settings printed as the start line and as JSON, as a run does.
 *
 * Checks: a profile that loads leaves every numeric option within the
 * bounds of the option table.
 */
#include "config.h"

#include "fuzz.h"
#include "conf/options.h"
#include "conf/profile.h"

static void check_bounds(const struct dix_opts *o)
{
	const struct dix_option *d;

	for (d = dix_options; d->name; d++) {
		uint64_t v;

		if (d->type != OPT_UINT && d->type != OPT_SIZE)
			continue;
		v = *(const uint64_t *)((const char *)o + d->off);
		/* "seed" and friends: no bounds in the table */
		FUZZ_CHECK(v >= d->min && (!d->max || v <= d->max),
			   "--%s %llu outside %llu..%llu", d->name,
			   (unsigned long long)v, (unsigned long long)d->min,
			   (unsigned long long)d->max);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dix_opts o;
	char err[1024];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		abort();
	opts_init(&o);
	if (!profile_read(f, "fuzz.profile", &o, err, sizeof(err))) {
		check_bounds(&o);
		fuzz_print_opts(&o);
	} else {
		FUZZ_CHECK(memchr(err, 0, sizeof(err)) && err[0],
			   "failed without a message");
	}
	fclose(f);
	opts_free(&o);
	return 0;
}
