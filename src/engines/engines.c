// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engines.c - the table of built-in engines.
 *
 * An explicit table (rather than constructors, which a static libdix.a
 * would drop unreferenced) keeps the set visible and ordered.  Its entries
 * come from engine-table.h, which the build writes from DIX_ENGINES in
 * src/engines/Makemodule.am: one DIX_ENGINE(name) per engine file built, in
 * that order.  So an engine is one file and one Makemodule.am line.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "conf/options.h"
#include "lib/util.h"

#define DIX_ENGINE(n) extern const struct dix_engine engine_##n;
#include "engines/engine-table.h"
#undef DIX_ENGINE

static const struct dix_engine *const engines[] = {
#define DIX_ENGINE(n) &engine_##n,
#include "engines/engine-table.h"
#undef DIX_ENGINE
	NULL,
};

const struct dix_engine *const *engine_list(void)
{
	return engines;
}

const struct dix_engine *engine_find(const char *name)
{
	int i;

	for (i = 0; engines[i]; i++) {
		if (strcmp(engines[i]->name, name))
			continue;
		/* an engine file not updated to the interface is a build slip */
		if (engines[i]->version != DIX_ENGINE_VERSION) {
			dix_err("engine %s was written for interface version %u, this is %u",
				name, engines[i]->version, DIX_ENGINE_VERSION);
			return NULL;
		}
		return engines[i];
	}
	return NULL;
}

int engine_names(int (*pred)(const struct dix_engine *e), char *out, size_t len)
{
	size_t used = 0;
	int i, n = 0;

	if (len)
		out[0] = '\0';
	for (i = 0; engines[i]; i++) {
		if (pred && !pred(engines[i]))
			continue;
		used += snprintf(out + used, used < len ? len - used : 0, "%s%s",
				 n++ ? ", " : "", engines[i]->name);
	}
	return n;
}

void engine_options_register(void)
{
	int i;

	for (i = 0; engines[i]; i++)
		if (engines[i]->options)
			opts_add_engine(engines[i]->name, engines[i]->options);
}
