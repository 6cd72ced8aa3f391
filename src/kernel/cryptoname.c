// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cryptoname.c - the name this kernel has now for a driver name it no
 * longer has (see cryptoname.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cryptoname.h"

/* @tok (@tl bytes) is a driver or an algorithm name in @v. */
static int known(const struct kw_alg *v, int n, const char *tok, size_t tl)
{
	int i;

	for (i = 0; i < n; i++)
		if ((strlen(v[i].driver) == tl && !strncmp(v[i].driver, tok, tl)) ||
		    (strlen(v[i].name) == tl && !strncmp(v[i].name, tok, tl)))
			return 1;
	return 0;
}

/*
 * The generic driver of the algorithm @tok names ("aes-generic": "aes"):
 * the lowest priority of those /proc/crypto lists under that name; NULL
 * when @tok is not a generic driver's name or the algorithm has none.
 * Only "-generic": a missing "aes-aesni" is a module not loaded yet, and
 * naming the generic driver for it would send the user to another one.
 */
static const char *generic_of(const struct kw_alg *v, int n, const char *tok,
			      size_t tl)
{
	const char *dash = NULL, *p;
	const struct kw_alg *best = NULL;
	size_t bl;
	int i;

	for (p = tok; p < tok + tl; p++)
		if (*p == '-')
			dash = p;
	if (!dash || dash == tok || tok + tl - dash != 8 ||
	    strncmp(dash, "-generic", 8))
		return NULL;
	bl = (size_t)(dash - tok);
	for (i = 0; i < n; i++)
		if (strlen(v[i].name) == bl && !strncmp(v[i].name, tok, bl) &&
		    strcmp(v[i].driver, v[i].name) &&
		    (!best || v[i].priority < best->priority))
			best = &v[i];
	return best ? best->driver : NULL;
}

int crypto_name_now(const struct kw_alg *v, int n, const char *name,
		    char *out, size_t len)
{
	const char *p = name;
	size_t o = 0;
	int changed = 0;

	if (!len)
		return -ENOENT;
	out[0] = '\0';
	while (*p) {
		size_t tl = strcspn(p, "(),");
		const char *rep = NULL;

		/* a template's name is followed by '(': only the leaves */
		if (tl && p[tl] != '(' && !known(v, n, p, tl)) {
			rep = generic_of(v, n, p, tl);
			if (!rep)
				return -ENOENT;
			changed = 1;
		}
		o += snprintf(out + o, o < len ? len - o : 0, "%.*s",
			      rep ? (int)strlen(rep) : (int)tl, rep ? rep : p);
		p += tl;
		if (*p)
			o += snprintf(out + o, o < len ? len - o : 0, "%c", *p++);
	}
	if (o >= len)
		return -ENOENT;
	return changed ? 0 : -ENOENT;
}

const char *crypto_name_hint(const char *name, char *out, size_t len)
{
	struct kw_state s;
	char now[KW_NAME_LEN * 2];

	out[0] = '\0';
	if (kw_snapshot(&s, "/proc", "/sys"))
		return out;
	if (crypto_name_now(s.crypto, s.ncrypto, name, now, sizeof(now)) == 0)
		snprintf(out, len, "; this kernel calls it %s (/proc/crypto)",
			 now);
	kw_free(&s);
	return out;
}
