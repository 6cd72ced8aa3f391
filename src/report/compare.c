// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - "dixload compare A.json B.json": run B against run A.
 *
 * Each file is an --output-format json run (JSON lines) or a --lat-log.
 * A run's summary record carries everything compared, so a run cut short
 * (no summary) is an error rather than a row of zeros; its intervals add
 * the worst interval's p99.  A --lat-log holds latency only: its intervals'
 * histograms merged are the run's, so a lat-log compares with another or
 * with a run by latency (and a soak cut short still has its log).  Input is parsed with json-c: the records are
 * nested and their keys evolve (a "cpu" object is optional), which a real
 * parser takes in its stride.  Output goes through json.h like every other
 * JSON dixload writes.
 *
 * A row regresses when B is worse than A by more than the threshold, in
 * the metric's own sense (throughput: lower; latency, CPU per GB: higher).
 * An error count regresses when it grows at all: one more integrity error
 * is never noise.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "lib/json.h"
#include "lib/parse.h"
#include "lib/stats.h"
#include "lib/util.h"

/* How a metric is judged. */
enum better { HIGHER, LOWER, COUNT };

/* One compared value; @a/@b NaN: absent in that run. */
struct row {
	char name[96];
	const char *unit;
	double a, b;
	enum better better;
	bool regression;
};

struct cmp {
	struct row *rows;
	int nrows;
	double threshold;
	int regressions;
};

/*
 * The records of one run that compare reads.
 * @summary: the last summary record (owned), NULL in a --lat-log
 * @nhist: the --lat-log's lat_hist lines, merged into @lat per direction
 * @worst_p99: the largest p99 of an interval with I/O per direction, in
 *	ns (a run's interval records or a lat-log's lines); NaN without one
 */
struct run_file {
	const char *path;
	json_object *summary;
	int nhist;
	struct lat_hist lat[DIX_DIR_NR];
	double worst_p99[DIX_DIR_NR];
};

static const char *const dirs[] = { "read", "write" };

static double num_at(json_object *o, ...);

/*
 * The worst interval: @o is an interval's or a lat_hist line's direction
 * object ({"n", "p99", ...}).
 */
static void worst_of(struct run_file *rf, int d, json_object *o)
{
	double p99 = num_at(o, "p99", NULL);

	if (num_at(o, "n", NULL) > 0 &&
	    (isnan(rf->worst_p99[d]) || p99 > rf->worst_p99[d]))
		rf->worst_p99[d] = p99;
}

/*
 * A lat_hist line's direction @o merged into @h: every bucket must be one
 * of this build's (a log of another layout cannot be merged bucket by
 * bucket).  Return: 0, or -EINVAL.
 */
