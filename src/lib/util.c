// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - monotonic time, messages, allocation, sysfs strings, and where
 * the reports of a sanitized build go.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#ifdef DIX_SANITIZED
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

double dix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

uint64_t dix_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

const char *dix_msg_prefix = "";

/*
 * The thread's buffer, not the process's: a worker's dix_err() must not
 * replace its run's setup error, nor one run's message stand for the
 * next run's failure (the buffer itself is the run's, util.h).
 */
static __thread struct dix_errbuf *errbuf;

struct dix_errbuf *dix_errbuf_use(struct dix_errbuf *b)
{
	struct dix_errbuf *was = errbuf;

	if (b)
		b->msg[0] = '\0';
	errbuf = b;
	return was;
}

/*
 * One message line in one write(2): stderr is unbuffered, so the prefix,
 * the text and the newline printed apart were three writes, and under
 * mpirun the ranks' lines came out spliced ("dixload: rank 0 (vm):
 * dixload: rank 1 (vm): /tmp/x1.img: ...", then rank 0's path alone),
 * naming the wrong rank for a path; worker threads could splice too.
 * The format attribute says @fmt is a format handed on to vasprintf(),
 * which clang's -Wformat=2 otherwise reports as a non-literal format.
 */
static void __attribute__((format(printf, 2, 0)))
put_line(const char *kind, const char *fmt, va_list ap)
{
	char *text = NULL, *line = NULL;
	int n;

	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	n = asprintf(&line, "dixload: %s%s%s\n", dix_msg_prefix, kind,
		     text ? text : fmt);
	if (n > 0) {
		const char *p = line;

		fflush(stderr);
		while (n > 0) {
			ssize_t w = write(STDERR_FILENO, p, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			p += w;
			n -= w;
		}
	}
	free(line);
	free(text);
}

void dix_err(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (errbuf) {
		va_start(ap, fmt);
		vsnprintf(errbuf->msg, sizeof(errbuf->msg), fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	put_line("", fmt, ap);
	va_end(ap);
	errno = saved;
}

void dix_warn(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	put_line("warning: ", fmt, ap);
	va_end(ap);
	errno = saved;
}

const char *dix_errno_name(int e, char *buf, size_t len)
{
	const char *n = strerrorname_np(e);

	if (n)
		return n;
	snprintf(buf, len, "errno %d", e);
	return buf;
}

/*
 * The block layer turns a command's outcome into a blk_status_t and that
 * into an errno (blk_status_to_errno()); glibc's text for several of those
 * errnos names a network or filesystem condition.  Measured on 6.1 with
 * scsi_debug opts=0x2: a read over the medium error range came back as
 * "No data available".  Say what the block layer meant.  The kcapi engine's
 * requests come back through the same path: the kernel crypto API answers
 * an AEAD tag that does not verify with EBADMSG, "Bad message" to glibc.
 */
const char *dix_io_strerror(int e)
{
	switch (e) {
	case EILSEQ:	/* BLK_STS_PROTECTION */
		return "integrity check failed (EILSEQ)";
	case ENODATA:	/* BLK_STS_MEDIUM */
		return "medium error (ENODATA)";
	case ETIMEDOUT:	/* BLK_STS_TIMEOUT, or an SG_IO host timeout */
		return "command timed out (ETIMEDOUT)";
	case ENOLINK:	/* BLK_STS_TRANSPORT */
		return "transport error (ENOLINK)";
	case EREMOTEIO:	/* BLK_STS_TARGET */
		return "target error (EREMOTEIO)";
	case EBADE:	/* BLK_STS_NEXUS */
		return "reservation conflict (EBADE)";
	case EBADMSG:	/* AF_ALG: an AEAD decrypt whose tag did not verify */
		return "authentication tag check failed (EBADMSG)";
	default:
		return strerror(e);
	}
}

static void oom(size_t n)
{
	dix_err("out of memory allocating %zu bytes", n);
	exit(DIX_EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom(n * sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s));
	return p;
}

int aligned_grow(void **p, size_t *cap, size_t len)
{
	if (*cap >= len)
		return 0;
	free(*p);
	*p = NULL;
	*cap = 0;
	if (posix_memalign(p, 4096, len))
		return -ENOMEM;
	*cap = len;
	return 1;
}

int read_sysfs_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

#ifdef DIX_SANITIZED
/*
 * gcc links ASan and UBSan as two shared runtimes, each with its own report
 * file.  libubsan applies UBSAN_OPTIONS' log_path at start by calling
 * __sanitizer_set_report_path(), and that call binds to libasan's copy,
 * the first in the lookup order: UBSan reports then ignore log_path and go
 * to stderr, where a test that captures dixload's stderr never sees them
 * (tests/san-run.sh fails a test on report files).  libubsan's own copy,
 * asked for by handle, sets libubsan's file.  clang has one runtime and
 * none of this.
 */
static void ubsan_report_path(const char *path)
{
#if defined(__GNUC__) && !defined(__clang__)
	void (*set)(const char *);
	void *h = dlopen("libubsan.so.1", RTLD_NOW | RTLD_NOLOAD);

	if (!h)
		return;
	*(void **)&set = dlsym(h, "__sanitizer_set_report_path");
	if (set)
		set(path);
	dlclose(h);
#else
	(void)path;
#endif
}

void dix_sanitizer_report_path(const char *path)
{
	__sanitizer_set_report_path(path);
	ubsan_report_path(path);
}

/* UBSAN_OPTIONS' last log_path, applied to libubsan's own report file. */
__attribute__((constructor)) static void ubsan_log_path_from_env(void)
{
	const char *p = getenv("UBSAN_OPTIONS"), *v = NULL;
	size_t len, vlen = 0;
	char path[4096];

	while (p && *p) {
		len = strcspn(p, ":");
		if (len > 9 && !strncmp(p, "log_path=", 9)) {
			v = p + 9;
			vlen = len - 9;
		}
		p += len;
		if (*p)
			p++;
	}
	if (!v || vlen >= sizeof(path))
		return;
	memcpy(path, v, vlen);
	path[vlen] = '\0';
	ubsan_report_path(path);
}
#endif

void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

char *dix_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
