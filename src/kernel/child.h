/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * child.h - child processes of the scheduled actions (--exec, modprobe).
 */
#ifndef DIX_CHILD_H
#define DIX_CHILD_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * spawn_child() - start @argv in its own process group with stdin from
 * /dev/null, stdout on our stderr and stderr into a pipe whose read end is
 * *@errfd.  Return: the pid, or -errno.
 */
pid_t spawn_child(char *const argv[], int *errfd);

/**
 * drain_stderr() - read the child's stderr pipe @fd to its end, keeping the
 * first non-empty line in @first (@len bytes) and copying everything to our
 * stderr when @forward.  @abandon (may be NULL, read under @lock) ends the
 * reading early.  Closes @fd.
 */
void drain_stderr(int fd, char *first, size_t len, int forward,
		  int *abandon, pthread_mutex_t *lock);

/** status_text() - a wait(2) status in words: "exit 1", "killed by signal 9 (Killed)". */
const char *status_text(int st, char *buf, size_t len);

#endif
