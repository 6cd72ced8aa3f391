/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - the option tables and the one parser behind the command line
 * and profile files.
 *
 * Every setting is described once (name, type, where it lives in struct
 * dix_opts, default, allowed values, help).  The command line, profile files
 * and the "effective settings" report all walk the same rows, so a new
 * option is one row.  The run's own options are dix_options[]; an engine's
 * options are rows in its struct dix_engine (engines/engine.h), told to
 * this parser by opts_add_engine() (conf/ is below engines/), and taken
 * only when that engine is the run's: the parser knows the engine
 * (struct dix_opts.opt_engine) before it reads the profile and the command
 * line.  Their fields stay in struct dix_opts, so an engine reads them at
 * init() as before and no I/O goes through one more pointer.
 */
#ifndef DIX_OPTIONS_H
#define DIX_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW,
};

enum out_format { OUT_HUMAN, OUT_JSON };
enum verify_mode { VERIFY_OFF, VERIFY_ON, VERIFY_STRICT };
enum pi_mode { PI_KERNEL, PI_APP, PI_OFF };
enum precond_mode { PRECOND_AUTO, PRECOND_ON, PRECOND_OFF };
enum submit_mode { SUBMIT_SYNC, SUBMIT_ASYNC };
enum rebind_mode { REBIND_AUTO, REBIND_OFF };

/* A repeatable option ("--hotload a@1 --hotload b@2"): values in order. */
struct str_list {
	char **v;
	int n;
};

/**
 * struct dix_opts - every effective setting of a run.
 * @dev: target path (block device or regular file); several separated by
 *	commas (a repeated --dev appends)
 * @profile: profile name or file given, or NULL
 * @rw: access pattern
 * @rwmixread: percentage of reads for rw/randrw
 * @bs: I/O size in bytes (power of two, multiple of the logical block size)
 * @iodepth: I/Os in flight per job
 * @iodepth_batch: I/Os handed to the kernel per submit system call
 * @sqpoll: io_uring: submission queue polled by a kernel thread
 * @hipri: io_uring: polled completions (IORING_SETUP_IOPOLL)
 * @jobs: worker threads; the region is split evenly between them
 * @size: bytes of the region (0 = to the end of the device or file)
 * @offset: start of the region in bytes
 * @runtime: seconds to run (0 = cover the region once)
 * @timeout: command timeout of the pass-through engines in seconds (0 = the
 *	engine's default: sg 60 s, nvme the kernel's io_timeout)
 * @engine: I/O engine name (see engines.c)
 * @verify: data verification mode
 * @interval_ms: meter period in milliseconds (0 = no meter lines)
 * @format: human or JSON lines output
 * @seed: seed of the pattern and the random offsets
 * @seed_set: @seed came from the user (else it was drawn at start)
 * @force: write devices carrying data signatures (see safety.c), or held
 *	by another exclusive opener or dixload run (device/claim.h)
 * @grow: extend an existing file shorter than --offset + --size (core/dev.c)
 * @mpi: initialise MPI although no launcher set the environment
 * @per_device: a meter line per device besides the total (several --dev)
 * @quiet: no meter lines, only the summary
 * @meter_lat: the meter line ends with the interval's p99 per direction
 * @max_errors: stop after this many errors (0 = unlimited)
 * @max_report: bad extents printed while running and listed in the summary
 *	(the rest are counted)
 * @error_log: file that gets every bad block as a JSON line, or NULL
 * @journal: --journal FILE (journal.h), or NULL
 * @pi_format: integrity format the profile expects, or "any"
 * @pi: who generates and checks protection information
 * @inject: deliberate fault injection ("guard@N" ...)
 * @hotload/@unload/@sysfs/@exec/@dm_reload/@priority: scheduled actions ("SPEC@SEC")
 * @sysfs_keep: leave the files --sysfs wrote as the run set them (else each
 *	gets back what it held before the run's first write)
 * @plot: SVG file to write at the end
 * @log: CSV file of per-interval samples and events
 * @lat_log: file of per-interval latency histograms (JSON lines), or NULL
 * @output: file that gets what stdout gets (%r / %h expanded under MPI)
 * @metrics: --metrics [HOST:]PORT, the OpenMetrics endpoint's address
 * @metrics_linger: seconds the endpoint may wait after the run for a
 *	scrape of its end (0: none)
 * @buffered: open the targets without O_DIRECT (fio's direct=0): the I/O
 *	goes through the page cache
 * @precondition: write the whole region once before the load (auto, on,
 *	off; see precond.h)
 * @rate: cap in bytes per second per direction (0: none; --rate is in MB/s)
 * @rate_iops: cap in I/Os per second per direction (0: none)
 * @alg: kernel crypto API algorithm of a crypto engine ("xts(aes)")
 * @tfms: transforms (TFMs) a crypto engine opens, spread over the jobs
 * @submit: how a crypto engine hands requests to the kernel
 * @rebind: reopen the TFMs when the kernel's selected driver changes
 * @verify_every: a crypto engine checks every Nth request (1: all of them)
 * @complete: the order the null engine completes I/O in (enum null_order)
 * @fail_every: the null engine fails every Nth I/O of a job (0: none)
 * @fail_errno: with that errno (index into the null engine's names)
 * @flip_every: the null engine flips a bit of every Nth read (0: none)
 * @discard: the null engine keeps nothing (reads leave their buffer)
 * @kload_corrupt: test only: the dixkload module corrupts every Nth
 *	result before its check (0: none; the module needs allow_corrupt=1)
 * @opt_engine: the engine whose options opt_set() takes (its name, static:
 *	set before the profile and the command line are read); NULL: every
 *	engine's (profile listings, the unit tests)
 * @fio_noted: the fio names (a bit per dix_fio_aliases[] row) this run
 *	took with a stated difference: opts_fio_notes() says each once
 *
 * @sqpoll, @hipri, @timeout, @alg, @tfms, @submit, @rebind, @verify_every, @complete,
 * @fail_every, @fail_errno, @flip_every and @discard are engine options:
 * their rows are the engines' (io_uring; sg and nvme; kcapi; null).
 * @sysfs_root: not an option: the directory --sysfs writes are confined
 *	to, NULL for "/sys" (DIX_SYSFS_ROOT); a unit test points its run's
 *	at a scratch directory.  Nothing at run time (no option, no
 *	environment variable) sets it
 */
