// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the option table and the one parser behind both the command
 * line and profile files.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "options.h"
#include "parse.h"
#include "util.h"

const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", NULL,
};
const char *const verify_names[] = { "off", "on", "strict", NULL };
const char *const format_names[] = { "human", "json", NULL };
const char *const pi_names[] = { "kernel", "app", "off", NULL };

#define OFF(f)	((long)offsetof(struct dix_opts, f))

const struct dix_option dix_options[] = {
	{ "dev", OPT_STR, OFF(dev), NULL, NULL, 0, 0, OPT_CLI_ONLY, "PATH",
	  "target: block device or regular file (created with --size)" },
	{ "profile", OPT_STR, OFF(profile), NULL, NULL, 0, 0, OPT_CLI_ONLY,
	  "NAME|FILE", "load settings from a profile (see --list-profiles)" },
	{ "rw", OPT_ENUM, OFF(rw), "randrw", rw_names, 0, 0, 0, "MODE",
	  "access pattern" },
	{ "rwmixread", OPT_UINT, OFF(rwmixread), "50", NULL, 0, 100, 0, "PCT",
	  "percentage of reads in rw/randrw" },
	{ "bs", OPT_SIZE, OFF(bs), "64k", NULL, 512, 1ull << 30, 0, "SIZE",
	  "I/O size: a power of two, a multiple of the logical block size" },
	{ "iodepth", OPT_UINT, OFF(iodepth), "1", NULL, 1, 4096, 0, "N",
	  "I/Os in flight per job (sync engine: always 1)" },
	{ "iodepth-batch", OPT_UINT, OFF(iodepth_batch), "4", NULL, 1, 4096, 0,
	  "N", "I/Os per submit call (larger: less CPU; smaller: an async device starts sooner)" },
	{ "jobs", OPT_UINT, OFF(jobs), "1", NULL, 1, 256, 0, "N",
	  "worker threads, each on its own slice of the region" },
	{ "size", OPT_SIZE, OFF(size), "0", NULL, 0, 0, 0, "SIZE",
	  "bytes of the region (default: to the end of the target)" },
	{ "offset", OPT_SIZE, OFF(offset), "0", NULL, 0, 0, 0, "SIZE",
	  "start of the region" },
	{ "runtime", OPT_SECONDS, OFF(runtime), "0", NULL, 0, 0, 0, "SEC",
	  "run this long, looping over the region (default: cover it once)" },
	{ "engine", OPT_STR, OFF(engine), "libaio", NULL, 0, 0, 0, "NAME",
	  "I/O engine (see ENGINES below)" },
	{ "verify", OPT_ENUM, OFF(verify), "on", verify_names, 0, 0, 0, "MODE",
	  "check block headers on reads; strict: every block read must have one" },
	{ "interval", OPT_UINT, OFF(interval_ms), "1000", NULL, 0, 3600000, 0,
	  "MS", "meter period in milliseconds (0: summary only)" },
	{ "output-format", OPT_ENUM, OFF(format), "human", format_names, 0, 0,
	  0, "FMT", "human meter lines or JSON lines" },
	{ "seed", OPT_UINT, OFF(seed), NULL, NULL, 0, 0, 0, "N",
	  "seed of data pattern and offsets (default: drawn at start)" },
	{ "force", OPT_FLAG, OFF(force), NULL, NULL, 0, 0, OPT_CLI_ONLY, NULL,
	  "write a device with a filesystem/partition/RAID signature or holders"
	  " (never a mounted one or active swap)" },
	{ "quiet", OPT_FLAG, OFF(quiet), NULL, NULL, 0, 0, 0, NULL,
	  "no meter lines, only the start lines and the summary" },
	{ "max-errors", OPT_UINT, OFF(max_errors), "0", NULL, 0, 0, 0, "N",
	  "stop after N errors (default 0: never stop for errors)" },
	{ "max-report", OPT_UINT, OFF(max_report), "100", NULL, 0, 0, 0, "N",
	  "print and list at most N bad extents (then a count of the rest)" },
	{ "error-log", OPT_STR, OFF(error_log), NULL, NULL, 0, 0, OPT_CLI_ONLY, "FILE",
	  "write every bad block to FILE as a JSON line, as found" },
	{ "pi-format", OPT_STR, OFF(pi_format), "any", NULL, 0, 0, 0, "FMT",
	  "integrity format the target must show (e.g. T10-DIF-TYPE1-CRC), or any" },
	{ "pi", OPT_ENUM, OFF(pi), "kernel", pi_names, 0, 0, 0, "MODE",
	  "who generates/checks PI: the kernel block layer, dixload, or nobody" },
	{ "inject", OPT_LIST, OFF(inject), NULL, NULL, 0, 0, 0, "KIND@N",
	  "corrupt the guard|app|ref tag of every Nth write (repeatable)" },
	{ "hotload", OPT_LIST, OFF(hotload), NULL, NULL, 0, 0, OPT_ACTION, "MODULE@SEC",
	  "load a kernel module at second SEC of the run (repeatable)" },
	{ "unload", OPT_LIST, OFF(unload), NULL, NULL, 0, 0, OPT_ACTION, "MODULE@SEC",
	  "unload a kernel module at second SEC (repeatable)" },
	{ "sysfs", OPT_LIST, OFF(sysfs), NULL, NULL, 0, 0, OPT_ACTION, "PATH=VAL@SEC",
	  "write VAL to a sysfs file at second SEC (repeatable)" },
	{ "exec", OPT_LIST, OFF(exec), NULL, NULL, 0, 0, OPT_ACTION, "'CMD'@SEC",
	  "run a shell command at second SEC (repeatable)" },
	{ "plot", OPT_STR, OFF(plot), NULL, NULL, 0, 0, OPT_CLI_ONLY, "FILE.svg",
	  "write an SVG plot of throughput with event markers" },
	{ "log", OPT_STR, OFF(log), NULL, NULL, 0, 0, OPT_CLI_ONLY, "FILE.csv",
	  "write per-interval samples and events as CSV" },
	{ .name = NULL },
};

