/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - profiles: INI-like "key=value" files using the long option
 * names, '#' comments.  A profile sets defaults; the command line overrides.
 */
#ifndef DIX_PROFILE_H
#define DIX_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"

/**
 * profile_find() - resolve a profile name to a file.
 * @name: a name ("dif1") or, when it contains '/', a path
 * @path: buffer for the file found
 * @len: size of @path
 *
 * Names are looked up as NAME.profile in ./profiles, then in each directory
 * of $DIXLOAD_PROFILE_PATH (colon-separated), then in the installed data
 * directory.
 *
 * Return: 0, or -ENOENT with @path holding the directories searched.
 */
int profile_find(const char *name, char *path, size_t len);

/**
 * profile_foreach_dir() - walk the directories profile names are looked up
 * in, in profile_find()'s order: ./profiles, each directory of
 * $DIXLOAD_PROFILE_PATH, the installed data directory; a directory named
 * twice is visited once.
 * @fn: called with each directory (which need not exist) and @arg; a
 *	non-zero return ends the walk
 * @arg: passed to @fn
 *
 * Return: the non-zero value that ended the walk, or 0.
 */
int profile_foreach_dir(int (*fn)(const char *dir, void *arg), void *arg);

/**
 * profile_load() - apply a profile file's settings to @o.
 * @file: path of the profile
 * @o: options to set
 * @err: buffer for "FILE:LINE: reason: 'text'" on failure
 *
 * Return: 0; -errno when the file cannot be read; -EINVAL for a malformed
 * line, an unknown key, a command-line-only key or a bad value.
 */
int profile_load(const char *file, struct dix_opts *o, char *err,
		 size_t errlen);

/**
 * profile_read() - apply the settings of a profile already open as @f: what
 * profile_load() does once the file is open (the fuzz target feeds it text
 * through fmemopen()).
 * @f: the profile's text, read to its end or to the first bad line
 * @file: its name for the messages
 * @o: options to set
 * @err: buffer for "FILE:LINE: reason: 'text'" on failure
 *
 * Return: 0; -EINVAL as profile_load().
 */
int profile_read(FILE *f, const char *file, struct dix_opts *o, char *err,
		 size_t errlen);

/** profile_list() - print every profile found with its description. */
void profile_list(FILE *f);

#endif