struct dix_opts {
	char *dev;
	char *profile;
	int rw;
	uint64_t rwmixread;
	uint64_t bs;
	uint64_t iodepth;
	uint64_t iodepth_batch;
	int sqpoll;
	int hipri;
	uint64_t jobs;
	uint64_t size;
	uint64_t offset;
	double runtime;
	double timeout;
	char *engine;
	int verify;
	uint64_t interval_ms;
	int format;
	uint64_t seed;
	int seed_set;
	int force;
	int grow;
	int mpi;
	int per_device;
	int quiet;
	int meter_lat;
	uint64_t max_errors;
	uint64_t max_report;
	char *error_log;
	char *journal;
	char *pi_format;
	int pi;
	struct str_list inject;
	struct str_list hotload;
	struct str_list unload;
	struct str_list sysfs;
	struct str_list exec;
	struct str_list dm_reload;
	struct str_list priority;
	int sysfs_keep;
	char *plot;
	char *log;
	char *lat_log;
	char *bw_log;		/* fio's PREFIX_bw.1.log (sink_fiolog.c) */
	char *iops_log;		/* fio's PREFIX_iops.1.log */
	char *output;
	char *metrics;
	double metrics_linger;
	int buffered;
	int precondition;
	double rate[2];
	double rate_iops[2];
	char *alg;
	uint64_t tfms;
	int submit;
	int rebind;
	uint64_t verify_every;
	int complete;
	uint64_t fail_every;
	int fail_errno;
	uint64_t flip_every;
	int discard;
	uint64_t kload_corrupt;
	const char *opt_engine;
	const char *sysfs_root;
	uint64_t fio_noted;
};

