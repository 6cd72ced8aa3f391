// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control.c - the control thread: it runs the scheduled actions at their
 * second of the load and watches the kernel every interval.
 *
 * Timing: the thread sleeps in ppoll() on an eventfd until the next of
 * (next action, next watch tick), both absolute CLOCK_MONOTONIC deadlines
 * measured from the load's start, so a slow modprobe delays nothing that
 * follows it by more than its own duration and the schedule never drifts;
 * control_stop() writes the eventfd and the thread ends at once.
 *
 * --exec commands run in threads of their own: ctlexec.c.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/actions.h"
#include "kernel/hotload.h"
#include "kernel/cryptobind.h"
#include "kernel/dmbind.h"
#include "kernel/dmreload.h"
#include "kernel/kwatch.h"
#include "kernel/modules.h"
#include "kernel/priority.h"
#include "kernel/sysfsact.h"
#include "lib/event.h"
#include "kernel/child.h"
#include "kernel/ctl.h"
#include "kernel/ctlexec.h"
#include "lib/util.h"

/* The target's block device name for module advice, or NULL. */
static const char *target_dev(const struct ctl *c)
{
	return c->dev;
}

/* Seconds since the start of the load (0 before it started: the notes
 * control_start() gives belong to its start). */
double ctl_elapsed(const struct ctl *c)
{
	if (!__atomic_load_n(&c->going, __ATOMIC_ACQUIRE))
		return 0;
	return dix_now() - c->sink.t0;
}

/* --------------------------------------------------------------------- */
/* events */

void ctl_event(struct ctl *c, int kind, double t, const char *what,
	       int ok, double duration, const char *detail,
		  const struct dix_evdata *data, const char *label)
{
	struct dix_event ev = {
		.t = t, .kind = kind, .what = (char *)what, .ok = ok,
		.duration = duration, .detail = (char *)detail,
		.label = (char *)label,
	};

	if (data)
		ev.data = *data;	/* the sink copies what it keeps */

	c->sink.emit(c->sink.ctx, &ev);
}

static void note(struct ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct ctl *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ctl_event(c, EV_NOTE, ctl_elapsed(c), buf, -1, -1, NULL, NULL, NULL);
}

static void names_text(FILE *f, char *const *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
}

/*
 * Report what changed since the last snapshot: module loads nobody asked
 * dixload for (@modules set), then every transform or driver selection
 * change, each an event of its own.
 */
static void emit_changes(struct ctl *c, const struct kw_diff *d, int modules)
{
	double t = ctl_elapsed(c);
	int i;

	if (modules && (d->nloaded || d->nunloaded)) {
		char *what = NULL, *detail;
		struct dix_evdata data;
		size_t len = 0;
		FILE *f = open_memstream(&what, &len);

		if (f) {
			if (d->nloaded) {
				fputs("modules loaded: ", f);
				names_text(f, d->loaded, d->nloaded);
			}
			if (d->nunloaded) {
				fputs(d->nloaded ? "; unloaded: " :
				      "modules unloaded: ", f);
				names_text(f, d->unloaded, d->nunloaded);
			}
			fclose(f);
		}
		kw_diff_data(d, EVD_MODULES, NULL, &data);
		detail = kw_registered_text(d);
		ctl_event(c, EV_CHANGE, t, what ? what : "modules changed", -1, -1,
		      detail, &data, NULL);
		free(what);
		dix_evdata_clear(&data);
		free(detail);
	}
	for (i = 0; i < d->nchanges; i++)
		ctl_event(c, EV_CHANGE, t, d->changes[i].text, -1, -1, NULL,
		      &d->changes[i].data, d->changes[i].label);
}

/*
 * A crypto load: which driver serves --alg and where the TFMs are bound,
 * when that may have changed (a selection changed, TFMs were reopened).
 */
static void binding_note(struct ctl *c, int changed)
{
	char *text = cryptobind_poll(&c->cur, changed);

	if (text) {
		ctl_event(c, EV_NOTE, ctl_elapsed(c), text, -1, -1, NULL, NULL, NULL);
		free(text);
	}
	/* a mapping under the load keeps its TFMs through a selection move */
	text = dmbind_poll(c->dm, &c->cur);
	if (text) {
		ctl_event(c, EV_NOTE, ctl_elapsed(c), text, -1, -1, NULL, NULL, NULL);
		free(text);
	}
}

