// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cryptobind.c - the selected driver of --alg and the drivers the open
 * TFMs are bound to (see cryptobind.h).
 *
 * Sources: the selection is derived from /proc/crypto the way the kernel
 * does it (kw_select: highest priority among the self-tested, non-internal
 * entries).  A TFM's driver is the selection right after it was opened
 * (the TFM's own allocation instantiates a template such as
 * xts(aes-generic) if needed, so it is looked up afterwards); its refcnt in
 * /proc/crypto counts the TFMs still holding it, which is how "open TFMs
 * never move" is visible after a hot-load.  The refcnt comes from the
 * crypto_user netlink interface (CRYPTO_MSG_GETALG by driver name, the
 * same interface libkcapi uses for its own look-ups; cryptouser.c) when the
 * crypto_user module is there, else from
 * /proc/crypto; the note says which.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cryptobind.h"
#include "kernel/cryptouser.h"
#include "conf/options.h"
#include "lib/util.h"

#define CB_MAX_WRAP	5

static struct {
	pthread_mutex_t lock;
	char made[CB_MAX_WRAP][KW_NAME_LEN];	/* instances the load made */
	int nmade;
	char said[KW_NAME_LEN];		/* the selection the last note described */
	int active;
	char alg[KW_NAME_LEN];
	unsigned int ntfms;
	int rebind;
	char (*driver)[KW_NAME_LEN];	/* per TFM; "" = not known */
	int dirty;			/* a TFM was (re)opened */
	unsigned int gen;
	char asked[KW_NAME_LEN];	/* the driver the last rebind asked for */
} cb = { .lock = PTHREAD_MUTEX_INITIALIZER };

void cryptobind_init(const char *alg, unsigned int ntfms, int rebind)
{
	pthread_mutex_lock(&cb.lock);
	free(cb.driver);
	snprintf(cb.alg, sizeof(cb.alg), "%s", alg);
	cb.ntfms = ntfms;
	cb.rebind = rebind;
	cb.driver = calloc(ntfms, sizeof(*cb.driver));
	cb.active = cb.driver != NULL;
	cb.dirty = 0;
	cb.asked[0] = '\0';
	cb.said[0] = '\0';
	cb.nmade = 0;
	pthread_mutex_unlock(&cb.lock);
}

static const struct kw_alg *by_driver(const struct kw_state *s,
				      const char *drv);

/*
 * What a TFM bound to @name gets: the algorithm's selection, or the driver
 * of that name (a TFM bound by driver name gets exactly that driver).
 */
static const struct kw_alg *select_for(const struct kw_state *s,
				       const char *name)
{
	const struct kw_alg *a = kw_select(s, name);

	return a ? a : by_driver(s, name);
}

void cryptobind_made(const char *driver)
{
	pthread_mutex_lock(&cb.lock);
	if (cb.nmade < CB_MAX_WRAP)
		snprintf(cb.made[cb.nmade++], KW_NAME_LEN, "%s", driver);
	pthread_mutex_unlock(&cb.lock);
}

char *cryptobind_release(void)
{
	struct kw_state s;
	struct cru_sock *sock;
	char *text = NULL, name[32];
	size_t len = 0;
	FILE *f;
	int i, e = 0, r;

	pthread_mutex_lock(&cb.lock);
	if (!cb.nmade) {
		pthread_mutex_unlock(&cb.lock);
		return NULL;
	}
	kw_snapshot(&s, "/proc", "/sys");
	sock = cru_open(&e);
	f = open_memstream(&text, &len);
	/* the last made holds the ones before it */
	for (i = cb.nmade - 1; f && i >= 0; i--) {
		const struct kw_alg *a = by_driver(&s, cb.made[i]);

		r = sock ? cru_delete(sock, cb.made[i]) : e;
		fprintf(f, "%s%s %s", i < cb.nmade - 1 ? "; " : "",
			r ? "could not delete" : "deleted", cb.made[i]);
		if (a)
			fprintf(f, " (%s, priority %d)", a->name, a->priority);
		if (r)
			fprintf(f, ": %s (%s)",
				dix_errno_name(-r, name, sizeof(name)),
				strerror(-r));
	}
	if (f) {
		fprintf(f, " (crypto_user DELALG): the wrapper instance%s this load registered system-wide, under %s child's name at a priority above it",
			cb.nmade == 1 ? "" : "s",
			cb.nmade == 1 ? "its" : "each");
		fclose(f);
	}
	cb.nmade = 0;
	cru_close(sock);
	kw_free(&s);
	pthread_mutex_unlock(&cb.lock);
	return text;
}