enum opt_type {
	OPT_STR,	/* char * */
	OPT_SIZE,	/* uint64_t, k/m/g suffixes */
	OPT_UINT,	/* uint64_t */
	OPT_SECONDS,	/* double */
	OPT_ENUM,	/* int index into ->allowed */
	OPT_FLAG,	/* int, no value on the command line; profiles: 0/1 */
	OPT_LIST,	/* struct str_list, repeatable */
	OPT_RATE,	/* double[2]: "R,W", "N" (both), ",W", "R," */
};

/*
 * What a value is, for shell completion (dixload --dump-options): enums
 * complete from ->allowed, the rest by kind.  Kept in the table so the
 * completion cannot drift from the options.
 */
enum opt_complete {
	CPL_NONE,	/* a number or free text */
	CPL_FILE,	/* a file to write or read */
	CPL_TARGET,	/* a block device or a file */
	CPL_PROFILE,	/* a profile name on the search path, or a file */
	CPL_ENGINE,	/* an engine of this build */
	CPL_MODULE,	/* a kernel module name, then @SEC */
	CPL_SYSFS,	/* a /sys path, then =VAL@SEC */
};

/* Where an option may appear. */
/*
 * Not in profiles: --profile, --dev, --force, --grow, and the files dixload
 * creates (--plot, --log, --error-log), which it truncates as root: where
 * to write is the caller's choice, never a workload's.
 */
#define OPT_CLI_ONLY	0x1
/*
 * A scheduled action (--hotload, --unload, --sysfs, --exec, --priority): it changes the
 * system as root, so it is accepted only from the command line of the
 * person running dixload, never from a profile, which describes a workload
 * and may come from a directory someone else writes.
 */
#define OPT_ACTION	0x2
/* A string given again is appended after a comma ("--dev A --dev B"). */
#define OPT_JOIN	0x4

/**
 * struct dix_option - one row of the option table.
 * @name: long name without "--"; also the profile key
 * @type: how the value is parsed
 * @off: offset of the field in struct dix_opts (or -1 for actions)
 * @def: default value as text (NULL = empty / zero)
 * @allowed: for OPT_ENUM, the NULL-terminated list of values
 * @min: smallest accepted number (OPT_UINT/OPT_SIZE; OPT_SECONDS: in
 *	milliseconds, and 0, the default, is accepted too)
 * @max: largest accepted number (0 = no limit; OPT_SECONDS: milliseconds)
 * @flags: OPT_CLI_ONLY, OPT_ACTION
 * @unit: for OPT_RATE, what one unit of the value is in the stored
 *	field (1e6: --rate is given in MB/s and kept in bytes per second)
 * @complete: what the value is, for shell completion
 * @metavar: the value's name in --help
 * @help: one line of help
 * @refusal: an engine's option: what an engine without it lacks, as the
 *	rest of "--engine NAME ..." in the error ("does not poll"); NULL:
 *	"does not take it"
 */
struct dix_option {
	const char *name;
	enum opt_type type;
	long off;
	const char *def;
	const char *const *allowed;
	uint64_t min, max;
	unsigned int flags;
	double unit;
	enum opt_complete complete;
	const char *metavar;
	const char *help;
	const char *refusal;
};

extern const struct dix_option dix_options[];

/**
 * opts_add_engine() - @rows (NULL-terminated) are the options of engine
 * @engine: opt_set() takes them when @engine is the parse's engine, and
 * names @engine when another engine's run is given one; opts_init() sets
 * their defaults, opts_dump() lists them, and the effective settings show
 * them when @engine is the run's.  Called once per engine before any parse
 * (engine_options_register() does it for every built engine); a second
 * call for @engine changes nothing.
 */
void opts_add_engine(const char *engine, const struct dix_option *rows);

/**
 * opt_find() - the row named @name: the run's, else the first engine's
 * that has one; NULL when no table has it.
 */
const struct dix_option *opt_find(const char *name);

/**
 * opts_engine_rows() - the option rows engine @engine told (opts_add_engine())
 * @engine:	an engine's name, or NULL
 *
 * Return: its rows, or NULL (none told, or no such engine).
 */
const struct dix_option *opts_engine_rows(const char *engine);

/** opts_init() - set every field of @o to its table default. */
void opts_init(struct dix_opts *o);

