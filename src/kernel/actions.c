// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * actions.c - the scheduled actions as the command line gives them
 * (--hotload, --unload, --sysfs, --exec, --dm-reload, --priority): parsing,
 * checking, and the one confined sysfs write.
 *
 * Actions come from the command line only (profiles refuse them), and
 * --sysfs writes only files under /sys: the path is resolved (symlinks
 * followed) when the options are checked, and the resolved path is opened
 * O_NOFOLLOW|O_TRUNC at the action's second, as 'echo VAL > PATH' would.
 *
 * --priority is checked against the running kernel before the load: without
 * crypto_user there is no way to change a priority, so the run is refused
 * then and not at the action's second; a driver that is not registered yet
 * is accepted only when something before the action can register it (a
 * --hotload, or the action itself for a template instance).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kernel/actions.h"
#include "kernel/dmreload.h"
#include "kernel/cryptouser.h"
#include "kernel/hotload.h"
#include "kernel/kwatch.h"
#include "kernel/modules.h"
#include "lib/parse.h"
#include "lib/util.h"

const struct act_info act_info[] = {
	[ACT_LOAD] = { "hotload", "MODULE@SEC" },
	[ACT_UNLOAD] = { "unload", "MODULE@SEC" },
	[ACT_SYSFS] = { "sysfs", "PATH=VALUE@SEC" },
	[ACT_EXEC] = { "exec", "'COMMAND'@SEC" },
	[ACT_DMRELOAD] = { "dm-reload", "DEV@SEC with DEV a device-mapper mapping" },
	[ACT_PRIORITY] = { "priority", "DRIVER=N@SEC" },
};

/* The crypto API's driver names: cra_driver_name is 64 bytes with its NUL. */
static int driver_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= CRU_NAME_LEN)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_(),", s[i]))
			return 0;
	return 1;
}

int act_instantiable(const char *driver)
{
	const char *open = strchr(driver, '(');

	return open && open > driver && driver[strlen(driver) - 1] == ')';
}

struct cru_sock *act_crypto_user(char *why, size_t len)
{
	static const struct kw_state none;
	struct mod_env env = { NULL, &none };
	struct cru_sock *s;
	char msg[512];
	int e, l;

	s = cru_open(&e);
	if (s)
		return s;
	if (e == -EOPNOTSUPP) {
		snprintf(why, len, "this dixload was built without libmnl, which --priority needs for crypto_user netlink (configure --with-mnl; Debian: libmnl-dev)");
		return NULL;
	}
	if (e != -EPROTONOSUPPORT) {
		snprintf(why, len, "cannot open a crypto_user netlink socket: %s",
			 strerror(-e));
		return NULL;
	}
	l = mod_load(&env, "crypto_user", msg, sizeof(msg));
	if (!l || l == -EEXIST)
		s = cru_open(&e);
	if (!s)
		snprintf(why, len, "the kernel has no crypto_user (netlink NETLINK_CRYPTO: %s)%s%s; --priority changes priorities only through it",
			 strerror(-e), l && l != -EEXIST ? ", and loading it failed: " : "",
			 l && l != -EEXIST ? msg : "");
	return s;
}

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

void actions_free(struct action *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].arg);
		free(v[i].value);
		free(v[i].resolved);
	}
	free(v);
}

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
	const char *root = o->sysfs_root ? o->sysfs_root : DIX_SYSFS_ROOT;
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
		if (sysfs_resolve(spec, root, real, why, sizeof(why))) {
			snprintf(err, len, "--%s '%s': %s (allowed: %s with PATH a file under %s)",
				 opt, s, why, allowed, root);
			return -EINVAL;
		}
		a->arg = xstrdup(spec);
		a->value = xstrdup(eq + 1);
		a->resolved = xstrdup(real);
		break;
	case ACT_EXEC:
		a->arg = xstrdup(spec);
		break;
	case ACT_DMRELOAD: {
		struct stat st;
		char name[128];

		if (stat(spec, &st) || !S_ISBLK(st.st_mode)) {
			snprintf(err, len, "--%s '%s': %s is not a block device (allowed: %s)",
				 opt, s, spec, allowed);
			return -EINVAL;
		}
		if (dm_reload_check(major(st.st_rdev), minor(st.st_rdev), name,
				    why, sizeof(why))) {
			snprintf(err, len, "--%s '%s': %s cannot be reloaded as read: %s",
				 opt, s, spec, why);
			return -EINVAL;
		}
		a->arg = xstrdup(spec);
		a->major = major(st.st_rdev);
		a->minor = minor(st.st_rdev);
		break;
	}
	case ACT_PRIORITY: {
		unsigned long long p;
		char *end;

		/* a driver name holds no '=': split at the last one */
		eq = strrchr(spec, '=');
		if (!eq) {
			snprintf(err, len, "--%s '%s': no '=N' giving the priority (allowed: %s)",
				 opt, s, allowed);
			return -EINVAL;
		}
		*eq = '\0';
		if (!driver_name_ok(spec)) {
			snprintf(err, len, "--%s '%s': '%s' is not a crypto driver name (letters, digits and '-_(),', at most %d) (allowed: %s)",
				 opt, s, spec, CRU_NAME_LEN - 1, allowed);
			return -EINVAL;
		}
		errno = 0;
		p = strtoull(eq + 1, &end, 10);
		/* cra_priority is an int */
		if (!isdigit((unsigned char)eq[1]) || *end || errno ||
		    p > 2147483647ull) {
			snprintf(err, len, "--%s '%s': '%s' is not a priority (a whole number 0-2147483647) (allowed: %s)",
				 opt, s, eq + 1, allowed);
			return -EINVAL;
		}
		a->arg = xstrdup(spec);
		a->value = xstrdup(eq + 1);
		a->prio = (unsigned int)p;
		break;
	}
	}
	return 0;
}

