// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobrun.c - run fio job files (see jobrun.h).
 *
 * Why child processes: the jobs of one group run at the same time, and a
 * run still holds process-wide state (issue 34, point 0: sg_told, kc_bind,
 * dix_last_err, ...), so two run_main()s on threads of one process could
 * see each other's.  A fork per job shares nothing and is real
 * concurrency; the parent only orders the jobs, relays their lines with the
 * job's name, and combines their exit statuses.
 *
 * Why a target is held by one job at a time: a dixload run claims its
 * target with an OFD lock over the whole file (device/claim.h), so two
 * runs on one file at once would refuse each other.  fio-rand-RW.fio's
 * "4 jobs on one file" is one section with numjobs=4: one run of 4 threads
 * on disjoint slices, which needs no second run.  Two sections of one
 * group naming one target run one after the other, said once.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conf/jobfile.h"
#include "conf/jobmap.h"
#include "conf/options.h"
#include "core/exitstatus.h"
#include "core/jobrun.h"
#include "lib/util.h"

/* Options of the job-file mode itself (fio's names for the targets). */
static int takes_value(const char *arg)
{
	const struct dix_fio_alias *a;
	const struct dix_option *d;
	char name[64];
	size_t n;

	if (strncmp(arg, "--", 2) || strchr(arg, '='))
		return 0;
	if (!strcmp(arg, "--filename") || !strcmp(arg, "--directory"))
		return 1;
	n = strlen(arg + 2);
	if (n >= sizeof(name))
		return 0;
	memcpy(name, arg + 2, n + 1);
	d = opt_find(name);
	if (d)
		return d->type != OPT_FLAG;
	/* fio's names too: `--numjobs 2 job.fio`, `--write_bw_log p job.fio` */
	a = opt_cli_alias(name);
	return a && !a->flag;
}

int jobrun_files(int argc, char **argv)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			i += takes_value(argv[i]);
			continue;
		}
		/*
		 * Every one must be a file: else the run's own parser names
		 * the stray argument or the unknown option before it
		 */
		if (access(argv[i], F_OK))
			return 0;
		n++;
	}
	return n;
}

enum jstate { J_WAIT, J_RUN, J_DONE };

struct job {
	struct jm_job *m;
	enum jstate st;
	int barrier;		/* every job before this index ends first */
	int wait_for;		/* index of the job it waits for, or -1 */
	unsigned int loop;	/* runs started */
	int phase;		/* 0 the job, 1 its read-back verify */
	pid_t pid;
	int fd[2];		/* stdout, stderr of the child; -1 when closed */
	char *buf[2];
	size_t blen[2];
	int status;
	int said_shared;
};

struct runner {
	struct job *j;
	int n;
	char **cli;		/* the command line's options, in order */
	int ncli;
	const char *dev;	/* --dev / --filename: replaces the targets */
	const char *dir;	/* --directory */
	int json;
	int cli_precond;
	int (*run)(int, char **, const struct dix_run_hook *);
};

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

static const char *label(const struct job *j)
{
	static char buf[300];

	snprintf(buf, sizeof(buf), "%s%s", j->m->name,
		 j->phase ? " (verify)" : "");
	return buf;
}

/* One line of a child: with the job's name, to stdout or stderr. */
static void relay(struct runner *r, struct job *j, int which, const char *line,
		  size_t n)
{
	FILE *f = which ? stderr : stdout;

	if (!which && r->json && n && line[0] == '{') {
		fprintf(f, "{\"job\":\"%s\"%s%.*s\n", label(j),
			n > 1 && line[1] != '}' ? "," : "", (int)(n - 1),
			line + 1);
	} else {
		fprintf(f, "[%s] %.*s\n", label(j), (int)n, line);
	}
	fflush(f);
}

static void drain(struct runner *r, struct job *j, int which, int eof)
{
	char *b = j->buf[which], *nl;
	size_t off = 0;

	/* nothing read from this stream yet: no buffer (memchr(NULL) is UB) */
	if (!b)
		return;
	while ((nl = memchr(b + off, '\n', j->blen[which] - off))) {
		relay(r, j, which, b + off, nl - (b + off));
		off = nl - b + 1;
	}
	if (eof && off < j->blen[which]) {
		relay(r, j, which, b + off, j->blen[which] - off);
		off = j->blen[which];
	}
	memmove(b, b + off, j->blen[which] - off);
	j->blen[which] -= off;
}

