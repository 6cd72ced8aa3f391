// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmtable.c - device-mapper tables read into their targets, with the keys
 * masked where they are read, so nothing kept can print one.
 *
 * The parameter syntax is the kernel's (Documentation/admin-guide/
 * device-mapper/dm-crypt.rst and dm-integrity.rst): a crypt line is
 * "cipher key iv_offset device offset [#opt opt...]", an integrity line
 * "device offset tag_size mode [#opt opt...]" whose internal_hash,
 * journal_crypt and journal_mac options may carry ":key" after the
 * algorithm.  Of a target type not known here, every token that looks
 * like a key (32 hex digits or more) is masked all the same.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/dmtable.h"

/* struct dm_target_spec of <linux/dm-ioctl.h>: the layout is the ABI */
#define SPEC_SIZE	40
#define SPEC_TYPE_OFF	24
#define SPEC_NEXT_OFF	20

#define TOKENS_MAX	64

const char *dmt_use_name(int use)
{
	switch (use) {
	case DMT_USE_SKCIPHER:
		return "skcipher";
	case DMT_USE_AEAD:
		return "aead";
	case DMT_USE_INTERNAL_HASH:
		return "internal_hash";
	case DMT_USE_JOURNAL_CRYPT:
		return "journal_crypt";
	case DMT_USE_JOURNAL_MAC:
		return "journal_mac";
	}
	return "?";
}