static int hist_merge_json(struct lat_hist *h, json_object *o)
{
	json_object *arr;
	size_t i, n;
	double max;

	if (!json_object_object_get_ex(o, "buckets", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return -EINVAL;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		uint64_t v[3], lo, hi;
		unsigned int b;
		int k;

		if (!json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 3)
			return -EINVAL;
		for (k = 0; k < 3; k++) {
			json_object *x = json_object_array_get_idx(e, k);

			if (!json_object_is_type(x, json_type_int) ||
			    json_object_get_int64(x) < 0)
				return -EINVAL;
			v[k] = json_object_get_uint64(x);
		}
		b = lat_bucket_of(v[1]);
		if (lat_bucket_bounds(b, &lo, &hi) || lo != v[0] || hi != v[1])
			return -EINVAL;
		h->bucket[b] += v[2];
	}
	max = num_at(o, "max", NULL);
	if (max > h->max_ns)
		h->max_ns = (uint64_t)max;
	return 0;
}

/* One record of @rf's file: a summary, an interval or a lat_hist line. */
static int take_record(struct run_file *rf, json_object *o, const char *type)
{
	json_object *x;
	int d;

	if (!strcmp(type, "summary")) {
		json_object_put(rf->summary);
		rf->summary = json_object_get(o);
		return 0;
	}
	if (!strcmp(type, "interval")) {
		for (d = 0; d < DIX_DIR_NR; d++)
			if (json_object_object_get_ex(o, "lat_ns", &x) &&
			    json_object_object_get_ex(x, dirs[d], &x))
				worst_of(rf, d, x);
		return 0;
	}
	if (strcmp(type, "lat_hist"))
		return 0;
	for (d = 0; d < DIX_DIR_NR; d++) {
		if (!json_object_object_get_ex(o, dirs[d], &x) ||
		    hist_merge_json(&rf->lat[d], x))
			return -EINVAL;
		worst_of(rf, d, x);
	}
	rf->nhist++;
	return 0;
}

static int load_run(struct run_file *rf, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, d, e = 0;

	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	for (d = 0; d < DIX_DIR_NR; d++)
		rf->worst_p99[d] = NAN;
	if (!f) {
		dix_err("compare: %s: %s", path, strerror(errno));
		return -errno;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o, *type;

		lineno++;
		if (line[0] != '{')
			continue;	/* a human line mixed in: not ours */
		o = json_tokener_parse(line);
		if (!o) {
			dix_err("compare: %s:%d: not a JSON object", path, lineno);
			continue;
		}
		if (json_object_object_get_ex(o, "type", &type) &&
		    take_record(rf, o, json_object_get_string(type)) && !e) {
			dix_err("compare: %s:%d: a lat_hist line whose buckets are not [lo, hi, count] of this dixload's layout",
				path, lineno);
			e = -EINVAL;
		}
		json_object_put(o);
	}
	free(line);
	fclose(f);
	if (e)
		return e;
	if (!rf->summary && !rf->nhist) {
		dix_err("compare: %s has no summary record and no lat_hist line (not an --output-format json run nor a --lat-log, or the run was cut short)",
			path);
		return -EINVAL;
	}
	return 0;
}

/* The number at @a.@b.@c (NULL-terminated path); NaN when absent or null. */
static double num_at(json_object *o, ...)
{
	const char *key;
	va_list ap;

	va_start(ap, o);
	while (o && (key = va_arg(ap, const char *)))
		if (!json_object_object_get_ex(o, key, &o))
			o = NULL;
	va_end(ap);
	if (!o || (!json_object_is_type(o, json_type_double) &&
		   !json_object_is_type(o, json_type_int)))
		return NAN;
	return json_object_get_double(o);
}

/*
 * CPU seconds per GB moved, when the summary has a "cpu" object: dixload's
 * own, "s_per_gb"."self" (doc/json.md), or a plain "s_per_gb" number, else
 * (user_s + sys_s) over the bytes of both directions.  NaN without one
 * (runs from before it existed).
 */
static double cpu_s_per_gb(json_object *s)
{
	double v = num_at(s, "cpu", "s_per_gb", "self", NULL);
	double user = num_at(s, "cpu", "user_s", NULL);
	double sys = num_at(s, "cpu", "sys_s", NULL);
	double bytes = num_at(s, "read_bytes", NULL) +
		       num_at(s, "write_bytes", NULL);

	if (isnan(v))
		v = num_at(s, "cpu", "s_per_gb", NULL);
	if (!isnan(v))
		return v;
	if (isnan(user) || isnan(sys) || !(bytes > 0))
		return NAN;
	return (user + sys) / (bytes / 1e9);
}

/* Change of B against A in %; NaN when A is 0 or either is absent. */
static double change_pct(const struct row *r)
{
	if (isnan(r->a) || isnan(r->b) || r->a == 0)
		return NAN;
	return 100 * (r->b - r->a) / r->a;
}

static void add_row(struct cmp *c, const char *name, const char *unit,
		    double a, double b, enum better better)
{
	struct row *r;
	double ch;

	c->rows = xrealloc(c->rows, (c->nrows + 1) * sizeof(*c->rows));
	r = &c->rows[c->nrows++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->unit = unit;
	r->a = a;
	r->b = b;
	r->better = better;
	ch = change_pct(r);
	switch (better) {
	case HIGHER:
		r->regression = !isnan(ch) && ch < -c->threshold;
		break;
	case LOWER:
		r->regression = !isnan(ch) && ch > c->threshold;
		break;
	case COUNT:
		r->regression = !isnan(r->a) && !isnan(r->b) && r->b > r->a;
		break;
	}
	c->regressions += r->regression;
}

/*
 * The I/Os of direction @d: the summary's, else the lat-log's histograms';
 * NaN in neither.
 */
static double run_ops(const struct run_file *rf, int d)
{
	char key[32];

	if (rf->summary) {
		snprintf(key, sizeof(key), "%s_ops", dirs[d]);
		return num_at(rf->summary, key, NULL);
	}
	return rf->nhist ? (double)lat_count(&rf->lat[d]) : NAN;
}

/* Quantile @q (named @pct) of direction @d in ns: the summary's, else the
 * merged histogram's. */
static double run_lat(const struct run_file *rf, int d, const char *pct,
		      double q)
{
	if (rf->summary)
		return num_at(rf->summary, "lat_ns", dirs[d], pct, NULL);
	return lat_count(&rf->lat[d]) ? (double)lat_percentile(&rf->lat[d], q) :
					NAN;
}

static void direction_rows(struct cmp *c, const struct run_file *ra,
			   const struct run_file *rb, int d)
{
	static const char *const pct[] = { "p50", "p99", "p99.9" };
	static const double q[] = { 0.5, 0.99, 0.999 };
	json_object *sa = ra->summary, *sb = rb->summary;
	const char *dir = dirs[d];
	char key[32], name[64];
	unsigned int i;

	if (!(run_ops(ra, d) > 0) && !(run_ops(rb, d) > 0))
		return;		/* neither run moved data this way */
	/* rates are a run's: with a lat-log on a side, latency only */
	if (sa && sb) {
		snprintf(key, sizeof(key), "%s_bps", dir);
		snprintf(name, sizeof(name), "%s throughput", dir);
		add_row(c, name, "MB/s", num_at(sa, key, NULL) / 1e6,
			num_at(sb, key, NULL) / 1e6, HIGHER);
		snprintf(key, sizeof(key), "%s_iops", dir);
		snprintf(name, sizeof(name), "%s IOPS", dir);
		add_row(c, name, "IOPS", num_at(sa, key, NULL),
			num_at(sb, key, NULL), HIGHER);
	}
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		snprintf(name, sizeof(name), "%s lat %s", dir, pct[i]);
		add_row(c, name, "us", run_lat(ra, d, pct[i], q[i]) / 1e3,
			run_lat(rb, d, pct[i], q[i]) / 1e3, LOWER);
	}
	/* a spike in one interval that the run's percentiles average away */
	if (!isnan(ra->worst_p99[d]) || !isnan(rb->worst_p99[d])) {
		snprintf(name, sizeof(name), "%s lat p99 worst interval", dir);
		add_row(c, name, "us", ra->worst_p99[d] / 1e3,
			rb->worst_p99[d] / 1e3, LOWER);
	}
}

/* The error kinds of either run's "errors" object, in A's order first. */
static void error_rows(struct cmp *c, json_object *sa, json_object *sb)
{
	json_object *ea = NULL, *eb = NULL, *from[2];
	char name[96];
	int i;

	json_object_object_get_ex(sa, "errors", &ea);
	json_object_object_get_ex(sb, "errors", &eb);
	from[0] = ea;
	from[1] = eb;
	for (i = 0; i < 2; i++) {
		if (!from[i] || !json_object_is_type(from[i], json_type_object))
			continue;
		json_object_object_foreach(from[i], k, v) {
			(void)v;
			if (i == 1 && ea && json_object_object_get_ex(ea, k, NULL))
				continue;
			snprintf(name, sizeof(name), "errors %s", k);
			add_row(c, name, "",
				ea ? num_at(ea, k, NULL) : NAN,
				eb ? num_at(eb, k, NULL) : NAN,
				/* recovered retries are not failures */
				strcmp(k, "recovered") ? COUNT : LOWER);
		}
	}
}

/* The transition of @arr whose "event" is @what, or NULL. */
static json_object *find_transition(json_object *arr, const char *what)
{
	size_t i, n = arr ? json_object_array_length(arr) : 0;

	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(arr, i), *ev;

		if (json_object_object_get_ex(t, "event", &ev) &&
		    !strcmp(json_object_get_string(ev), what))
			return t;
	}
	return NULL;
}

