// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * event.c - copying and releasing events: the run keeps every event, and
 * the sinks that render after the load (CSV, SVG) keep their own copies,
 * so an event's strings must outlive the producer's buffers.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/event.h"
#include "lib/util.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void dix_event_copy(struct dix_event *dst, const struct dix_event *src)
{
	*dst = *src;
	dst->what = xstrdup(src->what ? src->what : "");
	dst->detail = dup_or_null(src->detail);
	dst->json = dup_or_null(src->json);
	dst->label = dup_or_null(src->label);
	dst->host = dup_or_null(src->host);
}

void dix_event_clear(struct dix_event *e)
{
	free(e->what);
	free(e->detail);
	free(e->json);
	free(e->label);
	free(e->host);
	memset(e, 0, sizeof(*e));
}
