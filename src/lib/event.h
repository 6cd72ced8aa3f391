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

#include <stddef.h>

enum dix_event_kind {
	EV_ACTION,	/* something dixload did: modprobe, sysfs write, exec */
	EV_CHANGE,	/* something dixload saw change in the kernel */
	EV_NOTE,	/* information: e.g. "module already loaded" */
};

/* What an event carries besides its text (struct dix_evdata @type). */
enum dix_evdata_type {
	EVD_NONE,
	EVD_TRANSFORM,	/* change: crc_t10dif switched its transform */
	EVD_DRIVER,	/* change: the driver the crypto API picks changed */
	EVD_MODULES,	/* change: modules came or went that no action loaded */
	EVD_MODULE,	/* action: modprobe or modprobe -r of one module */
	EVD_SYSFS,	/* action: a sysfs write */
	EVD_DMRELOAD,	/* action: a device-mapper table loaded again */
	EVD_PRIORITY,	/* action: --priority, its restore or its delete */
};

/* struct dix_evdata @pflags bits (EVD_PRIORITY). */
#define EVP_PRIORITY	0x01	/* @prio_from and @prio_to are set */
#define EVP_INSTANTIATED 0x02	/* the action registered the driver first */
#define EVP_ALLOCMEM	0x04	/* kernel-internal CRYPTO_ALG_ALLOCATES_MEMORY */
#define EVP_ASYNC	0x08	/* CRYPTO_ALG_ASYNC */
#define EVP_GONE	0x10	/* restore: the driver was no longer registered */
#define EVP_DELETE	0x20	/* a delete step: @pflags EVP_DELETED says how */
#define EVP_DELETED	0x40	/* the instance was unregistered */
#define EVP_FLAGS	0x80	/* EVP_ALLOCMEM and EVP_ASYNC are known */
/* struct dix_evdata @pflags bits (EVD_SYSFS). */
#define EVS_RESTORE	0x100	/* the end of the run putting a value back */

/**
 * struct dix_ev_alg - one crypto implementation, as /proc/crypto names it.
 * @name: the algorithm ("crct10dif")
 * @driver: the implementation ("crct10dif-pclmul")
 * @priority: the crypto API's priority
 * @module: the module providing it ("kernel" when built in)
 */
struct dix_ev_alg {
	char *name;
	char *driver;
	int priority;
	char *module;
};

/**
 * struct dix_ev_sel - an algorithm's selected implementation before and
 * after an action.
 * @algorithm: the algorithm ("xts(aes)")
 * @sel: before ([0]) and after ([1]); NULL when none was selected
 */
struct dix_ev_sel {
	char *algorithm;
	struct dix_ev_alg *sel[2];
};

/**
 * struct dix_evdata - the facts of a kernel change or an action, for the
 * sinks to render (all strings owned by the event; NULL when absent).
 * @type: enum dix_evdata_type; the members below that it names are set
 * @name: DRIVER: the algorithm; MODULE: the module
 * @from: TRANSFORM: the transform before (NULL: none); SYSFS: what the
 *	file read before the write (NULL: it could not be read)
 * @to: TRANSFORM: the transform after (NULL: none); SYSFS: what it read
 *	after (NULL: not read, or the restore failed)
 * @sel: DRIVER: the implementation selected before ([0]) and after ([1]),
 *	NULL when none was
 * @loaded/@nloaded: MODULES, MODULE: modules that appeared
 * @unloaded/@nunloaded: modules that went away
 * @added/@nadded: MODULES, MODULE: selectable implementations that appeared
 * @removed/@nremoved: those that went away
 * @resolved: SYSFS: the path the write went to, links resolved
 * @call: SYSFS: the system call that returned ("open", "write")
 * @returned: SYSFS: what it returned (bytes, or -errno)
 * @err: SYSFS: the errno's name when @returned < 0; PRIORITY: on failure
 * @seconds: DMRELOAD: the time the mapping was suspended
 * @driver: PRIORITY: the crypto driver named
 * @alg: PRIORITY: its algorithm, when it was registered
 * @prio_from/@prio_to: PRIORITY: the priority before and after (EVP_PRIORITY)
 * @pflags: PRIORITY: EVP_* bits; SYSFS: EVS_* bits
 * @sels/@nsels: PRIORITY: the selections that moved (and the driver's own)
 *
 * DMRELOAD: @name is the mapping; per crypto algorithm of it, @removed[i]
 * is the driver before and @added[i] the driver after (@nadded ==
 * @nremoved; @name of each the algorithm, @driver NULL when none; both
 * inferred).
 */
struct dix_evdata {
	int type;
	char *name;
	char *from, *to;
	struct dix_ev_alg *sel[2];
	char **loaded;
	int nloaded;
	char **unloaded;
	int nunloaded;
	struct dix_ev_alg *added;
	int nadded;
	struct dix_ev_alg *removed;
	int nremoved;
	char *resolved;
	char *call;
	long returned;
	char *err;
	double seconds;
	char *driver;
	char *alg;
	long prio_from, prio_to;
	unsigned int pflags;
	struct dix_ev_sel *sels;
	int nsels;
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
 * @data: what it carries besides its text (a change's or an action's facts)
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
	struct dix_evdata data;
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
 * dix_evdata_copy() - @dst becomes a deep copy of @src.
 */
void dix_evdata_copy(struct dix_evdata *dst, const struct dix_evdata *src);

/** dix_evdata_clear() - free what @d owns; @d is zeroed (EVD_NONE). */
void dix_evdata_clear(struct dix_evdata *d);

/**
 * dix_event_pack() - append @e (every member but @host) to the byte
 * buffer *@buf of *@len bytes (grown with realloc), for another process
 * of the same build (an MPI rank) to dix_event_unpack().
 */
void dix_event_pack(const struct dix_event *e, char **buf, size_t *len);

/**
 * dix_event_unpack() - read one event that dix_event_pack() wrote at
 * *@p (before @end) into @e, which then owns its strings, as after
 * dix_event_copy(); *@p moves past it.
 * Return: 0, or -1 when the bytes end before the event does (@e is then
 * cleared).
 */
int dix_event_unpack(const char **p, const char *end, struct dix_event *e);

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
