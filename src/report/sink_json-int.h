/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink_json-int.h - the parts of the JSON sink in files of their own,
 * shared by sink_json.c (the records) and sink_json_event.c (an event's
 * facts) only.
 */
#ifndef DIX_REPORT_SINK_JSON_INT_H
#define DIX_REPORT_SINK_JSON_INT_H

#include "lib/event.h"
#include "lib/json.h"

/**
 * event_data_json() - the facts of an event (@d: what the kernel changed,
 * a reload's steps, a priority's change, a sysfs write's values) as the
 * members of the event's JSON object being written to @w; nothing for
 * EVD_NONE.
 */
void event_data_json(struct jw *w, const struct dix_evdata *d);

#endif
