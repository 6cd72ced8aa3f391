// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kwatch.c - kernel state snapshots (crc_t10dif transform, modules, crypto
 * driver selection) and their differences.
 *
 * A snapshot costs three small reads (/proc/crypto is ~5-15 KiB), cheap
 * enough to take every meter interval.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/event.h"
#include "kernel/kwatch.h"
#include "lib/util.h"

/*
 * The algorithms storage and crypto offload experiments depend on: the PI
 * guards (crct10dif, crc64-rocksoft on 6.0+, crc64-nvme after its rename),
 * the usual block/file system checksums and the ciphers, hashes and
 * compressors that dm-crypt, IPsec or QAT offload change.
 */
const char *const kw_algorithms[] = {
	"crct10dif", "crc64-rocksoft", "crc64-nvme", "crc32c", "crc32",
	"aes", "ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "gcm(aes)",
	"ghash", "sha1", "sha256", "sha512", "deflate", "lz4", "zstd",
	NULL,
};

/* Read a whole /proc file (they report size 0, so read to EOF). */
static char *read_all(const char *path, int *err)
{
	size_t cap = 16384, n = 0;
	char *buf;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	buf = xmalloc(cap);
	for (;;) {
		if (cap - n < 4096) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = -errno;
			close(fd);
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	*err = 0;
	return buf;
}

void kw_normalise(const char *in, char *out, size_t len)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; in[i] && i < len - 1; i++)
		out[i] = in[i] == '-' ? '_' : in[i];
	out[i] = '\0';
}

/* Copy @v (up to end of line, trailing blanks dropped) into @dst. */
static void copy_value(char *dst, size_t len, const char *v, size_t vlen)
{
	while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t' ||
			v[vlen - 1] == '\r'))
		vlen--;
	if (vlen >= len)
		vlen = len - 1;
	memcpy(dst, v, vlen);
	dst[vlen] = '\0';
}

/*
 * The priority as the kernel prints it (an int), clamped: atoi() of a
 * number beyond int is undefined behaviour.
 */
static int parse_priority(const char *v)
{
	long p = strtol(v, NULL, 10);

	if (p > INT_MAX)
		return INT_MAX;
	if (p < INT_MIN)
		return INT_MIN;
	return (int)p;
}

/*
 * A record is complete: keep it when it has a name and a driver.  Entries
 * without "selftest : passed" are not returned by lookups (not tested yet,
 * or failed); "internal : yes" ones only through their wrappers.
 */
static int finish_record(struct kw_alg *a, int *have, int tested,
			 int internal)
{
	if (!*have)
		return 0;
	*have = 0;
	if (!a->name[0] || !a->driver[0])
		return -EINVAL;
	a->selectable = tested != 0 && !internal;
	return 1;
}

/* Append the finished record @cur to @v when it is one. */
static int flush_record(struct kw_alg **v, int *nv, int *cap,
			struct kw_alg *cur, int *have, int *tested,
			int *internal)
{
	int r = finish_record(cur, have, *tested, *internal);

	if (r > 0) {
		if (*nv == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*v = xrealloc(*v, *cap * sizeof(**v));
		}
		(*v)[(*nv)++] = *cur;
	}
	memset(cur, 0, sizeof(*cur));
	*tested = -1;
	*internal = 0;
	return r < 0 ? r : 0;
}

