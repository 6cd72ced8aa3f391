/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - profiles: INI-like "key=value" files using the long option
 * names, '#' comments.  A profile sets defaults; the command line overrides.
 */
#ifndef DIX_PROFILE_H
#define DIX_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "conf/options.h"

/*
 * Where a directory of profiles comes from.  The current directory is never
 * one of them: a profile found there could be anybody's (a shared /tmp, a
 * checkout of someone else's tree), and dixload runs as root.
 */
enum profile_origin {
	PROFILE_FROM_ENV,	/* a directory of $DIXLOAD_PROFILE_PATH */
	PROFILE_FROM_BUILD,	/* the source tree of the build the binary is in */
	PROFILE_FROM_DATADIR,	/* the installed data directory */
};

/** profile_origin_name() - a few words for @o, as --list-profiles shows it. */
const char *profile_origin_name(enum profile_origin o);

/**
 * profile_datadir() - the directory of the profiles shipped with the binary
 * at @exe.
 * @exe: the binary's resolved path (/proc/self/exe)
 * @from: set to PROFILE_FROM_BUILD or PROFILE_FROM_DATADIR
 *
 * A binary that runs from the build tree it was built in (@exe is
 * DIX_BUILDDIR/dixload, both written into config.h by configure) uses its
 * source tree's profiles/, so an uninstalled build runs with the profiles
 * of its own version and never with those of an older installation; any
 * other binary uses the installed data directory (DIX_PROFILEDIR).
 *
 * Return: the directory (a constant or a static buffer).
 */
const char *profile_datadir(const char *exe, enum profile_origin *from);

/**
 * profile_find() - resolve a profile name to a file.
 * @name: a name ("dif1") or, when it contains '/', a path
 * @path: buffer for the file found
 * @len: size of @path
 *
 * Names are looked up as NAME.profile in each directory of
 * $DIXLOAD_PROFILE_PATH (colon-separated), then in profile_datadir() of the
 * running binary.  The current directory is not searched: a profile there
 * is used only when named as a path ("./profiles/x.profile").
 *
 * Return: 0, or -ENOENT with @path holding the directories searched.
 */
int profile_find(const char *name, char *path, size_t len);

/**
 * profile_foreach_dir() - walk the directories profile names are looked up
 * in, in profile_find()'s order: each directory of $DIXLOAD_PROFILE_PATH,
 * then profile_datadir(); a directory named twice is visited once.
 * @fn: called with each directory (which need not exist), where it comes
 *	from and @arg; a non-zero return ends the walk
 * @arg: passed to @fn
 *
 * Return: the non-zero value that ended the walk, or 0.
 */
int profile_foreach_dir(int (*fn)(const char *dir, enum profile_origin from,
				  void *arg), void *arg);

/**
 * profile_load() - apply a profile file's settings to @o.
 * @file: path of the profile
 * @o: options to set
 * @err: buffer for "FILE:LINE: reason: 'text'" on failure
 *
 * Return: 0; -errno when the file cannot be read; -EINVAL for a malformed
 * line, an unknown key, a command-line-only key, an action (--hotload,
 * --unload, --sysfs, --exec: accepted only on the command line) or a bad
 * value.
 */
int profile_load(const char *file, struct dix_opts *o, char *err,
		 size_t errlen);

/* The longest profile line accepted, newline included. */
#define PROFILE_LINE_MAX 4096

/**
 * profile_read() - apply the settings of a profile already open as @f: what
 * profile_load() does once the file is open (the fuzz target feeds it text
 * through fmemopen()).
 * @f: the profile's text, read to its end or to the first bad line
 * @file: its name for the messages
 * @o: options to set
 * @err: buffer for "FILE:LINE: reason: 'text'" on failure
 *
 * Return: 0; -EINVAL as profile_load(), or for a line longer than
 * PROFILE_LINE_MAX.
 */
int profile_read(FILE *f, const char *file, struct dix_opts *o, char *err,
		 size_t errlen);

/**
 * profile_list() - print every profile found with its description, the
 * file and where its directory comes from; a name that an earlier
 * directory already has is marked as not used, a profile that does not
 * load shows why.
 */
void profile_list(FILE *f);

#endif
