/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * actions.h - scheduled actions inside src/kernel/: what the control thread
 * runs.  The public side (checking, the sysfs rules) is in hotload.h.
 */
#ifndef DIX_ACTIONS_H
#define DIX_ACTIONS_H

#include <stddef.h>

#include "conf/options.h"

enum act_type { ACT_LOAD, ACT_UNLOAD, ACT_SYSFS, ACT_EXEC, ACT_DMRELOAD };

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
 * @arg: module name, sysfs path, shell command or mapping (dm-reload)
 * @value: the value to write (sysfs only)
 * @resolved: @arg with every symlink followed: what is opened (sysfs only)
 * @major, @minor: the mapping's device number (dm-reload only)
 */
struct action {
	int type;
	double at;
	char *arg;
	char *value;
	char *resolved;
	unsigned int major, minor;
};

/**
 * actions_parse() - all actions of @o, sorted by time; at equal times in
 * the order --hotload, --unload, --sysfs, --exec, --dm-reload and, within
 * one option, as given; a --dm-reload whose device is no mapping, or whose
 * table cannot be reloaded as read, is refused here.  Return: 0 with *@out (free with actions_free()) and *@nout, or
 * -EINVAL with @err naming the option, the value and what is allowed.
 */
int actions_parse(const struct dix_opts *o, struct action **out, int *nout,
		  char *err, size_t len);

/** actions_free() - free @n actions from actions_parse(). */
void actions_free(struct action *v, int n);

#endif
