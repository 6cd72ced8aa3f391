// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweep.c - dixload sweep KEY=V1,V2,... [KEY=...] [--json] -- RUN-OPTIONS
 *
 * The QAT thread's question ("what number of requests should be in
 * flight?") as one command: the load runs once per point of the cartesian
 * product of the lists, each a whole dixload run of its own (fresh engine,
 * fresh TFMs, fresh control thread), for --runtime seconds (5 when the run
 * options give none).  A point's own meter and summary go nowhere; what
 * is kept per point is its MB/s, IOPS, CPU seconds per GB, p99 latency,
 * exit status and how many requests it had in flight, so sync and async
 * submission can be read off at equal concurrency.  --plot FILE.svg
 * draws MB/s against the first key's values, one series per combination
 * of the other keys (sweepplot.c).  The answer itself closes the output:
 * per series the least requests in flight within 90 % of its best MB/s
 * (sweepknee.c), marked on the plot.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/json.h"
#include "conf/options.h"
#include "report/record.h"
#include "core/exitstatus.h"
#include "core/run.h"
#include "core/runstop.h"
#include "core/sweep.h"
#include "core/sweepknee.h"
#include "report/sweepplot.h"
#include "lib/util.h"

#define SWEEP_MAX_KEYS	8
#define SWEEP_DEFAULT_RUNTIME	"5"

struct sweep_key {
	char name[64];
	char **v;
	int n;
};

/* What the run hook keeps of one point. */
struct sweep_point {
	double mbps, iops, s_per_gb, p99_ms;
	unsigned long long inflight, ops;
	int status, have;
};

static struct sweep_point *cur;

/* run.c's result hook: the figures of the point that just ran. */
static void keep_result(const struct dix_run *r, const struct dix_totals *t)
{
	const struct dix_opts *o = r->o;
	uint64_t bytes = t->c.bytes[DIX_READ] + t->c.bytes[DIX_WRITE];
	uint64_t ops = t->c.ops[DIX_READ] + t->c.ops[DIX_WRITE];
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	struct lat_hist h;

	if (!cur)
		return;
	memset(&h, 0, sizeof(h));
	lat_merge(&h, &t->lat[DIX_READ]);
	lat_merge(&h, &t->lat[DIX_WRITE]);
	cur->mbps = bytes / el / 1e6;
	cur->iops = ops / el;
	cur->s_per_gb = bytes ? t->cpu.self_s / (bytes / 1e9) : 0;
	cur->p99_ms = lat_percentile(&h, 0.99) / 1e6;
	cur->ops = ops;
	/*
	 * Requests the kernel holds at once.  kcapi async: --iodepth on each
	 * TFM, every TFM with a thread of its own; sync: one per thread that
	 * submits, a job's thread, whatever its TFMs (it takes them in turns
	 * and each call returns with its request done).
	 */
	if (engine_is_crypto(r->eng))
		cur->inflight = o->submit == SUBMIT_ASYNC ?
				o->tfms * o->iodepth : o->jobs;
	else
		cur->inflight = o->jobs * ((r->eng->flags & DIX_ENG_SYNC) ?
					   1 : o->iodepth);
	cur->have = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: dixload sweep KEY=V1,V2,... [KEY=V1,...] [--json] [--plot FILE.svg]\n"
"                     -- RUN-OPTIONS\n"
"\n"
"Run the load of RUN-OPTIONS once per point of the cartesian product of\n"
"the lists (KEY is an option name without --: iodepth, tfms, bs, submit,\n"
"jobs ...), each a fresh run of --runtime seconds (default 5), and print\n"
"a table: the point, MB/s, IOPS, requests in flight, dixload's CPU seconds\n"
"per GB, p99 latency.  --json prints one JSON line per point instead.\n"
"--plot FILE.svg draws MB/s against the first KEY's values, one series\n"
"per combination of the other keys.\n");
}