const struct dix_option *opt_find(const char *name)
{
	const struct dix_option *d;

	for (d = dix_options; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static void allowed_list(const struct dix_option *d, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; d->allowed[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
			      d->allowed[i]);
}

int opt_set(struct dix_opts *o, const char *name, const char *value,
	    char *err, size_t errlen)
{
	const struct dix_option *d = opt_find(name);
	void *field;
	uint64_t u;
	double s;
	char buf[256];
	int i, r;

	if (!d) {
		set_err(err, errlen, "unknown option '%s'", name);
		return -ENOENT;
	}
	field = (char *)o + d->off;
	switch (d->type) {
	case OPT_STR:
		if (!value || !*value) {
			set_err(err, errlen, "--%s needs a value (%s)", name,
				d->metavar);
			return -EINVAL;
		}
		free(*(char **)field);
		*(char **)field = xstrdup(value);
		return 0;
	case OPT_LIST: {
		struct str_list *l = field;

		if (!value || !*value) {
			set_err(err, errlen, "--%s needs a value (%s)", name,
				d->metavar);
			return -EINVAL;
		}
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = xstrdup(value);
		return 0;
	}
	case OPT_SIZE:
	case OPT_UINT:
		r = d->type == OPT_SIZE ? parse_size(value, &u) :
					  parse_u64(value, &u);
		if (r) {
			set_err(err, errlen,
				"--%s: '%s' is not %s", name, value ? value : "",
				d->type == OPT_SIZE ?
				"a size (e.g. 4096, 4k, 256k, 1m, 2g)" :
				"a non-negative integer");
			return -EINVAL;
		}
		if (u < d->min || (d->max && u > d->max)) {
			if (d->max)
				set_err(err, errlen,
					"--%s: %s is out of range (allowed: %llu to %llu)",
					name, value,
					(unsigned long long)d->min,
					(unsigned long long)d->max);
			else
				set_err(err, errlen,
					"--%s: %s is out of range (allowed: at least %llu)",
					name, value, (unsigned long long)d->min);
			return -EINVAL;
		}
		if (d->type == OPT_SIZE && !strcmp(name, "bs") && !is_pow2(u)) {
			set_err(err, errlen,
				"--bs: %s is not a power of two (e.g. 4k, 64k, 256k)",
				value);
			return -EINVAL;
		}
		*(uint64_t *)field = u;
		if (!strcmp(name, "seed"))
			o->seed_set = 1;
		return 0;
	case OPT_SECONDS:
		if (parse_seconds(value, &s)) {
			set_err(err, errlen,
				"--%s: '%s' is not a number of seconds (e.g. 10, 2.5, 90s, 2m)",
				name, value ? value : "");
			return -EINVAL;
		}
		*(double *)field = s;
		return 0;
	case OPT_ENUM:
		for (i = 0; value && d->allowed[i]; i++) {
			if (!strcmp(value, d->allowed[i])) {
				*(int *)field = i;
				return 0;
			}
		}
		allowed_list(d, buf, sizeof(buf));
		set_err(err, errlen, "--%s: '%s' is not allowed (allowed: %s)",
			name, value ? value : "", buf);
		return -EINVAL;
	case OPT_FLAG:
		if (!value || !strcmp(value, "1") || !strcmp(value, "yes") ||
		    !strcmp(value, "on") || !strcmp(value, "true")) {
			*(int *)field = 1;
			return 0;
		}
		if (!strcmp(value, "0") || !strcmp(value, "no") ||
		    !strcmp(value, "off") || !strcmp(value, "false")) {
			*(int *)field = 0;
			return 0;
		}
		set_err(err, errlen,
			"--%s: '%s' is not allowed (allowed: 1, 0, yes, no, on, off)",
			name, value);
		return -EINVAL;
	}
	return -EINVAL;
}

void opts_init(struct dix_opts *o)
{
	const struct dix_option *d;

	memset(o, 0, sizeof(*o));
	for (d = dix_options; d->name; d++)
		if (d->def && opt_set(o, d->name, d->def, NULL, 0))
			abort();	/* a bad table default is a bug */
	o->seed_set = 0;
}

void opts_free(struct dix_opts *o)
{
	const struct dix_option *d;
	int i;

	for (d = dix_options; d->name; d++) {
		void *field = (char *)o + d->off;

		if (d->type == OPT_STR) {
			free(*(char **)field);
		} else if (d->type == OPT_LIST) {
			struct str_list *l = field;

			for (i = 0; i < l->n; i++)
				free(l->v[i]);
			free(l->v);
		}
	}
	memset(o, 0, sizeof(*o));
}

void opts_print_help(FILE *f)
{
	const struct dix_option *d;
	char left[64], buf[256];

	for (d = dix_options; d->name; d++) {
		if (d->metavar)
			snprintf(left, sizeof(left), "--%s %s", d->name,
				 d->metavar);
		else
			snprintf(left, sizeof(left), "--%s", d->name);
		fprintf(f, "  %-26s %s", left, d->help);
		if (d->type == OPT_ENUM) {
			allowed_list(d, buf, sizeof(buf));
			fprintf(f, " [%s]", buf);
		}
		if (d->def && d->type != OPT_LIST && strcmp(d->def, "0"))
			fprintf(f, " (default %s)", d->def);
		fputc('\n', f);
	}
}

/* One option's effective value as text; NULL when unset. */
static const char *opt_value(const struct dix_opts *o,
			     const struct dix_option *d, char *buf, size_t len)
{
	const void *field = (const char *)o + d->off;

	switch (d->type) {
	case OPT_STR:
		return *(char *const *)field;
	case OPT_SIZE:
		return format_size(*(const uint64_t *)field, buf, len);
	case OPT_UINT:
		snprintf(buf, len, "%llu",
			 (unsigned long long)*(const uint64_t *)field);
		return buf;
	case OPT_SECONDS:
		snprintf(buf, len, "%g", *(const double *)field);
		return buf;
	case OPT_ENUM:
		return d->allowed[*(const int *)field];
	case OPT_FLAG:
		return *(const int *)field ? "1" : "0";
	case OPT_LIST:
		return NULL;
	}
	return NULL;
}

/* The settings as JSON members: numbers as numbers, sizes in bytes. */
static void opts_json(struct jw *w, const struct dix_opts *o)
{
	const struct dix_option *d;
	char buf[64];
	int i;

	for (d = dix_options; d->name; d++) {
		const void *field = (const char *)o + d->off;
		const char *v = opt_value(o, d, buf, sizeof(buf));

		if (d->type == OPT_LIST) {
			const struct str_list *l = field;

			if (!l->n)
				continue;
			jw_arr_open(w, d->name);
			for (i = 0; i < l->n; i++)
				jw_str(w, NULL, l->v[i]);
			jw_arr_close(w);
			continue;
		}
		if (!v)
			continue;
		switch (d->type) {
		case OPT_SIZE:
		case OPT_UINT:
			jw_uint(w, d->name, *(const uint64_t *)field);
			break;
		case OPT_SECONDS:
			jw_num(w, d->name, *(const double *)field, -1);
			break;
		case OPT_FLAG:
			jw_int(w, d->name, *(const int *)field);
			break;
		default:
			jw_str(w, d->name, v);
		}
	}
}

void opts_print_effective(FILE *f, const struct dix_opts *o, int json)
{
	const struct dix_option *d;
	char buf[64];
	int first = 1, i;

	if (json) {
		struct jw w;

		jw_init(&w, f);
		opts_json(&w, o);
		return;
	}
	for (d = dix_options; d->name; d++) {
		const char *v = opt_value(o, d, buf, sizeof(buf));

		if (d->type == OPT_LIST) {
			const struct str_list *l = (const void *)
				((const char *)o + d->off);

			for (i = 0; i < l->n; i++)
				fprintf(f, "%s%s=%s", first && !i ? "" : " ",
					d->name, l->v[i]);
			if (l->n)
				first = 0;
			continue;
		}
		if (!v)
			continue;
		fprintf(f, "%s%s=%s", first ? "" : " ", d->name, v);
		first = 0;
	}
}
