// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobmap.c - fio job-file keys onto dixload's options (see jobmap.h).
 *
 * The table is data, and doc/fio.md is printed from it (`dixload
 * --jobmap-table`), so the documentation cannot drift from what runs.
 * A job is built as dixload command-line options ("--key=value": a flag
 * can then be given 0 too), which the run parses as it parses any other:
 * one parser, one set of checks.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf/jobmap.h"
#include "conf/options.h"
#include "lib/util.h"

#define P2	"issue 34, point 2 (the workload vocabulary): not built yet"
#define P5	"issue 34, point 5 (fio's log formats): not built yet"

const struct jm_row jm_rows[] = {
	/* what the job is */
	{ "name", JM_MAPPED, "the job's name in its rows", NULL },
	{ "description", JM_MAPPED, "printed in the job's start line", NULL },
	{ "rw", JM_MAPPED, "--rw (read write randread randwrite rw randrw)", NULL },
	{ "readwrite", JM_MAPPED, "--rw", NULL },
	{ "rwmixread", JM_MAPPED, "--rwmixread", NULL },
	{ "rwmixwrite", JM_MAPPED, "--rwmixread (100 - value)", NULL },
	{ "bs", JM_MAPPED, "--bs (one size for reads and writes)", NULL },
	{ "blocksize", JM_MAPPED, "--bs", NULL },
	{ "iodepth", JM_MAPPED, "--iodepth", NULL },
	{ "iodepth_batch", JM_MAPPED, "--iodepth-batch", NULL },
	{ "iodepth_batch_submit", JM_MAPPED, "--iodepth-batch", NULL },
	{ "size", JM_MAPPED, "--size (per file)", NULL },
	{ "filesize", JM_MAPPED, "--size of each file", NULL },
	{ "offset", JM_MAPPED, "--offset", NULL },
	{ "runtime", JM_MAPPED, "--runtime (fio's time: m is minutes)", NULL },
	{ "timeout", JM_MAPPED, "--runtime (fio's old name; not dixload's --timeout, the pass-through command timeout)", NULL },
	{ "rate", JM_MAPPED, "--rate (bytes per second, converted to dixload's MB/s)", NULL },
	{ "rate_iops", JM_MAPPED, "--rate-iops", NULL },
	{ "ioengine", JM_MAPPED, "--engine: libaio, io_uring, sync and psync (dixload's sync: pread/pwrite), null, sg", NULL },
	{ "filename", JM_MAPPED, "the targets (':' separates several); the command line's --dev or --filename replaces them", NULL },
	{ "directory", JM_MAPPED, "the targets' directory: files NAME.0.N, as fio names them; the command line's --directory replaces it", NULL },
	{ "nrfiles", JM_MAPPED, "that many files NAME.0.0 ... in the directory", NULL },
	{ "kb_base", JM_MAPPED, "how the job's sizes are read (1024: k = 1024, fio's default; 1000)", NULL },
	{ "stonewall", JM_MAPPED, "the job waits for every job before it", NULL },
	{ "wait_for_previous", JM_MAPPED, "as stonewall", NULL },
	{ "wait_for", JM_MAPPED, "the job waits for the earlier job of that name", NULL },
	{ "new_group", JM_MAPPED, "starts a new reporting group (no ordering)", NULL },
	{ "startdelay", JM_MAPPED, "the job starts that many seconds after it could", NULL },
	{ "loops", JM_MAPPED, "the job runs that many times, one after the other", NULL },
	{ "direct", JM_MAPPED, "1: O_DIRECT (dixload's default); 0: --buffered", NULL },
	{ "buffered", JM_MAPPED, "1: --buffered (fio's default); 0: O_DIRECT", NULL },
	{ "verify_fatal", JM_MAPPED, "--max-errors 1", NULL },
	{ "do_verify", JM_MAPPED, "0: no read-back phase after a write job's verify=", NULL },
	{ "hipri", JM_MAPPED, "--hipri (io_uring)", NULL },
	{ "sqthread_poll", JM_MAPPED, "--sqpoll (io_uring)", NULL },
	{ "thread", JM_MAPPED, "nothing to do: dixload's jobs are threads", NULL },
	{ "threads", JM_MAPPED, "as thread (fio takes the prefix)", NULL },
	/* accepted, with a difference said once */
	{ "verify", JM_DIFFERENT, "--verify on, and on a write job a read-back phase after the writes",
	  "dixload checks its own block format (a header with the LBA, the write's identity and a hash over the block), which is stronger than fio's checksums; the read-back covers the job's whole region, which the job lays out first so every block read carries a header" },
	{ "numjobs", JM_DIFFERENT, "--jobs",
	  "fio's numjobs clones overlap on one file; dixload's N jobs of one section are N threads of one run on disjoint slices of the region (one writer per block, so verification never reports a false mismatch), reported together, as group_reporting would" },
	{ "group_reporting", JM_DIFFERENT, "one section's numjobs are one run, reported together",
	  "each section keeps its own rows: sections are not merged into one" },
	{ "time_based", JM_DIFFERENT, "with runtime: the run lasts runtime",
	  "dixload with a runtime always runs the whole runtime, looping over the region; without time_based fio stops earlier when size= is done" },
	{ "norandommap", JM_DIFFERENT, "nothing to do",
	  "dixload's random offsets are a full-period permutation per pass: every block once per pass, never twice, which a random map would also give" },
	{ "randrepeat", JM_DIFFERENT, "nothing to do",
	  "dixload draws a seed per run and prints it; --seed repeats a run" },
	{ "random_generator", JM_DIFFERENT, "nothing to do",
	  "dixload's offsets come from its own permutation, whatever generator is named" },
	{ "verify_dump", JM_DIFFERENT, "nothing to do",
	  "dixload names every bad block (LBA, byte, expected, found); --error-log FILE keeps them as JSON lines" },
	{ "verify_async", JM_DIFFERENT, "nothing to do",
	  "dixload verifies in the completion path of each job" },
	{ "gtod_reduce", JM_DIFFERENT, "nothing to do",
	  "dixload keeps its clocks: every latency is measured" },
	/* refused, with the reason */
	{ "bssplit", JM_REFUSED, NULL, "dixload runs one block size per job (bssplit: " P2 ")" },
	{ "bsrange", JM_MAPPED, "--bs when its ends are one size (bsrange=4k-4k); a real range is refused: dixload runs one block size per job (" P2 ")", NULL },
	{ "blocksize_range", JM_REFUSED, NULL, "dixload runs one block size per job (" P2 ")" },
	{ "random_distribution", JM_REFUSED, NULL, "dixload's random offsets are uniform (" P2 "; random is accepted)" },
	{ "ramp_time", JM_REFUSED, NULL, "no ramp (" P2 ")" },
	{ "number_ios", JM_REFUSED, NULL, "no I/O count limit (" P2 ")" },
	{ "io_size", JM_REFUSED, NULL, "no byte limit apart from the region (" P2 ")" },
	{ "io_limit", JM_REFUSED, NULL, "no byte limit apart from the region (" P2 ")" },
	{ "fsync", JM_REFUSED, NULL, "no fsync every N writes (" P2 ")" },
	{ "fdatasync", JM_REFUSED, NULL, "no fdatasync every N writes (" P2 ")" },
	{ "end_fsync", JM_REFUSED, NULL, "no fsync at the end (" P2 ")" },
	{ "write_bw_log", JM_REFUSED, NULL, "in a job file not yet (fio names the files by the job's index, and each section is a run of its own); on the command line --write_bw_log PREFIX (--bw-log) writes fio's format" },
	{ "write_lat_log", JM_REFUSED, NULL, "fio's latency logs hold each window's mean, which dixload does not keep (its histograms' buckets, 4 to a power of two, would give an estimate); dixload's --lat-log FILE has the histograms" },
	{ "write_iops_log", JM_REFUSED, NULL, "in a job file not yet (as write_bw_log); on the command line --write_iops_log PREFIX (--iops-log)" },
	{ "write_hist_log", JM_REFUSED, NULL, "fio's log files (" P5 ")" },
	{ "log_avg_msec", JM_REFUSED, NULL, "the window of --bw-log and --iops-log is the meter's --interval" },
	{ "log_offset", JM_REFUSED, NULL, "fio's log files (" P5 ")" },
	{ "log_prio", JM_REFUSED, NULL, "fio's log files (" P5 ")" },
	{ "verify_backlog", JM_REFUSED, NULL, "dixload verifies every read as it completes, not a backlog of writes read back mid-run" },
	{ "verify_interval", JM_REFUSED, NULL, "dixload's header and hash cover each I/O's blocks; no other interval" },
	{ "verify_pattern", JM_REFUSED, NULL, "dixload writes its own seeded pattern, which its check needs" },
	{ "verify_offset", JM_REFUSED, NULL, "dixload's header sits where its check reads it" },
	{ "verify_only", JM_REFUSED, NULL, "run the job with rw=read (a read-only dixload run checks every header)" },
	{ "thinktime", JM_REFUSED, NULL, "no think time between I/Os" },
	{ "exitall", JM_REFUSED, NULL, "jobs do not stop one another" },
	{ "exit_what", JM_REFUSED, NULL, "jobs do not stop one another" },
	{ "ratemin", JM_REFUSED, NULL, "dixload caps a rate; it does not fail a job below one" },
	{ "rate_min", JM_REFUSED, NULL, "dixload caps a rate; it does not fail a job below one" },
	{ "rate_process", JM_REFUSED, NULL, "dixload's cap is a token bucket, not a Poisson process" },
	{ "io_submit_mode", JM_DIFFERENT, "inline: nothing to do; offload: nothing to do",
	  "fio's offload hands submission to helper threads to hold a rate; dixload's jobs submit their own I/O, paced by the rate cap's token bucket: the same I/O, submitted by the job" },
	{ "offset_increment", JM_REFUSED, NULL, "dixload splits one region between its jobs evenly" },
	{ "fill_device", JM_REFUSED, NULL, "give size= (or no size: to the end of the target)" },
	{ "zonemode", JM_REFUSED, NULL, "no zoned workloads" },
	{ "zonesize", JM_REFUSED, NULL, "no zoned workloads" },
	{ "zoneskip", JM_REFUSED, NULL, "no zoned workloads" },
	{ "zonerange", JM_REFUSED, NULL, "no zoned workloads" },
	{ "max_open_zones", JM_REFUSED, NULL, "no zoned workloads" },
	{ "read_beyond_wp", JM_REFUSED, NULL, "no zoned workloads" },
	{ "cmdprio", JM_REFUSED, NULL, "no per-I/O priority" },
	{ "cmdprio_class", JM_REFUSED, NULL, "no per-I/O priority" },
	{ "cmdprio_percentage", JM_REFUSED, NULL, "no per-I/O priority" },
	{ "cmdprio_bssplit", JM_REFUSED, NULL, "no per-I/O priority" },
	{ "prio", JM_REFUSED, NULL, "no I/O priority (dixload's --priority is a crypto driver's, an action)" },
	{ "prioclass", JM_REFUSED, NULL, "no I/O priority" },
	{ "numa_cpu_nodes", JM_REFUSED, NULL, "no NUMA placement" },
	{ "numa_mem_policy", JM_REFUSED, NULL, "no NUMA placement" },
	{ "cpus_allowed", JM_REFUSED, NULL, "no CPU placement" },
	{ "cpumask", JM_REFUSED, NULL, "no CPU placement" },
	{ "flow", JM_REFUSED, NULL, "no flow control between jobs" },
	{ "flow_sleep", JM_REFUSED, NULL, "no flow control between jobs" },
	{ "ss", JM_REFUSED, NULL, "no steady-state detection" },
	{ "ss_dur", JM_REFUSED, NULL, "no steady-state detection" },
	{ "ss_ramp", JM_REFUSED, NULL, "no steady-state detection" },
	{ "latency_target", JM_REFUSED, NULL, "no latency-target depth search" },
	{ "latency_window", JM_REFUSED, NULL, "no latency-target depth search" },
	{ "latency_percentile", JM_REFUSED, NULL, "no latency-target depth search" },
	{ "dedupe_percentage", JM_REFUSED, NULL, "dixload's blocks are unique: its check needs them so" },
	{ "dedupe_mode", JM_REFUSED, NULL, "dixload's blocks are unique: its check needs them so" },
	{ "dedupe_working_set_percentage", JM_REFUSED, NULL, "dixload's blocks are unique" },
	{ "dedupe_global", JM_REFUSED, NULL, "dixload's blocks are unique" },
	{ "buffer_compress_percentage", JM_REFUSED, NULL, "dixload's blocks hold its own pattern" },
	{ "buffer_pattern", JM_REFUSED, NULL, "dixload's blocks hold its own pattern" },
	{ "zero_buffers", JM_REFUSED, NULL, "dixload's blocks hold its own pattern" },
	{ "refill_buffers", JM_REFUSED, NULL, "dixload's blocks hold its own pattern" },
	{ "scramble_buffers", JM_REFUSED, NULL, "dixload's blocks hold its own pattern" },
	{ "continue_on_error", JM_REFUSED, NULL, "dixload counts every error and goes on (--max-errors N stops): give that" },
	{ "ignore_error", JM_REFUSED, NULL, "dixload counts every error and names it" },
	{ "error_dump", JM_REFUSED, NULL, "dixload names every error" },
	{ "create_serialize", JM_REFUSED, NULL, "dixload creates a job's files when it opens them" },
	{ "create_on_open", JM_REFUSED, NULL, "dixload creates a job's files when it opens them" },
	{ "fallocate", JM_REFUSED, NULL, "dixload extends a file it creates to its size, no other allocation" },
	{ "blockalign", JM_REFUSED, NULL, "dixload aligns every I/O to its size" },
	{ "invalidate", JM_REFUSED, NULL, "dixload does not drop the page cache" },
	{ "lockmem", JM_REFUSED, NULL, "no memory locking" },
	{ "fixedbufs", JM_REFUSED, NULL, "dixload's io_uring engine registers what it needs" },
	{ "registerfiles", JM_REFUSED, NULL, "dixload's io_uring engine registers what it needs" },
	{ "unified_rw_reporting", JM_REFUSED, NULL, "dixload reports each direction" },
	{ "clocksource", JM_REFUSED, NULL, "dixload uses CLOCK_MONOTONIC" },
	{ NULL, 0, NULL, NULL },
};