int kw_parse_crypto(const char *text, struct kw_alg **out, int *n)
{
	struct kw_alg *v = NULL, cur;
	/* tested: -1 until a "selftest" line is seen (kernels before 4.1
	 * print none: everything listed was usable) */
	int nv = 0, cap = 0, have = 0, tested = -1, internal = 0, r = 0;
	const char *p = text;

	memset(&cur, 0, sizeof(cur));
	while (*p && !r) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *colon = memchr(p, ':', len);

		if (len == 0 || (len == 1 && p[0] == '\r')) {
			r = flush_record(&v, &nv, &cap, &cur, &have, &tested,
					 &internal);
		} else if (colon) {
			const char *k = p, *val = colon + 1, *end = p + len;
			size_t klen = colon - p;

			while (klen && (k[klen - 1] == ' ' || k[klen - 1] == '\t'))
				klen--;
			while (val < end && (*val == ' ' || *val == '\t'))
				val++;
			have = 1;
#define KEY(s) (klen == sizeof(s) - 1 && !memcmp(k, s, klen))
			if (KEY("name"))
				copy_value(cur.name, sizeof(cur.name), val, end - val);
			else if (KEY("driver"))
				copy_value(cur.driver, sizeof(cur.driver), val, end - val);
			else if (KEY("module"))
				copy_value(cur.module, sizeof(cur.module), val, end - val);
			else if (KEY("type"))
				copy_value(cur.type, sizeof(cur.type), val, end - val);
			else if (KEY("priority"))
				cur.priority = parse_priority(val);
			else if (KEY("refcnt"))
				cur.refcnt = atoi(val);
			else if (KEY("selftest"))
				tested = !strncmp(val, "passed", 6);
			else if (KEY("internal"))
				internal = !strncmp(val, "yes", 3);
			else if (KEY("async")) {
				cur.have_async = 1;
				cur.async = !strncmp(val, "yes", 3);
			}
#undef KEY
		}
		p = eol ? eol + 1 : p + len;
	}
	if (!r)
		r = flush_record(&v, &nv, &cap, &cur, &have, &tested, &internal);
	if (r) {
		free(v);
		return r;
	}
	*out = v;
	*n = nv;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kw_parse_modules(const char *text, char ***out, int *n)
{
	char **v = NULL;
	int nv = 0, cap = 0;
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " \t\n");
		const char *eol = strchr(p, '\n');

		if (w) {
			if (nv == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			size_t i;

			v[nv] = xmalloc(w + 1);
			/*
			 * The kernel lists module names with '_'; kept as
			 * kw_module_loaded() looks them up ('-' and '_'
			 * alike), whatever the text holds (found by
			 * fuzz-proc-modules: "scsi_co-mon" was listed but
			 * not loaded; tests/data/fuzz/proc-modules/dash).
			 */
			for (i = 0; i < w; i++)
				v[nv][i] = p[i] == '-' ? '_' : p[i];
			v[nv][w] = '\0';
			nv++;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_str);
	*out = v;
	*n = nv;
	return 0;
}

void kw_free(struct kw_state *s)
{
	int i;

	for (i = 0; i < s->nmodules; i++)
		free(s->modules[i]);
	free(s->modules);
	free(s->crypto);
	memset(s, 0, sizeof(*s));
}

int kw_snapshot_files(struct kw_state *s, const char *crypto,
		      const char *modules, const char *transform)
{
	char *text;
	int err, r = 0;

	memset(s, 0, sizeof(*s));
	text = read_all(crypto, &err);
	if (text) {
		r = kw_parse_crypto(text, &s->crypto, &s->ncrypto);
		s->have_crypto = !r;
		free(text);
	}
	text = read_all(modules, &err);
	if (text) {
		kw_parse_modules(text, &s->modules, &s->nmodules);
		s->have_modules = 1;
		free(text);
	}
	if (read_sysfs_str(transform, s->transform, sizeof(s->transform)) == 0)
		s->have_transform = 1;
	return r;
}

int kw_snapshot(struct kw_state *s, const char *proc_root,
		const char *sys_root)
{
	char c[512], m[512], t[512];

	snprintf(c, sizeof(c), "%s/crypto", proc_root);
	snprintf(m, sizeof(m), "%s/modules", proc_root);
	snprintf(t, sizeof(t), "%s/module/crc_t10dif/parameters/transform",
		 sys_root);
	return kw_snapshot_files(s, c, m, t);
}

