// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - find and parse profile files.
 *
 * The parser hands each key=value to opt_set(), the same function the
 * command line uses, so a profile accepts exactly what the CLI accepts.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/profile.h"
#include "lib/util.h"

#ifndef DIX_PROFILEDIR
#define DIX_PROFILEDIR "/usr/local/share/dixload/profiles"
#endif

const char *profile_origin_name(enum profile_origin o)
{
	switch (o) {
	case PROFILE_FROM_ENV:
		return "from $DIXLOAD_PROFILE_PATH";
	case PROFILE_FROM_BUILD:
		return "from the build tree";
	case PROFILE_FROM_DATADIR:
		return "installed";
	}
	return "?";
}

const char *profile_datadir(const char *exe, enum profile_origin *from)
{
#if defined(DIX_BUILDDIR) && defined(DIX_SRCDIR)
	static char src[PATH_MAX];
	char build[PATH_MAX], self[PATH_MAX + 16];

	/*
	 * Compared resolved: /proc/self/exe is, DIX_BUILDDIR may hold a
	 * symlink.  A binary rebuilt while it runs reads "... (deleted)" and
	 * falls back to the installed directory, which is harmless.
	 */
	if (exe && realpath(DIX_BUILDDIR, build)) {
		snprintf(self, sizeof(self), "%s/dixload", build);
		if (!strcmp(exe, self)) {
			snprintf(src, sizeof(src), "%s/profiles", DIX_SRCDIR);
			*from = PROFILE_FROM_BUILD;
			return src;
		}
	}
#endif
	*from = PROFILE_FROM_DATADIR;
	return DIX_PROFILEDIR;
}

/*
 * The directories walked so far, resolved, so that a directory named twice
 * (e.g. $DIXLOAD_PROFILE_PATH set to the installed one) is visited once.
 */
struct dir_walk {
	int (*fn)(const char *dir, enum profile_origin from, void *arg);
	void *arg;
	char seen[16][PATH_MAX];
	int nseen;
};

static int visit(struct dir_walk *w, const char *dir, enum profile_origin from)
{
	char real[PATH_MAX];
	int i;

	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	for (i = 0; i < w->nseen; i++)
		if (!strcmp(w->seen[i], real))
			return 0;
	if (w->nseen < (int)ARRAY_SIZE(w->seen))
		memcpy(w->seen[w->nseen++], real, sizeof(real));
	return w->fn(dir, from, w->arg);
}

/*
 * The actions' names, from the option table, so the refusal below lists
 * every action there is (it named four while --priority and --dm-reload
 * were refused too).
 */
static void action_names(char *buf, size_t len)
{
	const struct dix_option *d;
	size_t n = 0;

	buf[0] = '\0';
	for (d = dix_options; d->name && n < len; d++)
		if (d->flags & OPT_ACTION)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      d->name);
}

int profile_foreach_dir(int (*fn)(const char *dir, enum profile_origin from,
				  void *arg), void *arg)
{
	const char *env = getenv("DIXLOAD_PROFILE_PATH"), *data;
	struct dir_walk *w = xcalloc(1, sizeof(*w));
	enum profile_origin from;
	char exe[PATH_MAX];
	ssize_t n;
	int r = 0;

	w->fn = fn;
	w->arg = arg;
	if (env && *env) {
		char *copy = xstrdup(env), *save = NULL, *d;

		for (d = strtok_r(copy, ":", &save); d && !r;
		     d = strtok_r(NULL, ":", &save))
			r = visit(w, d, PROFILE_FROM_ENV);
		free(copy);
	}
	if (!r) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		data = profile_datadir(n > 0 ? exe : NULL, &from);
		r = visit(w, data, from);
	}
	free(w);
	return r;
}

struct find_ctx {
	const char *name;
	char *path;
	size_t len;
	char tried[1024];	/* "dir, dir, ..." for the error */
	size_t used;
};

static int find_in(const char *dir, enum profile_origin from, void *arg)
{
	struct find_ctx *c = arg;

	snprintf(c->path, c->len, "%s/%s.profile", dir, c->name);
	if (!access(c->path, R_OK))
		return 1;
	if (c->used < sizeof(c->tried))
		c->used += snprintf(c->tried + c->used, sizeof(c->tried) - c->used,
				    "%s%s", c->used ? ", " : "", dir);
	return 0;
}

int profile_find(const char *name, char *path, size_t len)
{
	struct find_ctx c = { .name = name, .path = path, .len = len };

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return access(path, R_OK) ? -errno : 0;
	}
	if (profile_foreach_dir(find_in, &c))
		return 0;
	snprintf(path, len, "%s", c.tried);
	return -ENOENT;
}

