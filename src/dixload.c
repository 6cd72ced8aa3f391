// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dixload.c - main: options -> profile -> target -> safety -> load -> report.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "report/compare.h"
#include "pi/crcbench.h"
#include "core/dev.h"
#include "engines/engine.h"
#include "kernel/hotload.h"
#include "core/inject.h"
#include "core/mpijob.h"
#include "conf/options.h"
#include "lib/parse.h"
#include "core/precond.h"
#include "core/probe.h"
#include "conf/profile.h"
#include "core/run.h"
#include "report/sink.h"
#include "device/safety.h"
#include "core/sweep.h"
#include "device/devdesc.h"
#include "lib/util.h"

/*
 * --version also says what this build contains, one "key: words" line each,
 * so scripts (and the test suite's need_feature) can ask the binary instead
 * of guessing from configure.
 */
static void print_version(void)
{
	const struct dix_engine *const *e;

	printf("dixload %s\n", PACKAGE_VERSION);
	printf("engines:");
	for (e = engine_list(); *e; e++)
		printf(" %s", (*e)->name);
	printf("\nfeatures:");
#ifdef HAVE_SGUTILS
	printf(" sgutils");
#endif
#ifdef HAVE_NVME
	printf(" nvme");
#endif
#ifdef HAVE_LIBURING
	printf(" liburing");
#endif
#ifdef HAVE_ISAL
	printf(" isal");
#endif
#ifdef HAVE_KMOD
	printf(" kmod");
#endif
#ifdef HAVE_MNL
	printf(" mnl");
#endif
#ifdef HAVE_KCAPI_ENGINE
	printf(" kcapi");
#endif
#ifdef HAVE_JSONC
	printf(" jsonc");
#endif
#ifdef HAVE_MPI
	printf(" mpi");
#endif
#ifdef HAVE_MICROHTTPD
	printf(" microhttpd");
#endif
	printf("\n");
#ifdef DIX_SANITIZED
	/* tests judge no throughput of a build that spends its CPU checking */
	printf("sanitizers: address undefined\n");
#endif
}

