// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * need.c - what a crypto load needs from the kernel before its first TFM
 * opens: the AF_ALG socket type of --alg's kind (algif_skcipher,
 * algif_aead or algif_hash, over af_alg) and crypto_user, the netlink
 * interface libkcapi's look-ups and the binding notes ask.
 *
 * Why dixload loads them itself: a new user's first crypto run failed with
 * "xts(aes): no such algorithm or AF_ALG type (ENOENT)" until eight
 * modules were named and loaded by hand (issue 22).  The kernel would load
 * an AF_ALG type on bind(2) through its own request_module(), but only
 * where module auto-loading works; asked once through libkmod, before the
 * load, the modules are there on every system that has them, and the run's
 * first note says which were loaded, so nothing changes silently.  The
 * algorithm's own drivers and templates (xts, ecb, gcm...) are left to the
 * kernel's lookup: loading a driver by hand is the experiment (--hotload).
 * A module that cannot be loaded is not an error here: the TFM's open
 * fails with its own reason and this one appended (kc_need_why()).
 */
#include "config.h"

#include <errno.h>
#include <kcapi.h>
#include <stdio.h>
#include <string.h>

#include "engines/kcapi/kc.h"
#include "kernel/kwatch.h"
#include "kernel/modules.h"
#include "lib/util.h"

#ifdef HAVE_KMOD
#define NEED_HOW	"libkmod"
#else
#define NEED_HOW	"modprobe"
#endif

static struct {
	char note[sizeof(((struct dix_eng_ctx *)0)->note)];		/* what was loaded, for the first note */
	char why[256];			/* the first module that could not be */
} need;

static const char *type_module(enum kc_type t)
{
	switch (t) {
	case KC_SKCIPHER:
		return "algif_skcipher";
	case KC_AEAD:
		return "algif_aead";
	default:
		return "algif_hash";
	}
}

void kc_need_load(const struct kc_alg *a, const char *alg)
{
	const char *mods[] = { "af_alg", a ? type_module(a->type) : "",
			       "crypto_user" };
	char loaded[128] = "", msg[256];
	size_t i, n = 0;
	int r;

	need.note[0] = need.why[0] = '\0';
	if (!a)
		return;
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		r = mod_need(mods[i], msg, sizeof(msg));
		if (r == 1)
			n += snprintf(loaded + n, sizeof(loaded) - n, "%s%s",
				      n ? ", " : "", mods[i]);
		else if (r < 0 && !need.why[0])
			snprintf(need.why, sizeof(need.why), "%s", msg);
	}
	if (n)
		snprintf(need.note, sizeof(need.note),
			 "kcapi: loaded %s (" NEED_HOW "): the AF_ALG type and crypto_user --alg %s needs",
			 loaded, alg);
}

/*
 * The driver a wrapper would wrap for algorithm or driver @c: @c itself
 * when it is a registered driver, else the highest-priority synchronous
 * one of that name (cryptd wraps only synchronous algorithms: the aesni
 * drivers that say "async: yes" are cryptd instances already).
 */
static int child_driver(const char *c, char *out, size_t len)
{
	const struct kw_alg *best = NULL;
	struct kw_state s;
	int i;

	if (kw_snapshot(&s, "/proc", "/sys"))
		return -ENOENT;
	for (i = 0; i < s.ncrypto; i++) {
		const struct kw_alg *a = &s.crypto[i];

		if (!strcmp(a->driver, c)) {
			best = a;
			break;
		}
		if (!a->selectable || strcmp(a->name, c) ||
		    (a->have_async && a->async))
			continue;
		if (!best || a->priority > best->priority)
			best = a;
	}
	if (best)
		snprintf(out, len, "%s", best->driver);
	kw_free(&s);
	return best ? 0 : -ENOENT;
}

/*
 * Register @name through the kernel's own lookup, as a TFM bound to it
 * would (AF_ALG passes the type, which cryptd needs to pick its kind; a
 * crypto_user NEWALG carries none, and the kernel refused it: ENOENT), then
 * close it: the instance stays registered.  Return: 0 or -errno.
 */
static int touch(enum kc_type t, const char *name)
{
	struct kcapi_handle *h = NULL;
	int r;

	switch (t) {
	case KC_SKCIPHER:
		r = kcapi_cipher_init(&h, name, 0);
		if (!r)
			kcapi_cipher_destroy(h);
		break;
	case KC_AEAD:
		r = kcapi_aead_init(&h, name, 0);
		if (!r)
			kcapi_aead_destroy(h);
		break;
	default:
		r = kcapi_md_init(&h, name, 0);
		if (!r)
			kcapi_md_destroy(h);
	}
	return r;
}

/* @drv is a registered driver now. */
static int registered(const char *drv)
{
	struct kw_state s;
	int i, r = 0;

	if (kw_snapshot(&s, "/proc", "/sys") == 0)
		for (i = 0; i < s.ncrypto && !r; i++)
			r = !strcmp(s.crypto[i].driver, drv);
	kw_free(&s);
	return r;
}

/*
 * Why by driver name: cryptd and pcrypt register under their child's
 * algorithm name (6.1, measured: binding "cryptd(xts(aes))" failed with
 * ENOENT and left "cryptd(xts(ecb(aes-generic)))" registered as xts(aes)
 * at 150, above the generic 100, for every user of xts(aes)).  Named by
 * the driver, TMPL(child's driver), the instance is exactly the one asked
 * for, and the TFMs bind to it by that name.
 */
int kc_need_wrappers(const struct kc_spec *sp, char *bind, size_t blen,
		     char (*made)[128], int *nmade, char *err, size_t elen,
		     int reg)
{
	char why[600];
	char cur[128], w[128], child[128], name[32];
	int i, r = 0;

	*nmade = 0;
	snprintf(bind, blen, "%s", sp->a.name);
	if (!sp->nwrap)
		return 0;
	snprintf(cur, sizeof(cur), "%s", sp->inner);
	for (i = sp->nwrap - 1; i >= 0; i--) {
		/* an algorithm nobody instantiated yet (xts(aes) at boot):
		 * the kernel's own lookup makes its generic instance */
		if (child_driver(cur, child, sizeof(child)) &&
		    (!reg || touch(sp->a.type, cur) ||
		     child_driver(cur, child, sizeof(child)))) {
			snprintf(err, elen, "--alg %s: no synchronous driver of %s for %s to wrap",
				 sp->a.name, cur, sp->wrap[i]);
			return -ENOENT;
		}
		snprintf(w, sizeof(w), "%s(%.*s)", sp->wrap[i],
			 (int)(sizeof(w) - strlen(sp->wrap[i]) - 3), child);
		if (!registered(w)) {
			r = reg ? touch(sp->a.type, w) : -ENOENT;
			if (r) {
				kc_explain(w, r, why, sizeof(why));
				snprintf(err, elen, "--alg %s: registering %s: %s (%s)%s%s",
					 sp->a.name, w,
					 dix_errno_name(-r, name, sizeof(name)),
					 strerror(-r), why[0] ? ": " : "", why);
				return r;
			}
			if (*nmade < KC_MAX_WRAP + 1)
				snprintf(made[(*nmade)++], 128, "%s", w);
		}
		snprintf(cur, sizeof(cur), "%s", w);
	}
	snprintf(bind, blen, "%s", cur);
	return 0;
}

const char *kc_need_note(void)
{
	return need.note;
}

const char *kc_need_why(void)
{
	return need.why;
}
