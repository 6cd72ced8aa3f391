// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject.c - parse --inject rules and decide which I/O carries a fault.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/inject.h"
#include "lib/parse.h"

int inject_parse(const struct dix_opts *o, struct inject *in, char *err,
		 size_t len)
{
	static const char *const kinds[] = { "guard", "app", "ref", "tag" };
	static const int kval[] = { DIX_ERR_GUARD, DIX_ERR_APP, DIX_ERR_REF,
				    DIX_ERR_VERIFY };
	int i, k;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < o->inject.n; i++) {
		const char *v = o->inject.v[i], *at = strchr(v, '@');
		uint64_t n;

		if (in->n == INJECT_MAX) {
			snprintf(err, len, "--inject: at most %d rules", INJECT_MAX);
			return -EINVAL;
		}
		for (k = 0; k < 4; k++)
			if (at && (size_t)(at - v) == strlen(kinds[k]) &&
			    !strncmp(v, kinds[k], at - v))
				break;
		if (!at || k == 4 || parse_u64(at + 1, &n) || !n) {
			snprintf(err, len,
				 "--inject '%s': not a fault rule (allowed: guard@N, app@N, ref@N with --pi app; tag@N with --engine kcapi; N >= 1)",
				 v);
			return -EINVAL;
		}
		in->rule[in->n].kind = kval[k];
		in->rule[in->n].every = n;
		in->n++;
	}
	return 0;
}

int inject_next(struct inject *in, int dir)
{
	uint64_t c = ++in->count[dir ? 1 : 0];
	int i;

	for (i = 0; i < in->n; i++)
		if (c % in->rule[i].every == 0)
			return in->rule[i].kind;
	return DIX_ERR_NR;
}