/*
 * A crypto load's wrapper instances (cryptd, pcrypt), registered
 * system-wide by its TFMs: deleted once they are closed, and said so.
 */
static void release_wrappers(struct ctl *c)
{
	char *text = cryptobind_release();

	if (!text)
		return;
	ctl_event(c, EV_NOTE, ctl_elapsed(c), text, -1, -1, NULL, NULL, NULL);
	free(text);
}

/* Take a snapshot, diff it against the last one, keep it. */
static void snapshot_diff(struct ctl *c, struct kw_diff *d)
{
	struct kw_state now;

	kw_snapshot(&now, c->proc_root, c->sys_root);
	kw_diff(&c->cur, &now, d);
	kw_free(&c->cur);
	c->cur = now;
}

/* --------------------------------------------------------------------- */
/* actions */

/* The event text of an action: "modprobe x", "sysfs /p=v", "exec 'cmd'". */
void ctl_action_what(const struct action *a, char *buf, size_t len)
{
	switch (a->type) {
	case ACT_LOAD:
	case ACT_UNLOAD:
		snprintf(buf, len, "modprobe %s%s",
			 a->type == ACT_UNLOAD ? "-r " : "", a->arg);
		break;
	case ACT_SYSFS:
		snprintf(buf, len, "sysfs %s=%s", a->arg, a->value);
		break;
	case ACT_DMRELOAD:
		snprintf(buf, len, "dm-reload %s", a->arg);
		break;
	case ACT_PRIORITY:
		snprintf(buf, len, "priority %s=%s", a->arg, a->value);
		break;
	default:
		snprintf(buf, len, "exec '%s'", a->arg);
	}
}

static void act_module(struct ctl *c, const struct action *a)
{
	int unload = a->type == ACT_UNLOAD;
	char what[128], msg[1024] = "", name[KW_MOD_LEN], *extra = NULL;
	char *detail = NULL;
	struct dix_evdata data;
	double t = ctl_elapsed(c), start = dix_now(), dur;
	struct mod_env env = { target_dev(c), &c->cur };
	struct kw_diff d;
	int e;

	ctl_action_what(a, what, sizeof(what));
	kw_normalise(a->arg, name, sizeof(name));
	if (unload)
		e = mod_unload(&env, a->arg, msg, sizeof(msg), &extra);
	else
		e = mod_load(&env, a->arg, msg, sizeof(msg));
	dur = dix_now() - start;
	/* what the module registered is in /proc/crypto as soon as its
	 * init returned; crc_t10dif's switch follows a moment later and is
	 * caught by the next watch tick */
	snapshot_diff(c, &d);
	kw_diff_data(&d, EVD_MODULE, name, &data);
	if (!e) {
		char *reg = kw_registered_text(&d);
		char *mods = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&mods, &len);

		if (f) {
			if (d.nloaded > 1 || (d.nloaded == 1 &&
					      strcmp(d.loaded[0], name))) {
				fputs("; modules loaded: ", f);
				names_text(f, d.loaded, d.nloaded);
			}
			if (extra)
				fprintf(f, "; also removed unused %s", extra);
			fclose(f);
		}
		if (asprintf(&detail, "%s%s%s", reg, mods ? mods : "",
			     !d.nadded && mod_is_qat(name) ?
			     "; no QAT device here: the driver registers its algorithms only for a QAT PCI device it binds to" :
			     "") < 0)
			detail = NULL;
		free(reg);
		free(mods);
	}
	ctl_event(c, EV_ACTION, t, what, !e, dur, e ? msg : detail, &data, what);
	emit_changes(c, &d, 0);
	binding_note(c, d.nchanges > 0);
	kw_diff_free(&d);
	dix_evdata_clear(&data);
	free(detail);
	free(extra);
}

/*
 * The event gives the time suspended and, for the mappings under the
 * load, the drivers before (inferred: what the table held) and after
 * (what the new TFMs got: the selection now).  @end: the reload once more
 * after the priorities were restored (end_rereload()).
 */
