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
#include <stdio.h>
#include <string.h>

#include "engines/kcapi/kc.h"
#include "kernel/modules.h"

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

const char *kc_need_note(void)
{
	return need.note;
}

const char *kc_need_why(void)
{
	return need.why;
}
