/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmbind.h - which crypto drivers a device-mapper mapping under the load
 * would get and holds: dm-crypt and dm-integrity allocate their TFMs when
 * their table is loaded and keep them until it is loaded again, so a
 * driver hot-loaded or re-prioritised mid-run changes the kernel's
 * selection and not the mapping (issue 23's 5.34 -> 5.33 MB/s).
 *
 * What each consumer can take is the kernel's rule: dm-crypt (and
 * dm-integrity's journal_crypt) mask out CRYPTO_ALG_ALLOCATES_MEMORY,
 * which /proc/crypto does not show, so it is known from the driver's
 * module (the offload drivers that set it); dm-integrity's hashes are
 * shash, synchronous only.  Which driver the live mapping holds no kernel
 * interface says: it is inferred as the selection when the run started
 * and labelled so.
 */
#ifndef DIX_DMBIND_H
#define DIX_DMBIND_H

#include "device/dmmap.h"
#include "kernel/kwatch.h"
#include "lib/event.h"

/**
 * struct dmbind - the mappings one run watches and what it last said of
 * them: a value of that run (core/dev.c: its devices share one), never of
 * the process, so a second run watches only its own mappings.  Every
 * function below taking one does nothing (returns NULL) when it is NULL:
 * a run with no mapping to watch.
 */
struct dmbind;

/** dmbind_new() - an empty watch, for one run. */
struct dmbind *dmbind_new(void);

/** dmbind_free() - stop following every mapping of @b and free it. */
void dmbind_free(struct dmbind *b);

/**
 * dmbind_pick() - the driver @use would get for algorithm @name from
 * snapshot @s (pure): the highest selectable priority among the entries
 * the consumer can take.
 * @kernel: set to the plain selection (kw_select()) when the consumer
 *	cannot take it, else NULL; @why then says why
 *
 * Return: the entry, or NULL when none can be taken.
 */
const struct kw_alg *dmbind_pick(const struct kw_state *s, const char *name,
				 int use, const struct kw_alg **kernel,
				 char *why, size_t whylen);

/**
 * dmbind_fill() - fill @m's drivers from snapshot @s; with @start, the
 * held drivers too (inferred: the selection now).
 */
void dmbind_fill(struct dmmap *m, const struct kw_state *s, int start);

/**
 * dmbind_watch() - follow @m during the run in @b (dmbind_poll()); @m
 * stays the caller's and must live until dmbind_free().
 */
void dmbind_watch(struct dmbind *b, struct dmmap *m);

/**
 * dmbind_mismatch_bank() - read dm-integrity's mismatch counter of the
 * watched mapping @major:@minor (every level that is it) now: with
 * @count, what it counted since the last reading is kept for the run's
 * total (before a reload, which starts the counter at 0); without, the
 * reading becomes the new base (after the reload).
 */
void dmbind_mismatch_bank(struct dmbind *b, unsigned int major,
			  unsigned int minor, int count);

/**
 * dmbind_mismatches() - what dm-integrity counted during the run, per
 * watched mapping with integrity lines: "dm dixdm: dm-integrity counted 4
 * checksum mismatches during the run (the kernel's counter, status field
 * 1)" (several joined by "; ").
 *
 * Return: NULL when no watched mapping has integrity lines, else the
 * malloc'ed text.
 */
char *dmbind_mismatches(struct dmbind *b);

/**
 * dmbind_reloaded() - the table of mapping @name was loaded again: its
 * TFMs are what the selection in @s gives now.
 * @d: receives the event's facts (EVD_DMRELOAD: the drivers before in
 *	@removed, after in @added; free with dix_evdata_clear())
 *
 * Return: NULL when dixload follows no algorithm of @name, else the
 * malloc'ed text "xts(aes): xts(ecb(aes-generic)) -> xts-aes-aesni
 * (inferred)" (several joined by ", ").
 */
char *dmbind_reloaded(struct dmbind *b, const char *name,
		      const struct kw_state *s, struct dix_evdata *d);

/**
 * dmbind_find() - the watched mapping of device @major:@minor, or NULL.
 */
struct dmmap *dmbind_find(struct dmbind *b, unsigned int major,
			  unsigned int minor);

/**
 * dmbind_poll() - after a snapshot: a note for each algorithm whose
 * selection moved away from what its mapping holds ("dm dixdm: xts(aes):
 * the mapping would get xts-aes-aesni (401) now, and keeps its TFMs on
 * xts(ecb(aes-generic)) (inferred) until its table is reloaded").
 *
 * Return: NULL, or a malloc'ed text (lines joined by "; ").
 */
char *dmbind_poll(struct dmbind *b, const struct kw_state *s);

#endif
