/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a minimal Test Anything Protocol emitter for the C unit tests.
 *
 * Each ok() prints one TAP line; tap_done() prints the plan and returns the
 * exit status automake's tap-driver expects (it counts the lines itself).
 */
#ifndef DIX_TAP_H
#define DIX_TAP_H

#include <stdio.h>
#include <stdarg.h>

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

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

#endif
