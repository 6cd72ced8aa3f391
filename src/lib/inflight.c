// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inflight.c - per-worker in-flight range tracking.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/inflight.h"

int inflight_init(struct inflight *fl, unsigned int cap)
{
	fl->r = calloc(cap ? cap : 1, sizeof(*fl->r));
	if (!fl->r)
		return -ENOMEM;
	fl->cap = cap;
	fl->nwrites = fl->nused = 0;
	return 0;
}

void inflight_free(struct inflight *fl)
{
	free(fl->r);
	fl->r = NULL;
	fl->cap = 0;
}

int inflight_conflicts(const struct inflight *fl, uint64_t off, uint64_t len,
		       int write)
{
	uint64_t end = off + len;
	unsigned int i;

	if (!fl->nused || (!write && !fl->nwrites))
		return 0;
	for (i = 0; i < fl->cap; i++) {
		const struct inflight_range *r = &fl->r[i];

		if (!r->used || (!write && !r->write))
			continue;
		if (off < r->end && r->start < end)
			return 1;
	}
	return 0;
}

void inflight_add(struct inflight *fl, unsigned int slot, uint64_t off,
		  uint64_t len, int write)
{
	struct inflight_range *r = &fl->r[slot];

	if (r->used)
		inflight_del(fl, slot);
	r->start = off;
	r->end = off + len;
	r->write = !!write;
	r->used = 1;
	fl->nused++;
	fl->nwrites += r->write;
}

void inflight_del(struct inflight *fl, unsigned int slot)
{
	struct inflight_range *r = &fl->r[slot];

	if (!r->used)
		return;
	fl->nused--;
	fl->nwrites -= r->write;
	r->used = 0;
}
