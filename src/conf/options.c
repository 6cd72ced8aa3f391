// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the run's option table and the one parser behind both the
 * command line and profile files, for its rows and the engines' (see
 * options.h: an engine's rows are taken only when it is the run's).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "conf/options.h"
#include "lib/parse.h"
#include "lib/util.h"

const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", NULL,
};
const char *const verify_names[] = { "off", "on", "strict", NULL };
const char *const format_names[] = { "human", "json", NULL };
const char *const pi_names[] = { "kernel", "app", "off", NULL };
const char *const precondition_names[] = { "auto", "on", "off", NULL };

#define OFF(f)	((long)offsetof(struct dix_opts, f))

const struct dix_option dix_options[] = {
	{
		.name = "dev", .type = OPT_STR, .off = OFF(dev),
		.flags = OPT_CLI_ONLY | OPT_JOIN, .complete = CPL_TARGET,
		.metavar = "PATH[,PATH]",
		.help = "target: block device or regular file (created with --size); repeat or separate with commas for several, each with its own jobs; under MPI %r is the rank, %h the host",
	},
	{
		.name = "profile", .type = OPT_STR, .off = OFF(profile),
		.flags = OPT_CLI_ONLY, .complete = CPL_PROFILE, .metavar = "NAME|FILE",
		.help = "load settings from a profile (see --list-profiles)",
	},
	{
		.name = "rw", .type = OPT_ENUM, .off = OFF(rw),
		.def = "randrw", .allowed = rw_names, .metavar = "MODE",
		.help = "access pattern",
	},
	{
		.name = "rwmixread", .type = OPT_UINT, .off = OFF(rwmixread),
		.def = "50", .max = 100, .metavar = "PCT",
		.help = "percentage of reads in rw/randrw",
	},
	{
		.name = "bs", .type = OPT_SIZE, .off = OFF(bs),
		.def = "64k", .min = 512, .max = 1ull << 30, .metavar = "SIZE",
		.help = "I/O size: a power of two, a multiple of the logical block size",
	},
	{
		.name = "iodepth", .type = OPT_UINT, .off = OFF(iodepth),
		.def = "1", .min = 1, .max = 4096, .metavar = "N",
		.help = "I/Os in flight per job (sync engine: always 1)",
	},
	{
		.name = "iodepth-batch", .type = OPT_UINT, .off = OFF(iodepth_batch),
		.def = "4", .min = 1, .max = 4096, .metavar = "N",
		.help = "I/Os handed to the kernel per system call (larger: less CPU; smaller: an async device starts sooner)",
	},
	{
		.name = "jobs", .type = OPT_UINT, .off = OFF(jobs),
		.def = "1", .min = 1, .max = 256, .metavar = "N",
		.help = "worker threads, each on its own slice of the region",
	},
	{
		.name = "size", .type = OPT_SIZE, .off = OFF(size),
		.def = "0", .metavar = "SIZE",
		.help = "bytes of the region (default: to the end of the target)",
	},
	{
		.name = "offset", .type = OPT_SIZE, .off = OFF(offset),
		.def = "0", .metavar = "SIZE",
		.help = "start of the region",
	},
	{
		.name = "runtime", .type = OPT_SECONDS, .off = OFF(runtime),
		.def = "0", .metavar = "SEC",
		.help = "run this long, looping over the region (default: cover it once)",
	},
	{
		.name = "engine", .type = OPT_STR, .off = OFF(engine),
		.def = "libaio", .complete = CPL_ENGINE, .metavar = "NAME",
		.help = "I/O engine (see ENGINES below)",
	},
	{
		.name = "verify", .type = OPT_ENUM, .off = OFF(verify),
		.def = "on", .allowed = verify_names, .metavar = "MODE",
		.help = "check block headers on reads; strict: every block read must have one",
	},
	{
		.name = "interval", .type = OPT_UINT, .off = OFF(interval_ms),
		.def = "1000", .max = 3600000, .metavar = "MS",
		.help = "meter period in milliseconds (0: summary only)",
	},
	{
		.name = "output-format", .type = OPT_ENUM, .off = OFF(format),
		.def = "human", .allowed = format_names, .metavar = "FMT",
		.help = "human meter lines or JSON lines",
	},
	{
		.name = "seed", .type = OPT_UINT, .off = OFF(seed),
		.metavar = "N",
		.help = "seed of data pattern and offsets (default: drawn at start)",
	},
	{
		.name = "force", .type = OPT_FLAG, .off = OFF(force),
		.flags = OPT_CLI_ONLY,
		.help = "write a device with a filesystem/partition/RAID signature or holders (never a mounted one or active swap), or one another program or dixload run holds (with a warning)",
	},
	{
		.name = "grow", .type = OPT_FLAG, .off = OFF(grow),
		.flags = OPT_CLI_ONLY,
		.help = "extend an existing regular file shorter than --offset + --size to that size (without it such a run is refused; a missing file is always created with --size)",
	},
	{
		.name = "mpi", .type = OPT_FLAG, .off = OFF(mpi),
		.flags = OPT_CLI_ONLY,
		.help = "join an MPI job even when not started by mpirun (which needs no --mpi); rank 0 prints the job's meter",
	},
	{
		.name = "per-device", .type = OPT_FLAG, .off = OFF(per_device),
		.help = "with several --dev: also a meter line per device per interval, after the total (JSON intervals carry devices[] anyway)",
	},
	{
		.name = "quiet", .type = OPT_FLAG, .off = OFF(quiet),
		.help = "no meter lines, only the start lines and the summary",
	},
	{
		.name = "meter-lat", .type = OPT_FLAG, .off = OFF(meter_lat),
		.help = "end each meter line with the interval's p99 completion latency per direction (JSON intervals carry lat_ns anyway)",
	},
	{
		.name = "max-errors", .type = OPT_UINT, .off = OFF(max_errors),
		.def = "0", .metavar = "N",
		.help = "stop after N errors (default 0: never stop for errors)",
	},
	{
		.name = "max-report", .type = OPT_UINT, .off = OFF(max_report),
		.def = "100", .metavar = "N",
		.help = "print and list at most N bad extents (then a count of the rest)",
	},
	{
		.name = "error-log", .type = OPT_STR, .off = OFF(error_log),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE",
		.help = "write every bad block to FILE as a JSON line, as found",
	},
	{
		.name = "journal", .type = OPT_STR, .off = OFF(journal),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE",
		.help = "writes: record each write in FILE (synced) before it is submitted; read-only runs: accept per block only the last acknowledged or an in-flight version",
	},
	{
		.name = "pi-format", .type = OPT_STR, .off = OFF(pi_format),
		.def = "any", .metavar = "FMT",
		.help = "integrity format the target must show (e.g. T10-DIF-TYPE1-CRC), or any",
	},
	{
		.name = "pi", .type = OPT_ENUM, .off = OFF(pi),
		.def = "kernel", .allowed = pi_names, .metavar = "MODE",
		.help = "who generates/checks PI: the kernel block layer, dixload, or nobody",
	},
	{
		.name = "inject", .type = OPT_LIST, .off = OFF(inject),
		.metavar = "KIND@N",
		.help = "corrupt the guard|app|ref tag of every Nth write (--pi app), or the authentication tag of every Nth AEAD decrypt (tag@N, --engine kcapi) (repeatable)",
	},
	{
		.name = "hotload", .type = OPT_LIST, .off = OFF(hotload),
		.flags = OPT_ACTION, .complete = CPL_MODULE, .metavar = "MODULE@SEC",
		.help = "load a kernel module at second SEC of the run (repeatable)",
	},
	{
		.name = "unload", .type = OPT_LIST, .off = OFF(unload),
		.flags = OPT_ACTION, .complete = CPL_MODULE, .metavar = "MODULE@SEC",
		.help = "unload a kernel module at second SEC (repeatable)",
	},
	{
		.name = "sysfs", .type = OPT_LIST, .off = OFF(sysfs),
		.flags = OPT_ACTION, .complete = CPL_SYSFS, .metavar = "PATH=VAL@SEC",
		.help = "write VAL to a sysfs file at second SEC (repeatable); when the run ends, by its runtime, a signal or a failure, each file gets back what it held before the run's first write to it (unless --sysfs-keep)",
	},
	{
		.name = "sysfs-keep", .type = OPT_FLAG, .off = OFF(sysfs_keep),
		.flags = OPT_CLI_ONLY,
		.help = "leave the files --sysfs wrote as the run set them (a note says what each held before)",
	},
	{
		.name = "exec", .type = OPT_LIST, .off = OFF(exec),
		.flags = OPT_ACTION, .metavar = "'CMD'@SEC",
		.help = "run a shell command at second SEC (repeatable)",
	},
	{
		.name = "dm-reload", .type = OPT_LIST, .off = OFF(dm_reload),
		.flags = OPT_ACTION, .complete = CPL_FILE, .metavar = "DEV@SEC",
		.help = "suspend device-mapper mapping DEV, load its live table again as read, resume, at second SEC (repeatable); refused, without --force, when anyone besides dixload has it open, mounted or stacked on",
	},
	{
		.name = "priority", .type = OPT_LIST, .off = OFF(priority),
		.flags = OPT_ACTION, .metavar = "DRIVER=N@SEC",
		.help = "set crypto driver DRIVER's priority to N at second SEC through crypto_user (a template instance such as 'xts(ecb(aes-generic))' is registered first); restored, and what dixload registered deleted, when the run ends (repeatable)",
	},
	{
		.name = "plot", .type = OPT_STR, .off = OFF(plot),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE.svg",
		.help = "write an SVG plot of throughput with event markers",
	},
	{
		.name = "log", .type = OPT_STR, .off = OFF(log),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE.csv",
		.help = "write per-interval samples and events as CSV",
	},
	{
		.name = "lat-log", .type = OPT_STR, .off = OFF(lat_log),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE",
		.help = "write each interval's latency histograms to FILE, one JSON line per interval, flushed per line (dixload compare reads it); under MPI rank 0 writes the job's",
	},
	{
		.name = "bw-log", .type = OPT_STR, .off = OFF(bw_log),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "PREFIX",
		.help = "write PREFIX_bw.1.log in fio's log format (msec, KiB/s, direction, 0, 0), a line per direction per interval, as fio's write_bw_log with log_avg_msec = --interval: fio's tools (fio2gnuplot, fio_generate_plots) read it",
	},
	{
		.name = "iops-log", .type = OPT_STR, .off = OFF(iops_log),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "PREFIX",
		.help = "write PREFIX_iops.1.log in fio's log format (msec, I/Os per second, direction, 0, 0), as fio's write_iops_log with log_avg_msec = --interval",
	},
	{
		.name = "output", .type = OPT_STR, .off = OFF(output),
		.flags = OPT_CLI_ONLY, .complete = CPL_FILE, .metavar = "FILE",
		.help = "also write what stdout gets (start lines, meter, events, summary) to FILE, flushed per line; under MPI %r is the rank, %h the host",
	},
	{
		.name = "metrics", .type = OPT_STR, .off = OFF(metrics),
		.flags = OPT_CLI_ONLY, .metavar = "[HOST:]PORT",
		.help = "serve the meter's counters and the current interval's gauges over HTTP for Prometheus (OpenMetrics text) at HOST:PORT; PORT alone binds 127.0.0.1, an IPv6 HOST goes in brackets; under MPI rank 0 serves the job",
	},
	{
		.name = "metrics-linger", .type = OPT_SECONDS, .off = OFF(metrics_linger),
		.flags = OPT_CLI_ONLY, .def = "0", .max = 3600000, .metavar = "SEC",
		.help = "after the run, keep --metrics serving until one scrape has read its end (exit status, transitions), at most SEC seconds (0: stop at once)",
	},
	{
		.name = "buffered", .type = OPT_FLAG, .off = OFF(buffered),
		.help = "open the targets without O_DIRECT (fio's direct=0, its default): the I/O goes through the page cache, and reads check what the cache holds",
	},
	{
		.name = "precondition", .type = OPT_ENUM, .off = OFF(precondition),
		.def = "auto", .allowed = precondition_names, .metavar = "MODE",
		.help = "write the region once (1 MiB sequential) before the load; auto: when it reads a PI target",
	},
	{
		.name = "rate", .type = OPT_RATE, .off = OFF(rate),
		.unit = 1e6, .metavar = "MB/s|R,W",
		.help = "cap throughput per direction in MB/s (10^6 bytes per second; R,W; one number: each), held every interval; fio's rate is bytes per second (doc/fio.md)",
	},
	{
		.name = "rate-iops", .type = OPT_RATE, .off = OFF(rate_iops),
		.unit = 1, .metavar = "N|R,W",
		.help = "cap I/Os per second per direction (R,W; one number: each)",
	},
	{ .name = NULL },
};

