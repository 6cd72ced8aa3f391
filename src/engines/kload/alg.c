// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alg.c - what --alg is for the dixkload module: its crypto API kind, its
 * key length and the block size a request must be a multiple of.
 *
 * The module checks every result itself, against a software TFM of the
 * same algorithm (struct dixkload_stats.ref_driver), so unlike the kcapi
 * engine this one needs no reference of its own: only the kind (which
 * crypto_alloc_*() to call) and the key.  The table holds the algorithms
 * of the 2023 thread and of dm-crypt/IPsec/PI; a wrapper (cryptd, pcrypt)
 * or a driver name is resolved to one of them, as the kcapi engine does.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/kload/kl.h"
#include "kernel/kwatch.h"

static const struct kl_alg table[] = {
	{ DIXKLOAD_SKCIPHER, 64, 16, "xts(aes)" },
	{ DIXKLOAD_SKCIPHER, 32, 16, "cbc(aes)" },
	{ DIXKLOAD_SKCIPHER, 32, 16, "ctr(aes)" },
	{ DIXKLOAD_AEAD, 32, 16, "gcm(aes)" },
	{ DIXKLOAD_AEAD, 36, 16, "rfc4106(gcm(aes))" },
	{ DIXKLOAD_AHASH, 0, 1, "crc32c" },
	{ DIXKLOAD_AHASH, 0, 1, "crct10dif" },
	{ DIXKLOAD_AHASH, 0, 1, "sha256" },
	{ DIXKLOAD_AHASH, 32, 1, "hmac(sha256)" },
};
#define NTABLE	(sizeof(table) / sizeof(table[0]))

void kl_alg_names(char *out, size_t len)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < NTABLE && n < len; i++)
		n += snprintf(out + n, len - n, "%s%s", i ? ", " : "",
			      table[i].base);
}

static const struct kl_alg *by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NTABLE; i++)
		if (strlen(table[i].base) == len &&
		    !strncmp(table[i].base, name, len))
			return &table[i];
	return NULL;
}

/*
 * A template instance the kernel builds on demand, named by its inner
 * driver (the 2023 experiment's xts(ecb(aes-generic))): not registered
 * before its first use, so /proc/crypto cannot name it; its outer template
 * gives the kind and the key (the table's row of the same template).
 */
static const struct kl_alg *by_template(const char *name, size_t len)
{
	const char *paren = memchr(name, '(', len);
	size_t i, t;

	if (!paren || name[len - 1] != ')')
		return NULL;
	t = paren - name + 1;	/* "xts(" */
	for (i = 0; i < NTABLE; i++)
		if (!strncmp(table[i].base, name, t))
			return &table[i];
	return NULL;
}

/*
 * The algorithm of driver @drv, from /proc/crypto: the table's row of its
 * name, with any of the kernel's own wrapper layers (cryptd(...)) around
 * it taken off.
 */
static const struct kl_alg *by_driver(const char *drv)
{
	const struct kl_alg *a = NULL;
	struct kw_state s;
	int i;

	if (kw_snapshot(&s, "/proc", "/sys"))
		return NULL;
	for (i = 0; i < s.ncrypto && !a; i++)
		if (!strcmp(s.crypto[i].driver, drv))
			a = by_name(s.crypto[i].name,
				    strlen(s.crypto[i].name));
	kw_free(&s);
	return a;
}

int kl_resolve(const char *name, struct kl_alg *out, char *err, size_t len)
{
	static const char *const wraps[] = { "cryptd(", "pcrypt(" };
	const char *p = name;
	size_t n = strlen(name), i;
	const struct kl_alg *a;
	char names[200];

	/* the wrappers, outermost first: cryptd(pcrypt(gcm(aes))) */
	for (i = 0; i < 2; i++)
		if (n > strlen(wraps[i]) && p[n - 1] == ')' &&
		    !strncmp(p, wraps[i], strlen(wraps[i]))) {
			p += strlen(wraps[i]);
			n -= strlen(wraps[i]) + 1;
			i = (size_t)-1;	/* again, for the next layer */
		}
	a = by_name(p, n);
	if (!a)
		a = by_template(p, n);
	if (!a && n < 128) {
		char drv[128];

		snprintf(drv, sizeof(drv), "%.*s", (int)n, p);
		a = by_driver(drv);
	}
	if (!a) {
		kl_alg_names(names, sizeof(names));
		snprintf(err, len,
			 "--alg %s: not an algorithm the kload engine drives (one of: %s), cryptd(X) or pcrypt(X) of one, or a driver /proc/crypto lists for one",
			 name, names);
		return -EINVAL;
	}
	*out = *a;
	return 0;
}

/* splitmix64: the same key for the same --seed, in every run */
void kl_key(uint64_t seed, uint8_t *key, size_t len)
{
	uint64_t x = seed ^ 0x6b6c6f6164ull;	/* "kload" */
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t z;

		if (i % 8 == 0) {
			z = (x += 0x9e3779b97f4a7c15ull);
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			z ^= z >> 31;
			memcpy(key + i, &z, len - i < 8 ? len - i : 8);
		}
	}
}