static int same_target(const struct jm_job *a, const struct jm_job *b,
		       const char *dev)
{
	int i, k;

	if (dev)
		return 1;
	for (i = 0; i < a->ntargets; i++)
		for (k = 0; k < b->ntargets; k++)
			if (!strcmp(a->targets[i], b->targets[k]))
				return 1;
	return 0;
}

/* The child's argv: the job's options, its targets, then the command line. */
static char **child_argv(struct runner *r, struct job *j, int *argc)
{
	struct jm_job *m = j->m;
	char **v = xcalloc(m->argc + r->ncli + 12, sizeof(char *));
	int n = 0, i;
	char *devs;
	size_t len = 1;

	v[n++] = xstrdup("dixload");
	for (i = 0; i < m->argc; i++)
		v[n++] = xstrdup(m->argv[i]);
	/* fio lays out a job's files before it reads them: so does dixload */
	if ((m->reads || m->verify_after) && !r->cli_precond && !j->phase)
		v[n++] = xstrdup("--precondition=on");
	if (r->dev) {
		devs = xstrdup(r->dev);
	} else {
		for (i = 0; i < m->ntargets; i++)
			len += strlen(m->targets[i]) + 1;
		devs = xcalloc(1, len);
		for (i = 0; i < m->ntargets; i++) {
			if (i)
				strcat(devs, ",");
			strcat(devs, m->targets[i]);
		}
	}
	if (asprintf(&v[n++], "--dev=%s", devs) < 0)
		abort();
	free(devs);
	for (i = 0; i < r->ncli; i++)
		v[n++] = xstrdup(r->cli[i]);
	if (j->phase) {
		/* the read-back: the whole region once, nothing written */
		v[n++] = xstrdup("--rw=read");
		v[n++] = xstrdup("--precondition=off");
		v[n++] = xstrdup("--runtime=0");
	}
	v[n] = NULL;
	*argc = n;
	return v;
}

