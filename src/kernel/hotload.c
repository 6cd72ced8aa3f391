// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hotload.c - scheduled actions (--hotload, --unload, --sysfs, --exec) and
 * the control thread that runs them at their second of the run and watches
 * the kernel every interval.
 *
 * Timing: the thread sleeps in ppoll() on an eventfd until the next of
 * (next action, next watch tick), both absolute CLOCK_MONOTONIC deadlines
 * measured from the load's start, so a slow modprobe delays nothing that
 * follows it by more than its own duration and the schedule never drifts;
 * control_stop() writes the eventfd and the thread ends at once.
 *
 * Modules go through libkmod when it was found at build time: its results
 * are errno values and module states, so "not found", "already loaded",
 * "built in" and "in use" are told apart precisely.  Without it dixload
 * runs modprobe and reports modprobe's own first line of stderr.
 *
 * Actions come from the command line only (profiles refuse them), and
 * --sysfs writes only files under /sys: the path is resolved (symlinks
 * followed) when the options are checked, and the resolved path is opened
 * O_NOFOLLOW|O_TRUNC at the action's second, as 'echo VAL > PATH' would.
 *
 * --exec commands run in a thread of their own each, so a long command never
 * delays the watch or a later action; a command still running when the load
 * ends is terminated (SIGTERM to its process group, SIGKILL 2 s later) and
 * its action counts as failed.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_KMOD
#include <libkmod.h>
#endif

#include "json.h"
#include "hotload.h"
#include "kwatch.h"
#include "parse.h"
#include "run.h"
#include "util.h"

extern char **environ;

enum act_type { ACT_LOAD, ACT_UNLOAD, ACT_SYSFS, ACT_EXEC };

static const struct {
	const char *opt;
	const char *allowed;
} act_info[] = {
	[ACT_LOAD] = { "hotload", "MODULE@SEC" },
	[ACT_UNLOAD] = { "unload", "MODULE@SEC" },
	[ACT_SYSFS] = { "sysfs", "PATH=VALUE@SEC" },
	[ACT_EXEC] = { "exec", "'COMMAND'@SEC" },
};

/*
 * struct action - one scheduled action.
 * @type: enum act_type
 * @at: seconds after the start of the load
 * @arg: module name, sysfs path or shell command
 * @value: the value to write (sysfs only)
 * @resolved: @arg with every symlink followed: what is opened (sysfs only)
 */
struct action {
	int type;
	double at;
	char *arg;
	char *value;
	char *resolved;
};

struct ctl;

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

/*
 * struct ctl - the control thread's state (run->ctl).
 * @act/@nact: the actions in time order; @next: the first not yet run
 * @stop_fd: eventfd written by control_stop()
 * @tick: watch period in seconds
 * @cur: the last kernel snapshot
 * @lock: protects @jobs and the jobs' pid/killed/abandon/done fields
 */
struct ctl {
	struct dix_run *r;
	struct action *act;
	int nact;
	int next;
	pthread_t th;
	int stop_fd;
	int stopping;
	double tick;
	struct kw_state cur;
	const char *proc_root;
	const char *sys_root;
	pthread_mutex_t lock;
	struct exec_job **jobs;
	int njobs;
};

/* --------------------------------------------------------------------- */
/* parsing and checking */

static int module_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	/* the kernel's MODULE_NAME_LEN is 64 including the pointer-sized
	 * tail of struct module's name field: 56 usable */
	if (!n || n > 55)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

static void actions_free(struct action *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].arg);
		free(v[i].value);
		free(v[i].resolved);
	}
	free(v);
}

const char *dix_sysfs_root = "/sys";

int sysfs_resolve(const char *path, const char *root, char *resolved,
		  char *why, size_t len)
{
	char top[PATH_MAX];
	struct stat st;
	size_t n;
	int e;

	if (!realpath(root, top)) {
		e = errno;
		snprintf(why, len, "%s: %s", root, strerror(e));
		return -e;
	}
	if (!realpath(path, resolved)) {
		e = errno;
		snprintf(why, len, "%s: %s", path, strerror(e));
		return -e;
	}
	n = strlen(top);
	if (strncmp(resolved, top, n) || resolved[n] != '/') {
		if (strcmp(path, resolved))
			snprintf(why, len, "%s leads to %s, which is not under %s (for anything else use --exec)",
				 path, resolved, root);
		else
			snprintf(why, len, "%s is not under %s (for anything else use --exec)",
				 path, root);
		return -EPERM;
	}
	if (stat(resolved, &st)) {
		e = errno;
		snprintf(why, len, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s is %s", path, S_ISDIR(st.st_mode) ?
			 "a directory" : "not a regular file");
		return -EINVAL;
	}
	return 0;
}