/** opts_free() - free strings and lists in @o. */
void opts_free(struct dix_opts *o);

/**
 * opt_set() - parse @value for option @name into @o.
 * @name: a row's name, or a fio name of the command line (opt_cli_alias():
 *	--numjobs sets --jobs); a name both share with the same meaning
 *	(rw, bs, runtime, ...) also takes fio's spelling of a value dixload's
 *	syntax refuses (--rw readwrite, --runtime 500ms)
 * @err: buffer for the reason when the value is rejected ("allowed: ...")
 *
 * Return: 0; -ENOENT for an unknown name; -EINVAL for a bad value, or
 * for an option of other engines than @o->opt_engine (@err names them).
 */
int opt_set(struct dix_opts *o, const char *name, const char *value,
	    char *err, size_t errlen);

/**
 * opt_set_own() - opt_set() in dixload's syntax only: a shared name's
 * value is not tried again in fio's (what the fio setters call, so a
 * value bad in both syntaxes ends there).
 */
int opt_set_own(struct dix_opts *o, const char *name, const char *value,
		char *err, size_t errlen);

/**
 * opts_dump() - every option, the engines' too, for the completion generator
 * (scripts/gen-completion), one option a line: "NAME<TAB>KIND<TAB>VALUES",
 * KIND one of flag, enum, file, target, profile, module, sysfs, value;
 * VALUES the space-separated allowed values of an enum.  @engines: the
 * engine names of this build (an engine option is an enum of them).
 */
void opts_dump(FILE *f, const char *engines);

/** opts_print_help() - the run's option table as --help text. */
void opts_print_help(FILE *f);

/** opts_print_rows() - @rows as --help text, each line after @indent. */
void opts_print_rows(FILE *f, const struct dix_option *rows,
		     const char *indent);

struct jw;

/**
 * opts_print_effective() - the effective settings as one "name=value ..."
 * line: the run's options, then those of its engine (@o->engine).
 */
void opts_print_effective(FILE *f, const struct dix_opts *o);

/**
 * opts_json() - the effective settings as the JSON object member @key (the
 * run's options, then those of its engine): numbers as numbers (sizes in bytes), enums and strings as strings, lists
 * as arrays; unset options are left out.
 */
void opts_json(struct jw *w, const char *key, const struct dix_opts *o);

/**
 * opt_row_name() - the name of row @i of every table (the run's, then each
 * engine's in the order they were told), for the did-you-mean search.
 * Return: the name, or NULL past the last row.
 */
const char *opt_row_name(int i);

/* --- fio's names (optalias.c; doc/fio.md) ------------------------------ */

/*
 * What a fio name is to dixload: the same meaning (mapped), accepted with
 * a difference the run states once (opts_fio_notes()), or refused for the
 * values dixload cannot honour (the rest accepted, e.g. direct=1).
 */
enum fio_kind { FIO_MAPPED, FIO_DIFFERENT, FIO_REFUSED };

struct dix_fio_alias;
typedef int (*fio_setter)(struct dix_opts *o, const struct dix_fio_alias *a,
			  const char *value, unsigned int kb_base, char *err,
			  size_t errlen);

/**
 * struct dix_fio_alias - one fio option name.
 * @fio: fio's name ("numjobs"), without "--"
 * @opt: the dixload option it sets ("jobs"); NULL when it sets none
 * @kind: mapped, different or refused (for some values)
 * @flag: takes no value on the command line (--time_based, --direct)
 * @metavar: the value's name in --help (NULL for a flag)
 * @set: fio's value into @opt (fio's syntax and names converted)
 * @note: the difference or the refusal's reason, one line (--help, the
 *	run's note, doc/fio.md)
 */
struct dix_fio_alias {
	const char *fio;
	const char *opt;
	enum fio_kind kind;
	int flag;
	const char *metavar;
	fio_setter set;
	const char *note;
};

/* Every fio name dixload knows, ending with a NULL @fio. */
extern const struct dix_fio_alias dix_fio_aliases[];