/*
 * Transition rows, matched by their event text, when both runs have one:
 * the level before and after (throughput: lower is worse) and the ratio
 * (shown; whether a larger step is better depends on the experiment).
 */
static void transition_rows(struct cmp *c, json_object *sa, json_object *sb)
{
	json_object *ta = NULL, *tb = NULL;
	size_t i, n;
	char name[96];

	json_object_object_get_ex(sa, "transitions", &ta);
	json_object_object_get_ex(sb, "transitions", &tb);
	if (!ta || !tb || !json_object_is_type(ta, json_type_array))
		return;
	n = json_object_array_length(ta);
	for (i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(ta, i), *b, *ev;
		const char *what;

		if (!json_object_object_get_ex(a, "event", &ev))
			continue;
		what = json_object_get_string(ev);
		b = find_transition(tb, what);
		if (!b)
			continue;
		snprintf(name, sizeof(name), "%.60s: before", what);
		add_row(c, name, "MB/s", num_at(a, "before", NULL) / 1e6,
			num_at(b, "before", NULL) / 1e6, HIGHER);
		snprintf(name, sizeof(name), "%.60s: after", what);
		add_row(c, name, "MB/s", num_at(a, "after", NULL) / 1e6,
			num_at(b, "after", NULL) / 1e6, HIGHER);
		snprintf(name, sizeof(name), "%.60s: ratio", what);
		/* COUNT without the regression: shown, never judged */
		add_row(c, name, "", num_at(a, "ratio", NULL),
			num_at(b, "ratio", NULL), HIGHER);
		c->regressions -= c->rows[c->nrows - 1].regression;
		c->rows[c->nrows - 1].regression = false;
	}
}