int profile_read(FILE *f, const char *file, struct dix_opts *o, char *err,
		 size_t errlen)
{
	char *line = NULL, why[512];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, ret = 0;

	/*
	 * getline(), not fgets() into a fixed buffer: that split a long line
	 * and read its tail as a line of its own, so a long value could hide
	 * a setting at its end.
	 */
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *raw, *s, *eq, *key, *val;
		const struct dix_option *d;

		lineno++;
		if (n > PROFILE_LINE_MAX) {
			snprintf(err, errlen,
				 "%s:%d: line of %zd bytes, longer than %d",
				 file, lineno, n, PROFILE_LINE_MAX);
			ret = -EINVAL;
			break;
		}
		raw = dix_trim(line);
		s = raw;
		if (!*s || *s == '#' || *s == ';')
			continue;
		/* "[global]"-style headers are accepted for INI familiarity */
		if (*s == '[' && s[strlen(s) - 1] == ']')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen,
				 "%s:%d: expected key=value, found '%s'",
				 file, lineno, raw);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		key = dix_trim(s);
		val = dix_trim(eq + 1);
		d = opt_find(key);
		if (!d) {
			snprintf(err, errlen,
				 "%s:%d: unknown key '%s' (keys are the long option names, see --help)",
				 file, lineno, key);
			ret = -EINVAL;
			break;
		}
		if (d->flags & OPT_ACTION) {
			char names[256];

			action_names(names, sizeof(names));
			snprintf(err, errlen,
				 "%s:%d: '%s' is an action: actions (%s) are accepted only on the command line, never from a profile; pass it there as --%s '%s'",
				 file, lineno, key, names, key, val);
			ret = -EINVAL;
			break;
		}
		if (d->flags & OPT_CLI_ONLY) {
			snprintf(err, errlen,
				 "%s:%d: '%s' is only allowed on the command line",
				 file, lineno, key);
			ret = -EINVAL;
			break;
		}
		if (opt_set(o, key, val, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%d: %s (in '%s=%s')", file,
				 lineno, why, key, val);
			ret = -EINVAL;
			break;
		}
	}
	free(line);
	return ret;
}

int profile_load(const char *file, struct dix_opts *o, char *err,
		 size_t errlen)
{
	FILE *f = fopen(file, "r");
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot read profile: %s", file,
			 strerror(errno));
		return ret;
	}
	ret = profile_read(f, file, o, err, errlen);
	fclose(f);
	return ret;
}

/* The first "# " comment line of a profile is its description. */
static void profile_describe(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = dix_trim(line);

		if (*s == '#') {
			snprintf(buf, len, "%s", dix_trim(s + 1));
			break;
		}
	}
	fclose(f);
}

/* The names listed so far: a later directory's same name is not used. */
struct list_ctx {
	FILE *f;
	char (*names)[64];
	int n;
};

static int list_dir(const char *dir, enum profile_origin from, void *arg)
{
	struct list_ctx *c = arg;
	char path[PATH_MAX], desc[256], err[1024], name[64];
	struct dirent **ents;
	struct dix_opts o;
	int k, j, used, m = scandir(dir, &ents, NULL, alphasort);

	if (m < 0)
		return 0;
	for (k = 0; k < m; k++) {
		size_t l = strlen(ents[k]->d_name);

		if (l <= 8 || strcmp(ents[k]->d_name + l - 8, ".profile") ||
		    snprintf(path, sizeof(path), "%s/%s", dir,
			     ents[k]->d_name) >= (int)sizeof(path))
			goto next;
		snprintf(name, sizeof(name), "%.*s", (int)(l - 8),
			 ents[k]->d_name);
		for (j = 0, used = 1; j < c->n; j++)
			if (!strcmp(c->names[j], name))
				used = 0;
		if (used) {
			c->names = xrealloc(c->names, (c->n + 1) *
					    sizeof(*c->names));
			memcpy(c->names[c->n++], name, sizeof(name));
		}
		profile_describe(path, desc, sizeof(desc));
		fprintf(c->f, "%-14s %s  (%s: %s)%s\n", name, desc,
			profile_origin_name(from), path,
			used ? "" : " [not used: an earlier directory has this name]");
		opts_init(&o);
		if (profile_load(path, &o, err, sizeof(err)))
			fprintf(c->f, "%-14s cannot be used: %s\n", "", err);
		opts_free(&o);
next:
		free(ents[k]);
	}
	free(ents);
	return 0;
}

void profile_list(FILE *f)
{
	struct list_ctx c = { .f = f };

	profile_foreach_dir(list_dir, &c);
	free(c.names);
}