long sysfs_write(const char *path, const char *value, const char **call)
{
	size_t n = strlen(value);
	char *buf = xmalloc(n + 1);
	ssize_t w;
	int fd, e;

	memcpy(buf, value, n);
	buf[n] = '\n';
	*call = "open";
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		e = errno;
		free(buf);
		return -e;
	}
	*call = "write";
	w = write(fd, buf, n + 1);
	e = errno;
	free(buf);
	if (w < 0) {
		close(fd);
		return -e;
	}
	/* sysfs reports some store errors only when the file is closed */
	if (close(fd)) {
		*call = "close";
		return -errno;
	}
	return w;
}

/* Check and convert one "SPEC@SEC"; on failure write the reason. */
static int parse_one(const struct dix_opts *o, int type, const char *s,
		     struct action *a, char *err, size_t len)
{
	const char *opt = act_info[type].opt, *allowed = act_info[type].allowed;
	char spec[4096], real[PATH_MAX], why[PATH_MAX + 512], *eq, *slash;
	int e;

	memset(a, 0, sizeof(*a));
	a->type = type;
	e = parse_at(s, spec, sizeof(spec), &a->at);
	if (e == -ENAMETOOLONG) {
		snprintf(err, len, "--%s '%.60s...': too long (allowed: %s)",
			 opt, s, allowed);
		return -EINVAL;
	}
	if (e) {
		const char *at = strrchr(s, '@');

		snprintf(err, len, "--%s '%s': %s (allowed: %s)", opt, s,
			 !at ? "no '@SEC' giving the second of the run" :
			 at == s ? "nothing before '@'" :
			 "the time after '@' is not a number of seconds",
			 allowed);
		return -EINVAL;
	}
	if (o->runtime > 0 && a->at > o->runtime) {
		snprintf(err, len, "--%s '%s': %g s is after the end of the run (--runtime %g) (allowed: %s with SEC <= runtime)",
			 opt, s, a->at, o->runtime, allowed);
		return -EINVAL;
	}
	switch (type) {
	case ACT_LOAD:
	case ACT_UNLOAD:
		if (!module_name_ok(spec)) {
			snprintf(err, len, "--%s '%s': '%s' is not a module name (letters, digits, '_' and '-', at most 55) (allowed: %s)",
				 opt, s, spec, allowed);
			return -EINVAL;
		}
		a->arg = xstrdup(spec);
		break;
	case ACT_SYSFS:
		/* the value may hold '=', a sysfs path never does after its
		 * last '/': split at the first '=' of the last component */
		slash = strrchr(spec, '/');
		eq = strchr(slash ? slash : spec, '=');
		if (!eq) {
			snprintf(err, len, "--%s '%s': no '=VALUE' (allowed: %s)",
				 opt, s, allowed);
			return -EINVAL;
		}
		*eq = '\0';
		if (spec[0] != '/') {
			snprintf(err, len, "--%s '%s': '%s' is not an absolute path (allowed: %s)",
				 opt, s, spec, allowed);
			return -EINVAL;
		}
		if (!eq[1]) {
			snprintf(err, len, "--%s '%s': empty VALUE (allowed: %s)",
				 opt, s, allowed);
			return -EINVAL;
		}
		if (sysfs_resolve(spec, dix_sysfs_root, real, why,
				  sizeof(why))) {
			snprintf(err, len, "--%s '%s': %s (allowed: %s with PATH a file under %s)",
				 opt, s, why, allowed, dix_sysfs_root);
			return -EINVAL;
		}
		a->arg = xstrdup(spec);
		a->value = xstrdup(eq + 1);
		a->resolved = xstrdup(real);
		break;
	case ACT_EXEC:
		a->arg = xstrdup(spec);
		break;
	}
	return 0;
}

/*
 * All actions of @o, sorted by time; at equal times in the order
 * --hotload, --unload, --sysfs, --exec and, within one option, as given.
 */
