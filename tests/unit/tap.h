/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a minimal Test Anything Protocol emitter for the C unit tests.
 *
 * Each ok() prints one TAP line; tap_done() prints the plan and returns the
 * exit status automake's tap-driver expects (it counts the lines itself).
 *
 * Skips, and the rule that sorts them (tests/sh/lib.sh and tests/vm/lib.sh
 * keep the same one for the shell and VM tests):
 *   skip_dep()  something this test needs is missing: a tool (mkfs.xfs), a
 *               library configure left out (no kcapi engine), root, a loop
 *               device, top_srcdir.  With DIXLOAD_TEST_NO_SKIP=1 (.ci/run,
 *               where every dependency is installed and required) it is a
 *               failure, "would skip, but DIXLOAD_TEST_NO_SKIP=1: REASON":
 *               a missing package can never pass as a skip.
 *   skip_cpu()  the machine lacks what the code under test is built for: a
 *               CPU feature (AVX-512 on a Zen 3) or a kernel era.  Nothing
 *               can be installed to change it, so it stays a skip under
 *               NO_SKIP, the way tests/vm/lib.sh's vm_era ends "NOT FOR THIS
 *               ERA" at 77, and says so.  skip_cpu() when the code under test
 *               made the CPU judgement itself (crc_impl_ok());
 *               skip_cpu_lacks("avx2", ...) checks it here: on a CPU that
 *               has the feature the skip was not the CPU's doing (a build
 *               left out, say), so it counts as skip_dep().
 * Anything else a test leaves out is one of the two, or not a skip.
 */
#ifndef DIX_TAP_H
#define DIX_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_fail;

static inline int ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_fail++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

#define is_int(got, want, name) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!ok(g_ == w_, "%s", name))					\
		printf("#   got %lld, want %lld\n", g_, w_);		\
} while (0)

#define is_str(got, want, name) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!ok(g_ && w_ && !strcmp(g_, w_), "%s", name))		\
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",	\
		       w_ ? w_ : "(null)");				\
} while (0)

static inline int tap_no_skip(void)
{
	const char *v = getenv("DIXLOAD_TEST_NO_SKIP");

	return v && !strcmp(v, "1");
}

/* One skip line: a TAP skip, or under NO_SKIP a failure when @dep. */
static inline void tap_vskip(int dep, const char *fmt, va_list ap)
{
	tap_n++;
	if (dep && tap_no_skip()) {
		tap_fail++;
		printf("not ok %d - would skip, but DIXLOAD_TEST_NO_SKIP=1: ", tap_n);
	} else {
		printf("ok %d # SKIP ", tap_n);
	}
	vprintf(fmt, ap);
	if (!dep)
		printf(" (a fact of this machine: a skip under DIXLOAD_TEST_NO_SKIP=1 too)");
	putchar('\n');
	fflush(stdout);
}

static inline void skip_dep(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/** skip_dep() - skip one check whose dependency is missing (see the top). */
static inline void skip_dep(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vskip(1, fmt, ap);
	va_end(ap);
}

#if defined(__x86_64__) || defined(__i386__)
#define TAP_CPU_HAS(feature) __builtin_cpu_supports(feature)
#else
#define TAP_CPU_HAS(feature) 0
#endif

static inline void tap_skip_cpu(const char *feature, int has, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void tap_skip_cpu(const char *feature, int has, const char *fmt, ...)
{
	va_list ap;

	if (has)
		printf("# this CPU has %s: the skip below is not the CPU's doing\n", feature);
	va_start(ap, fmt);
	tap_vskip(has, fmt, ap);
	va_end(ap);
}

/** skip_cpu() - skip one check the CPU cannot run, as the code under test judged. */
#define skip_cpu(...) tap_skip_cpu(NULL, 0, __VA_ARGS__)
/**
 * skip_cpu_lacks() - skip one check for want of @feature, checked here: a
 * __builtin_cpu_supports() name, as a string literal ("avx2").
 */
#define skip_cpu_lacks(feature, ...)					\
	tap_skip_cpu(feature, TAP_CPU_HAS(feature), __VA_ARGS__)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

#endif