/* A setting's value as compact JSON text; NULL when the run lacks it. */
static const char *setting_text(json_object *settings, const char *key)
{
	json_object *v;

	if (!settings || !json_object_object_get_ex(settings, key, &v))
		return NULL;
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* Calls @fn for each setting whose value differs (or exists on one side). */
static int settings_diff(json_object *sa, json_object *sb,
			 void (*fn)(const char *key, const char *a,
				    const char *b, void *arg), void *arg)
{
	json_object *ga = NULL, *gb = NULL, *from[2];
	int i, n = 0;

	json_object_object_get_ex(sa, "settings", &ga);
	json_object_object_get_ex(sb, "settings", &gb);
	from[0] = ga;
	from[1] = gb;
	for (i = 0; i < 2; i++) {
		if (!from[i] || !json_object_is_type(from[i], json_type_object))
			continue;
		json_object_object_foreach(from[i], k, v) {
			char *a, *b;

			(void)v;
			if (i == 1 && setting_text(ga, k))
				continue;	/* compared in the first pass */
			/* copies: json-c reuses one buffer per object */
			a = setting_text(ga, k) ? xstrdup(setting_text(ga, k)) : NULL;
			b = setting_text(gb, k) ? xstrdup(setting_text(gb, k)) : NULL;
			if (!a || !b || strcmp(a, b)) {
				fn(k, a, b, arg);
				n++;
			}
			free(a);
			free(b);
		}
	}
	return n;
}

static void setting_human(const char *key, const char *a, const char *b,
			  void *arg)
{
	printf("  %-16s %-22s %s\n", key, a ? a : "(unset)", b ? b : "(unset)");
}

static void setting_json(const char *key, const char *a, const char *b,
			 void *arg)
{
	struct jw *w = arg;

	jw_obj_open(w, NULL);
	jw_str(w, "key", key);
	if (a)
		jw_raw(w, "a", a);
	else
		jw_null(w, "a");
	if (b)
		jw_raw(w, "b", b);
	else
		jw_null(w, "b");
	jw_obj_close(w);
}

static const char *fmt_val(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

static void print_human(const struct cmp *c, json_object *sa, json_object *sb,
			const char *pa, const char *pb)
{
	char a[32], b[32], ch[32];
	int i;

	printf("A: %s\nB: %s\n", pa, pb);
	printf("settings that differ:\n");
	if (!sa || !sb)
		printf("  (a --lat-log has none)\n");
	else if (!settings_diff(sa, sb, setting_human, NULL))
		printf("  (none)\n");
	printf("%-40s %-5s %14s %14s %9s\n", "metric", "unit", "A", "B",
	       "change");
	for (i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];
		double p = change_pct(r);

		if (isnan(p))
			snprintf(ch, sizeof(ch), "-");
		else
			snprintf(ch, sizeof(ch), "%+.1f %%", p);
		printf("%-40.40s %-5s %14s %14s %9s%s\n", r->name, r->unit,
		       fmt_val(r->a, a, sizeof(a)), fmt_val(r->b, b, sizeof(b)),
		       ch, r->regression ? "  REGRESSION" : "");
	}
	if (c->regressions)
		printf("%d regression%s beyond %g %% (errors: any increase): exit %d\n",
		       c->regressions, c->regressions == 1 ? "" : "s",
		       c->threshold, DIX_EXIT_REGRESSION);
	else
		printf("no regression beyond %g %%\n", c->threshold);
}

static void print_json(const struct cmp *c, json_object *sa, json_object *sb,
		       const char *pa, const char *pb)
{
	static const char *const better[] = { "higher", "lower", "count" };
	struct jw w;
	int i;

	jw_init(&w, stdout);
	jw_obj_open(&w, NULL);
	jw_str(&w, "type", "compare");
	jw_str(&w, "a", pa);
	jw_str(&w, "b", pb);
	jw_num(&w, "threshold_pct", c->threshold, -1);
	jw_arr_open(&w, "settings");
	if (sa && sb)
		settings_diff(sa, sb, setting_json, &w);
	jw_arr_close(&w);
	jw_arr_open(&w, "rows");
	for (i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];

		jw_obj_open(&w, NULL);
		jw_str(&w, "metric", r->name);
		jw_str(&w, "unit", r->unit);
		jw_num(&w, "a", r->a, -1);	/* NaN: null */
		jw_num(&w, "b", r->b, -1);
		jw_num(&w, "change_pct", change_pct(r), 2);
		jw_str(&w, "better", better[r->better]);
		jw_bool(&w, "regression", r->regression);
		jw_obj_close(&w);
	}
	jw_arr_close(&w);
	jw_int(&w, "regressions", c->regressions);
	jw_int(&w, "exit", c->regressions ? DIX_EXIT_REGRESSION : DIX_EXIT_OK);
	jw_obj_close(&w);
	jw_end_line(&w);
}