static int actions_parse(const struct dix_opts *o, struct action **out,
			 int *nout, char *err, size_t len)
{
	const struct str_list *lists[] = {
		[ACT_LOAD] = &o->hotload, [ACT_UNLOAD] = &o->unload,
		[ACT_SYSFS] = &o->sysfs, [ACT_EXEC] = &o->exec,
	};
	struct action *v, tmp;
	int n = 0, type, i, j;

	v = xcalloc(o->hotload.n + o->unload.n + o->sysfs.n + o->exec.n + 1,
		    sizeof(*v));
	for (type = ACT_LOAD; type <= ACT_EXEC; type++) {
		for (i = 0; i < lists[type]->n; i++) {
			if (parse_one(o, type, lists[type]->v[i], &v[n], err,
				      len)) {
				actions_free(v, n);
				return -EINVAL;
			}
			n++;
		}
	}
	/* insertion sort: stable and n is tiny */
	for (i = 1; i < n; i++) {
		tmp = v[i];
		for (j = i; j > 0 && v[j - 1].at > tmp.at; j--)
			v[j] = v[j - 1];
		v[j] = tmp;
	}
	*out = v;
	*nout = n;
	return 0;
}

int actions_check(const struct dix_opts *o, char *err, size_t len)
{
	struct action *v;
	int n;

	if (actions_parse(o, &v, &n, err, len))
		return -EINVAL;
	actions_free(v, n);
	return 0;
}

/* --------------------------------------------------------------------- */
/* events */

static void event(struct ctl *c, int kind, double t, const char *what,
		  int ok, double duration, const char *detail,
		  const char *json, const char *label)
{
	struct dix_event ev = {
		.t = t, .kind = kind, .what = (char *)what, .ok = ok,
		.duration = duration, .detail = (char *)detail,
		.json = (char *)json, .label = (char *)label,
	};

	run_event(c->r, &ev);
}

static void note(struct ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct ctl *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	event(c, EV_NOTE, run_elapsed(c->r), buf, -1, -1, NULL, NULL, NULL);
}

static void names_text(FILE *f, char *const *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
}

/*
 * Report what changed since the last snapshot: module loads nobody asked
 * dixload for (@modules set), then every transform or driver selection
 * change, each an event of its own.
 */
static void emit_changes(struct ctl *c, const struct kw_diff *d, int modules)
{
	double t = run_elapsed(c->r);
	int i;

	if (modules && (d->nloaded || d->nunloaded)) {
		char *what = NULL, *json, *json2 = NULL, *detail;
		size_t len = 0;
		FILE *f = open_memstream(&what, &len);

		if (f) {
			if (d->nloaded) {
				fputs("modules loaded: ", f);
				names_text(f, d->loaded, d->nloaded);
			}
			if (d->nunloaded) {
				fputs(d->nloaded ? "; unloaded: " :
				      "modules unloaded: ", f);
				names_text(f, d->unloaded, d->nunloaded);
			}
			fclose(f);
		}
		json = kw_diff_json(d);
		detail = kw_registered_text(d);
		if (asprintf(&json2, ",\"change\":\"modules\"%s", json) < 0)
			json2 = NULL;
		event(c, EV_CHANGE, t, what ? what : "modules changed", -1, -1,
		      detail, json2, NULL);
		free(what);
		free(json);
		free(json2);
		free(detail);
	}
	for (i = 0; i < d->nchanges; i++)
		event(c, EV_CHANGE, t, d->changes[i].text, -1, -1, NULL,
		      d->changes[i].json, d->changes[i].label);
}

/* Take a snapshot, diff it against the last one, keep it. */
static void snapshot_diff(struct ctl *c, struct kw_diff *d)
{
	struct kw_state now;

	kw_snapshot(&now, c->proc_root, c->sys_root);
	kw_diff(&c->cur, &now, d);
	kw_free(&c->cur);
	c->cur = now;
}

/* --------------------------------------------------------------------- */
/* modules */

/* Kernel release "6.14.0-1-amd64" >= @maj.@min?  Unknown: assume yes. */
static int kernel_at_least(int maj, int min)
{
	struct utsname u;
	int a, b;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return 1;
	return a > maj || (a == maj && b >= min);
}

static const char *release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "?";
	return u.release;
}

/*
 * The message for a module that does not exist.  For the CRC-T10DIF
 * modules on a kernel that no longer has them, say why and what to do
 * instead.
 */
static void not_found(struct ctl *c, const char *name, char *msg, size_t len)
{
	char n[KW_MOD_LEN];
	const char *dev = c->r->t && c->r->t->is_blk ? c->r->t->name : "DEV";

	kw_normalise(name, n, sizeof(n));
	if ((!strncmp(n, "crct10dif", 9) || !strcmp(n, "crc_t10dif")) &&
	    !c->cur.have_transform && kernel_at_least(6, 14))
		snprintf(msg, len, "module %s not found in /lib/modules/%s: since Linux 6.14 the accelerated CRC-T10DIF is built into the kernel's CRC library and chosen at boot (no module to load, no crc_t10dif transform to switch); the A/B that works here toggles PI in the block layer: --sysfs /sys/block/%s/integrity/write_generate=0@SEC or --sysfs /sys/block/%s/integrity/read_verify=0@SEC",
			 name, release(), dev, dev);
	else
		snprintf(msg, len, "module %s not found in /lib/modules/%s",
			 name, release());
}

