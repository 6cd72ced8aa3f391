/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis.h - after the load: transition rows from the samples and the
 * events.
 */
#ifndef DIX_ANALYSIS_H
#define DIX_ANALYSIS_H

#include <stdint.h>

#include "lib/event.h"
#include "report/meter.h"
#include "report/transition.h"

/**
 * analysis_transitions() - the transitions of one throughput series: one
 * per action that succeeded and per kernel selection change no action
 * explains, each analysed over @l (tr_analyse()).
 * @ev: the run's events (@nev of them, in recording order); a
 *	transition's @event is an index into them
 * @l: the intervals
 * @lbs: the logical block size the never-written share is counted in
 *	(0: no share)
 * @verify: verification was on (else nothing counted never-written blocks)
 * @tr: receives the malloc'ed transitions (NULL when none)
 * @w: if not NULL, receives the malloc'ed spans each one used
 * Return: the number of transitions.
 */
int analysis_transitions(const struct dix_event *ev, int nev,
			 const struct sample_log *l, uint32_t lbs, int verify,
			 struct dix_transition **tr, struct tr_window **w);

#endif