static int dmreload_step(struct ctl *c, const struct action *a, int end)
{
	char what[4200], name[128] = "", why[512] = "", detail[2000];
	char users[1024] = "", *drv = NULL;
	double t = ctl_elapsed(c), start = dix_now(), susp = 0, dur;
	struct dix_evdata data;
	struct kw_diff d;
	int e, busy;

	ctl_action_what(a, what, sizeof(what));
	if (end) {
		size_t n = strlen(what);

		snprintf(what + n, sizeof(what) - n, " (end of run)");
	}
	/* someone else may have opened it since the start */
	busy = dm_reload_busy(a->major, a->minor, users, sizeof(users));
	if (busy > 0 && !c->o->force) {
		e = -EBUSY;
		snprintf(why, sizeof(why), "not reloaded: in use: %.400s (--force reloads it anyway)",
			 users);
	} else {
		/* dm-integrity's counter starts again at 0 with the new table */
		dmbind_mismatch_bank(c->dm, a->major, a->minor, 1);
		e = dm_reload(a->major, a->minor, &susp, name, why, sizeof(why));
		dmbind_mismatch_bank(c->dm, a->major, a->minor, 0);
	}
	dur = dix_now() - start;
	snapshot_diff(c, &d);
	memset(&data, 0, sizeof(data));
	if (!e) {
		drv = dmbind_reloaded(c->dm, name, &c->cur, &data);
	} else {
		data.type = EVD_DMRELOAD;
		data.name = xstrdup(name);
	}
	data.seconds = susp;
	if (e)
		snprintf(detail, sizeof(detail), "%s: %s", name[0] ? name : a->arg, why);
	else
		snprintf(detail, sizeof(detail), "%s suspended %.3f s; %s%s%s%.400s", name, susp,
			 drv ? drv : "no crypto algorithm of it is followed",
			 end ? "; reloaded once more after the priorities were restored: the mapping holds what the restored selection gives" : "",
			 busy > 0 ? "; --force: reloaded although in use: " : "",
			 busy > 0 ? users : "");
	ctl_event(c, EV_ACTION, t, what, !e, dur, detail, &data, "dm-reload");
	emit_changes(c, &d, 0);
	kw_diff_free(&d);
	dix_evdata_clear(&data);
	free(drv);
	return e;
}

static void act_dmreload(struct ctl *c, const struct action *a)
{
	int i;

	if (dmreload_step(c, a, 0))
		return;
	for (i = 0; i < c->nreloaded; i++)
		if (c->reloaded[i]->major == a->major && c->reloaded[i]->minor == a->minor)
			return;
	if (c->nreloaded < CTL_RELOADED_MAX)
		c->reloaded[c->nreloaded++] = a;
}

/*
 * A mapping reloaded mid-run holds TFMs on what the selection gave then,
 * which a --priority change may have made: once the priorities are back,
 * each such mapping is reloaded once more, so the run leaves it on what
 * the restored selection gives (and leaves the instances --priority
 * registered free to delete).  Nothing to do when no priority changed.
 */
static void end_rereload(struct ctl *c)
{
	int i;

	for (i = 0; i < c->nreloaded; i++)
		dmreload_step(c, c->reloaded[i], 1);
	c->nreloaded = 0;
}

/*
 * A --priority step (the action, a restore, a delete): its event, then what
 * it changed in the kernel (the selections) and, with --rebind auto, the
 * TFMs asked to follow.
 */
static void prio_event(void *arg, const struct prio_step *st)
{
	struct ctl *c = arg;
	struct kw_diff d;

	ctl_event(c, EV_ACTION, ctl_elapsed(c) - st->duration, st->what, st->ok,
	      st->duration, st->detail, &st->data, st->what);
	snapshot_diff(c, &d);
	emit_changes(c, &d, 0);
	binding_note(c, d.nchanges > 0);
	kw_diff_free(&d);
}