int cryptobind_active(void)
{
	return __atomic_load_n(&cb.active, __ATOMIC_ACQUIRE);
}

void cryptobind_opened(unsigned int tfm, const char *driver)
{
	pthread_mutex_lock(&cb.lock);
	if (cb.active && tfm < cb.ntfms) {
		snprintf(cb.driver[tfm], KW_NAME_LEN, "%s", driver ? driver : "");
		cb.dirty = 1;
	}
	pthread_mutex_unlock(&cb.lock);
}

unsigned int cryptobind_generation(void)
{
	return __atomic_load_n(&cb.gen, __ATOMIC_ACQUIRE);
}

int cryptobind_lookup(const char *alg, char *drv, size_t len, int *prio,
		      int *refcnt)
{
	struct kw_state s;
	const struct kw_alg *a;
	int r = -ENOENT;

	if (kw_snapshot(&s, "/proc", "/sys") == 0) {
		a = select_for(&s, alg);
		if (a) {
			snprintf(drv, len, "%s", a->driver);
			*prio = a->priority;
			*refcnt = a->refcnt;
			r = 0;
		}
	}
	kw_free(&s);
	return r;
}

/*
 * The refcnt of driver @drv from crypto_user: 0 with *@refcnt set, -ENOENT
 * when the kernel does not list it, other -errno when crypto_user cannot
 * be asked (module not loaded: EPROTONOSUPPORT; built without libmnl:
 * EOPNOTSUPP).
 */
static int nl_refcnt(const char *drv, int *refcnt)
{
	struct cru_alg a;
	struct cru_sock *s;
	int r;

	s = cru_open(&r);
	if (!s)
		return r;
	r = cru_get(s, drv, &a);
	if (!r)
		*refcnt = (int)a.refcnt;
	cru_close(s);
	return r;
}

/* The /proc/crypto entry of driver @drv in @s, or NULL. */
static const struct kw_alg *by_driver(const struct kw_state *s,
				      const char *drv)
{
	int i;

	for (i = 0; i < s->ncrypto; i++)
		if (!strcmp(s->crypto[i].driver, drv))
			return &s->crypto[i];
	return NULL;
}

/*
 * "TFMs 0-3 on D (refcnt N); TFM 4 on E (...)" into @f: runs of equal
 * drivers.  *@nl is set when a refcnt came from crypto_user.
 */
static void tfm_runs(FILE *f, const struct kw_state *s, int *nl)
{
	unsigned int i = 0, j;
	int rc;

	while (i < cb.ntfms) {
		const struct kw_alg *a;

		for (j = i; j + 1 < cb.ntfms &&
		     !strcmp(cb.driver[j + 1], cb.driver[i]); j++)
			;
		fprintf(f, "%s", i ? "; " : "");
		if (j > i)
			fprintf(f, "TFMs %u-%u on ", i, j);
		else
			fprintf(f, "TFM %u on ", i);
		if (!cb.driver[i][0]) {
			fprintf(f, "(not open)");
		} else {
			a = by_driver(s, cb.driver[i]);
			if (a && nl_refcnt(cb.driver[i], &rc) == 0) {
				*nl = 1;
				fprintf(f, "%s (refcnt %d)", cb.driver[i], rc);
			} else if (a)
				fprintf(f, "%s (refcnt %d)", cb.driver[i],
					a->refcnt);
			else
				fprintf(f, "%s (unlisted from /proc/crypto: the kernel drops an instance from the list when a better driver registers; the open TFMs still run on it)",
					cb.driver[i]);
		}
		i = j + 1;
	}
}