static int parse_key(const char *arg, struct sweep_key *k)
{
	const char *eq = strchr(arg, '=');
	char *list, *tok, *save = NULL;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(k->name) ||
	    !eq[1]) {
		dix_err("sweep: '%s' is not KEY=V1,V2,...", arg);
		return -EINVAL;
	}
	memcpy(k->name, arg, eq - arg);
	k->name[eq - arg] = '\0';
	if (!opt_find(k->name)) {
		dix_err("sweep: unknown option '%s' (KEY names a run option without --)",
			k->name);
		return -EINVAL;
	}
	list = xstrdup(eq + 1);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k->v = realloc(k->v, (k->n + 1) * sizeof(*k->v));
		if (!k->v)
			abort();
		k->v[k->n++] = xstrdup(tok);
	}
	free(list);
	return 0;
}

/* Run one point with stdout silenced; its figures land in *@p. */
static void run_point(int (*run)(int, char **), int argc, char **argv,
		      struct sweep_point *p)
{
	int saved, devnull;

	memset(p, 0, sizeof(*p));
	cur = p;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	p->status = run(argc, argv);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	if (devnull >= 0)
		close(devnull);
	cur = NULL;
}

/*
 * The points of a sweep are in sweep order, the last key varying fastest;
 * a series is one combination of keys[1..], its points along keys[0]:
 * point i is at x = i / ns of series i % ns.
 */
static int nseries(const struct sweep_key *keys, int total)
{
	return total / keys[0].n;
}

/* Series @k's values of keys[1..] ("tfms=4 submit=async"), malloc'ed. */
static char *series_label(const struct sweep_key *keys, int nkeys, int k)
{
	size_t n = 0, cap = 256;
	char *lab = xcalloc(cap, 1);
	int rest = k, j;

	/* the last key fastest */
	for (j = nkeys - 1; j >= 1; j--) {
		char one[160];
		size_t ol;

		snprintf(one, sizeof(one), "%s=%s%s", keys[j].name,
			 keys[j].v[rest % keys[j].n], j < nkeys - 1 ? " " : "");
		rest /= keys[j].n;
		ol = strlen(one);
		if (n + ol + 1 > cap)
			break;
		memmove(lab + ol, lab, n + 1);
		memcpy(lab, one, ol);
		n += ol;
	}
	return lab;
}

/* MB/s of series @k's points along keys[0] into @y (NAN: no result). */
static void series_y(const struct sweep_key *keys, const struct sweep_point *pts,
		     int total, int k, double *y, unsigned long long *inflight)
{
	int nx = keys[0].n, ns = nseries(keys, total), x;

	for (x = 0; x < nx; x++) {
		const struct sweep_point *p = &pts[x * ns + k];

		y[x] = p->have && p->status == 0 ? p->mbps : NAN;
		inflight[x] = p->inflight;
	}
}

/* Every series' knee; @has[k] 0 when series @k has no point with a result. */
static void series_knees(const struct sweep_key *keys,
			 const struct sweep_point *pts, int total,
			 struct sweep_knee *kn, int *has)
{
	int nx = keys[0].n, ns = nseries(keys, total), k;
	double *y = xcalloc(nx, sizeof(*y));
	unsigned long long *f = xcalloc(nx, sizeof(*f));

	for (k = 0; k < ns; k++) {
		series_y(keys, pts, total, k, y, f);
		has[k] = sweep_knee(y, f, nx, SWEEP_KNEE_FRAC, &kn[k]) == 0;
	}
	free(y);
	free(f);
}

/* The point of series @k at x @x as JSON members of object @name. */
static void point_json(struct jw *w, const char *name,
		       const struct sweep_key *keys, int nkeys, int total,
		       int k, int x)
{
	int ns = nseries(keys, total), i = x * ns + k, j, stride = 1;
	int idx[SWEEP_MAX_KEYS];

	for (j = nkeys - 1; j >= 0; j--) {
		idx[j] = (i / stride) % keys[j].n;
		stride *= keys[j].n;
	}
	jw_obj_open(w, name);
	for (j = 0; j < nkeys; j++)
		jw_str(w, keys[j].name, keys[j].v[idx[j]]);
	jw_obj_close(w);
}

