// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * optvalues.c - the run's options as they took effect: each one's value
 * as text, in the JSON start record and in the "effective options" lines.
 * Apart from options.c (the table and the parser), because what was set
 * is printed the same way however it was set.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/options.h"
#include "lib/json.h"
#include "lib/parse.h"
#include "lib/util.h"

/* One option's effective value as text; NULL when unset. */
static const char *opt_value(const struct dix_opts *o,
			     const struct dix_option *d, char *buf, size_t len)
{
	const void *field = (const char *)o + d->off;

	switch (d->type) {
	case OPT_STR:
		return *(char *const *)field;
	case OPT_SIZE:
		return format_size(*(const uint64_t *)field, buf, len);
	case OPT_UINT:
		snprintf(buf, len, "%llu",
			 (unsigned long long)*(const uint64_t *)field);
		return buf;
	case OPT_SECONDS:
		snprintf(buf, len, "%g", *(const double *)field);
		return buf;
	case OPT_ENUM:
		return d->allowed[*(const int *)field];
	case OPT_FLAG:
		return *(const int *)field ? "1" : "0";
	case OPT_LIST:
		return NULL;
	case OPT_RATE: {
		const double *v = field;

		if (!v[0] && !v[1])
			return NULL;
		if (v[0] == v[1])
			snprintf(buf, len, "%g", v[0] / d->unit);
		else if (!v[0])
			snprintf(buf, len, ",%g", v[1] / d->unit);
		else if (!v[1])
			snprintf(buf, len, "%g,", v[0] / d->unit);
		else
			snprintf(buf, len, "%g,%g", v[0] / d->unit,
				 v[1] / d->unit);
		return buf;
	}
	}
	return NULL;
}

static void json_rows(struct jw *w, const struct dix_opts *o,
		      const struct dix_option *rows)
{
	const struct dix_option *d;
	char buf[64];
	int i;

	for (d = rows; d && d->name; d++) {
		const void *field = (const char *)o + d->off;
		const char *v = opt_value(o, d, buf, sizeof(buf));

		if (d->type == OPT_LIST) {
			const struct str_list *l = field;

			if (!l->n)
				continue;
			jw_arr_open(w, d->name);
			for (i = 0; i < l->n; i++)
				jw_str(w, NULL, l->v[i]);
			jw_arr_close(w);
			continue;
		}
		if (!v)
			continue;
		switch (d->type) {
		case OPT_SIZE:
		case OPT_UINT:
			jw_uint(w, d->name, *(const uint64_t *)field);
			break;
		case OPT_SECONDS:
			jw_num(w, d->name, *(const double *)field, -1);
			break;
		case OPT_FLAG:
			jw_int(w, d->name, *(const int *)field);
			break;
		case OPT_RATE:
			/* [read, write] in the stored unit; 0: uncapped */
			jw_arr_open(w, d->name);
			jw_num(w, NULL, ((const double *)field)[0], -1);
			jw_num(w, NULL, ((const double *)field)[1], -1);
			jw_arr_close(w);
			break;
		default:
			jw_str(w, d->name, v);
		}
	}
}

/* The settings of a run: its own options, then its engine's. */
void opts_json(struct jw *w, const char *key, const struct dix_opts *o)
{
	jw_obj_open(w, key);
	json_rows(w, o, dix_options);
	json_rows(w, o, opts_engine_rows(o->engine));
	jw_obj_close(w);
}

static void effective_rows(FILE *f, const struct dix_opts *o,
			   const struct dix_option *rows, int *first)
{
	const struct dix_option *d;
	char buf[64];
	int i;

	for (d = rows; d && d->name; d++) {
		const char *v = opt_value(o, d, buf, sizeof(buf));

		if (d->type == OPT_LIST) {
			const struct str_list *l = (const void *)
				((const char *)o + d->off);

			for (i = 0; i < l->n; i++)
				fprintf(f, "%s%s=%s", *first && !i ? "" : " ",
					d->name, l->v[i]);
			if (l->n)
				*first = 0;
			continue;
		}
		if (!v)
			continue;
		fprintf(f, "%s%s=%s", *first ? "" : " ", d->name, v);
		*first = 0;
	}
}

void opts_print_effective(FILE *f, const struct dix_opts *o)
{
	int first = 1;

	effective_rows(f, o, dix_options, &first);
	effective_rows(f, o, opts_engine_rows(o->engine), &first);
}
