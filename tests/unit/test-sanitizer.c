// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sanitizer.c - the plumbing a sanitized build (configure
 * --enable-sanitizers) relies on to fail a test on a report: an ASan, a
 * UBSan and an LSan report each land in a file of the directory they are
 * sent to, whether set by dix_sanitizer_report_path() or by log_path in
 * UBSAN_OPTIONS alone (gcc's libubsan ignores the latter without util.c's
 * help), and the process that made one does not exit 0.  Built only in a
 * sanitized build.  Each fault happens in a child, in a directory of this
 * test's own, so the reports it provokes are not the run's.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fakesys.h"
#include "tap.h"
#include "lib/util.h"

static char dir[PATH_MAX];
static volatile int shift = 40;	/* volatile: the compiler cannot see the UB */

static void fault(const char *kind)
{
	if (!strcmp(kind, "ubsan")) {
		volatile int x = 1 << shift;

		printf("# %d\n", x);
	} else if (!strcmp(kind, "asan")) {
		char *volatile p = malloc(8);

		/* a read whose value is used: a store before free() is dead */
		printf("# %d\n", p[8]);
		free(p);
	} else if (!strcmp(kind, "lsan")) {
		char *volatile p = malloc(100);

		p[0] = 1;
		p = NULL;
	}
}

/* Run fault @kind in a child; its reports go to @dir/@kind.PID. */
static int provoke(const char *kind, int via_env, pid_t *child)
{
	char path[PATH_MAX + 16];
	int st;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, kind);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (via_env) {
			char env[PATH_MAX + 64], self[PATH_MAX];
			ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

			if (n < 0)
				_exit(99);
			self[n] = '\0';
			snprintf(env, sizeof(env),
				 "halt_on_error=1:print_stacktrace=1:log_path=%s", path);
			setenv("UBSAN_OPTIONS", env, 1);
			execl(self, self, kind, (char *)NULL);
			_exit(99);
		}
		dix_sanitizer_report_path(path);
		fault(kind);
		exit(0);
	}
	*child = pid;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/* The text of @dir/@kind.@pid ("" when absent). */
static void report(const char *kind, pid_t pid, char *buf, size_t len)
{
	char path[PATH_MAX + 32];
	FILE *f;
	size_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s.%d", dir, kind, (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void check(const char *kind, int via_env, const char *want)
{
	char text[8192];
	pid_t pid = 0;
	int st = provoke(kind, via_env, &pid);

	ok(st > 0, "%s%s: the faulting process did not exit 0 (status 0x%x)",
	   kind, via_env ? " (log_path from UBSAN_OPTIONS)" : "", st);
	report(kind, pid, text, sizeof(text));
	if (!ok(strstr(text, want) != NULL, "%s%s: report file names '%s'",
		kind, via_env ? " (log_path from UBSAN_OPTIONS)" : "", want))
		printf("#   report: %.300s\n", text[0] ? text : "(no file)");
}

int main(int argc, char **argv)
{
	if (argc == 2) {
		/* the exec'ed child of check(..., 1, ...) */
		fault(argv[1]);
		return 0;
	}
	fs_tmpdir(dir, sizeof(dir), "san");
	check("ubsan", 0, "runtime error: shift exponent 40");
	check("ubsan", 1, "runtime error: shift exponent 40");
	check("asan", 0, "ERROR: AddressSanitizer: heap-buffer-overflow");
	check("lsan", 0, "ERROR: LeakSanitizer: detected memory leaks");
	fs_rmtree(dir);
	return tap_done();
}
