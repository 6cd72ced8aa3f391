// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child.c - child processes for --exec and for modprobe when dixload was
 * built without libkmod: own process group (so the end of the load can
 * stop a whole pipeline), stdin from /dev/null, stdout onto our stderr (JSON
 * on stdout stays parseable), stderr through a pipe we read.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/child.h"

extern char **environ;

/*
 * Start @argv in its own process group with stdin from /dev/null, stdout
 * on our stderr (so JSON on stdout stays parseable) and stderr into a pipe
 * whose read end is *@errfd.  Return: the pid, or -errno.
 */
pid_t spawn_child(char *const argv[], int *errfd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, def;
	pid_t pid;
	int p[2], e;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&def);
	/* dixload ignores SIGPIPE and handles INT/TERM: give the child the
	 * defaults back */
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	e = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(p[1]);
	if (e) {
		close(p[0]);
		return -e;
	}
	*errfd = p[0];
	return pid;
}

/*
 * Read the child's stderr to its end, keeping the first non-empty line in
 * @first; copy everything to our stderr when @forward.  @abandon (may be
 * NULL, read under @lock) ends the reading early.
 */
void drain_stderr(int fd, char *first, size_t len, int forward,
		  int *abandon, pthread_mutex_t *lock)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];
	size_t have = 0;
	int line_done = 0;

	first[0] = '\0';
	for (;;) {
		ssize_t n, i, w;

		if (abandon) {
			int stop;

			pthread_mutex_lock(lock);
			stop = *abandon;
			pthread_mutex_unlock(lock);
			if (stop)
				break;
		}
		if (poll(&pfd, 1, 200) == 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (forward)
			w = write(2, buf, n);
		(void)w;
		for (i = 0; i < n && !line_done; i++) {
			if (buf[i] == '\n') {
				if (have)
					line_done = 1;
				continue;
			}
			if (have < len - 1)
				first[have++] = buf[i];
		}
		first[have] = '\0';
	}
	close(fd);
}

const char *status_text(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "status 0x%x", st);
	return buf;
}
