/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modules.h - kernel modules for the scheduled actions.
 */
#ifndef DIX_MODULES_H
#define DIX_MODULES_H

#include <stddef.h>

struct kw_state;

/**
 * struct mod_env - what the module messages need to know of the run.
 * @dev: the target's block device name, for the advice on kernels that
 *	have no CRC module to load (NULL: "DEV")
 * @kw: the last kernel snapshot (loaded modules, crc_t10dif transform)
 */
struct mod_env {
	const char *dev;
	const struct kw_state *kw;
};

/**
 * mod_state() - what a --hotload of @name would find now.
 * Return: 0 loadable, 1 loaded, 2 built in, -ENOENT no such module (with
 * @msg saying why), -EOPNOTSUPP when dixload has no libkmod to ask, other
 * -errno.
 */
/** mod_is_qat() - @name is one of Intel QAT's modules (qat_*, intel_qat). */
int mod_is_qat(const char *name);

/**
 * mod_era_note() - what this kernel's era means for loading @name (QAT's
 * priority changed in 6.17), into @msg.  Return: 1 when there is a note.
 */
int mod_era_note(const char *name, char *msg, size_t len);

int mod_state(const struct mod_env *env, const char *name, char *msg, size_t len);

/**
 * mod_load() - load module @name (every module an alias names, with their
 * hard dependencies, as modprobe does).  An already loaded or built-in
 * module is an error (-EEXIST): the transition the action was meant to
 * cause cannot happen.  Return: 0, or -errno with @msg saying why.
 */
int mod_load(const struct mod_env *env, const char *name, char *msg, size_t len);

/**
 * mod_unload() - remove module @name, then its dependencies nothing uses
 * any more (their names in *@removed_deps, malloc'ed, or NULL).
 * Return: 0, or -errno with @msg saying why (in use: the holders named).
 */
int mod_unload(const struct mod_env *env, const char *name, char *msg,
	       size_t len, char **removed_deps);

/**
 * mod_need() - make module @name (or alias) present before a load needs it:
 * loaded with its hard dependencies unless it is loaded or built in
 * already.  Unlike mod_load() nothing is expected to change: a module that
 * is there is the good case.
 * Return: 1 loaded now, 0 already there, -errno with @msg saying why
 * (-ENOENT: this kernel has no such module).
 */
int mod_need(const char *name, char *msg, size_t len);

#endif