/*
 * Whether driver @sel is asynchronous (/proc/crypto) and, where crypto_user
 * reports it, whether it allocates memory per request: the kernel's
 * internal CRYPTO_ALG_ALLOCATES_MEMORY, which /proc/crypto never shows and
 * dm-crypt excludes (why dm-crypt never takes QAT, whatever its priority).
 */
static void traits(FILE *f, const struct kw_alg *sel)
{
	struct cru_sock *s;
	struct cru_alg a;
	int e;

	if (sel->have_async)
		fprintf(f, ", %s (/proc/crypto async: %s)",
			sel->async ? "asynchronous" : "synchronous",
			sel->async ? "yes" : "no");
	s = cru_open(&e);
	if (s && cru_get(s, sel->driver, &a) == 0)
		fprintf(f, ", allocates memory: %s (the kernel's internal CRYPTO_ALG_ALLOCATES_MEMORY flag, from crypto_user; dm-crypt takes no driver that sets it)",
			a.flags & CRU_F_ALLOCATES_MEMORY ? "yes" : "no");
	cru_close(s);
}

char *cryptobind_poll(const struct kw_state *s, int changed)
{
	const struct kw_alg *sel;
	unsigned int i, stale = 0;
	int nl = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	pthread_mutex_lock(&cb.lock);
	if (!cb.active || (!changed && !cb.dirty)) {
		pthread_mutex_unlock(&cb.lock);
		return NULL;
	}
	cb.dirty = 0;
	sel = s->have_crypto ? select_for(s, cb.alg) : NULL;
	f = open_memstream(&text, &len);
	if (!f) {
		pthread_mutex_unlock(&cb.lock);
		return NULL;
	}
	if (sel) {
		fprintf(f, "%s: the kernel selects %s (priority %d, refcnt %d)",
			cb.alg, sel->driver, sel->priority, sel->refcnt);
		/* what the driver is, once per selection */
		if (strcmp(cb.said, sel->driver)) {
			traits(f, sel);
			snprintf(cb.said, sizeof(cb.said), "%s", sel->driver);
		}
		fputs("; ", f);
	} else
		fprintf(f, "%s: no selectable driver in /proc/crypto; ", cb.alg);
	tfm_runs(f, s, &nl);
	fprintf(f, " (bindings: the selection when each TFM opened; refcnt: %s)",
		nl ? "crypto_user netlink" : "/proc/crypto");
	for (i = 0; i < cb.ntfms; i++) {
		if (!cb.driver[i][0])
			continue;
		if (sel && strcmp(cb.driver[i], sel->driver))
			stale++;
	}
	if (stale && cb.rebind == REBIND_AUTO &&
	    strcmp(cb.asked, sel->driver)) {
		fprintf(f, "; rebind auto: reopening %u TFM%s on %s", stale,
			stale == 1 ? "" : "s", sel->driver);
		snprintf(cb.asked, sizeof(cb.asked), "%s", sel->driver);
		__atomic_add_fetch(&cb.gen, 1, __ATOMIC_RELEASE);
	} else if (stale && cb.rebind == REBIND_OFF && changed) {
		fprintf(f, "; rebind off: the %u open TFM%s keep%s %s: an open TFM never moves to a new driver, only TFMs opened from now on get %s",
			stale, stale == 1 ? "" : "s", stale == 1 ? "s" : "",
			cb.driver[0][0] ? cb.driver[0] : "their driver",
			sel->driver);
	}
	fclose(f);
	pthread_mutex_unlock(&cb.lock);
	return text;
}