static void compare_usage(FILE *f)
{
	fprintf(f,
"Usage: dixload compare A.json B.json [--threshold PCT] [--output-format human|json]\n"
"\n"
"Compare run B against run A (both written with --output-format json):\n"
"the settings that differ, per direction MB/s, IOPS, latency p50/p99/p99.9\n"
"and the worst interval's p99, CPU s/GB (when both summaries have it),\n"
"errors by kind, and the transitions both runs have, with the change in %%.\n"
"A or B may be a --lat-log instead: its intervals' histograms merged give\n"
"the latency rows (two lat-logs compare by latency alone).\n"
"\n"
"  --threshold PCT   a throughput drop, or a latency or CPU rise, beyond PCT\n"
"                    %% is a regression (default %g); any rise of an error\n"
"                    count is one\n"
"  --output-format F human table (default) or one JSON object\n"
"\n"
"Exit status: 0 no regression, 1 usage or unreadable input, 5 regression.\n",
		COMPARE_DEFAULT_THRESHOLD);
}

int compare_main(int argc, char **argv)
{
	struct run_file ra = { 0 }, rb = { 0 };
	struct cmp c = { .threshold = COMPARE_DEFAULT_THRESHOLD };
	const char *files[2] = { NULL, NULL };
	int i, nf = 0, as_json = 0, status;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			compare_usage(stdout);
			return DIX_EXIT_OK;
		}
		if (!strcmp(a, "--threshold") || !strcmp(a, "--output-format")) {
			if (i + 1 >= argc) {
				dix_err("compare: %s needs a value", a);
				return DIX_EXIT_USAGE;
			}
			if (!strcmp(a, "--threshold")) {
				char *end;

				c.threshold = strtod(argv[++i], &end);
				if (*end || end == argv[i] || !(c.threshold >= 0)) {
					dix_err("compare: --threshold: '%s' is not a percentage (e.g. 10, 2.5)",
						argv[i]);
					return DIX_EXIT_USAGE;
				}
			} else if (!strcmp(argv[++i], "json")) {
				as_json = 1;
			} else if (strcmp(argv[i], "human")) {
				dix_err("compare: --output-format: '%s' is not allowed (allowed: human, json)",
					argv[i]);
				return DIX_EXIT_USAGE;
			}
			continue;
		}
		if (a[0] == '-' && a[1]) {
			dix_err("compare: unknown option '%s' (see dixload compare --help)",
				a);
			return DIX_EXIT_USAGE;
		}
		if (nf == 2) {
			dix_err("compare: more than two files ('%s')", a);
			return DIX_EXIT_USAGE;
		}
		files[nf++] = a;
	}
	if (nf != 2) {
		compare_usage(stderr);
		return DIX_EXIT_USAGE;
	}
	if (load_run(&ra, files[0]) || load_run(&rb, files[1])) {
		json_object_put(ra.summary);
		json_object_put(rb.summary);
		return DIX_EXIT_USAGE;
	}
	direction_rows(&c, &ra, &rb, DIX_READ);
	direction_rows(&c, &ra, &rb, DIX_WRITE);
	/* a lat-log has latency only: the rest compares two runs */
	if (ra.summary && rb.summary) {
		/* a run from before the cpu object: no row rather than a dash */
		if (!isnan(cpu_s_per_gb(ra.summary)) ||
		    !isnan(cpu_s_per_gb(rb.summary)))
			add_row(&c, "CPU", "s/GB", cpu_s_per_gb(ra.summary),
				cpu_s_per_gb(rb.summary), LOWER);
		error_rows(&c, ra.summary, rb.summary);
		transition_rows(&c, ra.summary, rb.summary);
	}

	if (as_json)
		print_json(&c, ra.summary, rb.summary, files[0], files[1]);
	else
		print_human(&c, ra.summary, rb.summary, files[0], files[1]);
	fflush(stdout);
	status = c.regressions ? DIX_EXIT_REGRESSION : DIX_EXIT_OK;
	free(c.rows);
	json_object_put(ra.summary);
	json_object_put(rb.summary);
	return status;
}
