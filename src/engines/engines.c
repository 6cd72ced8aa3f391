// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engines.c - the table of built-in engines.  An explicit table (rather than
 * constructors) keeps the set visible in one place and in --help.
 */
#include "config.h"

#include <string.h>

#include "engine.h"

extern const struct dix_engine engine_sync;
extern const struct dix_engine engine_libaio;
#ifdef HAVE_LIBURING
extern const struct dix_engine engine_io_uring;
#endif
#ifdef HAVE_NVME
extern const struct dix_engine engine_nvme;
#endif
#ifdef HAVE_SGUTILS
extern const struct dix_engine engine_sg;
#endif

static const struct dix_engine *const engines[] = {
	&engine_sync,
	&engine_libaio,
#ifdef HAVE_LIBURING
	&engine_io_uring,
#endif
#ifdef HAVE_NVME
	&engine_nvme,
#endif
#ifdef HAVE_SGUTILS
	&engine_sg,
#endif
	NULL,
};

const struct dix_engine *const *engine_list(void)
{
	return engines;
}

const struct dix_engine *engine_find(const char *name)
{
	int i;

	for (i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}