const struct kw_alg *kw_select(const struct kw_state *s, const char *name)
{
	const struct kw_alg *best = NULL;
	int i;

	for (i = 0; i < s->ncrypto; i++) {
		const struct kw_alg *a = &s->crypto[i];

		if (!a->selectable || strcmp(a->name, name))
			continue;
		if (!best || a->priority > best->priority)
			best = a;
	}
	return best;
}

int kw_module_loaded(const struct kw_state *s, const char *name)
{
	char n[KW_MOD_LEN];
	char *key = n;

	if (!s->have_modules)
		return -ENOENT;
	kw_normalise(name, n, sizeof(n));
	return bsearch(&key, s->modules, s->nmodules, sizeof(*s->modules),
		       cmp_str) != NULL;
}

static void push_str(char ***v, int *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void push_alg(struct kw_alg **v, int *n, const struct kw_alg *a)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = *a;
}

static void push_change(struct kw_diff *d, int kind, const char *text,
			const char *label, const struct dix_evdata *data)
{
	d->changes = xrealloc(d->changes, (d->nchanges + 1) * sizeof(*d->changes));
	d->changes[d->nchanges].kind = kind;
	d->changes[d->nchanges].text = xstrdup(text);
	d->changes[d->nchanges].label = xstrdup(label);
	dix_evdata_copy(&d->changes[d->nchanges].data, data);
	d->nchanges++;
}

/* An implementation as an event names it (the strings are @a's). */
static struct dix_ev_alg ev_alg(const struct kw_alg *a)
{
	return (struct dix_ev_alg){
		.name = (char *)a->name, .driver = (char *)a->driver,
		.priority = a->priority, .module = (char *)a->module,
	};
}

/* Whether @s holds a selectable entry equal to @a (name, driver, type). */
static int has_alg(const struct kw_state *s, const struct kw_alg *a)
{
	int i;

	for (i = 0; i < s->ncrypto; i++) {
		const struct kw_alg *b = &s->crypto[i];

		if (b->selectable && !strcmp(a->name, b->name) &&
		    !strcmp(a->driver, b->driver) && !strcmp(a->type, b->type))
			return 1;
	}
	return 0;
}

static void describe(char *buf, size_t len, const struct kw_alg *a)
{
	if (a)
		snprintf(buf, len, "%s (%d)", a->driver, a->priority);
	else
		snprintf(buf, len, "(none)");
}

void kw_diff(const struct kw_state *a, const struct kw_state *b,
	     struct kw_diff *d)
{
	char text[3 * KW_NAME_LEN + 64], x[KW_NAME_LEN + 16], y[KW_NAME_LEN + 16];
	const char *from = a->have_transform ? a->transform : NULL;
	const char *to = b->have_transform ? b->transform : NULL;
	int i, j;

	memset(d, 0, sizeof(*d));
	/* sorted merge of the two module lists */
	if (a->have_modules && b->have_modules) {
		i = j = 0;
		while (i < a->nmodules || j < b->nmodules) {
			int c = i == a->nmodules ? 1 : j == b->nmodules ? -1 :
				strcmp(a->modules[i], b->modules[j]);

			if (c < 0)
				push_str(&d->unloaded, &d->nunloaded, a->modules[i++]);
			else if (c > 0)
				push_str(&d->loaded, &d->nloaded, b->modules[j++]);
			else
				i++, j++;
		}
	}
	for (i = 0; i < b->ncrypto; i++)
		if (b->crypto[i].selectable && !has_alg(a, &b->crypto[i]))
			push_alg(&d->added, &d->nadded, &b->crypto[i]);
	for (i = 0; i < a->ncrypto; i++)
		if (a->crypto[i].selectable && !has_alg(b, &a->crypto[i]))
			push_alg(&d->removed, &d->nremoved, &a->crypto[i]);