#ifdef HAVE_KMOD
static const char *insert_hint(int err)
{
	switch (err) {
	case -ENODEV:
		return " (the module's init found no device or CPU feature it needs; see dmesg)";
	case -ENOEXEC:
	case -EINVAL:
		return " (not a module for this kernel, unknown symbol or bad parameter; see dmesg)";
	case -EPERM:
		return " (needs CAP_SYS_MODULE; or module loading is disabled: /proc/sys/kernel/modules_disabled)";
	case -EKEYREJECTED:
	case -ENOKEY:
		return " (module signature rejected)";
	}
	return "";
}

/* A quiet library context: its messages would garble the meter lines. */
static void kmod_quiet(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	(void)format, (void)args;
}

static struct kmod_ctx *kctx(char *msg, size_t len)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		snprintf(msg, len, "libkmod cannot open /lib/modules/%s",
			 release());
		return NULL;
	}
	kmod_set_log_fn(ctx, kmod_quiet, NULL);
	return ctx;
}

/*
 * Look up @name (a module or an alias, which may name several modules) in
 * a quiet library context.  Return: 0 with *@ctx and a non-empty *@list
 * that the caller releases, or -errno (-ENOENT: no such module) with @msg
 * saying why.
 */
static int module_lookup(struct ctl *c, const char *name,
			 struct kmod_ctx **ctx, struct kmod_list **list,
			 char *msg, size_t len)
{
	int r;

	*list = NULL;
	*ctx = kctx(msg, len);
	if (!*ctx)
		return -ENOMEM;
	r = kmod_module_new_from_lookup(*ctx, name, list);
	if (r < 0) {
		snprintf(msg, len, "looking up module %s: %s", name, strerror(-r));
	} else if (!*list) {
		not_found(c, name, msg, len);
		r = -ENOENT;
	}
	if (r < 0) {
		kmod_module_unref_list(*list);
		kmod_unref(*ctx);
	}
	return r;
}

/*
 * What a --hotload of @name would find now: 0 loadable, 1 loaded, 2 built
 * in, -ENOENT no such module, other -errno.
 */
static int module_state(struct ctl *c, const char *name, char *msg,
			size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list, *l;
	int r = module_lookup(c, name, &ctx, &list, msg, len);

	if (r < 0)
		return r;
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int st = kmod_module_get_initstate(m);

		if (st == KMOD_MODULE_BUILTIN) {
			snprintf(msg, len, "module %s is built into the kernel",
				 kmod_module_get_name(m));
			r = 2;
		} else if (st == KMOD_MODULE_LIVE ||
			   st == KMOD_MODULE_COMING) {
			snprintf(msg, len, "module %s is already loaded",
				 kmod_module_get_name(m));
			r = 1;
		}
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r;
}

static int module_load(struct ctl *c, const char *name, char *msg,
		       size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list, *l;
	int r = module_lookup(c, name, &ctx, &list, msg, len);

	if (r < 0)
		return r;
	/* load every module an alias names, like modprobe */
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int st = kmod_module_get_initstate(m), e;

		if (st == KMOD_MODULE_BUILTIN) {
			snprintf(msg, len, "module %s is built into the kernel: nothing to load",
				 kmod_module_get_name(m));
			e = -EEXIST;
		} else {
			/* an already loaded module is not "ok": the
			 * transition this action was meant to cause cannot
			 * happen */
			e = kmod_module_probe_insert_module(m,
					KMOD_PROBE_FAIL_ON_LOADED, NULL, NULL,
					NULL, NULL);
			if (e == -EEXIST)
				snprintf(msg, len, "module %s is already loaded: nothing changes",
					 kmod_module_get_name(m));
			else if (e < 0)
				snprintf(msg, len, "could not insert '%s': %s%s",
					 kmod_module_get_name(m), strerror(-e),
					 insert_hint(e));
			else if (e > 0) {
				snprintf(msg, len, "module %s is blacklisted",
					 kmod_module_get_name(m));
				e = -EPERM;
			}
		}
		kmod_module_unref(m);
		if (e < 0) {
			r = e;
			break;
		}
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r;
}

