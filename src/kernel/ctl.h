/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl.h - the control thread's state, shared by control.c (the schedule and
 * the kernel watch) and ctlexec.c (the --exec commands) and by no one else:
 * the rest of dixload holds struct ctl only as the handle of hotload.h.
 */
#ifndef DIX_KERNEL_CTL_H
#define DIX_KERNEL_CTL_H

#include <pthread.h>
#include <stddef.h>

#include "kernel/actions.h"
#include "kernel/hotload.h"
#include "kernel/kwatch.h"
#include "kernel/priority.h"
#include "lib/event.h"

struct exec_job;
struct sysfs_saved;

/*
 * struct ctl - the control thread's state (run->ctl).
 * @act/@nact: the actions in time order; @next: the first not yet run
 * @stop_fd: eventfd written by control_stop()
 * @go_fd: eventfd written by control_go(), once the load's clock started
 * @going: control_go() has set @sink.t0
 * @tick: watch period in seconds
 * @cur: the last kernel snapshot
 * @lock: protects @jobs and the jobs' pid/killed/abandon/done fields
 * @prio: what the --priority actions changed, undone at the end
 * @sysfs/@nsysfs: the files the --sysfs actions wrote, in the order of
 *	their first write, put back at the end (sysfsact.c)
 */
#define CTL_RELOADED_MAX	8

struct ctl {
	struct dix_event_sink sink;
	const struct dix_opts *o;
	char *dev;
	struct action *act;
	int nact;
	int next;
	pthread_t th;
	int stop_fd;
	int go_fd;
	int going;
	int stopping;
	double tick;
	struct kw_state cur;
	const char *proc_root;
	const char *sys_root;
	pthread_mutex_t lock;
	struct exec_job **jobs;
	int njobs;
	struct prio_ctx prio;
	struct sysfs_saved *sysfs;
	int nsysfs;
	/* the --dm-reload actions that succeeded, one per mapping */
	const struct action *reloaded[CTL_RELOADED_MAX];
	int nreloaded;
	/* the run's watched mappings (dmbind.h), or NULL */
	struct dmbind *dm;
};

/** ctl_elapsed() - seconds since the start of the load. */
double ctl_elapsed(const struct ctl *c);

/**
 * ctl_event() - hand one event to the run's sink, which copies what it
 * keeps (@data included).
 */
void ctl_event(struct ctl *c, int kind, double t, const char *what,
	       int ok, double duration, const char *detail,
	       const struct dix_evdata *data, const char *label);

/** ctl_action_what() - an action as its event names it. */
void ctl_action_what(const struct action *a, char *buf, size_t len);

#endif
