/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cryptobind.h - which kernel driver serves a crypto load: the one the
 * kernel would instantiate for --alg now, and the one each open transform
 * (TFM) of the kcapi engine is bound to.
 *
 * A TFM is bound to a driver when it is allocated and never moves: the
 * crypto API looks the algorithm up once, in crypto_alloc_tfm().  So after
 * a hot-load registers a higher-priority driver, new TFMs get it and open
 * ones keep the old one (their references show in the old driver's
 * refcnt).  The engine records each TFM's driver when it opens it; the
 * control thread compares that with the selection on every /proc/crypto
 * change and, with --rebind auto, asks the engine to reopen its TFMs by
 * bumping a generation number the engine polls between requests.
 */
#ifndef DIX_CRYPTOBIND_H
#define DIX_CRYPTOBIND_H

#include "kernel/kwatch.h"

/**
 * cryptobind_init() - a crypto load of @ntfms TFMs on @alg starts.
 * @rebind: REBIND_AUTO or REBIND_OFF (options.h)
 */
void cryptobind_init(const char *alg, unsigned int ntfms, int rebind);

/** cryptobind_active() - a crypto load is running (cryptobind_init ran). */
int cryptobind_active(void);

/**
 * cryptobind_opened() - TFM @tfm was (re)opened and is bound to @driver
 * (NULL: not known).  Thread-safe.
 */
void cryptobind_opened(unsigned int tfm, const char *driver);

/**
 * cryptobind_generation() - bumped each time the TFMs must be reopened
 * (--rebind auto and the selected driver changed); engines compare it with
 * the generation their TFMs were opened at.
 */
unsigned int cryptobind_generation(void);

/**
 * cryptobind_lookup() - the driver the kernel would instantiate for @alg
 * now, from /proc/crypto (highest selectable priority), into @drv; its
 * priority and refcnt into *@prio and *@refcnt.  Return: 0, or -ENOENT.
 */
int cryptobind_lookup(const char *alg, char *drv, size_t len, int *prio,
		      int *refcnt);

/**
 * cryptobind_poll() - called by the control thread after each snapshot
 * @s: the snapshot just taken
 * @changed: @s differs from the last one in a driver selection
 *
 * Return: NULL when there is nothing to say, else a malloc'ed note: the
 * binding ("xts(aes): the kernel selects xts-aes-aesni (401, refcnt 1);
 * TFMs 0-3 on xts(aes-generic) (refcnt 6, /proc/crypto)") when the TFMs
 * were (re)opened since the last call or @changed; with the rebind
 * decision appended when the selection no longer matches the TFMs.
 */
char *cryptobind_poll(const struct kw_state *s, int changed);

/**
 * cryptobind_made() - the load instantiated wrapper instance @driver
 * ("cryptd(xts(ecb(aes-generic)))"): registered system-wide, under its
 * child's name at a priority above it, so cryptobind_release() deletes it.
 */
void cryptobind_made(const char *driver);

/**
 * cryptobind_release() - the load is over and its TFMs are closed: delete
 * the wrapper instances cryptobind_made() named (crypto_user DELALG), the
 * last made first: it holds the ones before it.
 * Return: NULL when the load made none, else a malloc'ed note naming each
 * instance deleted, or why it could not be.
 */
char *cryptobind_release(void);

#endif
