/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fakesys.h - build fake sysfs/procfs trees in a temp dir for the blkview
 * and safety unit tests: files, directories and relative symlinks laid out
 * like the kernel's (devices/..., dev/block/MAJ:MIN -> ..., class/block/).
 */
#ifndef DIX_FAKESYS_H
#define DIX_FAKESYS_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/** fs_mkdirs() - mkdir -p @root/@rel. */
static inline void fs_mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	/* a test's own short paths: one that does not fit is a bug in the test */
	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		abort();
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/** fs_mkparent() - mkdir -p the directory @root/@rel goes in; @rel's path. */
static inline void fs_mkparent(const char *root, const char *rel, char *path,
			       size_t len)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		fs_mkdirs(root, dir);
	}
	snprintf(path, len, "%s/%s", root, rel);
}

/** fs_write() - create @root/@rel (and its directories) holding @text. */
static inline void fs_write(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	fs_mkparent(root, rel, path, sizeof(path));
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "# cannot create %s: %s\n", path, strerror(errno));
		exit(99);
	}
	fputs(text, f);
	fclose(f);
}

/** fs_link() - symlink @root/@rel -> @target (relative, as sysfs has them). */
static inline void fs_link(const char *root, const char *rel, const char *target)
{
	char path[PATH_MAX];

	fs_mkparent(root, rel, path, sizeof(path));
	unlink(path);
	if (symlink(target, path)) {
		fprintf(stderr, "# cannot link %s: %s\n", path, strerror(errno));
		exit(99);
	}
}

/** fs_tmpdir() - a fresh directory under $TMPDIR (or /tmp). */
static inline void fs_tmpdir(char *out, size_t len, const char *tag)
{
	const char *t = getenv("TMPDIR");

	snprintf(out, len, "%s/dix-%s-XXXXXX", t && *t ? t : "/tmp", tag);
	if (!mkdtemp(out)) {
		fprintf(stderr, "# mkdtemp: %s\n", strerror(errno));
		exit(99);
	}
}

/** fs_rmtree() - rm -rf @dir (test trees only). */
static inline void fs_rmtree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", dir);
}

#endif