const struct jm_row *jm_find(const char *key)
{
	const struct jm_row *r;

	for (r = jm_rows; r->key; r++)
		if (!strcmp(r->key, key))
			return r;
	return NULL;
}

const char *jm_kind_name(enum jm_kind k)
{
	return k == JM_MAPPED ? "mapped" : k == JM_DIFFERENT ? "different" :
	       "refused";
}

void jm_print_table(FILE *f)
{
	const struct jm_row *r;

	fprintf(f, "| fio key | kind | in dixload | difference or reason |\n");
	fprintf(f, "|---|---|---|---|\n");
	for (r = jm_rows; r->key; r++)
		fprintf(f, "| `%s` | %s | %s | %s |\n", r->key,
			jm_kind_name(r->kind), r->dix ? r->dix : "-",
			r->note ? r->note : "-");
}

/* --- building the jobs ---------------------------------------------------- */

struct bld {
	struct jm_job *j;
	struct jm_notes *notes;
	const struct jf_sect *sect;
	char *err;
	size_t len, used;
	int bad;
	unsigned int kb;
	char *filename, *directory;
	uint64_t size, filesize;
	unsigned int nrfiles;
	int verify, do_verify, runtime, time_based;
};

static void refuse(struct bld *b, const struct jf_kv *kv, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void refuse(struct bld *b, const struct jf_kv *kv, const char *fmt, ...)
{
	va_list ap;
	int n;

	b->bad = 1;
	if (b->used >= b->len)
		return;
	n = snprintf(b->err + b->used, b->len - b->used, "%s%s:%d: [%s] %s%s%s: ",
		     b->used ? "\n" : "", kv->file, kv->line, b->sect->name,
		     kv->key, kv->raw ? "=" : "", kv->raw ? kv->raw : "");
	if (n > 0)
		b->used += n;
	if (b->used >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->err + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += n;
	if (b->used > b->len)
		b->used = b->len;
}

static void arg(struct jm_job *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void arg(struct jm_job *j, const char *name, const char *fmt, ...)
{
	char val[512], *s;
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (asprintf(&s, "--%s=%s", name, val) < 0)
		abort();
	/* a later value replaces an earlier one (fio's defaults, [global]'s) */
	for (i = 0; i < j->argc; i++)
		if (!strncmp(j->argv[i], s, strlen(name) + 3)) {
			free(j->argv[i]);
			j->argv[i] = s;
			return;
		}
	j->argv = xrealloc(j->argv, (j->argc + 2) * sizeof(*j->argv));
	j->argv[j->argc++] = s;
	j->argv[j->argc] = NULL;
}

static void note(struct bld *b, const struct jf_kv *kv, const char *text)
{
	char *s;
	int i;

	for (i = 0; i < b->notes->n; i++)
		if (!strncmp(b->notes->v[i], kv->key, strlen(kv->key)) &&
		    b->notes->v[i][strlen(kv->key)] == ' ')
			return;
	if (asprintf(&s, "%s (%s:%d, [%s]): %s", kv->key, kv->file, kv->line,
		     b->sect->name, text) < 0)
		abort();
	b->notes->v = xrealloc(b->notes->v, (b->notes->n + 1) * sizeof(char *));
	b->notes->v[b->notes->n++] = s;
}

static int want_size(struct bld *b, const struct jf_kv *kv, uint64_t *out)
{
	char why[300];

	if (kv->val && strchr(kv->val, '%')) {
		refuse(b, kv, "a percentage of the target: give a size (allowed: 4k, 1m, 1g, ...)");
		return -1;
	}
	if (jf_size(kv->val, b->kb, out, why, sizeof(why))) {
		refuse(b, kv, "%s", why);
		return -1;
	}
	return 0;
}

static int want_bool(struct bld *b, const struct jf_kv *kv, int *out)
{
	char why[200];

	if (jf_bool(kv->val, out, why, sizeof(why))) {
		refuse(b, kv, "%s", why);
		return -1;
	}
	return 0;
}

static const char *engine_of(const char *fio)
{
	static const char *const map[][2] = {
		{ "libaio", "libaio" }, { "io_uring", "io_uring" },
		{ "sync", "sync" }, { "psync", "sync" }, { "null", "null" },
		{ "sg", "sg" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(map[i][0], fio))
			return map[i][1];
	return NULL;
}

static const char *rw_of(const char *v)
{
	static const char *const map[][2] = {
		{ "read", "read" }, { "write", "write" }, { "randread", "randread" },
		{ "randwrite", "randwrite" }, { "rw", "rw" }, { "readwrite", "rw" },
		{ "randrw", "randrw" },
	};
	unsigned int i;

	for (i = 0; v && i < ARRAY_SIZE(map); i++)
		if (!strcmp(map[i][0], v))
			return map[i][1];
	return NULL;
}

/* A dixload option name in a job file: as in a profile. */
static void own_key(struct bld *b, const struct jf_kv *kv)
{
	const struct dix_option *d = opt_find(kv->key);
	struct dix_opts scratch;
	char why[512];

	if (!d) {
		refuse(b, kv, "not an fio option dixload knows, nor one of dixload's (doc/fio.md lists fio's keys; dixload's are its long option names)");
		return;
	}
	if (d->flags & OPT_ACTION) {
		refuse(b, kv, "an action: actions (hotload, unload, sysfs, exec, dm-reload, priority) are accepted only on the command line, never from a file");
		return;
	}
	if ((d->flags & OPT_CLI_ONLY) || !strcmp(kv->key, "dev")) {
		refuse(b, kv, "only allowed on the command line (files dixload writes, --force, --grow and the targets' override are the caller's choice)");
		return;
	}
	opts_init(&scratch);
	if (opt_set(&scratch, kv->key, kv->val, why, sizeof(why)))
		refuse(b, kv, "%s", why);
	else
		arg(b->j, kv->key, "%s", kv->val ? kv->val : "1");
	opts_free(&scratch);
}

static void one_key(struct bld *b, const struct jf_kv *kv)
{
	const struct jm_row *r = jm_find(kv->key);
	struct jm_job *j = b->j;
	const char *k = kv->key, *s;
	char why[300];
	uint64_t n, rate[2];
	double t;
	int on;

	if (!r) {
		own_key(b, kv);
		return;
	}
	if (r->kind == JM_REFUSED) {
		/* the syntax first: a malformed value is named as such */
		if (!strcmp(k, "bssplit")) {
			struct jf_split sp[64];
			int ns;

			if (jf_bssplit(kv->val, b->kb, sp, 64, &ns, why, sizeof(why))) {
				refuse(b, kv, "%s", why);
				return;
			}
		}
		if (!strcmp(k, "random_distribution") && kv->val &&
		    !strcmp(kv->val, "random"))
			return;		/* uniform: what dixload does */
		refuse(b, kv, "refused: %s", r->note);
		return;
	}
	if (r->kind == JM_DIFFERENT)
		note(b, kv, r->note);
	if (!strcmp(k, "name")) {
		free(j->name);
		j->name = xstrdup(kv->val ? kv->val : b->sect->name);
	} else if (!strcmp(k, "description") || !strcmp(k, "thread") ||
		   !strcmp(k, "threads") || !strcmp(k, "norandommap") ||
		   !strcmp(k, "randrepeat") || !strcmp(k, "random_generator") ||
		   !strcmp(k, "verify_dump") || !strcmp(k, "verify_async") ||
		   !strcmp(k, "gtod_reduce") || !strcmp(k, "group_reporting") ||
		   !strcmp(k, "kb_base")) {
		/* nothing to pass: said in the table (and a note) */
	} else if (!strcmp(k, "rw") || !strcmp(k, "readwrite")) {
		s = rw_of(kv->val);
		if (!s)
			refuse(b, kv, "%s (allowed: read, write, randread, randwrite, rw, readwrite, randrw; no trim, no ':N' offset modifiers)",
			       kv->val && strchr(kv->val, ':') ?
			       "fio's sequential offset modifier ':N' has no dixload equivalent" :
			       "not an access pattern dixload runs");
		else
			arg(j, "rw", "%s", s);
	} else if (!strcmp(k, "rwmixread") || !strcmp(k, "rwmixwrite")) {
		if (want_size(b, kv, &n))
			return;
		if (n > 100)
			refuse(b, kv, "a percentage 0..100");
		else
			arg(j, "rwmixread", "%llu", (unsigned long long)
			    (k[5] == 'r' ? n : 100 - n));
	} else if (!strcmp(k, "bs") || !strcmp(k, "blocksize")) {
		char buf[128], *c;
		uint64_t w;

		snprintf(buf, sizeof(buf), "%s", kv->val ? kv->val : "");
		c = strchr(buf, ',');
		if (c)
			*c++ = '\0';
		if (want_size(b, &(struct jf_kv){ .key = kv->key, .val = buf,
			      .raw = kv->raw, .file = kv->file, .line = kv->line }, &n))
			return;
		if (c && *c) {
			char *c2 = strchr(c, ',');

			if (c2)
				*c2 = '\0';
			if (jf_size(c, b->kb, &w, why, sizeof(why)) || w != n) {
				refuse(b, kv, "reads and writes of different sizes: dixload runs one block size per job (allowed: one size)");
				return;
			}
		}
		arg(j, "bs", "%llu", (unsigned long long)n);
	} else if (!strcmp(k, "bsrange")) {
		uint64_t lo, hi;

		if (jf_range(kv->val, b->kb, &lo, &hi, why, sizeof(why)))
			refuse(b, kv, "%s", why);
		else if (lo != hi)
			refuse(b, kv, "refused: dixload runs one block size per job (a range of sizes: " P2 ")");
		else
			arg(j, "bs", "%llu", (unsigned long long)lo);
	} else if (!strcmp(k, "io_submit_mode")) {
		if (!kv->val || (strcmp(kv->val, "inline") && strcmp(kv->val, "offload")))
			refuse(b, kv, "allowed: inline or offload");
	} else if (!strcmp(k, "iodepth") || !strcmp(k, "iodepth_batch") ||
		   !strcmp(k, "iodepth_batch_submit")) {
		if (!want_size(b, kv, &n))
			arg(j, k[7] ? "iodepth-batch" : "iodepth", "%llu",
			    (unsigned long long)n);
	} else if (!strcmp(k, "size")) {
		if (!want_size(b, kv, &b->size))
			j->size_given = 1;
	} else if (!strcmp(k, "filesize")) {
		if (kv->val && strpbrk(kv->val, "-:"))
			refuse(b, kv, "a range of file sizes: dixload's files have one size (allowed: one size)");
		else if (!want_size(b, kv, &b->filesize))
			j->size_given = 1;
	} else if (!strcmp(k, "nrfiles")) {
		if (!want_size(b, kv, &n)) {
			if (!n || n > 64)
				refuse(b, kv, "allowed: 1..64 files");
			else
				b->nrfiles = (unsigned int)n;
		}
	} else if (!strcmp(k, "offset")) {
		if (!want_size(b, kv, &n))
			arg(j, "offset", "%llu", (unsigned long long)n);
	} else if (!strcmp(k, "runtime") || !strcmp(k, "timeout")) {
		if (jf_time(kv->val, &t, why, sizeof(why)))
			refuse(b, kv, "%s", why);
		else {
			arg(j, "runtime", "%.6f", t);
			b->runtime = t > 0;
		}
	} else if (!strcmp(k, "startdelay")) {
		if (kv->val && strchr(kv->val, '-'))
			refuse(b, kv, "a random delay range: give one delay");
		else if (jf_time(kv->val, &j->startdelay, why, sizeof(why)))
			refuse(b, kv, "%s", why);
	} else if (!strcmp(k, "rate") || !strcmp(k, "rate_iops")) {
		if (jf_rate(kv->val, k[4] ? 1000 : b->kb, rate, why, sizeof(why)))
			refuse(b, kv, "%s", why);
		else if (k[4])
			arg(j, "rate-iops", "%llu,%llu", (unsigned long long)rate[0],
			    (unsigned long long)rate[1]);
		else	/* dixload's --rate is in MB/s (10^6 bytes) */
			arg(j, "rate", "%.6f,%.6f", rate[0] / 1e6, rate[1] / 1e6);
	} else if (!strcmp(k, "ioengine")) {
		s = kv->val ? engine_of(kv->val) : NULL;
		if (!s)
			refuse(b, kv, "dixload has no engine '%s' (allowed: libaio, io_uring, sync, psync, null, sg)",
			       kv->val ? kv->val : "");
		else {
			j->engine = s;
			arg(j, "engine", "%s", s);
		}
	} else if (!strcmp(k, "filename")) {
		free(b->filename);
		b->filename = kv->val && *kv->val ? xstrdup(kv->val) : NULL;
	} else if (!strcmp(k, "directory")) {
		free(b->directory);
		b->directory = kv->val && *kv->val ? xstrdup(kv->val) : NULL;
	} else if (!strcmp(k, "stonewall") || !strcmp(k, "wait_for_previous")) {
		if (!want_bool(b, kv, &on))
			j->stonewall = on;
	} else if (!strcmp(k, "new_group")) {
		if (!want_bool(b, kv, &on))
			j->new_group = on;
	} else if (!strcmp(k, "wait_for")) {
		free(j->wait_for);
		j->wait_for = kv->val ? xstrdup(kv->val) : NULL;
	} else if (!strcmp(k, "loops")) {
		if (!want_size(b, kv, &n)) {
			if (!n || n > 1000)
				refuse(b, kv, "each loop is a dixload run of its own, started one after the other (allowed: 1..1000)");
			else
				j->loops = (unsigned int)n;
		}
	} else if (!strcmp(k, "direct") || !strcmp(k, "buffered")) {
		if (!want_bool(b, kv, &on))
			j->buffered = k[0] == 'd' ? !on : on;
	} else if (!strcmp(k, "verify_fatal")) {
		if (!want_bool(b, kv, &on) && on)
			arg(j, "max-errors", "1");
	} else if (!strcmp(k, "do_verify")) {
		want_bool(b, kv, &b->do_verify);
	} else if (!strcmp(k, "hipri") || !strcmp(k, "sqthread_poll")) {
		if (!want_bool(b, kv, &on))
			arg(j, k[0] == 'h' ? "hipri" : "sqpoll", "%d", on);
	} else if (!strcmp(k, "numjobs")) {
		if (!want_size(b, kv, &n)) {
			if (!n || n > 256)
				refuse(b, kv, "allowed: 1..256");
			else {
				j->jobs = (unsigned int)n;
				arg(j, "jobs", "%llu", (unsigned long long)n);
			}
		}
	} else if (!strcmp(k, "time_based")) {
		want_bool(b, kv, &b->time_based);
	} else if (!strcmp(k, "verify")) {
		static const char *const sums[] = {
			"md5", "crc64", "crc32", "crc32c", "crc32c-intel", "crc16",
			"crc7", "sha256", "sha512", "sha1", "sha3-224", "sha3-256",
			"sha3-384", "sha3-512", "xxhash", "meta", "pattern", NULL,
		};
		int i;

		if (!kv->val || !strcmp(kv->val, "0") || !strcmp(kv->val, "null") ||
		    !strcmp(kv->val, "none")) {
			b->verify = 0;
			return;
		}
		for (i = 0; sums[i]; i++)
			if (!strcmp(sums[i], kv->val))
				break;
		if (sums[i]) {
			b->verify = 1;
			arg(j, "verify", "on");
		} else if (!strcmp(kv->val, "on") || !strcmp(kv->val, "strict") ||
			   !strcmp(kv->val, "off")) {
			/* dixload's own values: its meaning, no read-back phase */
			arg(j, "verify", "%s", kv->val);
		} else {
			refuse(b, kv, "not a verify method (allowed: fio's md5, crc32c, crc64, sha256, xxhash, meta, ... or 0; dixload's off, on, strict)");
		}
	} else {
		refuse(b, kv, "internal: no handler for a mapped key");
	}
}

/* fio's files of a directory: NAME.JOBNUM.FILENUM. */
static void set_targets(struct bld *b, const char *dir_override)
{
	struct jm_job *j = b->j;
	const char *dir = dir_override ? dir_override : b->directory;
	unsigned int i, nf = b->nrfiles ? b->nrfiles : 1;
	char *copy, *tok, *save = NULL;

	if (b->filename) {
		copy = xstrdup(b->filename);
		for (tok = strtok_r(copy, ":", &save); tok;
		     tok = strtok_r(NULL, ":", &save)) {
			char *p;

			if (tok[0] != '/' && dir) {
				if (asprintf(&p, "%s/%s", dir, tok) < 0)
					abort();
			} else {
				p = xstrdup(tok);
			}
			j->targets = xrealloc(j->targets,
					      (j->ntargets + 1) * sizeof(char *));
			j->targets[j->ntargets++] = p;
		}
		free(copy);
		nf = j->ntargets;
	} else {
		for (i = 0; i < nf; i++) {
			char *p;

			if (asprintf(&p, "%s/%s.0.%u", dir ? dir : ".", j->name,
				     i) < 0)
				abort();
			j->targets = xrealloc(j->targets,
					      (j->ntargets + 1) * sizeof(char *));
			j->targets[j->ntargets++] = p;
		}
	}
	/* fio: size= is the job's, divided between its files */
	if (b->filesize)
		arg(j, "size", "%llu", (unsigned long long)b->filesize);
	else if (b->size)
		arg(j, "size", "%llu", (unsigned long long)(b->size / (nf ? nf : 1)));
}

static void build_one(struct bld *b, const struct jf_kv *const *kv, int nkv,
		      const char *dir_override)
{
	struct jm_job *j = b->j;
	int i, rw_reads = 1, rw_writes = 0;

	/* kb_base first: it decides how every size of the job reads */
	b->kb = 1024;
	for (i = 0; i < nkv; i++)
		if (!strcmp(kv[i]->key, "kb_base")) {
			if (kv[i]->val && !strcmp(kv[i]->val, "1000"))
				b->kb = 1000;
			else if (!kv[i]->val || strcmp(kv[i]->val, "1024"))
				refuse(b, kv[i], "allowed: 1024 (fio's default: k = 1024) or 1000 (k = 1000)");
		}
	/* fio's defaults where dixload's differ */
	arg(j, "rw", "read");
	arg(j, "bs", "4096");
	arg(j, "engine", "sync");
	j->engine = "sync";
	j->buffered = 1;
	j->loops = 1;
	j->jobs = 1;
	b->do_verify = 1;
	for (i = 0; i < nkv; i++)
		one_key(b, kv[i]);
	for (i = 0; i < j->argc; i++) {
		if (!strncmp(j->argv[i], "--rw=", 5)) {
			const char *m = j->argv[i] + 5;

			rw_reads = strcmp(m, "write") && strcmp(m, "randwrite");
			rw_writes = strcmp(m, "read") && strcmp(m, "randread");
		}
	}
	j->reads = rw_reads;
	j->verify_after = b->verify && b->do_verify && rw_writes;
	if (b->runtime && !b->time_based)
		note(b, &(struct jf_kv){ .key = "runtime", .file = j->file,
		     .line = j->line }, "without time_based fio stops when size= is done or runtime is over; dixload runs the whole runtime, looping over the region");
	if (j->buffered)
		arg(j, "buffered", "1");
	set_targets(b, dir_override);
}

int jm_build(const struct jf_doc *d, int file_no, const char *dir_override,
	     struct jm_job **jobs, int *njobs, struct jm_notes *notes,
	     char *err, size_t errlen)
{
	const struct jf_kv **glob = NULL, **all = NULL;
	int ng = 0, i, k, bad = 0;
	size_t used = 0;

	err[0] = '\0';
	for (i = 0; i < d->ns; i++) {
		const struct jf_sect *s = &d->s[i];
		struct bld b = { .notes = notes, .sect = s, .err = err + used,
				 .len = errlen - used };
		struct jm_job *j;
		int na = 0;

		if (s->global) {
			glob = xrealloc(glob, (ng + s->nkv + 1) * sizeof(*glob));
			for (k = 0; k < s->nkv; k++)
				glob[ng++] = &s->kv[k];
			continue;
		}
		all = xrealloc(all, (ng + s->nkv + 1) * sizeof(*all));
		for (k = 0; k < ng; k++)
			all[na++] = glob[k];
		for (k = 0; k < s->nkv; k++)
			all[na++] = &s->kv[k];
		*jobs = xrealloc(*jobs, (*njobs + 1) * sizeof(**jobs));
		j = &(*jobs)[(*njobs)++];
		memset(j, 0, sizeof(*j));
		j->name = xstrdup(s->name);
		j->file = s->file;
		j->line = s->line;
		j->section = s->name;
		j->file_no = file_no;
		b.j = j;
		build_one(&b, all, na, dir_override);
		if (b.bad) {
			bad = 1;
			used += b.used;
			if (used + 1 < errlen) {
				err[used++] = '\n';
				err[used] = '\0';
			}
		}
		free(b.filename);
		free(b.directory);
	}
	if (used && err[used - 1] == '\n')
		err[used - 1] = '\0';
	free(glob);
	free(all);
	return bad ? -EINVAL : 0;
}

void jm_free(struct jm_job *jobs, int n, struct jm_notes *notes)
{
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < jobs[i].argc; k++)
			free(jobs[i].argv[k]);
		free(jobs[i].argv);
		for (k = 0; k < jobs[i].ntargets; k++)
			free(jobs[i].targets[k]);
		free(jobs[i].targets);
		free(jobs[i].name);
		free(jobs[i].wait_for);
	}
	free(jobs);
	if (notes) {
		for (i = 0; i < notes->n; i++)
			free(notes->v[i]);
		free(notes->v);
		notes->v = NULL;
		notes->n = 0;
	}
}
