// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctlexec.c - the --exec commands of the control thread.
 *
 * Each command runs in a thread of its own, so a long command never delays
 * the watch or a later action; a command still running when the load ends
 * is terminated (SIGTERM to its process group, SIGKILL 2 s later) and its
 * action counts as failed.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/child.h"
#include "kernel/ctl.h"
#include "kernel/ctlexec.h"
#include "lib/util.h"

/*
 * struct exec_job - one running --exec command.
 * @started: dix_now() when it was started
 * @pid: the shell's pid (also its process group) while it runs, else 0
 * @killed: the end of the load terminated it
 * @abandon: stop reading its stderr (something escaped the process group
 *	and keeps the pipe open)
 * @done: the event has been reported
 */
struct exec_job {
	struct ctl *c;
	const struct action *a;
	pthread_t th;
	double t;
	double started;
	pid_t pid;
	int killed;
	int abandon;
	int done;
};

static void *exec_main(void *arg)
{
	struct exec_job *j = arg;
	struct ctl *c = j->c;
	char *argv[] = { "/bin/sh", "-c", j->a->arg, NULL };
	char first[300], how[96], detail[600], label[80], what[4200];
	double start = dix_now(), dur;
	int fd = -1, st = 0, ok, killed;
	pid_t pid;
	siginfo_t si;

	ctl_action_what(j->a, what, sizeof(what));
	snprintf(label, sizeof(label), "exec: %s", j->a->arg);
	pid = spawn_child(argv, &fd);
	if (pid < 0) {
		snprintf(detail, sizeof(detail), "cannot start /bin/sh: %s",
			 strerror(-pid));
		ctl_event(c, EV_ACTION, j->t, what, 0, dix_now() - start, detail,
		      NULL, label);
		goto out;
	}
	pthread_mutex_lock(&c->lock);
	j->pid = pid;
	pthread_mutex_unlock(&c->lock);
	drain_stderr(fd, first, sizeof(first), 1, &j->abandon, &c->lock);
	/* wait without reaping first: while the zombie exists its pid (and
	 * group id) cannot be reused, so control_stop() may still signal it */
	while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	pthread_mutex_lock(&c->lock);
	j->pid = 0;
	killed = j->killed;
	pthread_mutex_unlock(&c->lock);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	dur = dix_now() - start;
	ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && !killed;
	status_text(st, how, sizeof(how));
	if (killed)
		snprintf(detail, sizeof(detail), "still running when the load ended: %s",
			 how);
	else if (first[0])
		snprintf(detail, sizeof(detail), "%s: %s", how, first);
	else
		snprintf(detail, sizeof(detail), "%s", how);
	ctl_event(c, EV_ACTION, j->t, what, ok, dur, detail, NULL, label);
out:
	pthread_mutex_lock(&c->lock);
	j->done = 1;
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/*
 * Join and free the --exec jobs that have finished.  A thread that has
 * returned but is not joined keeps its stack: measured, RSS grew 16 KiB per
 * --exec (5.3 -> 6.4 MiB over 58 commands in 60 s), and every one keeps an
 * 8 MiB stack mapping, so an --exec every few seconds of a day-long run
 * would end in pthread_create() failing.  Reaped as each new one starts.
 */
static void reap_jobs(struct ctl *c)
{
	struct exec_job *done[64];
	int i, n = 0, k = 0;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->njobs; i++) {
		if (c->jobs[i]->done && n < (int)(sizeof(done) / sizeof(done[0])))
			done[n++] = c->jobs[i];
		else
			c->jobs[k++] = c->jobs[i];
	}
	c->njobs = k;
	pthread_mutex_unlock(&c->lock);
	/* done is set last, just before the thread returns: a short wait */
	for (i = 0; i < n; i++) {
		pthread_join(done[i]->th, NULL);
		free(done[i]);
	}
}

void ctl_exec_start(struct ctl *c, const struct action *a)
{
	struct exec_job *j;
	int e;

	reap_jobs(c);
	j = xcalloc(1, sizeof(*j));
	j->c = c;
	j->a = a;
	j->t = ctl_elapsed(c);
	j->started = dix_now();
	pthread_mutex_lock(&c->lock);
	c->jobs = xrealloc(c->jobs, (c->njobs + 1) * sizeof(*c->jobs));
	c->jobs[c->njobs++] = j;
	e = pthread_create(&j->th, NULL, exec_main, j);
	if (e) {
		c->njobs--;
		pthread_mutex_unlock(&c->lock);
		free(j);
		ctl_event(c, EV_ACTION, ctl_elapsed(c), a->arg, 0, 0,
		      strerror(e), NULL, NULL);
		return;
	}
	pthread_mutex_unlock(&c->lock);
}

/*
 * Send @sig to the process group of every --exec command still running
 * (@sig 0: none) and mark them killed; with @abandon, stop reading their
 * stderr.  Return: the number of commands not finished yet.
 */
static int signal_jobs(struct ctl *c, int sig, int abandon)
{
	int i, running = 0;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->njobs; i++) {
		struct exec_job *j = c->jobs[i];

		if (j->done)
			continue;
		running++;
		if (sig && j->pid > 0) {
			kill(-j->pid, sig);
			j->killed = 1;
		}
		if (abandon)
			j->abandon = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return running;
}

/* Wait up to @sec for the --exec commands to finish.  Return: 1 if done. */
static int wait_jobs(struct ctl *c, double sec)
{
	double give_up = dix_now() + sec;

	while (signal_jobs(c, 0, 0)) {
		if (dix_now() >= give_up)
			return 0;
		usleep(20000);
	}
	return 1;
}

/* Seconds until the most recently started running command is 2 s old. */
static double recent_grace(struct ctl *c)
{
	double g = 0, now = dix_now();
	int i;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->njobs; i++)
		if (!c->jobs[i]->done && c->jobs[i]->started + 2 - now > g)
			g = c->jobs[i]->started + 2 - now;
	pthread_mutex_unlock(&c->lock);
	return g;
}

void ctl_exec_end(struct ctl *c)
{
	int i;

	/* a command started in the last 2 s (one due right at the end of
	 * the run) gets those 2 s to finish; then commands still running get
	 * TERM, then KILL, then nobody listens any more to whatever escaped
	 * their process group and holds the pipe open */
	wait_jobs(c, recent_grace(c));
	if (signal_jobs(c, SIGTERM, 0) && !wait_jobs(c, 2)) {
		signal_jobs(c, SIGKILL, 0);
		if (!wait_jobs(c, 1))
			signal_jobs(c, 0, 1);
	}
	for (i = 0; i < c->njobs; i++) {
		pthread_join(c->jobs[i]->th, NULL);
		free(c->jobs[i]);
	}
	free(c->jobs);
	c->jobs = NULL;
	c->njobs = 0;
}
