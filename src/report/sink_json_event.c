// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_json_event.c - an event's facts in the JSON lines (sink_json-int.h):
 * the drivers the kernel selected, the algorithms and modules that came and
 * went, a --dm-reload's steps, a --priority change and a --sysfs write's
 * values.  Apart from sink_json.c because each kind of fact has a shape of
 * its own, and together they were a fifth of that file.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/event.h"
#include "lib/json.h"
#include "report/sink_json-int.h"

/* A selected implementation, or null when there was none. */
static void driver_json(struct jw *w, const char *key,
			const struct dix_ev_alg *a)
{
	if (!a) {
		jw_null(w, key);
		return;
	}
	jw_obj_open(w, key);
	jw_str(w, "driver", a->driver);
	jw_int(w, "priority", a->priority);
	jw_str(w, "module", a->module);
	jw_obj_close(w);
}

static void algs_json(struct jw *w, const char *key,
		      const struct dix_ev_alg *v, int n)
{
	int i;

	jw_arr_open(w, key);
	for (i = 0; i < n; i++) {
		jw_obj_open(w, NULL);
		jw_str(w, "name", v[i].name);
		jw_str(w, "driver", v[i].driver);
		jw_int(w, "priority", v[i].priority);
		jw_str(w, "module", v[i].module);
		jw_obj_close(w);
	}
	jw_arr_close(w);
}

static void strs_json(struct jw *w, const char *key, char *const *v, int n)
{
	int i;

	jw_arr_open(w, key);
	for (i = 0; i < n; i++)
		jw_str(w, NULL, v[i]);
	jw_arr_close(w);
}

/* What the kernel watch saw in the registry after a module event. */
static void lists_json(struct jw *w, const struct dix_evdata *d)
{
	strs_json(w, "modules_loaded", d->loaded, d->nloaded);
	strs_json(w, "modules_unloaded", d->unloaded, d->nunloaded);
	algs_json(w, "crypto_added", d->added, d->nadded);
	algs_json(w, "crypto_removed", d->removed, d->nremoved);
}

/* --dm-reload: the mapping, the time suspended, the drivers (inferred). */
static void dmreload_json(struct jw *w, const struct dix_evdata *d)
{
	int i;

	jw_str(w, "mapping", d->name ? d->name : "");
	jw_num(w, "suspended_s", d->seconds, 6);
	if (!d->nadded || d->nadded != d->nremoved)
		return;
	jw_arr_open(w, "drivers");
	for (i = 0; i < d->nadded; i++) {
		jw_obj_open(w, NULL);
		jw_str(w, "algorithm", d->added[i].name);
		if (d->removed[i].driver)
			jw_str(w, "before", d->removed[i].driver);
		else
			jw_null(w, "before");
		if (d->added[i].driver)
			jw_str(w, "after", d->added[i].driver);
		else
			jw_null(w, "after");
		jw_str(w, "basis", "inferred");
		jw_obj_close(w);
	}
	jw_arr_close(w);
}

/* --priority, its restore and its delete (doc/json.md, event). */
static void priority_json(struct jw *w, const struct dix_evdata *d)
{
	int i;

	jw_str(w, "driver", d->driver);
	if (d->pflags & EVP_DELETE)
		jw_bool(w, "deleted", d->pflags & EVP_DELETED);
	if (d->pflags & EVP_GONE)
		jw_bool(w, "gone", 1);
	if (d->err)
		jw_str(w, "errno", d->err);
	if (!(d->pflags & EVP_PRIORITY))
		return;
	jw_str(w, "algorithm", d->alg);
	jw_int(w, "priority_from", d->prio_from);
	jw_int(w, "priority_to", d->prio_to);
	if (d->pflags & EVP_FLAGS) {
		jw_bool(w, "instantiated", d->pflags & EVP_INSTANTIATED);
		jw_bool(w, "allocates_memory", d->pflags & EVP_ALLOCMEM);
		jw_bool(w, "async", d->pflags & EVP_ASYNC);
	}
	jw_arr_open(w, "selections");
	for (i = 0; i < d->nsels; i++) {
		jw_obj_open(w, NULL);
		jw_str(w, "algorithm", d->sels[i].algorithm);
		driver_json(w, "before", d->sels[i].sel[0]);
		driver_json(w, "after", d->sels[i].sel[1]);
		jw_obj_close(w);
	}
	jw_arr_close(w);
}

/* What the event carries besides its text (doc/json.md, event). */
void event_data_json(struct jw *w, const struct dix_evdata *d)
{
	switch (d->type) {
	case EVD_TRANSFORM:
		jw_str(w, "change", "transform");
		jw_str(w, "from", d->from);
		jw_str(w, "to", d->to);
		break;
	case EVD_DRIVER:
		jw_str(w, "change", "driver");
		jw_str(w, "algorithm", d->name);
		driver_json(w, "from", d->sel[0]);
		driver_json(w, "to", d->sel[1]);
		break;
	case EVD_MODULES:
		jw_str(w, "change", "modules");
		lists_json(w, d);
		break;
	case EVD_MODULE:
		jw_str(w, "module", d->name);
		lists_json(w, d);
		break;
	case EVD_SYSFS:
		jw_str(w, "resolved", d->resolved);
		jw_str(w, "call", d->call);
		jw_int(w, "returned", d->returned);
		if (d->returned < 0)
			jw_str(w, "errno", d->err);
		if (d->from)
			jw_str(w, "from", d->from);
		if (d->to)
			jw_str(w, "to", d->to);
		jw_bool(w, "restore", !!(d->pflags & EVS_RESTORE));
		break;
	case EVD_DMRELOAD:
		dmreload_json(w, d);
		break;
	case EVD_PRIORITY:
		priority_json(w, d);
		break;
	}
}

