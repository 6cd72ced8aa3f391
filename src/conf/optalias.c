// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * optalias.c - the names the option table answers to besides its own:
 * fio's option names (--numjobs, --ioengine, --filename, ...) and, for a
 * name that is neither, the closest one ("did you mean --numjobs?").
 *
 * An alias is a row of its own, not a second .name in dix_options[],
 * because most of fio's names do not mean exactly what dixload's do: each
 * row says whether it is mapped (same meaning), accepted with a stated
 * difference (printed once per run, opts_fio_notes()), or refused for
 * some values with the reason.  fio's values are converted here (fio's
 * engine names, readwrite, rwmixwrite, fio's byte-per-second rate with
 * kb_base, fio's time units), so the command line and the job-file reader
 * (which calls opt_set_fio()) give a fio name the same meaning.
 * The table is also the source of --help's fio section and of doc/fio.md's
 * rows (tests/sh/fio-aliases.sh checks that each row is in both).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "lib/util.h"

/* --- fio's value syntax ------------------------------------------- */

int fio_parse_size(const char *s, unsigned int kb_base, uint64_t *out)
{
	static const char units[] = "kmgtp";
	unsigned long long v, mul = 1, base;
	const char *u;
	char *end;
	int i, n;

	if (!s || !isdigit((unsigned char)*s) || (kb_base != 1024 && kb_base != 1000))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (!*end) {
		*out = v;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)*end));
	if (!u || !*u)
		return -EINVAL;
	n = (int)(u - units) + 1;
	end++;
	/*
	 * fio's kb_base=1024 (its default) is "compatibility mode": k, kb
	 * (and K, KB) are powers of 1024 and kib, KiB are powers of 1000; with
	 * kb_base=1000 the other way round (fio's HOWTO, "kb_base").
	 */
	base = kb_base;
	if (tolower((unsigned char)*end) == 'i') {
		base = kb_base == 1024 ? 1000 : 1024;
		end++;
	}
	if (tolower((unsigned char)*end) == 'b')
		end++;
	if (*end)
		return -EINVAL;
	for (i = 0; i < n; i++)
		mul *= base;
	if (v && mul > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

int fio_parse_time(const char *s, double *sec)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {
		{ "", 1 }, { "s", 1 }, { "sec", 1 }, { "us", 1e-6 },
		{ "usec", 1e-6 }, { "ms", 1e-3 }, { "msec", 1e-3 },
		{ "m", 60 }, { "min", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	unsigned int i;
	char *end;
	double v;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].unit))
			break;
	if (i == ARRAY_SIZE(units))
		return -EINVAL;
	v *= units[i].mul;
	if (!isfinite(v) || v < 0)
		return -EINVAL;
	*sec = v;
	return 0;
}

/* --- the setters: fio's value into dixload's option ---------------- */

/* @value (already dixload's syntax) into dixload's option @a->opt. */
static int to_opt(struct dix_opts *o, const struct dix_fio_alias *a,
		  const char *value, char *err, size_t errlen)
{
	char why[512];
	int r;

	r = opt_set_own(o, a->opt, value, why, sizeof(why));
	if (r)
		set_err(err, errlen, "%s (--%s is fio's name for --%s)", why,
			a->fio, a->opt);
	return r;
}

static int set_same(struct dix_opts *o, const struct dix_fio_alias *a,
		    const char *v, unsigned int kb, char *err, size_t errlen)
{
	(void)kb;
	return to_opt(o, a, v, err, errlen);
}

/* fio's sizes, with its kb_base; a percentage of the target is fio's only */
static int set_size(struct dix_opts *o, const struct dix_fio_alias *a,
		    const char *v, unsigned int kb, char *err, size_t errlen)
{
	char num[32];
	uint64_t u;

	if (v && strchr(v, '%')) {
		set_err(err, errlen, "--%s %s: a share of the target is fio's only; dixload takes a size in bytes (e.g. 1g)",
			a->fio, v);
		return -EINVAL;
	}
	if (v && (strchr(v, ',') || strchr(v, ':') || strchr(v, '-'))) {
		set_err(err, errlen, "--%s %s: one size for both directions (dixload has no per-direction size or range)",
			a->fio, v);
		return -EINVAL;
	}
	if (fio_parse_size(v, kb, &u)) {
		set_err(err, errlen, "--%s: '%s' is not a size (fio's syntax, kb_base=%u: e.g. 4k, 1m, 2g)",
			a->fio, v ? v : "", kb);
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)u);
	return to_opt(o, a, num, err, errlen);
}