static void usage(FILE *f)
{
	const struct dix_engine *const *e;

	fprintf(f,
"Usage: dixload --dev PATH [--profile NAME|FILE] [options]\n"
"       dixload probe DEV [--json]\n"
"       dixload crcbench [--seconds S] [--json]\n"
"       dixload compare A.json B.json [--threshold PCT] [--output-format json]\n"
"       dixload sweep KEY=V1,V2,... [KEY=...] [--json] -- RUN-OPTIONS\n"
"\n"
"Block-layer I/O integrity load generator: reads and writes with verified\n"
"data on block devices (with T10 PI / DIX where the device has it) and files,\n"
"a per-second meter, and mid-run kernel module hot-load with transition\n"
"capture.\n"
"\n"
"Options (profile files use the same names as keys, except those marked\n"
"(command line only); each engine's own options are listed under it in\n"
"ENGINES, and are taken with that engine only):\n");
	opts_print_help(f);
	fprintf(f,
"  --help                     this text\n"
"  --version                  print the version\n"
"  --list-profiles            list the profiles found\n"
"\n"
"ENGINES\n");
	for (e = engine_list(); *e; e++) {
		static const char *const app[] = {
			[DIX_APP_PI_NONE] = "no",
			[DIX_APP_PI_SCSI] = "the SCSI drive's PI",
			[DIX_APP_PI_NVME] = "the NVMe namespace's PI",
			[DIX_APP_PI_KERNEL] = "the kernel's integrity format",
		};

		fprintf(f, "  %-10s %s\n", (*e)->name, (*e)->help);
		fprintf(f, "  %-10s targets: %s; --pi app: %s%s%s\n", "",
			(*e)->targets & DIX_TGT_CRYPTO ? "none (the kernel crypto API; no --dev)" :
			(*e)->targets & DIX_TGT_NULL ? "none (I/O completes in memory; --dev makes the region)" :
			(*e)->targets & DIX_TGT_BLOCK ? "block devices and files" :
			(*e)->targets & DIX_TGT_SCSI ? "SCSI disks" : "NVMe namespaces",
			app[(*e)->app_pi], (*e)->needs ? "; needs " : "",
			(*e)->needs ? (*e)->needs : "");
		if ((*e)->options)
			opts_print_rows(f, (*e)->options, "             ");
	}
	fprintf(f,
"\n"
"Sizes take k/m/g/t suffixes (binary: 1k = 1024).  MB/s is 10^6 bytes per\n"
"second, over the measured interval.  Without --runtime the region is\n"
"covered once.  Targets are opened with O_DIRECT.\n"
"\n"
"Writing: dixload refuses to write a block device that is mounted, used as\n"
"swap, has holders (dm, md, LVM), holds partitions or carries a filesystem,\n"
"RAID or partition-table signature, or a regular file holding a filesystem\n"
"image.  --force overrides the signature, partition and holder checks only,\n"
"never a mounted filesystem or active swap.  scsi_debug disks and the dixvm\n"
"harness's NVMe namespace are scratch devices and need no --force.\n"
"\n"
"EXIT STATUS\n"
"  0  success\n"
"  1  usage or setup error (found before the load starts), or a load that\n"
"     completed no request (its figures would measure nothing), or an MPI\n"
"     job cut short by a lost rank (its figures are not whole)\n"
"  2  I/O errors\n"
"  3  integrity errors (PI check failures, data verification failures)\n"
"  4  a scheduled action (--hotload, --unload, --sysfs, --exec) failed,\n"
"     found its module already loaded, or never ran\n"
"  5  dixload compare: run B regressed beyond the threshold\n"
"  6  stopped by SIGINT or SIGTERM before the load's end (also while\n"
"     preconditioning; a sweep stops there): the figures are not whole\n"
"  When several apply: 3 > 2 > 1 > 6 > 4 > 5 > 0.\n");
}

/*
 * --dump-options: the option table (opts_dump()) and the options this file
 * handles itself, for scripts/gen-completion.
 */
static void dump_options(void)
{
	const struct dix_engine *const *e;
	char names[512];
	size_t used = 0;

	names[0] = '\0';
	for (e = engine_list(); *e && used < sizeof(names); e++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 used ? " " : "", (*e)->name);
	opts_dump(stdout, names);
	printf("help\tflag\t\nversion\tflag\t\nlist-profiles\tflag\t\n");
}