/* Series @k's values of keys[1..] as the object "series" ({} for one key). */
static void series_json(struct jw *w, const struct sweep_key *keys, int nkeys,
			int k)
{
	int idx[SWEEP_MAX_KEYS], j, rest = k;

	for (j = nkeys - 1; j >= 1; j--) {
		idx[j] = rest % keys[j].n;
		rest /= keys[j].n;
	}
	jw_obj_open(w, "series");
	for (j = 1; j < nkeys; j++)
		jw_str(w, keys[j].name, keys[j].v[idx[j]]);
	jw_obj_close(w);
}

/*
 * The answer to "how many requests in flight?": per series, the least in
 * flight within SWEEP_KNEE_FRAC of its best MB/s, and that best; one JSON
 * record per series with a result, or lines after the table.
 */
static void print_knees(const struct sweep_key *keys, int nkeys,
			const struct sweep_point *pts, int total, int json,
			const struct sweep_knee *kn, const int *has)
{
	int ns = nseries(keys, total), k;

	if (!json)
		printf("knee: the least requests in flight within %.0f %% of the series' best MB/s\n",
		       SWEEP_KNEE_FRAC * 100);
	for (k = 0; k < ns; k++) {
		char *lab = series_label(keys, nkeys, k);
		const struct sweep_point *pk, *pb;

		if (!has[k]) {
			if (!json)
				printf("  %s: no point with a result\n",
				       *lab ? lab : "all points");
			free(lab);
			continue;
		}
		pk = &pts[kn[k].knee * ns + k];
		pb = &pts[kn[k].best * ns + k];
		if (json) {
			struct jw w;

			jw_init(&w, stdout);
			jw_obj_open(&w, NULL);
			jw_str(&w, "type", "sweep_knee");
			series_json(&w, keys, nkeys, k);
			jw_num(&w, "fraction", SWEEP_KNEE_FRAC, 2);
			jw_uint(&w, "inflight", pk->inflight);
			point_json(&w, "point", keys, nkeys, total, k,
				   kn[k].knee);
			jw_num(&w, "mb_per_s", pk->mbps, 2);
			jw_num(&w, "best_mb_per_s", pb->mbps, 2);
			jw_uint(&w, "best_inflight", pb->inflight);
			point_json(&w, "best_point", keys, nkeys, total, k,
				   kn[k].best);
			jw_obj_close(&w);
			jw_end_line(&w);
		} else {
			printf("  %s: %llu in flight (%s=%s, %.2f MB/s); best %.2f MB/s (%s=%s, %llu in flight)\n",
			       *lab ? lab : "all points", pk->inflight,
			       keys[0].name, keys[0].v[kn[k].knee], pk->mbps,
			       pb->mbps, keys[0].name, keys[0].v[kn[k].best],
			       pb->inflight);
		}
		free(lab);
	}
	fflush(stdout);
}

/*
 * The --plot file: MB/s against keys[0]'s values, one series per
 * combination of keys[1..], each series' knee marked.  Return: 0, or
 * -errno.
 */
static int write_plot(const char *path, const struct sweep_key *keys,
		      int nkeys, const struct sweep_point *pts, int total,
		      const struct sweep_knee *kn, const int *has,
		      int argc, char **argv, int dash)
{
	int nx = keys[0].n, ns = nseries(keys, total), i, k, r;
	struct sweep_series *ser = xcalloc(ns, sizeof(*ser));
	double *y = xcalloc((size_t)total, sizeof(*y));
	unsigned long long *f = xcalloc((size_t)total, sizeof(*f));
	char **lab = xcalloc(ns, sizeof(*lab));
	char title[256];
	size_t tl;
	FILE *fp;

	for (k = 0; k < ns; k++) {
		series_y(keys, pts, total, k, y + (size_t)k * nx,
			 f + (size_t)k * nx);
		lab[k] = series_label(keys, nkeys, k);
		ser[k].label = lab[k];
		ser[k].y = y + (size_t)k * nx;
		ser[k].has_knee = has[k];
		ser[k].knee = has[k] ? kn[k].knee : 0;
		ser[k].knee_inflight = has[k] ? f[(size_t)k * nx + kn[k].knee] : 0;
	}
	tl = snprintf(title, sizeof(title), "dixload sweep: MB/s against %s;",
		      keys[0].name);
	for (i = dash + 1; i < argc && tl < sizeof(title) - 1; i++)
		tl += snprintf(title + tl, sizeof(title) - tl, " %s", argv[i]);
	fp = fopen(path, "we");
	if (!fp) {
		r = -errno;
	} else {
		struct sweep_plot d = {
			.title = title, .xname = keys[0].name,
			.xval = (const char *const *)keys[0].v, .nx = nx,
			.s = ser, .ns = ns, .knee_frac = SWEEP_KNEE_FRAC,
		};

		r = sweep_plot_svg(fp, &d);
		if (fclose(fp) && !r)
			r = -errno;
	}
	if (r)
		dix_err("sweep: --plot %s: %s", path, strerror(-r));
	for (k = 0; k < ns; k++)
		free(lab[k]);
	free(lab);
	free(ser);
	free(y);
	free(f);
	return r;
}