static void start(struct runner *r, struct job *j)
{
	int out[2], err[2], argc, i;
	char **argv = child_argv(r, j, &argc);

	if (pipe(out) || pipe(err)) {
		dix_err("job %s: pipe: %s", label(j), strerror(errno));
		j->status = DIX_EXIT_USAGE;
		j->st = J_DONE;
		return;
	}
	printf("dixload: job %s (%s:%d, [%s]) starts%s%s: %s", label(j),
	       j->m->file, j->m->line, j->m->section,
	       j->m->buffered ? ", buffered I/O (fio's direct=0)" : "",
	       j->m->startdelay > 0 ? ", after its startdelay" : "",
	       argv[1] ? "" : "");
	for (i = 1; i < argc; i++)
		printf("%s%s", i > 1 ? " " : "", argv[i]);
	printf("\n");
	fflush(stdout);
	fflush(stderr);
	j->pid = fork();
	if (j->pid == 0) {
		struct timespec ts;
		int st;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		/* a pipe: line by line, so the relay is live */
		setvbuf(stdout, NULL, _IOLBF, 0);
		if (j->m->startdelay > 0 && !j->phase && j->loop == 1) {
			ts.tv_sec = (time_t)j->m->startdelay;
			ts.tv_nsec = (long)((j->m->startdelay - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		st = r->run(argc, argv, NULL);
		fflush(NULL);
		_exit(st);
	}
	close(out[1]);
	close(err[1]);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	if (j->pid < 0) {
		dix_err("job %s: fork: %s", label(j), strerror(errno));
		close(out[0]);
		close(err[0]);
		j->status = DIX_EXIT_USAGE;
		j->st = J_DONE;
		return;
	}
	j->fd[0] = out[0];
	j->fd[1] = err[0];
	j->st = J_RUN;
}

static int can_start(struct runner *r, int i)
{
	struct job *j = &r->j[i];
	int k;

	for (k = 0; k < j->barrier; k++)
		if (r->j[k].st != J_DONE)
			return 0;
	if (j->wait_for >= 0 && r->j[j->wait_for].st != J_DONE)
		return 0;
	for (k = 0; k < r->n; k++)
		if (k != i && r->j[k].st == J_RUN &&
		    same_target(r->j[k].m, j->m, r->dev)) {
			if (!j->said_shared)
				printf("dixload: job %s waits for job %s: they name the same target, which one dixload run holds at a time (its numjobs are one run's threads, on disjoint slices)\n",
				       j->m->name, r->j[k].m->name);
			j->said_shared = 1;
			return 0;
		}
	return 1;
}

/* A child ended: its next loop, its read-back, or done. */
static void ended(struct runner *r, struct job *j, int wst)
{
	int st = WIFEXITED(wst) ? WEXITSTATUS(wst) : DIX_EXIT_USAGE;

	printf("dixload: job %s ended: exit status %d\n", label(j), st);
	j->status = exit_worst(j->status, st);
	j->st = J_WAIT;
	if (stop_asked || st) {
		j->st = J_DONE;
		return;
	}
	if (!j->phase && j->loop < j->m->loops) {
		j->loop++;
		start(r, j);
		return;
	}
	if (!j->phase && j->m->verify_after) {
		j->phase = 1;
		start(r, j);
		return;
	}
	j->st = J_DONE;
}

static void schedule(struct runner *r)
{
	struct pollfd *p = xcalloc(2 * r->n, sizeof(*p));
	struct job **who = xcalloc(2 * r->n, sizeof(*who));
	int i, left;

	for (;;) {
		int np = 0;

		/* a signal to dixload stops its jobs: each ends as a signalled run */
		if (stop_asked == 1) {
			stop_asked = 2;
			for (i = 0; i < r->n; i++)
				if (r->j[i].st == J_RUN && r->j[i].pid > 0)
					kill(r->j[i].pid, SIGTERM);
		}

		for (i = 0, left = 0; i < r->n; i++) {
			if (r->j[i].st == J_WAIT && !stop_asked && can_start(r, i)) {
				r->j[i].loop = 1;
				start(r, &r->j[i]);
			}
			if (r->j[i].st == J_WAIT && stop_asked) {
				r->j[i].st = J_DONE;
				r->j[i].status = exit_worst(r->j[i].status, 6);
			}
			left += r->j[i].st != J_DONE;
		}
		if (!left)
			break;
		for (i = 0; i < r->n; i++) {
			int w;

			if (r->j[i].st != J_RUN)
				continue;
			for (w = 0; w < 2; w++)
				if (r->j[i].fd[w] >= 0) {
					p[np].fd = r->j[i].fd[w];
					p[np].events = POLLIN;
					who[np++] = &r->j[i];
				}
		}
		if (np && poll(p, np, -1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < np; i++) {
			struct job *j = who[i];
			int w = p[i].fd == j->fd[0] ? 0 : 1;
			char tmp[4096];
			ssize_t got;

			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(p[i].fd, tmp, sizeof(tmp));
			if (got > 0) {
				j->buf[w] = xrealloc(j->buf[w], j->blen[w] + got + 1);
				memcpy(j->buf[w] + j->blen[w], tmp, got);
				j->blen[w] += got;
				drain(r, j, w, 0);
				continue;
			}
			if (got < 0 && errno == EINTR)
				continue;
			drain(r, j, w, 1);
			close(j->fd[w]);
			j->fd[w] = -1;
			if (j->fd[0] < 0 && j->fd[1] < 0) {
				int wst = 0;

				while (waitpid(j->pid, &wst, 0) < 0 && errno == EINTR)
					;
				ended(r, j, wst);
			}
		}
	}
	free(p);
	free(who);
}

static int find_job(struct runner *r, int upto, const char *name)
{
	int k, found = -1;

	for (k = 0; k < upto; k++)
		if (!strcmp(r->j[k].m->name, name)) {
			if (found >= 0)
				return -2;
			found = k;
		}
	return found;
}

/*
 * The command line's files dixload writes, and its --metrics port, belong
 * to one run: several jobs (or a job and its read-back) would each open
 * them, each truncating the file another is writing.
 */
static int refuse_shared_files(const struct runner *r, const struct jm_job *mj,
			       int nm)
{
	static const char *const own[] = {
		"--output", "--plot", "--log", "--lat-log", "--error-log",
		"--journal", "--metrics", "--bw-log", "--iops-log",
		"--write_bw_log", "--write_iops_log",
	};
	int i, runs = 0;
	unsigned int k;

	for (i = 0; i < nm; i++)
		runs += (int)mj[i].loops * (1 + mj[i].verify_after);
	if (runs < 2)
		return 0;
	for (i = 0; i < r->ncli; i++)
		for (k = 0; k < ARRAY_SIZE(own); k++) {
			size_t n = strlen(own[k]);

			if (!strncmp(r->cli[i], own[k], n) &&
			    (!r->cli[i][n] || r->cli[i][n] == '=')) {
				dix_err("%s: the job files make %d runs (a job, its loops and its read-back verify are each a run of its own), and each would write it over the others'; give it with a job file of one run",
					own[k], runs);
				return -1;
			}
		}
	return 0;
}

int jobrun_main(int argc, char **argv,
		int (*run)(int, char **, const struct dix_run_hook *))
{
	struct runner r = { .run = run };
	struct jm_job *mj = NULL;
	struct jm_notes notes = { 0 };
	struct jf_doc *docs;
	struct jf_sys sys;
	char err[16384];
	int i, nm = 0, nfile = 0, status = 0, bad = 0, barrier = 0;

	jf_sys_host(&sys);
	r.cli = xcalloc(argc + 1, sizeof(char *));
	docs = xcalloc(argc, sizeof(*docs));
	/* the options first: --directory applies to every file's jobs */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int v = takes_value(a);
		const char *val = v && i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] != '-')
			continue;
		if (!strncmp(a, "--dev=", 6) || !strncmp(a, "--filename=", 11)) {
			r.dev = strchr(a, '=') + 1;
		} else if ((!strcmp(a, "--dev") || !strcmp(a, "--filename")) && val) {
			r.dev = val;
		} else if (!strncmp(a, "--directory=", 12)) {
			r.dir = a + 12;
		} else if (!strcmp(a, "--directory") && val) {
			r.dir = val;
		} else {
			if (!strncmp(a, "--precondition", 14))
				r.cli_precond = 1;
			if ((!strcmp(a, "--output-format") && val &&
			     !strcmp(val, "json")) ||
			    !strcmp(a, "--output-format=json"))
				r.json = 1;
			r.cli[r.ncli++] = (char *)a;
			if (v && val)
				r.cli[r.ncli++] = (char *)val;
		}
		i += v;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-') {
			i += takes_value(a);
			continue;
		}
		/* the jobs point into their document: kept to the end */
		if (jf_read_file(&docs[nfile], a, &sys, err, sizeof(err)) ||
		    jm_build(&docs[nfile], nfile, r.dir, &mj, &nm, &notes, err,
			     sizeof(err))) {
			char *line, *save = NULL;

			for (line = strtok_r(err, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				dix_err("%s", line);
			bad = 1;
		}
		nfile++;
	}
	if (bad) {
		dix_err("job files refused: every option above is named with its file, line and section (doc/fio.md lists what dixload takes)");
		status = DIX_EXIT_USAGE;
		goto out;
	}
	if (!nm) {
		dix_err("the job files hold no job (a [NAME] section besides [global])");
		status = DIX_EXIT_USAGE;
		goto out;
	}
	if (refuse_shared_files(&r, mj, nm)) {
		status = DIX_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < notes.n; i++)
		printf("dixload: fio job file: %s\n", notes.v[i]);
	if (r.dev)
		printf("dixload: the command line's target %s replaces the job files' filename/directory\n",
		       r.dev);
	r.j = xcalloc(nm, sizeof(*r.j));
	r.n = nm;
	for (i = 0; i < nm; i++) {
		struct job *j = &r.j[i];

		j->m = &mj[i];
		j->fd[0] = j->fd[1] = -1;
		j->wait_for = -1;
		/* each job file is a group of its own (fio(1)) */
		if (i && (mj[i].stonewall || mj[i].file_no != mj[i - 1].file_no))
			barrier = i;
		j->barrier = barrier;
		if (mj[i].wait_for) {
			j->wait_for = find_job(&r, i, mj[i].wait_for);
			if (j->wait_for < 0) {
				dix_err("%s:%d: [%s] wait_for=%s: %s", mj[i].file,
					mj[i].line, mj[i].section, mj[i].wait_for,
					j->wait_for == -2 ?
					"more than one earlier job has that name (wait_for needs a unique one)" :
					"no earlier job has that name");
				status = DIX_EXIT_USAGE;
				goto out;
			}
		}
	}
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	schedule(&r);
	printf("dixload: jobs:");
	for (i = 0; i < nm; i++) {
		printf(" %s=%d", mj[i].name, r.j[i].status);
		status = exit_worst(status, r.j[i].status);
	}
	printf("; exit status %d\n", status);
out:
	fflush(stdout);
	for (i = 0; i < r.n; i++) {
		free(r.j[i].buf[0]);
		free(r.j[i].buf[1]);
	}
	free(r.j);
	free(r.cli);
	jm_free(mj, nm, &notes);
	for (i = 0; i < nfile; i++)
		jf_free(&docs[i]);
	free(docs);
	return status;
}
