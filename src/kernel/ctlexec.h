/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctlexec.h - the control thread's --exec commands (ctlexec.c).
 */
#ifndef DIX_KERNEL_CTLEXEC_H
#define DIX_KERNEL_CTLEXEC_H

struct ctl;
struct action;

/**
 * ctl_exec_start() - start --exec action @a in a thread of its own (its
 * event is emitted when it ends); joins the commands already finished.
 */
void ctl_exec_start(struct ctl *c, const struct action *a);

/**
 * ctl_exec_end() - at the end of the load: wait briefly for the commands
 * still running, then terminate them (TERM, then KILL), join and free all.
 */
void ctl_exec_end(struct ctl *c);

#endif