/* Remove @m's dependencies nothing uses any more, as modprobe -r does. */
static void remove_unused_deps(struct kmod_module *m, FILE *also, int *n,
			       int depth)
{
	struct kmod_list *deps = kmod_module_get_dependencies(m), *l;

	if (depth > 16)
		return;
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);
		struct kmod_list *h = kmod_module_get_holders(d);

		if (kmod_module_get_initstate(d) == KMOD_MODULE_LIVE &&
		    kmod_module_get_refcnt(d) == 0 && !h &&
		    kmod_module_remove_module(d, 0) == 0) {
			fprintf(also, "%s%s", (*n)++ ? ", " : "",
				kmod_module_get_name(d));
			remove_unused_deps(d, also, n, depth + 1);
		}
		kmod_module_unref_list(h);
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
}

static int module_unload(const char *name, char *msg, size_t len,
			 char **removed_deps)
{
	struct kmod_ctx *ctx = kctx(msg, len);
	struct kmod_module *m = NULL;
	struct kmod_list *h, *l;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;
	int r, st, n = 0;

	*removed_deps = NULL;
	if (!ctx)
		return -ENOMEM;
	r = kmod_module_new_from_name(ctx, name, &m);
	if (r < 0) {
		snprintf(msg, len, "module %s: %s", name, strerror(-r));
		goto out;
	}
	st = kmod_module_get_initstate(m);
	if (st == KMOD_MODULE_BUILTIN) {
		snprintf(msg, len, "module %s is built into the kernel: it cannot be unloaded",
			 name);
		r = -EPERM;
		goto out;
	}
	if (st < 0) {
		snprintf(msg, len, "module %s is not loaded", name);
		r = -ENOENT;
		goto out;
	}
	r = kmod_module_remove_module(m, 0);
	if (r < 0) {
		int refs = kmod_module_get_refcnt(m);

		f = open_memstream(&buf, &blen);
		if (f) {
			h = kmod_module_get_holders(m);
			kmod_list_foreach(l, h) {
				struct kmod_module *x = kmod_module_get_module(l);

				fprintf(f, "%s%s", n++ ? ", " : ", used by ",
					kmod_module_get_name(x));
				kmod_module_unref(x);
			}
			kmod_module_unref_list(h);
			fclose(f);
		}
		if (r == -EAGAIN || r == -EBUSY || r == -EWOULDBLOCK)
			snprintf(msg, len, "module %s is in use (refcount %d%s): cannot be unloaded",
				 name, refs, buf ? buf : "");
		else
			snprintf(msg, len, "could not remove '%s': %s", name,
				 strerror(-r));
		free(buf);
		goto out;
	}
	f = open_memstream(&buf, &blen);
	if (f) {
		remove_unused_deps(m, f, &n, 0);
		fclose(f);
		if (n)
			*removed_deps = buf;
		else
			free(buf);
	}
out:
	kmod_module_unref(m);
	kmod_unref(ctx);
	return r;
}
#endif /* HAVE_KMOD */

/* --------------------------------------------------------------------- */
/* child processes (--exec, and modprobe without libkmod) */

/*
 * Start @argv in its own process group with stdin from /dev/null, stdout
 * on our stderr (so JSON on stdout stays parseable) and stderr into a pipe
 * whose read end is *@errfd.  Return: the pid, or -errno.
 */