/* The values parse_key() allocated, on every way out of sweep_main(). */
static void keys_free(struct sweep_key *keys, int nkeys)
{
	int k, i;

	for (k = 0; k < nkeys; k++) {
		for (i = 0; i < keys[k].n; i++)
			free(keys[k].v[i]);
		free(keys[k].v);
	}
}

int sweep_main(int argc, char **argv, int (*run)(int, char **))
{
	struct sweep_key keys[SWEEP_MAX_KEYS];
	int nkeys = 0, json = 0, i, dash = -1, nrun, has_runtime = 0;
	int idx[SWEEP_MAX_KEYS] = { 0 }, worst = 0, k, total = 1, np = 0;
	struct sweep_point *pts = NULL;
	struct sweep_knee *kn;
	const char *plot = NULL;
	int *has;
	char **av;
	int ac;

	memset(keys, 0, sizeof(keys));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dash = i;
			break;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			keys_free(keys, nkeys);
			return 0;
		}
		if (!strcmp(argv[i], "--json")) {
			json = 1;
			continue;
		}
		if (!strcmp(argv[i], "--plot") || !strncmp(argv[i], "--plot=", 7)) {
			plot = argv[i][6] ? argv[i] + 7 : argv[i + 1];
			if (!plot || !*plot || !strcmp(plot, "--")) {
				dix_err("sweep: --plot needs a FILE.svg");
				goto usage;
			}
			if (!argv[i][6])
				i++;
			continue;
		}
		if (nkeys == SWEEP_MAX_KEYS) {
			dix_err("sweep: at most %d keys", SWEEP_MAX_KEYS);
			goto usage;
		}
		if (parse_key(argv[i], &keys[nkeys++]))
			goto usage;
	}
	if (dash < 0 || !nkeys) {
		usage(stderr);
		goto usage;
	}
	if (plot) {
		/* written after the last point: find out now that it can be */
		int fd = open(plot, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0) {
			dix_err("sweep: --plot %s: cannot write: %s", plot,
				strerror(errno));
			goto usage;
		}
		close(fd);
	}
	for (k = 0; k < nkeys; k++)
		total *= keys[k].n;
	pts = xcalloc(total, sizeof(*pts));
	nrun = argc - dash - 1;
	for (i = dash + 1; i < argc; i++)
		if (!strncmp(argv[i], "--runtime", 9))
			has_runtime = 1;
	/* "dixload", the run options, --runtime 5, --KEY V per key, NULL */
	av = xcalloc(1 + nrun + 2 + 2 * nkeys + 1, sizeof(*av));
	run_result_hook = keep_result;
	if (!json) {
		for (k = 0; k < nkeys; k++)
			printf("%-10s ", keys[k].name);
		printf("%10s %10s %9s %10s %10s %s\n", "MB/s", "IOPS",
		       "in flight", "CPU s/GB", "p99 ms", "exit");
		fflush(stdout);
	}
	for (;;) {
		struct sweep_point p;

		ac = 0;
		av[ac++] = argv[0];
		for (i = dash + 1; i < argc; i++)
			av[ac++] = argv[i];
		if (!has_runtime) {
			av[ac++] = "--runtime";
			av[ac++] = SWEEP_DEFAULT_RUNTIME;
		}
		for (k = 0; k < nkeys; k++) {
			char *opt = NULL;

			if (asprintf(&opt, "--%s", keys[k].name) < 0)
				abort();
			av[ac++] = opt;
			av[ac++] = keys[k].v[idx[k]];
		}
		av[ac] = NULL;
		run_point(run, ac, av, &p);
		/*
		 * A point that completed no request has figures of 0 that
		 * measure nothing (its runtime ended before the first request
		 * came back): in a table of rates it would read as a load that
		 * ran at 0 MB/s.  The run has said so without knowing the
		 * point (exit 1); the sweep names the point and drops its
		 * figures.
		 */
		if (p.have && !p.ops && p.status == DIX_EXIT_USAGE) {
			char pt[256];
			size_t n = 0;

			pt[0] = '\0';
			for (k = 0; k < nkeys && n < sizeof(pt); k++)
				n += snprintf(pt + n, sizeof(pt) - n, "%s%s=%s",
					      k ? " " : "", keys[k].name,
					      keys[k].v[idx[k]]);
			dix_err("sweep: point %s: no request completed in the point's --runtime: no figures in its row (give a longer --runtime)",
				pt);
			p.status = DIX_EXIT_USAGE;
			p.have = 0;	/* no figures in the row or the plot */
		}
		pts[np++] = p;
		/* by the documented precedence, not the largest number: a
		 * --hotload finds its module loaded from the second point on
		 * (4), which must not hide another point's integrity errors */
		worst = exit_worst(worst, p.status);
		if (json) {
			struct jw w;

			jw_init(&w, stdout);
			jw_obj_open(&w, NULL);
			jw_str(&w, "type", "sweep_point");
			jw_obj_open(&w, "point");
			for (k = 0; k < nkeys; k++)
				jw_str(&w, keys[k].name, keys[k].v[idx[k]]);
			jw_obj_close(&w);
			if (p.have) {
				jw_num(&w, "mb_per_s", p.mbps, 2);
				jw_num(&w, "iops", p.iops, 1);
				jw_uint(&w, "inflight", p.inflight);
				jw_num(&w, "cpu_s_per_gb", p.s_per_gb, 3);
				jw_num(&w, "p99_ms", p.p99_ms, 3);
			}
			jw_int(&w, "exit", p.status);
			jw_obj_close(&w);
			jw_end_line(&w);
		} else {
			for (k = 0; k < nkeys; k++)
				printf("%-10s ", keys[k].v[idx[k]]);
			if (p.have)
				printf("%10.2f %10.0f %9llu %10.3f %10.3f %d\n",
				       p.mbps, p.iops, p.inflight, p.s_per_gb,
				       p.p99_ms, p.status);
			else
				printf("%10s %10s %9s %10s %10s %d\n", "-", "-",
				       "-", "-", "-", p.status);
		}
		fflush(stdout);
		for (k = 2 * nkeys; k > 0; k -= 2)
			free(av[ac - k]);
		/* the next point: the last key varies fastest */
		for (k = nkeys - 1; k >= 0; k--) {
			if (++idx[k] < keys[k].n)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
		/* SIGINT/SIGTERM ends the sweep, not only its point (whose
		 * row says 6): the user asked for the end */
		if (run_signalled()) {
			dix_err("sweep: stopped by a signal: %d of %d points not run",
				total - np, total);
			worst = exit_worst(worst, DIX_EXIT_STOPPED);
			break;
		}
	}
	run_result_hook = NULL;
	kn = xcalloc(nseries(keys, total), sizeof(*kn));
	has = xcalloc(nseries(keys, total), sizeof(*has));
	series_knees(keys, pts, total, kn, has);
	print_knees(keys, nkeys, pts, total, json, kn, has);
	/* a failed write is reported, the exit status stays the load's (as
	 * for a run's own --plot) */
	if (plot)
		write_plot(plot, keys, nkeys, pts, total, kn, has, argc, argv,
			   dash);
	free(kn);
	free(has);
	free(pts);
	free(av);
	keys_free(keys, nkeys);
	return worst;
usage:
	keys_free(keys, nkeys);
	return DIX_EXIT_USAGE;
}