int actions_parse(const struct dix_opts *o, struct action **out,
			 int *nout, char *err, size_t len)
{
	const struct str_list *lists[] = {
		[ACT_LOAD] = &o->hotload, [ACT_UNLOAD] = &o->unload,
		[ACT_SYSFS] = &o->sysfs, [ACT_EXEC] = &o->exec,
		[ACT_DMRELOAD] = &o->dm_reload,
		[ACT_PRIORITY] = &o->priority,
	};
	struct action *v, tmp;
	int n = 0, type, i, j;

	v = xcalloc(o->hotload.n + o->unload.n + o->sysfs.n + o->exec.n +
		    o->dm_reload.n + o->priority.n + 1, sizeof(*v));
	for (type = ACT_LOAD; type <= ACT_PRIORITY; type++) {
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

/*
 * Every --priority against the running kernel: crypto_user must be there
 * (loaded now if it is a module), and each driver registered, or made so
 * before its second by an earlier --hotload or by the action itself (a
 * template instance).
 */
static int priority_check(const struct action *v, int n, char *err,
			  size_t len)
{
	struct cru_sock *s = NULL;
	char why[1024];
	int i, k, e = 0;

	for (i = 0; i < n && !e; i++) {
		const struct action *a = &v[i];
		struct cru_alg alg;
		int r, loads = 0;

		if (a->type != ACT_PRIORITY)
			continue;
		if (!s) {
			s = act_crypto_user(why, sizeof(why));
			if (!s) {
				snprintf(err, len, "--priority '%s=%s@%g': %s",
					 a->arg, a->value, a->at, why);
				return -EINVAL;
			}
		}
		r = cru_get(s, a->arg, &alg);
		if (!r || (r == -ENOENT && act_instantiable(a->arg)))
			continue;
		for (k = 0; k < i; k++)
			loads += v[k].type == ACT_LOAD;
		if (r == -ENOENT && loads)
			continue;
		if (r == -ENOENT)
			snprintf(err, len, "--priority '%s=%s@%g': no crypto driver '%s' is registered (/proc/crypto), and no --hotload before it may register it (allowed: DRIVER=N@SEC, DRIVER a registered driver, one a --hotload at or before SEC brings, or a template instance such as 'xts(ecb(aes-generic))', which the action registers)",
				 a->arg, a->value, a->at, a->arg);
		else
			snprintf(err, len, "--priority '%s=%s@%g': asking crypto_user for '%s': %s",
				 a->arg, a->value, a->at, a->arg, strerror(-r));
		e = -EINVAL;
	}
	cru_close(s);
	return e;
}

/*
 * Every --dm-reload's mapping before the load: one that someone else has
 * open, mounted or stacked on is refused without --force (a suspend stalls
 * their I/O, a new table changes what they read); with --force, a warning.
 * dixload has not opened the target yet, and at the action's second its own
 * opens are told apart (dm_reload_busy()), so the rule is the same then.
 */
static int dmreload_busy_check(const struct dix_opts *o, const struct action *v,
			       int n, char *err, size_t len)
{
	char why[1024];
	int i, r;

	for (i = 0; i < n; i++) {
		const struct action *a = &v[i];

		if (a->type != ACT_DMRELOAD)
			continue;
		r = dm_reload_busy(a->major, a->minor, why, sizeof(why));
		if (r < 0) {
			snprintf(err, len, "--dm-reload '%s@%g': %s", a->arg, a->at, why);
			return -EINVAL;
		}
		if (!r)
			continue;
		if (!o->force) {
			snprintf(err, len, "--dm-reload '%s@%g': %s is in use: %s; a reload suspends it under its users (--force reloads it anyway) (allowed: DEV@SEC with DEV a mapping nobody else has open, mounted or stacked on)",
				 a->arg, a->at, a->arg, why);
			return -EINVAL;
		}
		dix_warn("--dm-reload '%s@%g': %s is in use: %s; reloading it anyway (--force)",
			 a->arg, a->at, a->arg, why);
	}
	return 0;
}

int actions_check(const struct dix_opts *o, char *err, size_t len)
{
	struct action *v;
	int n, e;

	if (actions_parse(o, &v, &n, err, len))
		return -EINVAL;
	e = dmreload_busy_check(o, v, n, err, len);
	if (!e)
		e = priority_check(v, n, err, len);
	actions_free(v, n);
	return e;
}