/* Split @s (modified) at spaces; return the count, -E2BIG past @max. */
static int split(char *s, char **tok, int max)
{
	int n = 0;
	char *save, *t;

	for (t = strtok_r(s, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		if (n == max)
			return -E2BIG;
		tok[n++] = t;
	}
	return n;
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int looks_like_key(const char *s)
{
	size_t n = strlen(s);

	return n >= 32 && is_hex(s, n);
}

/* Append " @s" (or @s first) to @t->params; -ENOSPC when it does not fit. */
static int emit(struct dmt_target *t, const char *s)
{
	size_t have = strlen(t->params), n = strlen(s);

	if (have + (have ? 1 : 0) + n + 1 > sizeof(t->params))
		return -ENOSPC;
	if (have)
		t->params[have++] = ' ';
	memcpy(t->params + have, s, n + 1);
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

static int add_alg(struct dmt_target *t, const char *name, size_t n, int use,
		   int keyed)
{
	struct dmt_alg *a;

	if (t->nalgs == DMT_ALGS_MAX || !n || n >= sizeof(a->name))
		return -EINVAL;
	a = &t->algs[t->nalgs++];
	memcpy(a->name, name, n);
	a->name[n] = '\0';
	a->use = use;
	a->keyed = keyed;
	return 0;
}

int dmt_crypt_alg(const char *cipher, char *alg, size_t alglen, char *iv,
		  size_t ivlen)
{
	char buf[DMT_NAME_LEN], *c, *mode, *ivm, *colon;
	int n;

	if (snprintf(buf, sizeof(buf), "%s", cipher) >= (int)sizeof(buf) || !buf[0])
		return -EINVAL;
	if (!strncmp(buf, "capi:", 5)) {
		/* capi:ALG-IVMODE: the IV mode follows the last ')' */
		char *close = strrchr(buf, ')');

		c = buf + 5;
		if (!close)
			return -EINVAL;
		ivm = strchr(close, '-');
		if (ivm)
			*ivm++ = '\0';
		n = snprintf(alg, alglen, "%s", c);
		snprintf(iv, ivlen, "%s", ivm ? ivm : "");
		return n > 0 && n < (int)alglen ? 0 : -EINVAL;
	}
	/* cipher[:keycount]-chainmode-ivmode[:ivopts] */
	c = buf;
	mode = strchr(c, '-');
	if (mode)
		*mode++ = '\0';
	ivm = mode ? strchr(mode, '-') : NULL;
	if (ivm)
		*ivm++ = '\0';
	colon = strchr(c, ':');
	if (colon)
		*colon = '\0';
	if (!*c)
		return -EINVAL;
	/* the old form "aes" (or "aes-plain") is CBC with plain IVs */
	if (!mode || (!strcmp(mode, "plain") && !ivm)) {
		mode = "cbc";
		ivm = "plain";
	}
	if (!*mode)
		return -EINVAL;
	n = snprintf(alg, alglen, "%s(%s)", mode, c);
	snprintf(iv, ivlen, "%s", ivm ? ivm : "");
	return n > 0 && n < (int)alglen ? 0 : -EINVAL;
}

/* dm-crypt's key: hex, "-" (none) or ":size:type:description". */
static int crypt_key(struct dmt_target *t, const char *k)
{
	size_t n = strlen(k);

	if (!strcmp(k, "-")) {
		t->key_bytes = 0;
		return emit(t, "-");
	}
	if (k[0] == ':') {
		uint64_t sz;
		char num[16];
		const char *e = strchr(k + 1, ':');

		if (!e || (size_t)(e - k - 1) >= sizeof(num))
			return -EINVAL;
		memcpy(num, k + 1, e - k - 1);
		num[e - k - 1] = '\0';
		if (parse_u64(num, &sz) || sz > 1024)
			return -EINVAL;
		/* a reference into the keyring, not the key: shown as is */
		t->keyring = 1;
		t->key_bytes = (unsigned int)sz;
		return emit(t, k);
	}
	if (n % 2 || !is_hex(k, n))
		return -EINVAL;
	t->key_bytes = (unsigned int)(n / 2);
	return emit(t, DMT_KEY_MASK);
}

static int parse_crypt(struct dmt_target *t, char **tok, int n)
{
	uint64_t v, nopt;
	char alg[DMT_NAME_LEN];
	int i, r, aead = 0;

	if (n < 5)
		return -EINVAL;
	if (snprintf(t->cipher, sizeof(t->cipher), "%s", tok[0]) >= (int)sizeof(t->cipher))
		return -EINVAL;
	if (dmt_crypt_alg(tok[0], alg, sizeof(alg), t->ivmode, sizeof(t->ivmode)))
		return -EINVAL;
	if (emit(t, tok[0]) || crypt_key(t, tok[1]))
		return -EINVAL;
	if (parse_u64(tok[2], &v) || parse_u64(tok[4], &t->dev_offset))
		return -EINVAL;
	if (snprintf(t->dev, sizeof(t->dev), "%s", tok[3]) >= (int)sizeof(t->dev))
		return -EINVAL;
	t->sector_size = 512;
	for (i = 2; i < 5; i++)
		if (emit(t, tok[i]))
			return -EINVAL;
	if (n > 5) {
		if (parse_u64(tok[5], &nopt) || nopt != (uint64_t)(n - 6))
			return -EINVAL;
		if (emit(t, tok[5]))
			return -EINVAL;
	}
	for (i = 6; i < n; i++) {
		const char *o = tok[i];

		if (!strncmp(o, "sector_size:", 12)) {
			if (parse_u64(o + 12, &v) || v < 512 || v > 4096)
				return -EINVAL;
			t->sector_size = (unsigned int)v;
		} else if (!strncmp(o, "integrity:", 10)) {
			/* integrity:BYTES:TYPE, TYPE "aead" or a MAC name */
			char num[16];
			const char *e = strchr(o + 10, ':');

			if (!e || (size_t)(e - o - 10) >= sizeof(num))
				return -EINVAL;
			memcpy(num, o + 10, e - o - 10);
			num[e - o - 10] = '\0';
			if (parse_u64(num, &v) || v > 4096)
				return -EINVAL;
			t->aead_tag = (unsigned int)v;
			aead = !strcmp(e + 1, "aead");
		}
		/* the other options (allow_discards ...) carry no secret, but a
		 * token of a future kernel might: only known shapes pass */
		if (emit(t, looks_like_key(o) ? DMT_KEY_MASK : o))
			return -EINVAL;
	}
	r = add_alg(t, alg, strlen(alg), aead ? DMT_USE_AEAD : DMT_USE_SKCIPHER,
		    t->key_bytes > 0);
	return r;
}

/* "internal_hash:ALG[:KEY]": the algorithm kept, the key masked. */
static int integrity_alg_opt(struct dmt_target *t, const char *o, size_t plen,
			     int use)
{
	const char *a = o + plen, *k = strchr(a, ':');
	char buf[DMT_NAME_LEN + 32];
	size_t an = k ? (size_t)(k - a) : strlen(a);

	if (add_alg(t, a, an, use, k != NULL))
		return -EINVAL;
	if (!k)
		return emit(t, o);
	snprintf(buf, sizeof(buf), "%.*s%.*s:%s", (int)plen, o, (int)an, a,
		 DMT_KEY_MASK);
	return emit(t, buf);
}

static int parse_integrity(struct dmt_target *t, char **tok, int n)
{
	uint64_t v, nopt;
	int i;

	if (n < 4)
		return -EINVAL;
	if (snprintf(t->dev, sizeof(t->dev), "%s", tok[0]) >= (int)sizeof(t->dev))
		return -EINVAL;
	if (parse_u64(tok[1], &t->dev_offset))
		return -EINVAL;
	if (!strcmp(tok[2], "-")) {
		t->tag_size = 0;
	} else {
		if (parse_u64(tok[2], &v) || v > 4096)
			return -EINVAL;
		t->tag_size = (unsigned int)v;
	}
	if (strlen(tok[3]) != 1 || !strchr("JBDRI", tok[3][0]))
		return -EINVAL;
	t->mode = tok[3][0];
	for (i = 0; i < 4; i++)
		if (emit(t, tok[i]))
			return -EINVAL;
	if (n > 4) {
		if (parse_u64(tok[4], &nopt) || nopt != (uint64_t)(n - 5))
			return -EINVAL;
		if (emit(t, tok[4]))
			return -EINVAL;
	}
	for (i = 5; i < n; i++) {
		const char *o = tok[i];
		int r;

		if (!strncmp(o, "internal_hash:", 14))
			r = integrity_alg_opt(t, o, 14, DMT_USE_INTERNAL_HASH);
		else if (!strncmp(o, "journal_crypt:", 14))
			r = integrity_alg_opt(t, o, 14, DMT_USE_JOURNAL_CRYPT);
		else if (!strncmp(o, "journal_mac:", 12))
			r = integrity_alg_opt(t, o, 12, DMT_USE_JOURNAL_MAC);
		else
			r = emit(t, looks_like_key(o) ? DMT_KEY_MASK : o);
		if (r)
			return -EINVAL;
	}
	return 0;
}

static int parse_other(struct dmt_target *t, char **tok, int n)
{
	uint64_t off;
	int i;

	/* linear, and the first two of many others: device offset */
	if (n >= 2 && strchr(tok[0], ':') && !parse_u64(tok[1], &off)) {
		snprintf(t->dev, sizeof(t->dev), "%s", tok[0]);
		t->dev_offset = off;
	}
	for (i = 0; i < n; i++)
		if (emit(t, looks_like_key(tok[i]) ? DMT_KEY_MASK : tok[i]))
			return -EINVAL;
	return 0;
}

int dmt_parse_target(uint64_t start, uint64_t len, const char *type,
		     const char *params, struct dmt_target *t)
{
	char *copy, *tok[TOKENS_MAX];
	int n, r;

	memset(t, 0, sizeof(*t));
	t->start = start;
	t->len = len;
	snprintf(t->type, sizeof(t->type), "%s", type);
	copy = strdup(params);
	if (!copy)
		return -ENOMEM;
	n = split(copy, tok, TOKENS_MAX);
	if (n < 0)
		r = -EINVAL;
	else if (!strcmp(type, "crypt"))
		r = parse_crypt(t, tok, n);
	else if (!strcmp(type, "integrity"))
		r = parse_integrity(t, tok, n);
	else
		r = parse_other(t, tok, n);
	/* wipe the copy: it held the keys */
	memset(copy, 0, strlen(params));
	free(copy);
	if (r) {
		char tp[16];

		memcpy(tp, t->type, sizeof(tp));
		memset(t, 0, sizeof(*t));
		t->start = start;
		t->len = len;
		memcpy(t->type, tp, sizeof(tp));
		snprintf(t->params, sizeof(t->params), "<unreadable>");
		return -EINVAL;
	}
	return 0;
}

static uint64_t get_ne64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get_ne32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int dmt_parse_specs(const uint8_t *buf, size_t len, uint32_t count,
		    struct dmt_target *out, int max)
{
	size_t off = 0;
	uint32_t i;

	if (count > (uint32_t)max)
		return -E2BIG;
	for (i = 0; i < count; i++) {
		char type[17];
		const char *params;
		size_t plen;
		uint32_t next;

		if (off > len || len - off < SPEC_SIZE)
			return -EBADMSG;
		memcpy(type, buf + off + SPEC_TYPE_OFF, 16);
		type[16] = '\0';
		params = (const char *)buf + off + SPEC_SIZE;
		plen = strnlen(params, len - off - SPEC_SIZE);
		if (plen == len - off - SPEC_SIZE)
			return -EBADMSG;
		/* a malformed line is kept, masked as unreadable */
		dmt_parse_target(get_ne64(buf + off), get_ne64(buf + off + 8),
				 type, params, &out[i]);
		next = get_ne32(buf + off + SPEC_NEXT_OFF);
		if (i + 1 < count && next <= off)
			return -EBADMSG;
		off = next;
	}
	return (int)count;
}

int dmt_integrity_mismatches(const uint8_t *buf, size_t len, uint32_t count,
			     uint64_t *sum)
{
	size_t off = 0;
	uint32_t i;
	int n = 0;

	*sum = 0;
	for (i = 0; i < count; i++) {
		char type[17], *end;
		const char *st;
		unsigned long long v;
		size_t slen;
		uint32_t next;

		if (off > len || len - off < SPEC_SIZE)
			return -EBADMSG;
		memcpy(type, buf + off + SPEC_TYPE_OFF, 16);
		type[16] = '\0';
		st = (const char *)buf + off + SPEC_SIZE;
		slen = strnlen(st, len - off - SPEC_SIZE);
		if (slen == len - off - SPEC_SIZE)
			return -EBADMSG;
		if (!strcmp(type, "integrity")) {
			/* "MISMATCHES PROVIDED_SECTORS RECALC|-" */
			errno = 0;
			v = strtoull(st, &end, 10);
			if (end == st || *st == '-' || errno || (*end && *end != ' '))
				return -EBADMSG;
			*sum += v;
			n++;
		}
		next = get_ne32(buf + off + SPEC_NEXT_OFF);
		if (i + 1 < count && next <= off)
			return -EBADMSG;
		off = next;
	}
	return n;
}