/*
 * The engines' rows, told by opts_add_engine(): conf/ is below engines/ and
 * cannot walk the engine table itself.
 */
#define MAX_ENGINE_TABLES	16
static struct {
	const char *engine;
	const struct dix_option *rows;
} eng_tabs[MAX_ENGINE_TABLES];
static int n_eng_tabs;

void opts_add_engine(const char *engine, const struct dix_option *rows)
{
	int i;

	for (i = 0; i < n_eng_tabs; i++)
		if (!strcmp(eng_tabs[i].engine, engine))
			return;
	if (n_eng_tabs == MAX_ENGINE_TABLES)
		abort();	/* a build with more engines: raise the limit */
	eng_tabs[n_eng_tabs].engine = engine;
	eng_tabs[n_eng_tabs++].rows = rows;
}

static const struct dix_option *row_in(const struct dix_option *rows,
				       const char *name)
{
	const struct dix_option *d;

	for (d = rows; d && d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

/* The rows of engine @engine (NULL: none told, or no such engine). */
const struct dix_option *opts_engine_rows(const char *engine)
{
	int i;

	for (i = 0; engine && i < n_eng_tabs; i++)
		if (!strcmp(eng_tabs[i].engine, engine))
			return eng_tabs[i].rows;
	return NULL;
}

const char *opt_row_name(int i)
{
	int t, n;

	for (n = 0; dix_options[n].name; n++)
		if (n == i)
			return dix_options[n].name;
	i -= n;
	for (t = 0; t < n_eng_tabs; t++) {
		for (n = 0; eng_tabs[t].rows[n].name; n++)
			if (n == i)
				return eng_tabs[t].rows[n].name;
		i -= n;
	}
	return NULL;
}

const struct dix_option *opt_find(const char *name)
{
	const struct dix_option *d = row_in(dix_options, name);
	int i;

	for (i = 0; !d && i < n_eng_tabs; i++)
		d = row_in(eng_tabs[i].rows, name);
	return d;
}

/*
 * The row @name of a parse for @o: the run's, or its engine's; any
 * engine's when @o names none.  NULL, and the engines that have it in
 * @owners, when only other engines have it.
 */
static const struct dix_option *opt_lookup(const struct dix_opts *o,
					   const char *name, char *owners,
					   size_t len)
{
	const struct dix_option *d = row_in(dix_options, name);
	size_t n = 0;
	int i;

	if (d)
		return d;
	if (!o->opt_engine)
		return opt_find(name);
	d = row_in(opts_engine_rows(o->opt_engine), name);
	if (d)
		return d;
	owners[0] = '\0';
	for (i = 0; i < n_eng_tabs && n < len; i++)
		if (row_in(eng_tabs[i].rows, name))
			n += snprintf(owners + n, len - n, "%s%s", n ? ", " : "",
				      eng_tabs[i].engine);
	return NULL;
}

/*
 * "R,W", "N" (each direction N), ",W" or "R," (the other uncapped): a
 * non-negative decimal per side, times @unit.  Both empty is an error.
 */
static int parse_rate(const char *s, double unit, double *out)
{
	const char *comma;
	char side[2][64];
	double v[2];
	int d;

	if (!s || !*s)
		return -EINVAL;
	comma = strchr(s, ',');
	/*
	 * A side that does not fit is refused, not cut: "000...0005" cut to
	 * its zeros was a rate of 0, uncapped (the options fuzz target's
	 * check, tests/data/fuzz/options/rate-64-digits).
	 */
	if ((comma ? (size_t)(comma - s) : strlen(s)) >= sizeof(side[0]) ||
	    (comma && strlen(comma + 1) >= sizeof(side[1])))
		return -EINVAL;
	if (!comma) {
		snprintf(side[0], sizeof(side[0]), "%s", s);
		snprintf(side[1], sizeof(side[1]), "%s", s);
	} else {
		snprintf(side[0], sizeof(side[0]), "%.*s", (int)(comma - s), s);
		snprintf(side[1], sizeof(side[1]), "%s", comma + 1);
		if (!side[0][0] && !side[1][0])
			return -EINVAL;
	}
	/* both sides parsed before either is stored: a bad value changes nothing */
	for (d = 0; d < 2; d++) {
		char *end;

		v[d] = 0;
		if (!side[d][0])
			continue;
		v[d] = strtod(side[d], &end);
		if (*end || end == side[d] || !(v[d] >= 0) || v[d] > 1e15)
			return -EINVAL;
	}
	out[0] = v[0] * unit;
	out[1] = v[1] * unit;
	return 0;
}

/*
 * A refused cap says its unit; for --rate also fio's, whose rate=10m
 * (bytes per second, 10 MiB/s) a fio user may have meant, and what that
 * is in dixload's MB/s.
 */
static void rate_err(const struct dix_option *d, const char *value,
		     char *err, size_t errlen)
{
	const char *v = value ? value : "";
	double fio[2];
	char eq[192] = "";

	if (d->unit == 1) {
		set_err(err, errlen,
			"--%s: '%s' is not a cap per direction in I/Os per second (a number each: e.g. 500, 500,200, ,200 or 200,)",
			d->name, v);
		return;
	}
	if (!fio_parse_rate(v, 1024, fio)) {
		char a[32], b[32];

		format_double(fio[0] / d->unit, a, sizeof(a));
		format_double(fio[1] / d->unit, b, sizeof(b));
		if (fio[0] == fio[1])
			snprintf(eq, sizeof(eq), "; as fio's rate, '%s' is --%s %s", v, d->name, a);
		else
			snprintf(eq, sizeof(eq), "; as fio's rate, '%s' is --%s %s,%s", v, d->name,
				 fio[0] ? a : "", fio[1] ? b : "");
	}
	set_err(err, errlen,
		"--%s: '%s' is not a cap per direction in MB/s (10^6 bytes per second; a number each: e.g. 50, 50,20, ,20 or 20,); fio's rate is in bytes per second with k/m/g of 1024 (rate=10m is 10 MiB/s = 10.48576 MB/s)%s",
		d->name, v, *eq ? eq : "");
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

/* Parse @value for row @d into @o. */
static int row_set(struct dix_opts *o, const struct dix_option *d,
		   const char *value, char *err, size_t errlen)
{
	const char *name = d->name;
	void *field = (char *)o + d->off;
	uint64_t u;
	double s;
	char buf[256];
	int i, r;

	switch (d->type) {
	case OPT_STR:
		if (!value || !*value) {
			set_err(err, errlen, "--%s needs a value (%s)", name,
				d->metavar);
			return -EINVAL;
		}
		/* --dev A --dev B is --dev A,B: several targets, one list */
		if ((d->flags & OPT_JOIN) && *(char **)field) {
			char *j = NULL;

			if (asprintf(&j, "%s,%s", *(char **)field, value) < 0)
				abort();
			free(*(char **)field);
			*(char **)field = j;
			return 0;
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
		/* the row's range is in milliseconds; 0 is the default */
		if ((d->min || d->max) && s != 0 &&
		    (s * 1000 < d->min || (d->max && s * 1000 > d->max))) {
			set_err(err, errlen,
				"--%s: %s is outside %g to %g seconds (0: the default)",
				name, value, d->min / 1000.0, d->max / 1000.0);
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
	case OPT_RATE:
		if (parse_rate(value, d->unit, (double *)field)) {
			rate_err(d, value, err, errlen);
			return -EINVAL;
		}
		return 0;
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

static int set_named(struct dix_opts *o, const char *name, const char *value,
		     char *err, size_t errlen, int fio_retry);

int opt_set(struct dix_opts *o, const char *name, const char *value,
	    char *err, size_t errlen)
{
	return set_named(o, name, value, err, errlen, 1);
}

int opt_set_own(struct dix_opts *o, const char *name, const char *value,
		char *err, size_t errlen)
{
	return set_named(o, name, value, err, errlen, 0);
}

static int set_named(struct dix_opts *o, const char *name, const char *value,
		     char *err, size_t errlen, int fio_retry)
{
	const struct dix_fio_alias *a;
	const struct dix_option *d;
	char owners[256];
	int r;

	d = opt_lookup(o, name, owners, sizeof(owners));
	if (d) {
		r = row_set(o, d, value, err, errlen);
		/*
		 * A name fio and dixload share with the same meaning (rw, bs,
		 * size, runtime, ...) takes fio's spelling of a value dixload's
		 * own syntax refused (--rw readwrite, --runtime 500ms); when
		 * fio's refuses it too, dixload's reason stands.
		 */
		a = opt_fio_alias(name);
		if (r == -EINVAL && fio_retry && a && a->kind == FIO_MAPPED &&
		    a->opt && !strcmp(a->opt, name) &&
		    opt_set_fio(o, name, value, 1024, NULL, 0) >= 0)
			return 0;
		return r;
	}
	d = opt_find(name);
	if (!d) {
		/* fio's names (--numjobs ...): optalias.c */
		if (opt_cli_alias(name))
			return opt_set_alias(o, name, value, err, errlen);
		set_err(err, errlen, "unknown option '%s'", name);
		return -ENOENT;
	}
	set_err(err, errlen, "--%s%s%s: --engine %s %s; engines that take --%s: %s",
		name, value && d->type != OPT_FLAG ? " " : "",
		value && d->type != OPT_FLAG ? value : "", o->opt_engine,
		d->refusal ? d->refusal : "does not take it", name, owners);
	return -EINVAL;
}

/* The defaults of @rows into @o. */
static void rows_init(struct dix_opts *o, const struct dix_option *rows)
{
	const struct dix_option *d;

	for (d = rows; d->name; d++)
		if (d->def && row_set(o, d, d->def, NULL, 0))
			abort();	/* a bad table default is a bug */
}

void opts_init(struct dix_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	rows_init(o, dix_options);
	for (i = 0; i < n_eng_tabs; i++)
		rows_init(o, eng_tabs[i].rows);
	o->seed_set = 0;
}

/* Free @rows' strings and lists in @o (a field two engines share: once). */
static void rows_free(struct dix_opts *o, const struct dix_option *rows)
{
	const struct dix_option *d;
	int i;

	for (d = rows; d->name; d++) {
		void *field = (char *)o + d->off;

		if (d->type == OPT_STR) {
			free(*(char **)field);
			*(char **)field = NULL;
		} else if (d->type == OPT_LIST) {
			struct str_list *l = field;

			for (i = 0; i < l->n; i++)
				free(l->v[i]);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
	}
}

void opts_free(struct dix_opts *o)
{
	int i;

	rows_free(o, dix_options);
	for (i = 0; i < n_eng_tabs; i++)
		rows_free(o, eng_tabs[i].rows);
	memset(o, 0, sizeof(*o));
}

/* @rows for opts_dump(); an engine's row whose name came before: skipped. */
static void dump_rows(FILE *f, const struct dix_option *rows, int engine,
		      const char *engines)
{
	static const char *const kind[] = {
		[CPL_NONE] = "value", [CPL_FILE] = "file",
		[CPL_TARGET] = "target", [CPL_PROFILE] = "profile",
		[CPL_ENGINE] = "enum", [CPL_MODULE] = "module",
		[CPL_SYSFS] = "sysfs",
	};
	const struct dix_option *d;
	int i;

	for (d = rows; d->name; d++) {
		/* two engines' --same-name is one completion */
		if (engine && opt_find(d->name) != d)
			continue;
		if (d->type == OPT_FLAG) {
			fprintf(f, "%s\tflag\t\n", d->name);
			continue;
		}
		if (d->type == OPT_ENUM) {
			fprintf(f, "%s\tenum\t", d->name);
			for (i = 0; d->allowed[i]; i++)
				fprintf(f, "%s%s", i ? " " : "", d->allowed[i]);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%s\t%s\t%s\n", d->name, kind[d->complete],
			d->complete == CPL_ENGINE ? engines : "");
	}
}

void opts_dump(FILE *f, const char *engines)
{
	int i;

	dump_rows(f, dix_options, 0, engines);
	for (i = 0; i < n_eng_tabs; i++)
		dump_rows(f, eng_tabs[i].rows, 1, engines);
}

void opts_print_help(FILE *f)
{
	opts_print_rows(f, dix_options, "  ");
}

void opts_print_rows(FILE *f, const struct dix_option *rows,
		     const char *indent)
{
	const struct dix_option *d;
	char left[64], buf[256];

	for (d = rows; d->name; d++) {
		if (d->metavar)
			snprintf(left, sizeof(left), "--%s %s", d->name,
				 d->metavar);
		else
			snprintf(left, sizeof(left), "--%s", d->name);
		fprintf(f, "%s%-26s %s", indent, left, d->help);
		if (d->type == OPT_ENUM) {
			allowed_list(d, buf, sizeof(buf));
			fprintf(f, " [%s]", buf);
		}
		if (d->def && d->type != OPT_LIST && strcmp(d->def, "0"))
			fprintf(f, " (default %s)", d->def);
		/* the header says profiles take the same keys: say which not */
		if (d->flags & (OPT_CLI_ONLY | OPT_ACTION))
			fputs(" (command line only)", f);
		fputc('\n', f);
	}
}