static void run_action(struct ctl *c, const struct action *a)
{
	switch (a->type) {
	case ACT_LOAD:
	case ACT_UNLOAD:
		act_module(c, a);
		break;
	case ACT_SYSFS:
		sysfs_act(c, a);
		break;
	case ACT_EXEC:
		ctl_exec_start(c, a);
		break;
	case ACT_DMRELOAD:
		act_dmreload(c, a);
		break;
	case ACT_PRIORITY:
		prio_apply(&c->prio, a, prio_event, c);
		break;
	}
}

/* --------------------------------------------------------------------- */
/* the control thread */

/* Sleep until @deadline (absolute); return 1 when asked to stop. */
static int sleep_until(struct ctl *c, double deadline)
{
	struct pollfd pfd = { .fd = c->stop_fd, .events = POLLIN };
	double left = deadline - dix_now();
	struct timespec ts;

	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (ppoll(&pfd, 1, &ts, NULL) > 0)
		return 1;
	return __atomic_load_n(&c->stopping, __ATOMIC_ACQUIRE);
}

static void watch_tick(struct ctl *c)
{
	struct kw_diff d;

	snapshot_diff(c, &d);
	emit_changes(c, &d, 1);
	binding_note(c, d.nchanges > 0);
	kw_diff_free(&d);
}

/*
 * An action that starts well after its second says so: its event's t is
 * when it ran, and a reader comparing it with the "@T" asked for must not
 * have to guess why they differ (a starved machine, a slow action before).
 */
#define LATE_S	0.25

static void late_note(struct ctl *c, const struct action *a, double now)
{
	char what[4200];

	if (now - a->at < LATE_S)
		return;
	ctl_action_what(a, what, sizeof(what));
	note(c, "%s, due at %g s, starts %.2f s late (at %.2f s): the control thread was not run in time",
	     what, a->at, now - a->at, now);
}

/* Wait for control_go(); return 1 when stopped before the load started. */
static int wait_go(struct ctl *c)
{
	struct pollfd pfd[2] = {
		{ .fd = c->stop_fd, .events = POLLIN },
		{ .fd = c->go_fd, .events = POLLIN },
	};

	while (!__atomic_load_n(&c->going, __ATOMIC_ACQUIRE)) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			return 1;
		if (pfd[0].revents)
			return 1;
	}
	return 0;
}

static void *ctl_main(void *arg)
{
	struct ctl *c = arg;
	double t0, tick, end;
	int started;
	char *text;

	if (wait_go(c))
		goto ended;
	t0 = c->sink.t0;
	tick = t0 + c->tick;
	for (;;) {
		double next = tick, now;

		if (c->next < c->nact && t0 + c->act[c->next].at < next)
			next = t0 + c->act[c->next].at;
		if (sleep_until(c, next))
			break;
		now = dix_now();
		while (c->next < c->nact && t0 + c->act[c->next].at <= now) {
			late_note(c, &c->act[c->next], now - t0);
			run_action(c, &c->act[c->next++]);
		}
		if (dix_now() >= tick) {
			watch_tick(c);
			/* missed ticks (a slow action) are skipped, not
			 * bunched up */
			now = dix_now();
			while (tick <= now)
				tick += c->tick;
		}
	}
	/*
	 * The load has ended.  Actions due by now (or within half a second:
	 * "--exec ...@24" with --runtime 24 races the end) still run; later
	 * ones never will, and say so - an experiment that did not happen
	 * must not pass for one that did.  Stopped before the load started
	 * (a setup failure): none runs.
	 */
ended:
	started = __atomic_load_n(&c->going, __ATOMIC_ACQUIRE);
	end = ctl_elapsed(c);
	while (c->next < c->nact) {
		const struct action *a = &c->act[c->next++];
		char what[4200], detail[160];

		if (started && a->at <= end + 0.5) {
			run_action(c, a);
			continue;
		}
		ctl_action_what(a, what, sizeof(what));
		if (started)
			snprintf(detail, sizeof(detail),
				 "not run: the load ended at %.1f s, before %g s",
				 end, a->at);
		else
			snprintf(detail, sizeof(detail),
				 "not run: the load did not start");
		ctl_event(c, EV_ACTION, a->at, what, 0, -1, detail, NULL, NULL);
	}
	/* the load is over: each file --sysfs wrote gets its value back */
	sysfs_put_back(c);
	/* the workers have closed their TFMs: what --priority changed can
	 * be put back, the mappings reloaded under it reloaded again, and
	 * what it registered deleted */
	if (prio_changed_any(&c->prio)) {
		prio_restore(&c->prio, prio_event, c);
		end_rereload(c);
	}
	prio_undo(&c->prio, prio_event, c);
	/* the workers are done: what dm-integrity counted is the run's */
	text = dmbind_mismatches(c->dm);
	if (text)
		note(c, "%s", text);
	free(text);
	/* a last look: a change in the final interval still gets reported */
	watch_tick(c);
	/* the workers are gone with their TFMs: what --alg instantiated goes */
	release_wrappers(c);
	return NULL;
}

