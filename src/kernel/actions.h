/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * actions.h - scheduled actions inside src/kernel/: what the control thread
 * runs.  The public side (checking, the sysfs rules) is in hotload.h.
 */
#ifndef DIX_ACTIONS_H
#define DIX_ACTIONS_H

#include <stddef.h>

#include "conf/options.h"

enum act_type { ACT_LOAD, ACT_UNLOAD, ACT_SYSFS, ACT_EXEC, ACT_DMRELOAD, ACT_PRIORITY };

/* The option and the allowed form of each action type, for messages. */
struct act_info {
	const char *opt;
	const char *allowed;
};

extern const struct act_info act_info[];


/*
 * struct action - one scheduled action.
 * @type: enum act_type
 * @at: seconds after the start of the load
 * @arg: module name, sysfs path, shell command, mapping (dm-reload) or crypto
 *	driver name (priority)
 * @value: the value to write (sysfs), the priority as given (priority)
 * @resolved: @arg with every symlink followed: what is opened (sysfs only)
 * @major, @minor: the mapping's device number (dm-reload only)
 * @prio: the priority to set (priority only)
 */
struct action {
	int type;
	double at;
	char *arg;
	char *value;
	char *resolved;
	unsigned int major, minor;
	unsigned int prio;
};

/**
 * actions_parse() - all actions of @o, sorted by time; at equal times in
 * the order --hotload, --unload, --sysfs, --exec, --dm-reload, --priority (a
 * module loaded at the same second may bring the driver) and, within one
 * option, as given; a --dm-reload whose device is no mapping, or whose
 * table cannot be reloaded as read, is refused here.  Return: 0 with *@out (free with actions_free()) and *@nout, or
 * -EINVAL with @err naming the option, the value and what is allowed.
 */
int actions_parse(const struct dix_opts *o, struct action **out, int *nout,
		  char *err, size_t len);

/** actions_free() - free @n actions from actions_parse(). */
void actions_free(struct action *v, int n);

/**
 * act_instantiable() - whether --priority's @driver names a template
 * instance ("xts(ecb(aes-generic))") that the kernel builds on request:
 * such a driver need not exist before its action, which registers it.
 */
int act_instantiable(const char *driver);

struct cru_sock;

/**
 * act_crypto_user() - a crypto_user socket for --priority; when the kernel
 * has no crypto_user yet, the crypto_user module is loaded first (libkmod,
 * as --hotload would), since it is the only way to change a priority.
 * @why: the reason on failure (crypto_user missing and not loadable, or
 *	dixload built without libmnl)
 * Return: the socket (cru_close()), or NULL.
 */
struct cru_sock *act_crypto_user(char *why, size_t len);

#endif