/**
 * opt_fio_alias() - the row of fio option @fio_name ("numjobs", "rate",
 * "bs"; fio's spelling, without "--"), or NULL when dixload knows no such
 * fio option.  Names fio and dixload share (rw, bs, size, offset, iodepth,
 * runtime, rwmixread, rate) have rows too: they carry fio's meaning, which
 * only opt_set_fio() gives them (on the command line dixload's rows win).
 */
const struct dix_fio_alias *opt_fio_alias(const char *fio_name);

/**
 * opt_set_fio() - set fio option @fio_name to @value as fio means it (the
 * job-file reader's entry: fio's rate is bytes per second, its sizes
 * follow @kb_base, its times take us/ms/s/m/h/d)
 * @kb_base: 1024 (fio's default) or 1000, fio's kb_base
 * @err: why @value was refused, naming the fio option (and the dixload one)
 *
 * Return: 0 mapped; 1 accepted with the difference opt_fio_alias()->note
 * states (also recorded in @o->fio_noted); -ENOENT when @fio_name is no
 * fio option dixload knows; -EINVAL for a refused or bad value.
 */
int opt_set_fio(struct dix_opts *o, const char *fio_name, const char *value,
		unsigned int kb_base, char *err, size_t errlen);

/**
 * opt_cli_alias() - the alias row of command-line name @name: a fio name
 * that is no dixload option (so not "rate", which is dixload's), or NULL.
 */
const struct dix_fio_alias *opt_cli_alias(const char *name);

/**
 * opt_set_alias() - opt_set() for a name that is no row: a fio name of the
 * command line (opt_cli_alias()), with kb_base 1024.
 * Return: 0; -ENOENT when @name is no such alias; -EINVAL (@err says why).
 */
int opt_set_alias(struct dix_opts *o, const char *name, const char *value,
		  char *err, size_t errlen);

/** opts_fio_notes() - one "note:" line per fio name @o took with a difference. */
void opts_fio_notes(FILE *f, const struct dix_opts *o);

/** opts_print_fio_help() - the command line's fio names as --help text. */
void opts_print_fio_help(FILE *f);

/**
 * opt_suggest() - the known name closest to unknown option @name:
 * dixload's options, @extra (NULL-terminated, may be NULL: names the
 * caller handles itself, e.g. "help") and the fio names, by edit distance
 * (letters inserted, deleted, changed or two swapped; '_' is '-'), within
 * a third of @name's length (1 up to 5 letters).
 * @buf: "--jobs", or "--numjobs (fio's name for --jobs)"
 * Return: 0, or -ENOENT (and @buf "") when nothing is that close.
 */
int opt_suggest(const char *name, const char *const *extra, char *buf,
		size_t len);

/** opt_distance() - the edit distance opt_suggest() uses (99: too long). */
int opt_distance(const char *a, const char *b);

/**
 * fio_parse_size() - a size in fio's syntax: digits, then k/m/g/t/p
 * (any case), then i and/or b: with @kb_base 1024 (fio's default) k and
 * kb are 1024 and kib 1000, with 1000 the other way round, as in fio.
 * Return: 0, -EINVAL, -ERANGE.
 */
int fio_parse_size(const char *s, unsigned int kb_base, uint64_t *out);

/**
 * fio_parse_rate() - fio's rate=R[,W]: bytes per second per direction in
 * fio_parse_size()'s syntax; an empty side is uncapped, one value is both.
 * Return: 0 (@out in bytes per second), -EINVAL.
 */
int fio_parse_rate(const char *s, unsigned int kb_base, double out[2]);

/**
 * fio_parse_time() - a time in fio's syntax: seconds, or with a unit
 * us/usec, ms/msec, s/sec, m/min (minutes), h, d.  Return: 0, -EINVAL.
 */
int fio_parse_time(const char *s, double *sec);

extern const char *const rw_names[];
extern const char *const verify_names[];
extern const char *const format_names[];
extern const char *const pi_names[];
extern const char *const precondition_names[];

static inline int rw_is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

static inline int rw_reads(int rw)
{
	return rw != RW_WRITE && rw != RW_RANDWRITE;
}

static inline int rw_writes(int rw)
{
	return rw != RW_READ && rw != RW_RANDREAD;
}

#endif