/* Whether an action before @k loads or unloads module @n too. */
static int earlier_same_module(const struct ctl *c, int k, const char *n)
{
	char m[KW_MOD_LEN];
	int i;

	for (i = 0; i < k; i++) {
		if (c->act[i].type != ACT_LOAD && c->act[i].type != ACT_UNLOAD)
			continue;
		kw_normalise(c->act[i].arg, m, sizeof(m));
		if (!strcmp(m, n))
			return 1;
	}
	return 0;
}

/* Whether a --priority action before @k names driver @d too. */
static int earlier_same_driver(const struct ctl *c, int k, const char *d)
{
	int i;

	for (i = 0; i < k; i++)
		if (c->act[i].type == ACT_PRIORITY && !strcmp(c->act[i].arg, d))
			return 1;
	return 0;
}

/*
 * What a --priority action will find: the driver's priority now, and what
 * the kernel's internal flags say of it (crypto_user shows them, /proc/crypto
 * does not), or that it is to be registered first.
 */
static void priority_note(struct ctl *c, const struct action *a)
{
	struct cru_alg alg;
	char why[1024], flags[160];
	int e;

	if (!c->prio.cru)
		c->prio.cru = act_crypto_user(why, sizeof(why));
	if (!c->prio.cru) {
		note(c, "priority %s=%s at %g s will fail: %s", a->arg, a->value,
		     a->at, why);
		return;
	}
	e = cru_get(c->prio.cru, a->arg, &alg);
	if (e == -ENOENT)
		note(c, "%s is not registered now: %s", a->arg,
		     act_instantiable(a->arg) ?
		     "the priority action registers it (a template instance, crypto_user NEWALG) and deletes it when the run ends" :
		     "a --hotload before the priority action must register it");
	else if (e)
		note(c, "%s: crypto_user: %s", a->arg, strerror(-e));
	else
		note(c, "%s (%s, module %s) is at priority %u now; at %g s: %u%s%s",
		     a->arg, alg.name, alg.module, alg.priority, a->at, a->prio,
		     cru_flags_text(alg.flags, flags, sizeof(flags))[0] ?
		     "; flags: " : "", flags);
}

/* Say at the start what would make an action pointless or doomed. */
static void start_notes(struct ctl *c)
{
	struct mod_env env = { target_dev(c), &c->cur };
	char msg[1024];
	int i;

	if (c->cur.have_transform)
		note(c, "crc_t10dif transform: %s", c->cur.transform);
	for (i = 0; i < c->nact; i++) {
		const struct action *a = &c->act[i];
		char n[KW_MOD_LEN], drv[KW_MOD_LEN];
		int st, k;

		if (a->type == ACT_PRIORITY) {
			if (!earlier_same_driver(c, i, a->arg))
				priority_note(c, a);
			continue;
		}
		if (a->type != ACT_LOAD && a->type != ACT_UNLOAD)
			continue;
		kw_normalise(a->arg, n, sizeof(n));
		/* after an earlier load or unload of the same module the
		 * state at start says nothing about this one */
		if (earlier_same_module(c, i, n))
			continue;
		if (a->type == ACT_UNLOAD) {
			if (kw_module_loaded(&c->cur, n) == 0)
				note(c, "%s is not loaded: the unload at %g s will fail",
				     a->arg, a->at);
			continue;
		}
		/* crct10dif_pclmul provides driver crct10dif-pclmul */
		for (k = 0; n[k] && k < (int)sizeof(drv) - 1; k++)
			drv[k] = n[k] == '_' ? '-' : n[k];
		drv[k] = '\0';
		if (c->cur.have_transform && !strcmp(c->cur.transform, drv))
			note(c, "crc_t10dif transform is already %s: loading %s cannot change the CRC",
			     drv, a->arg);
		if (kw_module_loaded(&c->cur, n) == 1) {
			note(c, "%s is already loaded: there is no transition left to capture",
			     a->arg);
			continue;
		}
		if (mod_era_note(a->arg, msg, sizeof(msg)))
			note(c, "%s", msg);
		st = mod_state(&env, a->arg, msg, sizeof(msg));
		if (st == -ENOENT)
			note(c, "%s; the hot-load at %g s will fail", msg, a->at);
		else if (st == 1)
			note(c, "%s: there is no transition left to capture", msg);
		else if (st == 2)
			note(c, "%s: there is nothing to load", msg);
	}
}

