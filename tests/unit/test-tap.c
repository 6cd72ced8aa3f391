// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-tap.c - tap.h's skips keep their rule: under DIXLOAD_TEST_NO_SKIP=1 a
 * skip for a missing dependency is a failing test, a skip for what the CPU
 * lacks stays a skip.  Each case runs in a child whose TAP output and exit
 * status are read back, the way automake's tap-driver would; the last runs
 * a real unit test (test-profile) with its dependency taken away.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

enum kind { DEP, CPU, CPU_HAS_SSE2 };

/* The child: a fresh TAP stream of one check and one skip, then its status. */
static void child_case(enum kind k)
{
	tap_n = tap_fail = 0;
	ok(1, "a check before the skip");
	switch (k) {
	case DEP:
		skip_dep("mkfs.fake not installed");
		break;
	case CPU:
		skip_cpu("fake/512: this CPU lacks the instructions");
		break;
	case CPU_HAS_SSE2:
		skip_cpu_lacks("sse2", "no SSE2 on this CPU");
		break;
	}
	exit(tap_done());
}

/*
 * run_child() - run @k (or exec @argv) with DIXLOAD_TEST_NO_SKIP=@no_skip
 * (NULL: unset), its output into @out; returns its exit status, -1 when it
 * did not exit.
 */
static int run_child(enum kind k, char *const argv[], const char *no_skip,
		     char *out, size_t len)
{
	int fd[2], status;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd))
		exit(99);
	pid = fork();
	if (pid < 0)
		exit(99);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		if (no_skip)
			setenv("DIXLOAD_TEST_NO_SKIP", no_skip, 1);
		else
			unsetenv("DIXLOAD_TEST_NO_SKIP");
		if (argv) {
			unsetenv("top_srcdir");
			execv(argv[0], argv);
			printf("exec %s: %s\n", argv[0], strerror(errno));
			exit(98);
		}
		child_case(k);
	}
	close(fd[1]);
	while (n + 1 < len && (r = read(fd[0], out + n, len - 1 - n)) > 0)
		n += r;
	out[n] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* comment() - @text as TAP comments, one "#     " line per line */
static void comment(char *text)
{
	char *l, *save;

	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		printf("#     %s\n", l);
}

/* expect() - the child's status is @want and its output holds @line. */
static void expect(const char *name, enum kind k, char *const argv[],
		   const char *no_skip, int want, const char *line)
{
	char out[65536], w[512];
	int st = run_child(k, argv, no_skip, out, sizeof(out));

	if (ok(st == want && strstr(out, line), "%s: exit %d", name, want))
		return;
	/* as comments: the child's own TAP lines must not count here */
	printf("#   want exit %d and the lines:\n", want);
	snprintf(w, sizeof(w), "%s", line);
	comment(w);
	printf("#   got exit %d, output:\n", st);
	comment(out);
}

int main(void)
{
	char prof[4096];
	const char *b = getenv("top_builddir");
	char *argv[] = { prof, NULL };

	expect("missing dependency, NO_SKIP=1", DEP, NULL, "1", 1,
	       "not ok 2 - would skip, but DIXLOAD_TEST_NO_SKIP=1: mkfs.fake not installed\n");
	expect("missing dependency, NO_SKIP unset", DEP, NULL, NULL, 0,
	       "ok 2 # SKIP mkfs.fake not installed\n");
	expect("missing dependency, NO_SKIP=0", DEP, NULL, "0", 0,
	       "ok 2 # SKIP mkfs.fake not installed\n");
	expect("CPU lacks it, NO_SKIP=1", CPU, NULL, "1", 0,
	       "ok 2 # SKIP fake/512: this CPU lacks the instructions "
	       "(a fact of this machine: a skip under DIXLOAD_TEST_NO_SKIP=1 too)\n");
#if defined(__x86_64__)
	/* every x86-64 CPU has SSE2: the skip cannot be the CPU's doing */
	expect("a CPU skip on a CPU that has the feature, NO_SKIP=1", CPU_HAS_SSE2, NULL,
	       "1", 1, "# this CPU has sse2: the skip below is not the CPU's doing\n"
	       "not ok 2 - would skip, but DIXLOAD_TEST_NO_SKIP=1: no SSE2 on this CPU\n");
	expect("a CPU skip on a CPU that has the feature, NO_SKIP unset", CPU_HAS_SSE2,
	       NULL, NULL, 0, "ok 2 # SKIP no SSE2 on this CPU\n");
#endif
	/* a real test forced to skip: test-profile without top_srcdir */
	snprintf(prof, sizeof(prof), "%s/tests/unit/test-profile", b ? b : ".");
	if (access(prof, X_OK)) {
		printf("# %s not built\n", prof);
		return 99;
	}
	expect("test-profile without top_srcdir, NO_SKIP=1", DEP, argv, "1", 1,
	       " - would skip, but DIXLOAD_TEST_NO_SKIP=1: top_srcdir not set\n");
	expect("test-profile without top_srcdir, NO_SKIP unset", DEP, argv, NULL, 0,
	       " # SKIP top_srcdir not set\n");
	return tap_done();
}