	if ((from || to) &&
	    strcmp(from ? from : "(none)", to ? to : "(none)")) {
		snprintf(text, sizeof(text), "crc_t10dif transform: %s -> %s",
			 from ? from : "(none)", to ? to : "(none)");
		snprintf(x, sizeof(x), "transform: %s", to ? to : "(none)");
		struct dix_evdata ch = {
			.type = EVD_TRANSFORM, .from = (char *)from,
			.to = (char *)to,
		};

		push_change(d, KW_CHANGE_TRANSFORM, text, x, &ch);
	}
	if (!a->have_crypto || !b->have_crypto)
		return;
	for (i = 0; kw_algorithms[i]; i++) {
		const struct kw_alg *p = kw_select(a, kw_algorithms[i]);
		const struct kw_alg *q = kw_select(b, kw_algorithms[i]);
		struct dix_ev_alg pa, qa;

		if (!p && !q)
			continue;
		if (p && q && !strcmp(p->driver, q->driver) &&
		    p->priority == q->priority)
			continue;
		if (p)
			pa = ev_alg(p);
		if (q)
			qa = ev_alg(q);
		describe(x, sizeof(x), p);
		describe(y, sizeof(y), q);
		snprintf(text, sizeof(text), "%s: %s -> %s", kw_algorithms[i],
			 x, y);
		snprintf(x, sizeof(x), "%s: %s", kw_algorithms[i],
			 q ? q->driver : "(none)");
		push_change(d, KW_CHANGE_DRIVER, text, x, &(struct dix_evdata){
				.type = EVD_DRIVER,
				.name = (char *)kw_algorithms[i],
				.sel = { p ? &pa : NULL, q ? &qa : NULL },
			    });
	}
}

void kw_diff_free(struct kw_diff *d)
{
	int i;

	for (i = 0; i < d->nloaded; i++)
		free(d->loaded[i]);
	for (i = 0; i < d->nunloaded; i++)
		free(d->unloaded[i]);
	for (i = 0; i < d->nchanges; i++) {
		free(d->changes[i].text);
		free(d->changes[i].label);
		dix_evdata_clear(&d->changes[i].data);
	}
	free(d->loaded);
	free(d->unloaded);
	free(d->added);
	free(d->removed);
	free(d->changes);
	memset(d, 0, sizeof(*d));
}

static void alg_list_text(FILE *f, const struct kw_alg *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s (%s, %d)", i ? ", " : "", v[i].driver,
			v[i].name, v[i].priority);
}

char *kw_registered_text(const struct kw_diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return xstrdup("registered ?");
	if (d->nadded) {
		fputs("registered ", f);
		alg_list_text(f, d->added, d->nadded);
	} else if (!d->nremoved) {
		fputs("registered nothing", f);
	}
	if (d->nremoved) {
		fputs(d->nadded ? "; removed " : "removed ", f);
		alg_list_text(f, d->removed, d->nremoved);
	}
	fclose(f);
	return buf;
}

static struct dix_ev_alg *ev_algs(const struct kw_alg *v, int n)
{
	struct dix_ev_alg *c = n ? xcalloc(n, sizeof(*c)) : NULL;
	int i;

	for (i = 0; i < n; i++)
		c[i] = ev_alg(&v[i]);
	return c;
}

void kw_diff_data(const struct kw_diff *d, int type, const char *name,
		  struct dix_evdata *out)
{
	/* a view of @d's lists, copied whole by dix_evdata_copy() */
	struct dix_evdata v = {
		.type = type, .name = (char *)name,
		.loaded = d->loaded, .nloaded = d->nloaded,
		.unloaded = d->unloaded, .nunloaded = d->nunloaded,
		.added = ev_algs(d->added, d->nadded), .nadded = d->nadded,
		.removed = ev_algs(d->removed, d->nremoved),
		.nremoved = d->nremoved,
	};

	dix_evdata_copy(out, &v);
	free(v.added);
	free(v.removed);
}