/* Split "--name=value" / "--name value"; flags take no value. */
static int parse_cli(int argc, char **argv, struct dix_opts *cli,
		     const char **profile, int *list_profiles)
{
	char err[512];
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		const struct dix_option *d;
		char name[64];
		const char *eq;
		size_t n;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage(stdout);
			exit(0);
		}
		if (!strcmp(arg, "--version")) {
			print_version();
			exit(0);
		}
		/* not in --help: the build's completion generator reads it */
		if (!strcmp(arg, "--dump-options")) {
			dump_options();
			exit(0);
		}
		if (!strcmp(arg, "--list-profiles")) {
			*list_profiles = 1;
			continue;
		}
		if (strncmp(arg, "--", 2)) {
			dix_err("unexpected argument '%s' (options start with --; see --help)",
				arg);
			return -EINVAL;
		}
		arg += 2;
		eq = strchr(arg, '=');
		n = eq ? (size_t)(eq - arg) : strlen(arg);
		if (n >= sizeof(name)) {
			dix_err("unknown option '--%s' (see --help)", arg);
			return -EINVAL;
		}
		memcpy(name, arg, n);
		name[n] = '\0';
		d = opt_find(name);
		if (!d) {
			dix_err("unknown option '--%s' (see --help)", name);
			return -EINVAL;
		}
		if (eq) {
			val = eq + 1;
		} else if (d->type != OPT_FLAG) {
			if (i + 1 >= argc) {
				dix_err("--%s needs a value (%s)", name,
					d->metavar);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (!strcmp(name, "profile")) {
			*profile = val;
			continue;
		}
		if (opt_set(cli, name, val, err, sizeof(err))) {
			dix_err("%s", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Whether the command line gives --@name (so a profile's value lost). */
static int cli_sets(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
		    (argv[i][2 + n] == '\0' || argv[i][2 + n] == '='))
			return 1;
	return 0;
}

/*
 * Settings precedence: table defaults < profile < command line.  The
 * command line is parsed twice: once to find --profile and --engine (every
 * engine's options are read then, for their syntax only), once after the
 * profile so its values win.  The engine comes first, the command line's,
 * else the profile's, else the default: its options are its rows, and
 * another engine's option is refused naming the engines that take it.
 */
static int build_opts(int argc, char **argv, struct dix_opts *o,
		      const struct dix_engine **eng, int *list_profiles)
{
	const char *profile = NULL;
	struct dix_opts scratch;
	char path[4096], err[1024];
	int r;

	/* first, so that @o is the caller's to free whatever happens */
	opts_init(o);
	opts_init(&scratch);
	r = parse_cli(argc, argv, &scratch, &profile, list_profiles);
	if (!r && profile) {
		r = profile_find(profile, path, sizeof(path));
		if (r)
			dix_err("profile '%s' not found (searched: %s; see --list-profiles)",
				profile, path);
	}
	/* the profile's engine=, unless the command line names one */
	if (!r && profile && !cli_sets(argc, argv, "engine")) {
		opts_free(&scratch);
		opts_init(&scratch);
		r = profile_load(path, &scratch, err, sizeof(err));
		if (r)
			dix_err("%s", err);
	}
	if (!r) {
		*eng = engine_find(scratch.engine);
		if (!*eng) {
			engine_names(NULL, err, sizeof(err));
			dix_err("--engine: '%s' is not available (allowed: %s)",
				scratch.engine, err);
			r = -EINVAL;
		}
	}
	opts_free(&scratch);
	if (r)
		return r;

	o->opt_engine = (*eng)->name;
	if (profile) {
		r = profile_load(path, o, err, sizeof(err));
		if (r) {
			dix_err("%s", err);
			return r;
		}
		o->profile = xstrdup(profile);
	}
	return parse_cli(argc, argv, o, &profile, list_profiles);
}

/*
 * --plot and --log are written after the load, --lat-log once the load
 * runs: find out now, not after a long run, that they cannot be.
 */
static int check_output_files(const struct dix_opts *o)
{
	const char *files[] = { o->plot, o->log, o->lat_log };
	const char *names[] = { "--plot", "--log", "--lat-log" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		int fd;

		if (!files[i])
			continue;
		if (!o->interval_ms) {
			dix_err("%s needs the meter (--interval > 0)", names[i]);
			return -EINVAL;
		}
		fd = open(files[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			dix_err("%s %s: cannot write: %s", names[i], files[i],
				strerror(errno));
			return -errno;
		}
		close(fd);
	}
	return 0;
}

/*
 * --output, expanded for this rank (@rank < 0: no MPI) and opened before
 * the load, so a file that cannot be written stops the run at its start.
 * Return: 0 with *@f the stream (NULL: no --output), or -errno.
 */
static int open_output(const struct dix_opts *o, int rank, const char *host,
		       FILE **f)
{
	char err[256];
	char *path;

	*f = NULL;
	if (!o->output)
		return 0;
	path = dev_expand("--output", o->output, strlen(o->output), rank,
			  host, o->output, err, sizeof(err));
	if (!path) {
		dix_err("%s", err);
		return -EINVAL;
	}
	*f = fopen(path, "we");
	if (!*f) {
		int e = errno;

		dix_err("--output %s: cannot write: %s", path, strerror(e));
		free(path);
		return -e;
	}
	free(path);
	return 0;
}

/*
 * --metrics, bound before the load by the process that reports (rank 0
 * under MPI: @rank > 0 serves nothing), so a bad address or a port in use
 * stops the run at its start.
 * Return: 0 with *@m the endpoint (NULL: no --metrics), or -errno.
 */
static int open_metrics(const struct dix_opts *o, int rank, void **m)
{
#ifdef HAVE_MICROHTTPD
	char err[512];
#endif

	*m = NULL;
	if (!o->metrics && o->metrics_linger > 0) {
		dix_err("--metrics-linger needs --metrics");
		return -EINVAL;
	}
	if (!o->metrics || rank > 0)
		return 0;
	if (!o->interval_ms) {
		dix_err("--metrics needs the meter (--interval > 0)");
		return -EINVAL;
	}
#ifdef HAVE_MICROHTTPD
	*m = sink_metrics_open(o->metrics, err, sizeof(err));
	if (!*m) {
		dix_err("%s", err);
		return -EINVAL;
	}
	return 0;
#else
	dix_err("--metrics: this dixload was built without libmicrohttpd (install libmicrohttpd-dev, configure --with-microhttpd)");
	return -ENOTSUP;
#endif
}

/*
 * The run's --output stream and --metrics endpoint, once it is over; the
 * endpoint first waits up to @linger seconds for a scrape of the end.
 */
static void close_reporting(struct dix_run *r, double linger)
{
	if (r->output)
		fclose(r->output);
	r->output = NULL;
#ifdef HAVE_MICROHTTPD
	sink_metrics_linger(r->metrics, linger);
	sink_metrics_free(r->metrics);
#endif
	r->metrics = NULL;
}

/* How many --inject rules corrupt an AEAD tag (tag@N: --engine kcapi). */
static int tag_rules(const struct dix_opts *o)
{
	int i, n = 0;

	for (i = 0; i < o->inject.n; i++)
		n += !strncmp(o->inject.v[i], "tag@", 4);
	return n;
}

/* --pi and --inject against what the engine can do. */
static int check_pi_mode(const struct dix_opts *o, const struct dix_engine *e)
{
	char list[256];

	if (tag_rules(o)) {
		dix_err("--inject tag@N corrupts an AEAD's authentication tag: it is for --engine kcapi; a device takes guard@N, app@N or ref@N with --pi app");
		return -EINVAL;
	}
	if (o->inject.n && o->pi != PI_APP) {
		dix_err("--inject needs --pi app (dixload must generate the PI to corrupt it)");
		return -EINVAL;
	}
	/*
	 * --pi off through a block-layer engine is checked once the target
	 * is open: true on a device without integrity, not on a DIX one.
	 */
	if (o->pi != PI_APP || engine_carries_pi(e))
		return 0;
	if (!engine_names(engine_carries_pi, list, sizeof(list)))
		snprintf(list, sizeof(list), "none in this build");
	dix_err("--pi app: engine %s cannot carry PI generated by dixload (engines that can: %s)",
		e->name, list);
	return -EINVAL;
}

/* Default amount of requests of a crypto run without --size: 1 GiB. */
#define CRYPTO_DEFAULT_SIZE	(1ull << 30)

/*
 * A crypto engine's run: no device, a virtual target of --size bytes of
 * requests (the same loop, meter, report, hot-load, plot and CSV as a
 * device), no safety checks (nothing is written), no preconditioning.
 */
static int crypto_main(struct dix_opts *o, const struct dix_engine *eng)
{
	struct dix_devdesc t;
	struct dix_dev d;
	struct dix_run r;
	char err[1024], warn[512], load[768], *path = NULL;
	int status;

	if (o->dev) {
		dix_err("--engine %s takes no --dev: its load is the kernel crypto API, named by its own options (ENGINES in --help)",
			eng->name);
		return DIX_EXIT_USAGE;
	}
	if (o->inject.n) {
		struct inject in;

		if (inject_parse(o, &in, err, sizeof(err))) {
			dix_err("%s", err);
			return DIX_EXIT_USAGE;
		}
	}
	if (o->pi == PI_APP || o->inject.n > tag_rules(o)) {
		dix_err("--pi app and --inject guard|app|ref are for devices; --engine %s checks every result itself (its --inject is tag@N)",
			eng->name);
		return DIX_EXIT_USAGE;
	}
	if (actions_check(o, err, sizeof(err))) {
		dix_err("%s", err);
		return DIX_EXIT_USAGE;
	}
	if (!o->seed_set) {
		if (getrandom(&o->seed, sizeof(o->seed), 0) != sizeof(o->seed))
			o->seed = (uint64_t)dix_now_ns();
		o->seed &= (1ull << 53) - 1;	/* exact in JSON doubles */
	}
	if (check_output_files(o))
		return DIX_EXIT_USAGE;
	load[0] = '\0';
	if (eng->setup && eng->setup(o, load, sizeof(load))) {
		dix_err("--engine %s: %s", eng->name, load);
		return DIX_EXIT_USAGE;
	}
	if (asprintf(&path, "%s:%s", eng->name, load) < 0)
		return DIX_EXIT_USAGE;
	devdesc_open_crypto(&t, path, load,
			   o->size ? o->size + o->offset :
			   CRYPTO_DEFAULT_SIZE + o->offset, o->bs);
	if (devdesc_fit_region(&t, o, err, sizeof(err), warn, sizeof(warn))) {
		dix_err("%s", err);
		free(path);
		return DIX_EXIT_USAGE;
	}
	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	o->precondition = PRECOND_OFF;
	d.t = t;
	d.path = path;
	d.size = o->size;
	snprintf(d.pre.reason, sizeof(d.pre.reason),
		 "a crypto load has no device to write");
	r.o = o;
	r.devs = &d;
	r.ndevs = 1;
	r.eng = eng;
	r.wake_fd = -1;
	if (open_output(o, -1, "", &r.output) ||
	    open_metrics(o, -1, &r.metrics)) {
		close_reporting(&r, 0);
		free(path);
		return DIX_EXIT_USAGE;
	}
	status = run_load(&r);
	run_free(&r);
	close_reporting(&r, o->metrics_linger);
	free(path);
	return status;
}

/*
 * MPI, when mpirun launched dixload or --mpi asks for it: every rank runs
 * this function; the setup checks end in one agreement, so a rank that
 * cannot start stops the job (named by rank and host) instead of leaving
 * the others waiting.
 */
static int mpi_begin(const struct dix_opts *o, struct dix_mpi **mpi)
{
	static int once;
	char err[768];

	*mpi = NULL;
	if (!o->mpi && !dix_mpi_launched())
		return 0;
#ifdef HAVE_MPI
	/* MPI starts once per process: dixload sweep's second run cannot */
	if (once++) {
		dix_err("MPI: one run per process (run dixload sweep without mpirun)");
		return -1;
	}
	if (dix_mpi_init(mpi, err, sizeof(err))) {
		/* an empty reason: rank 0 gives it for the whole job */
		if (err[0])
			dix_err("MPI: %s", err);
		return -1;
	}
	return 0;
#else
	(void)err;
	if (o->mpi) {
		dix_err("--mpi: this dixload was built without MPI (install libopenmpi-dev and configure --with-mpi)");
		return -1;
	}
	/* as before MPI existed: each process runs on its own */
	return 0;
#endif
}

/* What MPI cannot do (yet); checked on every rank alike. */
static int check_mpi(const struct dix_opts *o, const struct dix_engine *eng)
{
	if (engine_is_crypto(eng)) {
		dix_err("--engine %s: a crypto load is not reduced over MPI ranks (run it without mpirun)",
			eng->name);
		return -EINVAL;
	}
	if (!o->interval_ms) {
		dix_err("--interval 0: under MPI the ranks meet every interval (give --interval > 0)");
		return -EINVAL;
	}
	if (o->error_log) {
		dix_err("--error-log: under MPI every rank would write the same file (each rank prints its bad extents on its stderr)");
		return -EINVAL;
	}
	if (o->per_device) {
		dix_err("--per-device: under MPI rank 0 prints a row per rank, not per device (run without mpirun for device lines)");
		return -EINVAL;
	}
	return 0;
}

static int run_main(int argc, char **argv)
{
	struct dix_opts o;
	struct dix_run r;
	struct dix_mpi *mpi = NULL;
	const struct dix_engine *eng;
	char err[1024], host[64] = "";
	int list_profiles = 0, status = DIX_EXIT_USAGE;

	/* @o is initialised (to be freed) whatever build_opts() returns */
	if (build_opts(argc, argv, &o, &eng, &list_profiles))
		goto out;
	if (list_profiles) {
		profile_list(stdout);
		status = 0;
		goto out;
	}
	if (mpi_begin(&o, &mpi))
		goto out;
	if (mpi && check_mpi(&o, eng))
		goto fail;
	if (eng->check && eng->check(&o, err, sizeof(err))) {
		dix_err("%s", err);
		goto fail;
	}
	if (engine_is_crypto(eng)) {
		status = crypto_main(&o, eng);
		goto out;
	}
	if (!o.dev) {
		dix_err("--dev PATH is required (a block device or a file; see --help)");
		goto fail;
	}
	if (check_pi_mode(&o, eng))
		goto fail;
	if (actions_check(&o, err, sizeof(err))) {
		dix_err("%s", err);
		goto fail;
	}
	if (!o.seed_set) {
		if (getrandom(&o.seed, sizeof(o.seed), 0) != sizeof(o.seed))
			o.seed = (uint64_t)dix_now_ns();
		o.seed &= (1ull << 53) - 1;	/* exact in JSON doubles */
	}

	if (check_output_files(&o))
		goto fail;
	if (eng->setup && eng->setup(&o, err, sizeof(err))) {
		dix_err("--engine %s: %s", eng->name, err);
		goto fail;
	}
	memset(&r, 0, sizeof(r));
	if (mpi)
		snprintf(host, sizeof(host), "%s", dix_mpi_host(mpi));
	if (open_output(&o, mpi ? dix_mpi_rank(mpi) : -1, host, &r.output) ||
	    open_metrics(&o, mpi ? dix_mpi_rank(mpi) : -1, &r.metrics)) {
		close_reporting(&r, 0);
		goto fail;
	}
	if (devs_open(&o, eng, cli_sets(argc, argv, "precondition") ? NULL :
		      o.profile, mpi ? dix_mpi_rank(mpi) : -1, host, &r.devs,
		      &r.ndevs)) {
		close_reporting(&r, 0);
		goto fail;
	}
	if (mpi && !dix_mpi_agree(mpi, 1, NULL)) {
		devs_close(r.devs, r.ndevs);
		close_reporting(&r, 0);
		goto out;
	}
	r.o = &o;
	r.eng = eng;
	r.wake_fd = -1;
	r.mpi = mpi;
	r.silent = mpi && dix_mpi_rank(mpi) != 0;
	status = run_load(&r);
	run_free(&r);
	devs_close(r.devs, r.ndevs);
	close_reporting(&r, o.metrics_linger);
	goto out;
fail:
	/* the other ranks learn it here, and rank 0 names this one */
	if (mpi)
		dix_mpi_agree(mpi, 0, dix_last_err);
out:
	dix_mpi_finish(mpi);
	opts_free(&o);
	return status;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	/* the engines' options, before any command parses one */
	engine_options_register();
	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "crcbench"))
		return crcbench_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1, run_main);
	if (argc > 1 && !strcmp(argv[1], "compare")) {
#ifdef HAVE_JSONC
		return compare_main(argc - 1, argv + 1);
#else
		dix_err("compare: this dixload was built without json-c (install libjson-c-dev and rebuild)");
		return DIX_EXIT_USAGE;
#endif
	}
	if (argc > 1 && argv[1][0] != '-') {
		dix_err("unknown command '%s' (commands: probe, crcbench, compare, sweep; or options, see --help)",
			argv[1]);
		return DIX_EXIT_USAGE;
	}
	return run_main(argc, argv);
}