static pid_t spawn_child(char *const argv[], int *errfd)
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
static void drain_stderr(int fd, char *first, size_t len, int forward,
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

static const char *status_text(int st, char *buf, size_t len)
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

#ifndef HAVE_KMOD
/* modprobe [-r] NAME; 0, or -EIO with modprobe's first stderr line. */
static int run_modprobe(int unload, const char *name, char *msg, size_t len)
{
	char *argv[] = { "/sbin/modprobe", unload ? "-r" : "--", (char *)name,
			 NULL };
	char first[512], how[64];
	int fd = -1, st;
	pid_t pid = spawn_child(argv, &fd);

	if (pid < 0) {
		snprintf(msg, len, "cannot run /sbin/modprobe: %s",
			 strerror(-pid));
		return pid;
	}
	drain_stderr(fd, first, sizeof(first), 0, NULL, NULL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	snprintf(msg, len, "%s (modprobe %s)", first[0] ? first :
		 "no message", status_text(st, how, sizeof(how)));
	return -EIO;
}
#endif

/* --------------------------------------------------------------------- */
/* actions */

/* The event text of an action: "modprobe x", "sysfs /p=v", "exec 'cmd'". */
static void action_what(const struct action *a, char *buf, size_t len)
{
	switch (a->type) {
	case ACT_LOAD:
	case ACT_UNLOAD:
		snprintf(buf, len, "modprobe %s%s",
			 a->type == ACT_UNLOAD ? "-r " : "", a->arg);
		break;
	case ACT_SYSFS:
		snprintf(buf, len, "sysfs %s=%s", a->arg, a->value);
		break;
	default:
		snprintf(buf, len, "exec '%s'", a->arg);
	}
}

static void act_module(struct ctl *c, const struct action *a)
{
	int unload = a->type == ACT_UNLOAD;
	char what[128], msg[1024] = "", name[KW_MOD_LEN], *extra = NULL;
	char *json = NULL, *dj, *detail = NULL;
	double t = run_elapsed(c->r), start = dix_now(), dur;
	struct kw_diff d;
	int e;

	action_what(a, what, sizeof(what));
	kw_normalise(a->arg, name, sizeof(name));
#ifdef HAVE_KMOD
	if (unload)
		e = module_unload(a->arg, msg, sizeof(msg), &extra);
	else
		e = module_load(c, a->arg, msg, sizeof(msg));
#else
	e = 0;
	if (kw_module_loaded(&c->cur, name) == !unload) {
		snprintf(msg, sizeof(msg), unload ? "module %s is not loaded" :
			 "module %s is already loaded: nothing changes",
			 a->arg);
		e = unload ? -ENOENT : -EEXIST;
	} else {
		e = run_modprobe(unload, a->arg, msg, sizeof(msg));
		if (e && !unload && strstr(msg, "not found"))
			not_found(c, a->arg, msg, sizeof(msg));
	}
#endif
	dur = dix_now() - start;
	/* what the module registered is in /proc/crypto as soon as its
	 * init returned; crc_t10dif's switch follows a moment later and is
	 * caught by the next watch tick */
	snapshot_diff(c, &d);
	dj = kw_diff_json(&d);
	if (asprintf(&json, ",\"module\":\"%s\"%s", name, dj) < 0)
		json = NULL;
	if (!e) {
		char *reg = kw_registered_text(&d);
		char *mods = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&mods, &len);

		if (f) {
			if (d.nloaded > 1 || (d.nloaded == 1 &&
					      strcmp(d.loaded[0], name))) {
				fputs("; modules loaded: ", f);
				names_text(f, d.loaded, d.nloaded);
			}
			if (extra)
				fprintf(f, "; also removed unused %s", extra);
			fclose(f);
		}
		if (asprintf(&detail, "%s%s", reg, mods ? mods : "") < 0)
			detail = NULL;
		free(reg);
		free(mods);
	}
	event(c, EV_ACTION, t, what, !e, dur, e ? msg : detail, json, what);
	emit_changes(c, &d, 0);
	kw_diff_free(&d);
	free(dj);
	free(json);
	free(detail);
	free(extra);
}

/*
 * The event says what the kernel returned: the bytes write(2) took, or the
 * errno of the call that failed, by name and in words.
 */
static void act_sysfs(struct ctl *c, const struct action *a)
{
	char what[4200], label[200], before[256], after[256], detail[700];
	char *json = NULL, name[32];
	const char *base = strrchr(a->arg, '/'), *call;
	size_t jlen = 0;
	FILE *f;
	double t = run_elapsed(c->r), start = dix_now(), dur;
	long ret;
	int had, ok;

	action_what(a, what, sizeof(what));
	snprintf(label, sizeof(label), "%s=%s", base ? base + 1 : a->arg,
		 a->value);
	had = read_sysfs_str(a->resolved, before, sizeof(before)) == 0;
	ret = sysfs_write(a->resolved, a->value, &call);
	dur = dix_now() - start;
	ok = ret == (long)strlen(a->value) + 1;
	if (ret < 0)
		snprintf(detail, sizeof(detail), "%s(2) failed: %s (%s)", call,
			 dix_errno_name(-ret, name, sizeof(name)),
			 strerror(-ret));
	else if (!ok)
		snprintf(detail, sizeof(detail),
			 "write(2) returned %ld: the kernel took %ld of the %zu bytes",
			 ret, ret, strlen(a->value) + 1);
	else if (had && read_sysfs_str(a->resolved, after, sizeof(after)) == 0)
		snprintf(detail, sizeof(detail), "was %s, now %s; write(2) returned %ld",
			 before, after, ret);
	else
		snprintf(detail, sizeof(detail), "write(2) returned %ld", ret);
	/* JSON: where the path led, the call and what it returned */
	f = open_memstream(&json, &jlen);
	if (f) {
		struct jw w;

		jw_init_members(&w, f);
		jw_str(&w, "resolved", a->resolved);
		jw_str(&w, "call", call);
		jw_int(&w, "returned", ret);
		if (ret < 0)
			jw_str(&w, "errno", dix_errno_name(-ret, name, sizeof(name)));
		fclose(f);
	}
	event(c, EV_ACTION, t, what, ok, dur, detail, json, label);
	free(json);
}

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

	action_what(j->a, what, sizeof(what));
	snprintf(label, sizeof(label), "exec: %s", j->a->arg);
	pid = spawn_child(argv, &fd);
	if (pid < 0) {
		snprintf(detail, sizeof(detail), "cannot start /bin/sh: %s",
			 strerror(-pid));
		event(c, EV_ACTION, j->t, what, 0, dix_now() - start, detail,
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
	event(c, EV_ACTION, j->t, what, ok, dur, detail, NULL, label);
out:
	pthread_mutex_lock(&c->lock);
	j->done = 1;
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static void act_exec(struct ctl *c, const struct action *a)
{
	struct exec_job *j = xcalloc(1, sizeof(*j));
	int e;

	j->c = c;
	j->a = a;
	j->t = run_elapsed(c->r);
	j->started = dix_now();
	pthread_mutex_lock(&c->lock);
	c->jobs = xrealloc(c->jobs, (c->njobs + 1) * sizeof(*c->jobs));
	c->jobs[c->njobs++] = j;
	e = pthread_create(&j->th, NULL, exec_main, j);
	if (e) {
		c->njobs--;
		pthread_mutex_unlock(&c->lock);
		free(j);
		event(c, EV_ACTION, run_elapsed(c->r), a->arg, 0, 0,
		      strerror(e), NULL, NULL);
		return;
	}
	pthread_mutex_unlock(&c->lock);
}

static void run_action(struct ctl *c, const struct action *a)
{
	switch (a->type) {
	case ACT_LOAD:
	case ACT_UNLOAD:
		act_module(c, a);
		break;
	case ACT_SYSFS:
		act_sysfs(c, a);
		break;
	case ACT_EXEC:
		act_exec(c, a);
		break;
	}
}

/* --------------------------------------------------------------------- */
/* the control thread */

/* Sleep until @deadline (absolute); return 1 when asked to stop. */
static int sleep_until(struct ctl *c, double deadline)
{
	struct pollfd pfd = { .fd = c->stop_fd, .events = POLLIN };
	double left = deadline - dix_now();
	struct timespec ts;

	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (ppoll(&pfd, 1, &ts, NULL) > 0)
		return 1;
	return __atomic_load_n(&c->stopping, __ATOMIC_ACQUIRE);
}

static void watch_tick(struct ctl *c)
{
	struct kw_diff d;

	snapshot_diff(c, &d);
	emit_changes(c, &d, 1);
	kw_diff_free(&d);
}

static void *ctl_main(void *arg)
{
	struct ctl *c = arg;
	struct dix_run *r = c->r;
	double tick = r->t0 + c->tick, end;

	for (;;) {
		double next = tick, now;

		if (c->next < c->nact && r->t0 + c->act[c->next].at < next)
			next = r->t0 + c->act[c->next].at;
		if (sleep_until(c, next))
			break;
		now = dix_now();
		while (c->next < c->nact && r->t0 + c->act[c->next].at <= now)
			run_action(c, &c->act[c->next++]);
		if (dix_now() >= tick) {
			watch_tick(c);
			/* missed ticks (a slow action) are skipped, not
			 * bunched up */
			now = dix_now();
			while (tick <= now)
				tick += c->tick;
		}
	}
	/*
	 * The load has ended.  Actions due by now (or within half a second:
	 * "--exec ...@24" with --runtime 24 races the end) still run; later
	 * ones never will, and say so - an experiment that did not happen
	 * must not pass for one that did.
	 */
	end = run_elapsed(r);
	while (c->next < c->nact) {
		const struct action *a = &c->act[c->next++];
		char what[4200], detail[160];

		if (a->at <= end + 0.5) {
			run_action(c, a);
			continue;
		}
		action_what(a, what, sizeof(what));
		snprintf(detail, sizeof(detail), "not run: the load ended at %.1f s, before %g s",
			 end, a->at);
		event(c, EV_ACTION, a->at, what, 0, -1, detail, NULL, NULL);
	}
	/* a last look: a change in the final interval still gets reported */
	watch_tick(c);
	return NULL;
}

/* Whether an action before @k loads or unloads module @n too. */
static int earlier_same_module(const struct ctl *c, int k, const char *n)
{
	char m[KW_MOD_LEN];
	int i;

	for (i = 0; i < k; i++) {
		if (c->act[i].type != ACT_LOAD && c->act[i].type != ACT_UNLOAD)
			continue;
		kw_normalise(c->act[i].arg, m, sizeof(m));
		if (!strcmp(m, n))
			return 1;
	}
	return 0;
}

/* Say at the start what would make an action pointless or doomed. */
static void start_notes(struct ctl *c)
{
	char msg[1024];
	int i;

	if (c->cur.have_transform)
		note(c, "crc_t10dif transform: %s", c->cur.transform);
	for (i = 0; i < c->nact; i++) {
		const struct action *a = &c->act[i];
		char n[KW_MOD_LEN], drv[KW_MOD_LEN];
		int st, k;

		if (a->type != ACT_LOAD && a->type != ACT_UNLOAD)
			continue;
		kw_normalise(a->arg, n, sizeof(n));
		/* after an earlier load or unload of the same module the
		 * state at start says nothing about this one */
		if (earlier_same_module(c, i, n))
			continue;
		if (a->type == ACT_UNLOAD) {
			if (kw_module_loaded(&c->cur, n) == 0)
				note(c, "%s is not loaded: the unload at %g s will fail",
				     a->arg, a->at);
			continue;
		}
		/* crct10dif_pclmul provides driver crct10dif-pclmul */
		for (k = 0; n[k] && k < (int)sizeof(drv) - 1; k++)
			drv[k] = n[k] == '_' ? '-' : n[k];
		drv[k] = '\0';
		if (c->cur.have_transform && !strcmp(c->cur.transform, drv))
			note(c, "crc_t10dif transform is already %s: loading %s cannot change the CRC",
			     drv, a->arg);
		if (kw_module_loaded(&c->cur, n) == 1) {
			note(c, "%s is already loaded: there is no transition left to capture",
			     a->arg);
			continue;
		}
#ifdef HAVE_KMOD
		st = module_state(c, a->arg, msg, sizeof(msg));
		if (st == -ENOENT)
			note(c, "%s; the hot-load at %g s will fail", msg, a->at);
		else if (st == 1)
			note(c, "%s: there is no transition left to capture", msg);
		else if (st == 2)
			note(c, "%s: there is nothing to load", msg);
#else
		(void)st;
		(void)msg;
#endif
	}
}

int control_start(struct dix_run *r)
{
	struct ctl *c = xcalloc(1, sizeof(*c));
	char err[1024];
	int e;

	c->r = r;
	c->proc_root = "/proc";
	c->sys_root = "/sys";
	c->stop_fd = -1;
	if (actions_parse(r->o, &c->act, &c->nact, err, sizeof(err))) {
		/* actions_check() ran before the load: only a sysfs file
		 * vanishing in between gets here */
		dix_err("%s", err);
		free(c);
		return -EINVAL;
	}
	c->tick = r->o->interval_ms ? r->o->interval_ms / 1000.0 : 1.0;
	pthread_mutex_init(&c->lock, NULL);
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->stop_fd < 0) {
		e = -errno;
		dix_err("cannot start the control thread: eventfd: %s",
			strerror(-e));
		goto fail;
	}
	kw_snapshot(&c->cur, c->proc_root, c->sys_root);
	if (!c->nact && !c->cur.have_modules && !c->cur.have_crypto &&
	    !c->cur.have_transform) {
		/* nothing to run, nothing to watch */
		e = 1;
		goto fail;
	}
	r->ctl = c;
	start_notes(c);
	e = pthread_create(&c->th, NULL, ctl_main, c);
	if (e) {
		dix_err("cannot start the control thread: %s", strerror(e));
		r->ctl = NULL;
		e = -e;
		goto fail;
	}
	return 0;
fail:
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	kw_free(&c->cur);
	actions_free(c->act, c->nact);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return e;
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

void control_stop(struct dix_run *r)
{
	struct ctl *c = r->ctl;
	uint64_t one = 1;
	ssize_t n;
	int i;

	if (!c)
		return;
	__atomic_store_n(&c->stopping, 1, __ATOMIC_RELEASE);
	n = write(c->stop_fd, &one, sizeof(one));
	(void)n;
	pthread_join(c->th, NULL);

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
	close(c->stop_fd);
	kw_free(&c->cur);
	actions_free(c->act, c->nact);
	pthread_mutex_destroy(&c->lock);
	free(c);
	r->ctl = NULL;
}
