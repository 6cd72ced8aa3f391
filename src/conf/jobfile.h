/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobfile.h - fio's job-file syntax, read as `fio JOBFILE` reads it.
 *
 * A reader and nothing else: sections with their key/value lines (each
 * remembering its file and line, for the messages), `include`, `${VAR}` and
 * fio's reserved keywords, and fio's value syntax (sizes with kb_base,
 * ranges, bssplit lists, rates, times).  What a key means to dixload is
 * conf/jobmap's business; running the jobs is core/jobrun's.  Pure apart from
 * reading the files it is given (and the ones they include), so the unit
 * test and a fuzzer feed it text.
 */
#ifndef DIX_JOBFILE_H
#define DIX_JOBFILE_H

#include <stddef.h>
#include <stdint.h>

/* fio's longest job-file line (fio(1), "JOB FILE FORMAT"). */
#define JF_LINE_MAX	8192
/* Includes nested deeper than this are a loop, most likely. */
#define JF_INCLUDE_MAX	8

/**
 * struct jf_kv - one "key=value" (or bare "key") line.
 * @key: the key as written
 * @val: the value with ${VAR} and the reserved keywords expanded; NULL for
 *	an option without a value ("time_based")
 * @raw: the value as written (NULL with @val)
 * @file: the file the line is in (owned by the document)
 * @line: its line number
 */
struct jf_kv {
	char *key;
	char *val;
	char *raw;
	const char *file;
	int line;
};

/**
 * struct jf_sect - a [section]: "global", or a job.
 * @name: the name between the brackets
 * @global: @name is "global": its values are defaults for the jobs below
 * @file/@line: where its header is
 */
struct jf_sect {
	char *name;
	int global;
	const char *file;
	int line;
	struct jf_kv *kv;
	int nkv;
};

/**
 * struct jf_sys - what the expansion reads from outside.
 * @getenv: the environment (NULL: getenv(3))
 * @pagesize/@mb_memory/@ncpus: fio's reserved keywords $pagesize,
 *	$mb_memory (MiB of memory), $ncpus
 */
struct jf_sys {
	const char *(*getenv)(const char *name, void *arg);
	void *arg;
	long long pagesize, mb_memory, ncpus;
};

/* A job-file set: the sections of every file read into it, in order. */
struct jf_doc {
	struct jf_sect *s;
	int ns;
	char **files;
	int nfiles;
};

/** jf_sys_host() - @sys from this machine (sysconf) and getenv(3). */
void jf_sys_host(struct jf_sys *sys);

/**
 * jf_read_file() - append the sections of job file @path to @d.
 * @err: on failure "FILE:LINE: [SECTION]: reason", naming what is allowed
 *
 * `include FILE` is tried relative to the working directory, then to the
 * including file's directory; an included file holds no sections (its
 * lines belong to the section that includes it).  `;` and `#` start a
 * comment at the start of a line only, as in fio.  An undefined ${VAR} is
 * refused, naming it (fio substitutes an empty string).
 *
 * Return: 0; -errno when a file cannot be read; -EINVAL for bad syntax.
 */
int jf_read_file(struct jf_doc *d, const char *path, const struct jf_sys *sys,
		 char *err, size_t errlen);

/** jf_read_text() - jf_read_file() on @text, named @name in messages. */
int jf_read_text(struct jf_doc *d, const char *text, const char *name,
		 const struct jf_sys *sys, char *err, size_t errlen);

/** jf_free() - free everything @d holds. */
void jf_free(struct jf_doc *d);

/**
 * jf_expr() - evaluate integer arithmetic @s (+ - * / % ^, parentheses,
 * numbers with fio's size suffixes in @kb_base).
 * Return: 0 with *@out, or -EINVAL with @err saying where it stopped.
 */
int jf_expr(const char *s, unsigned int kb_base, long long *out, char *err,
	    size_t errlen);

/**
 * jf_size() - an fio "int" of bytes: "4k", "1m", "0x1000", "1mi" (10^6 with
 * kb_base=1024, fio's default), or "(expr)".
 * @kb_base: 1024 (fio's default: k = 1024, ki = 1000) or 1000 (k = 1000,
 *	ki = 1024)
 * Return: 0 with *@out, or -EINVAL with @err naming what is allowed.
 */
int jf_size(const char *v, unsigned int kb_base, uint64_t *out, char *err,
	    size_t errlen);

/**
 * jf_time() - an fio "time": seconds unless a suffix says otherwise (us,
 * ms, s, m = minutes, h, d); "(expr)" is in microseconds, as in fio.
 */
int jf_time(const char *v, double *sec, char *err, size_t errlen);

/** jf_bool() - fio's bool: "1"/"0" (also "true"/"false", "on"/"off"). */
int jf_bool(const char *v, int *b, char *err, size_t errlen);

/** jf_range() - "LO-HI" or "LO:HI" of sizes (bsrange=1k-4k). */
int jf_range(const char *v, unsigned int kb_base, uint64_t *lo, uint64_t *hi,
	     char *err, size_t errlen);

/* One "BS/PCT" entry of a bssplit list. */
struct jf_split {
	uint64_t bs;
	unsigned int pct;
};

/**
 * jf_bssplit() - "4k/10:64k/50:32k/" (an empty share takes what is left)
 * for one direction; a comma starts the next direction's list, of which
 * only the first (reads, and every direction when alone) is returned.
 * Shares must add up to 100 (or less, with an empty share taking the rest).
 */
int jf_bssplit(const char *v, unsigned int kb_base, struct jf_split *out,
	       int max, int *n, char *err, size_t errlen);

/**
 * jf_rate() - fio's rate: bytes per second, "R,W", "N" (both), ",W", "R,".
 * A direction not given is 0 (no cap).
 */
int jf_rate(const char *v, unsigned int kb_base, uint64_t out[2], char *err,
	    size_t errlen);

#endif
