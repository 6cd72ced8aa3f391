/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority.h - the --priority action inside src/kernel/: a crypto driver's
 * priority changed at run time, and the system put back as it was found
 * when the run ends.
 */
#ifndef DIX_PRIORITY_H
#define DIX_PRIORITY_H

#include "kernel/actions.h"
#include "kernel/cryptouser.h"
#include "kernel/kwatch.h"
#include "lib/event.h"

/*
 * struct prio_changed - a driver whose priority dixload changed.
 * @driver: its driver name
 * @orig: its priority before dixload's first change: what is restored
 * @now: the priority dixload set last
 */
struct prio_changed {
	char driver[CRU_NAME_LEN];
	unsigned int orig;
	unsigned int now;
};

/*
 * struct prio_ctx - what the --priority actions of one run did.
 * @cru: the crypto_user socket (opened at the first action)
 * @changed/@nchanged: the drivers to restore, in the order first changed
 * @made/@nmade: the template instances dixload registered (its NEWALG and
 *	the inner instances the kernel built with it): deleted at the end
 * @proc_root: where /proc is ("/proc")
 */
struct prio_ctx {
	struct cru_sock *cru;
	struct prio_changed *changed;
	int nchanged;
	char (*made)[KW_NAME_LEN];
	int nmade;
	const char *proc_root;
};

/*
 * struct prio_step - one thing done, for its event.
 * @ok: 1 done, 0 failed (the run's exit status becomes 4)
 * @what: "priority D=N", "restore priority D=N", "delete instance D"
 * @detail: the old and new priority and the selections, or the error
 * @data: the facts for the event (EVD_PRIORITY; owned by the step)
 * @duration: seconds the netlink requests took
 */
struct prio_step {
	int ok;
	char what[KW_NAME_LEN + 64];
	char *detail;
	struct dix_evdata data;
	double duration;
};

/* Called for each step; the caller emits the event and looks at the kernel. */
typedef void (*prio_emit_fn)(void *arg, const struct prio_step *st);

/**
 * prio_apply() - run --priority action @a: register the driver first when
 * it is a template instance not registered yet (CRYPTO_MSG_NEWALG), then
 * set its priority (CRYPTO_MSG_UPDATEALG), remembering what to undo.  One
 * step is passed to @emit, failed or not.
 */
void prio_apply(struct prio_ctx *p, const struct action *a, prio_emit_fn emit,
		void *arg);

/**
 * prio_changed_any() - whether the run's --priority actions changed a
 * priority or registered an instance (so the selection at the end differs
 * from the one they left until prio_undo()).
 *
 * Return: 1 or 0.
 */
int prio_changed_any(const struct prio_ctx *p);

/**
 * prio_restore() - the first half of prio_undo(): every changed priority
 * set back (one step each, in reverse order); the instances dixload
 * registered stay until prio_undo(), so a mapping reloaded now takes the
 * restored selection and leaves them free to delete.
 */
void prio_restore(struct prio_ctx *p, prio_emit_fn emit, void *arg);

/**
 * prio_undo() - the end of the run: every changed priority set back to what
 * it was (one step each, in reverse order), then every instance dixload
 * registered deleted (one step each) once nothing holds it: a TFM that was
 * closed a moment ago may still hold a reference, so a busy instance is
 * tried again for up to 3 s.  Releases @p's resources.
 */
void prio_undo(struct prio_ctx *p, prio_emit_fn emit, void *arg);

#endif