struct ctl *control_start(const struct dix_opts *o, const char *dev,
			  struct dmbind *dm, const struct dix_event_sink *sink,
			  int *err)
{
	struct ctl *c = xcalloc(1, sizeof(*c));
	char msg[1024];
	int e;

	c->sink = *sink;
	c->o = o;
	c->dm = dm;
	c->dev = dev ? xstrdup(dev) : NULL;
	c->proc_root = "/proc";
	c->sys_root = "/sys";
	c->prio.proc_root = c->proc_root;
	c->stop_fd = -1;
	if (actions_parse(o, &c->act, &c->nact, msg, sizeof(msg))) {
		/* actions_check() ran before the load: only a sysfs file
		 * vanishing in between gets here */
		dix_err("%s", msg);
		free(c->dev);
		free(c);
		*err = -EINVAL;
		return NULL;
	}
	c->tick = o->interval_ms ? o->interval_ms / 1000.0 : 1.0;
	pthread_mutex_init(&c->lock, NULL);
	c->go_fd = -1;
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->stop_fd >= 0)
		c->go_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->stop_fd < 0 || c->go_fd < 0) {
		e = -errno;
		dix_err("cannot start the control thread: eventfd: %s",
			strerror(-e));
		goto fail;
	}
	kw_snapshot(&c->cur, c->proc_root, c->sys_root);
	if (!c->nact && !c->cur.have_modules && !c->cur.have_crypto &&
	    !c->cur.have_transform) {
		/* nothing to run, nothing to watch */
		e = 1;
		goto fail;
	}
	start_notes(c);
	e = pthread_create(&c->th, NULL, ctl_main, c);
	if (e) {
		dix_err("cannot start the control thread: %s", strerror(e));
		e = -e;
		goto fail;
	}
	*err = 0;
	return c;
fail:
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	if (c->go_fd >= 0)
		close(c->go_fd);
	/* start_notes() may have opened it; nothing was changed yet */
	cru_close(c->prio.cru);
	kw_free(&c->cur);
	actions_free(c->act, c->nact);
	pthread_mutex_destroy(&c->lock);
	free(c->dev);
	free(c);
	*err = e;
	return NULL;
}

void control_go(struct ctl *c, double t0)
{
	uint64_t one = 1;
	ssize_t n;

	if (!c)
		return;
	c->sink.t0 = t0;
	__atomic_store_n(&c->going, 1, __ATOMIC_RELEASE);
	n = write(c->go_fd, &one, sizeof(one));
	(void)n;
}

void control_stop(struct ctl *c)
{
	uint64_t one = 1;
	ssize_t n;

	if (!c)
		return;
	__atomic_store_n(&c->stopping, 1, __ATOMIC_RELEASE);
	n = write(c->stop_fd, &one, sizeof(one));
	(void)n;
	pthread_join(c->th, NULL);

	ctl_exec_end(c);
	close(c->stop_fd);
	close(c->go_fd);
	kw_free(&c->cur);
	actions_free(c->act, c->nact);
	pthread_mutex_destroy(&c->lock);
	free(c->dev);
	free(c);
}
