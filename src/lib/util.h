/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - small helpers shared by every part of dixload: monotonic time,
 * messages on stderr, JSON string escaping and checked allocation.
 */
#ifndef DIX_UTIL_H
#define DIX_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses: documented in --help, doc/running.md and dixload(1). */
enum dix_exit {
	DIX_EXIT_OK = 0,
	DIX_EXIT_USAGE = 1,	/* usage or setup error, found before the load;
				 * or a load that completed no request */
	DIX_EXIT_IO = 2,	/* I/O errors */
	DIX_EXIT_INTEGRITY = 3,	/* PI or data verification errors */
	DIX_EXIT_ACTION = 4,	/* a scheduled action (hot-load ...) failed */
	DIX_EXIT_REGRESSION = 5,	/* dixload compare: B regressed beyond the threshold */
	DIX_EXIT_STOPPED = 6,	/* SIGINT/SIGTERM stopped the load before its end */
};

/**
 * dix_now() - monotonic time in seconds.
 *
 * CLOCK_MONOTONIC never jumps with the wall clock, so rates computed from
 * differences of it are honest even when NTP steps the time.
 */
double dix_now(void);

/** dix_now_ns() - monotonic time in nanoseconds. */
uint64_t dix_now_ns(void);

/*
 * dix_msg_prefix - put after "dixload: " in dix_err()/dix_warn() lines
 * ("rank 2 (node7): " under MPI); "" by default.
 */
extern const char *dix_msg_prefix;

/**
 * struct dix_errbuf - the last dix_err() message of whoever holds it (a
 * run, a command line's setup), which an MPI rank sends to rank 0 when it
 * cannot go on.  dix_err() fills the buffer its thread has in use
 * (dix_errbuf_use()), so a message lands only in the run or command that
 * printed it: never another thread's, never an earlier run's.
 * @msg: the message, "" when none was printed
 */
struct dix_errbuf {
	char msg[256];
};

/**
 * dix_errbuf_use() - make @b (cleared) the calling thread's buffer, NULL:
 * none (messages are printed and kept nowhere).  Give the one it returns
 * back before @b goes away.
 * Return: the buffer in use before.
 */
struct dix_errbuf *dix_errbuf_use(struct dix_errbuf *b);

/** dix_err() - print "dixload: <msg>" on stderr. */
void dix_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** dix_warn() - print "dixload: warning: <msg>" on stderr. */
void dix_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** xmalloc()/xcalloc()/xstrdup() - allocate or exit(1) with a message. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/** dix_trim() - @s without its leading and trailing white space (cut in place). */
char *dix_trim(char *s);

/**
 * aligned_grow() - make *@p a 4096-aligned buffer of at least @len bytes,
 * reallocating (contents not kept) only when *@cap is smaller.
 * Return: 0 when the buffer was big enough, 1 when it was (re)allocated
 * (contents undefined), -ENOMEM (then *@p is NULL and *@cap 0).
 */
int aligned_grow(void **p, size_t *cap, size_t len);

/**
 * dix_errno_name() - the symbolic name of errno @e ("EINVAL"), or "errno N"
 * for a number the C library does not name.  Storage users search for the
 * name; the text of strerror() varies between C libraries and locales.
 */
const char *dix_errno_name(int e, char *buf, size_t len);

/**
 * dix_io_strerror() - what an I/O that failed with errno @e means, for
 * messages about I/O: the words of strerror(), except for the errnos the
 * kernel's block layer returns for a device status, which C libraries
 * describe as something else: EILSEQ (failed protection information check,
 * "Invalid or incomplete multibyte or wide character" in glibc) reads
 * "integrity check failed (EILSEQ)", ENODATA "medium error (ENODATA)",
 * ETIMEDOUT "command timed out (ETIMEDOUT)", ENOLINK "transport error
 * (ENOLINK)", EREMOTEIO "target error (EREMOTEIO)", EBADE "reservation
 * conflict (EBADE)"; and EBADMSG, the kernel crypto API's AEAD tag that
 * does not verify, "authentication tag check failed (EBADMSG)".
 */
const char *dix_io_strerror(int e);

/**
 * read_sysfs_str() - read a one-line sysfs/proc file into @buf, newline
 * stripped.  Return: 0, or -errno.
 */
int read_sysfs_str(const char *path, char *buf, size_t len);

/**
 * set_err() - format a message into @err (@len bytes) for the caller to
 * print; nothing when @err is NULL or @len 0.
 */
void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#ifdef DIX_SANITIZED
/**
 * dix_sanitizer_report_path() - make ASan, UBSan and LSan write their
 * reports to @path.PID instead of stderr (a build configured with
 * --enable-sanitizers only).  What log_path in ASAN_OPTIONS/UBSAN_OPTIONS
 * does at start, for a test that must check that a report is written.
 */
void dix_sanitizer_report_path(const char *path);
#endif

#endif
