/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event.h - events between meter lines, and the sink they go to.
 *
 * The control thread (src/kernel/) produces events; the run (src/core/)
 * records, prints and analyses them.  The sink is the one thing they share,
 * so src/kernel/ never includes run.h and the run only calls the control
 * thread's start and stop: no include cycle between the two.
 */
#ifndef DIX_EVENT_H
#define DIX_EVENT_H

enum dix_event_kind {
	EV_ACTION,	/* something dixload did: modprobe, sysfs write, exec */
	EV_CHANGE,	/* something dixload saw change in the kernel */
	EV_NOTE,	/* information: e.g. "module already loaded" */
};

/**
 * struct dix_event - an event between meter lines.
 * @t: seconds since the start of the load
 * @kind: enum dix_event_kind
 * @what: what happened ("modprobe crct10dif_pclmul",
 *	"crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul")
 * @ok: 1 succeeded, 0 failed, -1 not an action
 * @duration: seconds the action took (< 0: not applicable)
 * @detail: error text or other detail, or NULL
 * @json: extra JSON members, starting with ',' (e.g. ",\"crypto_added\":[]"),
 *	or NULL
 * @label: short label for the plot marker, or NULL (then @what is used)
 * @host: under MPI, the host it happened on (printed first), else NULL
 */
struct dix_event {
	double t;
	int kind;
	char *what;
	int ok;
	double duration;
	char *detail;
	char *json;
	char *label;
	char *host;
};

/**
 * dix_event_copy() - @dst becomes a copy of @src that owns its strings
 * (@what "" when @src has none).
 */
void dix_event_copy(struct dix_event *dst, const struct dix_event *src);

/** dix_event_clear() - free what dix_event_copy() allocated; @e is zeroed. */
void dix_event_clear(struct dix_event *e);

/**
 * struct dix_event_sink - where events go.
 * @emit: record and print @ev (thread-safe; the strings are copied)
 * @ctx: @emit's argument
 * @t0: dix_now() at the start of the load: event times count from it
 */
struct dix_event_sink {
	void (*emit)(void *ctx, const struct dix_event *ev);
	void *ctx;
	double t0;
};

#endif
