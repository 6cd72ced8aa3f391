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

#include "profile.h"
#include "util.h"

#ifndef DIX_PROFILEDIR
#define DIX_PROFILEDIR "/usr/local/share/dixload/profiles"
#endif

/*
 * The directories walked so far, resolved, so that a directory named twice
 * (e.g. $DIXLOAD_PROFILE_PATH set to the installed one) is visited once.
 */
struct dir_walk {
	int (*fn)(const char *dir, void *arg);
	void *arg;
	char seen[16][PATH_MAX];
	int nseen;
};

static int visit(struct dir_walk *w, const char *dir)
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
	return w->fn(dir, w->arg);
}

int profile_foreach_dir(int (*fn)(const char *dir, void *arg), void *arg)
{
	const char *env = getenv("DIXLOAD_PROFILE_PATH");
	struct dir_walk *w = xcalloc(1, sizeof(*w));
	int r;

	w->fn = fn;
	w->arg = arg;
	r = visit(w, "./profiles");
	if (!r && env && *env) {
		char *copy = xstrdup(env), *save = NULL, *d;

		for (d = strtok_r(copy, ":", &save); d && !r;
		     d = strtok_r(NULL, ":", &save))
			r = visit(w, d);
		free(copy);
	}
	if (!r)
		r = visit(w, DIX_PROFILEDIR);
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

static int find_in(const char *dir, void *arg)
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

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int profile_read(FILE *f, const char *file, struct dix_opts *o, char *err,
		 size_t errlen)
{
	char line[4096], why[512];
	int lineno = 0, ret = 0;

	while (fgets(line, sizeof(line), f)) {
		char *raw, *s, *eq, *key, *val;
		const struct dix_option *d;

		lineno++;
		raw = trim(line);
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
		key = trim(s);
		val = trim(eq + 1);
		d = opt_find(key);
		if (!d) {
			snprintf(err, errlen,
				 "%s:%d: unknown key '%s' (keys are the long option names, see --help)",
				 file, lineno, key);
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
		char *s = trim(line);

		if (*s == '#') {
			snprintf(buf, len, "%s", trim(s + 1));
			break;
		}
	}
	fclose(f);
}

static int list_dir(const char *dir, void *arg)
{
	FILE *f = arg;
	char path[PATH_MAX], desc[256];
	struct dirent **ents;
	int k, m = scandir(dir, &ents, NULL, alphasort);

	if (m < 0)
		return 0;
	for (k = 0; k < m; k++) {
		size_t l = strlen(ents[k]->d_name);

		if (l > 8 && !strcmp(ents[k]->d_name + l - 8, ".profile")) {
			desc[0] = '\0';
			if (snprintf(path, sizeof(path), "%s/%s", dir,
				     ents[k]->d_name) < (int)sizeof(path))
				profile_describe(path, desc, sizeof(desc));
			fprintf(f, "%-14.*s %s  (%s)\n", (int)(l - 8),
				ents[k]->d_name, desc, path);
		}
		free(ents[k]);
	}
	free(ents);
	return 0;
}

void profile_list(FILE *f)
{
	profile_foreach_dir(list_dir, f);
}