static int set_time(struct dix_opts *o, const struct dix_fio_alias *a,
		    const char *v, unsigned int kb, char *err, size_t errlen)
{
	char num[40];
	double s;

	(void)kb;
	if (fio_parse_time(v, &s)) {
		set_err(err, errlen, "--%s: '%s' is not a time (fio's syntax: seconds, or with a unit us, ms, s, m (minutes), h, d)",
			a->fio, v ? v : "");
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%.17g", s);
	return to_opt(o, a, num, err, errlen);
}

/* fio's engine names onto dixload's; any other goes as it is (--engine's check) */
static int set_engine(struct dix_opts *o, const struct dix_fio_alias *a,
		      const char *v, unsigned int kb, char *err, size_t errlen)
{
	static const char *const map[][2] = {
		{ "psync", "sync" }, { "pvsync", "sync" }, { "pvsync2", "sync" },
	};
	unsigned int i;

	(void)kb;
	for (i = 0; v && i < ARRAY_SIZE(map); i++)
		if (!strcmp(v, map[i][0]))
			return to_opt(o, a, map[i][1], err, errlen);
	return to_opt(o, a, v, err, errlen);
}

/* fio's readwrite is rw; trims and "randread:8" are refused by name */
static int set_rw(struct dix_opts *o, const struct dix_fio_alias *a,
		  const char *v, unsigned int kb, char *err, size_t errlen)
{
	(void)kb;
	if (v && strstr(v, "trim")) {
		set_err(err, errlen, "--%s %s: dixload does not trim (allowed: read, write, randread, randwrite, rw, readwrite, randrw)",
			a->fio, v);
		return -EINVAL;
	}
	if (v && strchr(v, ':')) {
		set_err(err, errlen, "--%s %s: fio's ':N' (holes between sequential I/Os) is not dixload's (allowed: read, write, randread, randwrite, rw, readwrite, randrw)",
			a->fio, v);
		return -EINVAL;
	}
	return to_opt(o, a, v && !strcmp(v, "readwrite") ? "rw" : v, err,
		      errlen);
}

/* rwmixwrite=N is rwmixread=100-N (as in fio, the later of the two wins) */
static int set_mixwrite(struct dix_opts *o, const struct dix_fio_alias *a,
			const char *v, unsigned int kb, char *err, size_t errlen)
{
	char num[8];
	char *end;
	unsigned long n;

	(void)kb;
	errno = 0;
	n = v && isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 101;
	if (n > 100 || errno || *end) {
		set_err(err, errlen, "--%s: '%s' is not a percentage (allowed: 0 to 100)",
			a->fio, v ? v : "");
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%lu", 100 - n);
	return to_opt(o, a, num, err, errlen);
}

/*
 * fio's filename=a:b (':' separates, '\:' is a colon) is dixload's
 * --dev a,b; a comma is dixload's separator, so a name with one is refused.
 */
static int set_filename(struct dix_opts *o, const struct dix_fio_alias *a,
			const char *v, unsigned int kb, char *err, size_t errlen)
{
	char *d, *p;
	int r;

	(void)kb;
	if (!v || !*v)
		return to_opt(o, a, v, err, errlen);
	if (strchr(v, ',')) {
		set_err(err, errlen, "--%s %s: a comma separates dixload's targets; a file name with one cannot be given",
			a->fio, v);
		return -EINVAL;
	}
	d = p = xstrdup(v);
	for (; *v; v++) {
		if (v[0] == '\\' && v[1] == ':')
			*p++ = *++v;
		else
			*p++ = *v == ':' ? ',' : *v;
	}
	*p = '\0';
	r = to_opt(o, a, d, err, errlen);
	free(d);
	return r;
}

/*
 * 1/0 with fio's optional value (--direct is --direct=1).  direct=0 (or
 * buffered=1) is dixload's --buffered: the targets are opened without
 * O_DIRECT and the start line says so, since a read through the page
 * cache checks the cache, not the device.
 */
static int bool_of(const char *v)
{
	if (!v || !strcmp(v, "1") || !strcasecmp(v, "true") ||
	    !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
		return 1;
	if (!strcmp(v, "0") || !strcasecmp(v, "false") ||
	    !strcasecmp(v, "no") || !strcasecmp(v, "off"))
		return 0;
	return -1;
}

static int set_direct(struct dix_opts *o, const struct dix_fio_alias *a,
		      const char *v, unsigned int kb, char *err, size_t errlen)
{
	int b = bool_of(v);

	(void)kb;
	if (b < 0) {
		set_err(err, errlen, "--%s: '%s' is not allowed (allowed: 1, 0)",
			a->fio, v);
		return -EINVAL;
	}
	/* direct=1 / buffered=0: O_DIRECT, dixload's default */
	o->buffered = strcmp(a->fio, "buffered") ? !b : b;
	return 0;
}

/* a flag dixload has no setting for: its meaning is stated in ->note */
static int set_flag(struct dix_opts *o, const struct dix_fio_alias *a,
		    const char *v, unsigned int kb, char *err, size_t errlen)
{
	(void)o;
	(void)kb;
	if (bool_of(v) < 0) {
		set_err(err, errlen, "--%s: '%s' is not allowed (allowed: 1, 0)",
			a->fio, v);
		return -EINVAL;
	}
	return 0;
}

static int set_name(struct dix_opts *o, const struct dix_fio_alias *a,
		    const char *v, unsigned int kb, char *err, size_t errlen)
{
	(void)o;
	(void)kb;
	if (!v || !*v) {
		set_err(err, errlen, "--%s needs a value (NAME)", a->fio);
		return -EINVAL;
	}
	return 0;
}

/*
 * fio's rate: bytes per second with fio's size suffixes (rate=10m is
 * 10 MiB/s with kb_base=1024), "R,W" as dixload's; into --rate's bytes.
 */
static int set_fio_rate(struct dix_opts *o, const struct dix_fio_alias *a,
			const char *v, unsigned int kb, char *err, size_t errlen)
{
	double r[2];

	(void)a;
	if (fio_parse_rate(v, kb, r)) {
		set_err(err, errlen, "rate: '%s' is not fio's rate (bytes per second per direction, kb_base=%u: e.g. 10m is %s, 500k,1m; dixload's --rate is in MB/s = 10^6 bytes/s)",
			v ? v : "", kb, kb == 1024 ? "10 MiB/s" : "10 MB/s");
		return -EINVAL;
	}
	o->rate[0] = r[0];
	o->rate[1] = r[1];
	return 0;
}

int fio_parse_rate(const char *s, unsigned int kb_base, double out[2])
{
	const char *comma = s ? strchr(s, ',') : NULL;
	char side[2][32];
	uint64_t u;
	int d;

	if (!s || !*s || (comma && strchr(comma + 1, ',')))
		return -EINVAL;
	/* a side that does not fit is refused, not cut (as parse_rate()) */
	if ((comma ? (size_t)(comma - s) : strlen(s)) >= sizeof(side[0]) ||
	    (comma && strlen(comma + 1) >= sizeof(side[1])))
		return -EINVAL;
	snprintf(side[0], sizeof(side[0]), "%.*s",
		 (int)(comma ? comma - s : (long)strlen(s)), s);
	snprintf(side[1], sizeof(side[1]), "%s", comma ? comma + 1 : s);
	if (!side[0][0] && !side[1][0])
		return -EINVAL;
	for (d = 0; d < 2; d++) {
		out[d] = 0;
		if (side[d][0] && fio_parse_size(side[d], kb_base, &u))
			return -EINVAL;
		if (side[d][0])
			out[d] = (double)u;
	}
	return 0;
}

/* --- the table ------------------------------------------------------ */

#define NOTE_NUMJOBS "each job takes its own slice of the region; fio's numjobs clones the job over the whole region"
#define NOTE_FIOLOG "PREFIX_bw.1.log / PREFIX_iops.1.log hold a line per direction per --interval (fio's log_avg_msec=--interval); fio without log_avg_msec logs every I/O"
#define NOTE_DIRECT "direct=0 (buffered=1) is --buffered: no O_DIRECT, and the start line says so"

const struct dix_fio_alias dix_fio_aliases[] = {
	{ "numjobs", "jobs", FIO_DIFFERENT, 0, "N", set_same, NOTE_NUMJOBS },
	{ "write_bw_log", "bw-log", FIO_DIFFERENT, 0, "PREFIX", set_same, NOTE_FIOLOG },
	{ "write_iops_log", "iops-log", FIO_DIFFERENT, 0, "PREFIX", set_same, NOTE_FIOLOG },
	{ "ioengine", "engine", FIO_MAPPED, 0, "NAME", set_engine,
	  "libaio, io_uring, sync, null and sg by the same name; psync, pvsync, pvsync2 are sync (pread/pwrite)" },
	{ "filename", "dev", FIO_DIFFERENT, 0, "PATH[:PATH]", set_filename,
	  "fio's a:b is --dev a,b: several targets, each with its own jobs (fio's job shares its files)" },
	{ "rate_iops", "rate-iops", FIO_MAPPED, 0, "N|R,W", set_same,
	  "I/Os per second per direction, R,W (no trim)" },
	{ "direct", NULL, FIO_DIFFERENT, 1, NULL, set_direct, NOTE_DIRECT },
	{ "time_based", NULL, FIO_DIFFERENT, 1, NULL, set_flag,
	  "dixload's --runtime always loops over the region; without --runtime it covers the region once (fio's time_based without runtime runs on)" },
	{ "name", NULL, FIO_DIFFERENT, 0, "NAME", set_name,
	  "a command line is one job: the name labels nothing" },
	{ "thread", NULL, FIO_MAPPED, 1, NULL, set_flag,
	  "dixload's jobs are always threads of one process" },
	{ "readwrite", "rw", FIO_MAPPED, 0, "MODE", set_rw,
	  "fio's values: read, write, randread, randwrite, rw or readwrite, randrw; trims refused" },
	{ "rwmixwrite", "rwmixread", FIO_MAPPED, 0, "PCT", set_mixwrite,
	  "rwmixread = 100 - PCT" },
	/*
	 * fio names dixload spells the same: the command line takes dixload's
	 * row, a job file fio's meaning through opt_set_fio().
	 */
	{ "rw", "rw", FIO_MAPPED, 0, "MODE", set_rw, "fio's values, readwrite too; trims refused" },
	{ "rwmixread", "rwmixread", FIO_MAPPED, 0, "PCT", set_same, "the same" },
	{ "bs", "bs", FIO_MAPPED, 0, "SIZE", set_size,
	  "one size, a power of two (no R,W or ranges)" },
	{ "size", "size", FIO_MAPPED, 0, "SIZE", set_size, "bytes (no percentage)" },
	{ "offset", "offset", FIO_MAPPED, 0, "SIZE", set_size, "bytes (no percentage)" },
	{ "iodepth", "iodepth", FIO_MAPPED, 0, "N", set_same, "the same" },
	{ "runtime", "runtime", FIO_MAPPED, 0, "TIME", set_time,
	  "seconds, or us, ms, s, m (minutes), h, d (the command line's --runtime: s, m, h)" },
	{ "rate", "rate", FIO_DIFFERENT, 0, "BYTES/s", set_fio_rate,
	  "fio's rate is bytes per second (rate=10m: 10 MiB/s); dixload's --rate is MB/s (10^6 bytes/s): on the command line --rate is dixload's, in job files fio's" },
	{ .fio = NULL },
};

const struct dix_fio_alias *opt_fio_alias(const char *fio_name)
{
	const struct dix_fio_alias *a;

	for (a = dix_fio_aliases; fio_name && a->fio; a++)
		if (!strcmp(a->fio, fio_name))
			return a;
	return NULL;
}

/* Which aliases a run took with a difference: a bit each, for the notes. */
static void noted(struct dix_opts *o, const struct dix_fio_alias *a)
{
	long i = a - dix_fio_aliases;

	if (a->kind == FIO_DIFFERENT && i < 64)
		o->fio_noted |= 1ull << i;
}

int opt_set_fio(struct dix_opts *o, const char *fio_name, const char *value,
		unsigned int kb_base, char *err, size_t errlen)
{
	const struct dix_fio_alias *a = opt_fio_alias(fio_name);
	int r;

	if (!a) {
		set_err(err, errlen, "unknown fio option '%s'", fio_name);
		return -ENOENT;
	}
	r = a->set(o, a, value, kb_base, err, errlen);
	if (r)
		return r;
	noted(o, a);
	return a->kind == FIO_MAPPED ? 0 : 1;
}

int opt_set_alias(struct dix_opts *o, const char *name, const char *value,
		  char *err, size_t errlen)
{
	const struct dix_fio_alias *a = opt_fio_alias(name);

	/* a name of dixload's own is dixload's, on the command line */
	if (!a || opt_find(name))
		return -ENOENT;
	return opt_set_fio(o, name, value, 1024, err, errlen) < 0 ? -EINVAL : 0;
}

const struct dix_fio_alias *opt_cli_alias(const char *name)
{
	const struct dix_fio_alias *a = opt_fio_alias(name);

	return a && !opt_find(name) ? a : NULL;
}

void opts_fio_notes(FILE *f, const struct dix_opts *o)
{
	const struct dix_fio_alias *a;

	for (a = dix_fio_aliases; a->fio; a++)
		if (a - dix_fio_aliases < 64 &&
		    (o->fio_noted >> (a - dix_fio_aliases) & 1))
			fprintf(f, "dixload: %snote: --%s%s%s: %s\n",
				dix_msg_prefix, a->fio,
				a->opt && strcmp(a->opt, a->fio) ? " is --" : "",
				a->opt && strcmp(a->opt, a->fio) ? a->opt : "",
				a->note);
}

void opts_print_fio_help(FILE *f)
{
	const struct dix_fio_alias *a;
	char left[64];

	for (a = dix_fio_aliases; a->fio; a++) {
		if (opt_find(a->fio))
			continue;
		snprintf(left, sizeof(left), "--%s%s%s", a->fio,
			 a->metavar ? " " : "", a->metavar ? a->metavar : "");
		fprintf(f, "  %-26s %s%s%s%s%s\n", left, a->opt ? "--" : "",
			a->opt ? a->opt : "",
			a->kind != FIO_DIFFERENT ? (a->opt ? ": " : "") :
			a->opt ? " (differs: " : "(differs: ",
			a->note, a->kind == FIO_DIFFERENT ? ")" : "");
	}
}

/* --- did you mean -------------------------------------------------- */

/*
 * Optimal string alignment distance (Levenshtein plus the swap of two
 * neighbours, the typo "--jbos"), '_' and '-' counted as one letter:
 * fio spells rate_iops, dixload rate-iops.
 */
static int same_ch(char a, char b)
{
	if (a == '_')
		a = '-';
	if (b == '_')
		b = '-';
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

int opt_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int d[40][40], c, v;

	if (la >= 40 || lb >= 40)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			c = !same_ch(a[i - 1], b[j - 1]);
			v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + c < v)
				v = d[i - 1][j - 1] + c;
			if (i > 1 && j > 1 && same_ch(a[i - 1], b[j - 2]) &&
			    same_ch(a[i - 2], b[j - 1]) && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * Close: within a third of the name's length (1 for names up to 5
 * letters, 2 up to 8, ...), so "--numjob" finds --numjobs and "--xyz"
 * finds nothing rather than some three-letter option.
 */
static int close_enough(const char *name, int dist)
{
	int len = (int)strlen(name), lim = len <= 5 ? 1 : len / 3;

	return dist <= lim && dist < len;
}

int opt_suggest(const char *name, const char *const *extra, char *buf,
		size_t len)
{
	const struct dix_fio_alias *a, *best_a = NULL;
	const char *best = NULL;
	int best_d = 99, dist, i;

	/* dixload's own names first: a tie goes to the name --help leads with */
	for (i = 0; (best = opt_row_name(i)); i++) {
		dist = opt_distance(name, best);
		if (dist < best_d) {
			best_d = dist;
			snprintf(buf, len, "--%s", best);
		}
	}
	for (i = 0; extra && extra[i]; i++) {
		dist = opt_distance(name, extra[i]);
		if (dist < best_d) {
			best_d = dist;
			snprintf(buf, len, "--%s", extra[i]);
			best_a = NULL;
		}
	}
	for (a = dix_fio_aliases; a->fio; a++) {
		if (opt_find(a->fio))
			continue;
		dist = opt_distance(name, a->fio);
		if (dist < best_d) {
			best_d = dist;
			best_a = a;
		}
	}
	if (best_d == 99 || !close_enough(name, best_d)) {
		if (len)
			buf[0] = '\0';
		return -ENOENT;
	}
	if (best_a && best_a->opt)
		snprintf(buf, len, "--%s (fio's name for --%s)", best_a->fio,
			 best_a->opt);
	else if (best_a)
		snprintf(buf, len, "--%s (fio's name, %s)", best_a->fio,
			 best_a->note);
	return 0;
}
