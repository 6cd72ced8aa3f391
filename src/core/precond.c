// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * precond.c - whether to precondition the region, and with what writes.
 * See precond.h for why.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/precond.h"

uint64_t precond_io_size(uint64_t slice, uint32_t lbs,
			 uint32_t max_sectors_kb)
{
	uint64_t sz = PRECOND_IO_MAX;

	if (max_sectors_kb && (uint64_t)max_sectors_kb * 1024 < sz)
		sz = (uint64_t)max_sectors_kb * 1024;
	if (slice && sz > slice)
		sz = slice;
	sz -= sz % lbs;
	return sz ? sz : lbs;
}

/* Whether the target carries PI that a read checks, and why (or why not). */
static int carries_pi(const struct dix_opts *o, const struct dix_devdesc *t,
		      const struct dix_engine *e, char *why, size_t len)
{
	const char *fmt = t->integrity.format;

	if (o->pi == PI_APP && engine_carries_pi(e)) {
		snprintf(why, len, "reads with --pi app through engine %s",
			 e->name);
		return 1;
	}
	if (!t->is_blk) {
		snprintf(why, len, "file has no PI");
		return 0;
	}
	if (!strcmp(fmt, "none")) {
		snprintf(why, len, "%s has no integrity format", t->name);
		return 0;
	}
	if (!strcmp(fmt, "nop")) {
		snprintf(why, len,
			 "%s's integrity format is nop: nothing is checked",
			 t->name);
		return 0;
	}
	snprintf(why, len, "reads on a %s device", fmt);
	return 1;
}

void precond_decide(const struct dix_opts *o, const char *profile,
		    const struct dix_devdesc *t, const struct dix_engine *e,
		    struct precond_plan *p)
{
	char why[160];
	uint64_t slice = o->jobs ? o->size / o->jobs : o->size;

	memset(p, 0, sizeof(*p));
	p->io_size = precond_io_size(slice, t->lbs, t->max_sectors_kb);
	p->iodepth = o->iodepth > PRECOND_DEPTH_MIN ? (unsigned int)o->iodepth :
						      PRECOND_DEPTH_MIN;
	if (o->precondition != PRECOND_AUTO) {
		p->on = o->precondition == PRECOND_ON;
		snprintf(p->reason, sizeof(p->reason), "%s%s%sprecondition=%s",
			 profile ? "profile " : "", profile ? profile : "",
			 profile ? ": " : "", p->on ? "on" : "off");
		return;
	}
	if (!rw_reads(o->rw)) {
		snprintf(p->reason, sizeof(p->reason),
			 "auto: the workload does not read");
		return;
	}
	if (!rw_writes(o->rw)) {
		snprintf(p->reason, sizeof(p->reason),
			 "auto: a read-only workload checks the data already there");
		return;
	}
	p->on = carries_pi(o, t, e, why, sizeof(why));
	snprintf(p->reason, sizeof(p->reason), "auto: %s", why);
}
