// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmbind.c - the crypto drivers of the device-mapper mappings under the
 * load, at start and as the kernel's selection moves (see dmbind.h).
 *
 * The note is given once per move: @announced remembers the driver last
 * spoken of, so a watch tick that sees the same selection again is quiet.
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dmbind.h"
#include "kernel/cryptouser.h"
#include "lib/util.h"

#define WATCH_MAX	8

/*
 * The mappings one run watches: a value of that run (its devices hold it,
 * core/dev.c), so a second run, after or beside it, watches its own.
 */
struct dmbind {
	pthread_mutex_t lock;
	struct dmmap *m[WATCH_MAX];
	int n;
	/* per watched mapping and algorithm: the driver last announced */
	char announced[WATCH_MAX][DMMAP_ALGS][DMT_NAME_LEN];
	/*
	 * per watched mapping and level with integrity lines: dm-integrity's
	 * mismatch counter when last read (@mm_base), what it counted under
	 * tables already replaced by a reload (@mm_run)
	 */
	int mm_lines[WATCH_MAX][DMMAP_LEVELS];
	uint64_t mm_base[WATCH_MAX][DMMAP_LEVELS];
	uint64_t mm_run[WATCH_MAX][DMMAP_LEVELS];
};

struct dmbind *dmbind_new(void)
{
	struct dmbind *b = xcalloc(1, sizeof(*b));

	pthread_mutex_init(&b->lock, NULL);
	return b;
}

void dmbind_free(struct dmbind *b)
{
	if (!b)
		return;
	pthread_mutex_destroy(&b->lock);
	free(b);
}

/*
 * Modules whose drivers set CRYPTO_ALG_ALLOCATES_MEMORY (they allocate in
 * the request path): the hardware offloads.  A prefix match, for a kernel
 * without crypto_user only.
 */
static const char *const allocating_modules[] = {
	"intel_qat", "qat_", "ccp", "hisi_sec", "caam", "nitrox", "chcr",
	"atmel_", "omap_", "talitos", "mv_cesa", "marvell_cesa", "safexcel",
	"sun8i_ce", "keembay", NULL,
};

/*
 * @a's CRYPTO_ALG_ALLOCATES_MEMORY: the kernel's own flag through
 * crypto_user (/proc/crypto never shows it), else from its module's name;
 * @how says which.  A module list alone was fooled: the offload model
 * (dixoffload) sets the flag, and dixload said a reloaded dm-crypt mapping
 * would get it, where dm-crypt took xts-aes-aesni (measured, 6.1).
 */
static int allocates_memory(const struct kw_alg *a, const char **how)
{
	struct cru_sock *cs;
	struct cru_alg ca;
	int e, r = -1, i;

	cs = cru_open(&e);
	if (cs && cru_get(cs, a->driver, &ca) == 0)
		r = !!(ca.flags & CRU_F_ALLOCATES_MEMORY);
	cru_close(cs);
	if (r >= 0) {
		*how = "read through crypto_user";
		return r;
	}
	*how = "inferred from its module's name";
	for (i = 0; allocating_modules[i]; i++)
		if (!strncmp(a->module, allocating_modules[i],
			     strlen(allocating_modules[i])))
			return 1;
	return 0;
}

static int is_hash_use(int use)
{
	return use == DMT_USE_INTERNAL_HASH || use == DMT_USE_JOURNAL_MAC;
}

/* Can consumer @use take @a?  @why says why not. */
static int can_take(const struct kw_alg *a, int use, char *why, size_t len)
{
	const char *how;

	if (is_hash_use(use)) {
		if (strcmp(a->type, "shash")) {
			snprintf(why, len, "dm-integrity takes a synchronous shash, %s is %s",
				 a->driver, a->type[0] ? a->type : "of another type");
			return 0;
		}
		return 1;
	}
	if (allocates_memory(a, &how)) {
		snprintf(why, len, "%s excludes CRYPTO_ALG_ALLOCATES_MEMORY, which %s (%s) sets (%s)",
			 use == DMT_USE_JOURNAL_CRYPT ? "dm-integrity" : "dm-crypt",
			 a->driver, a->module, how);
		return 0;
	}
	return 1;
}

const struct kw_alg *dmbind_pick(const struct kw_state *s, const char *name,
				 int use, const struct kw_alg **kernel,
				 char *why, size_t whylen)
{
	const struct kw_alg *best = NULL, *sel;
	char w[160];
	int i;

	*kernel = NULL;
	why[0] = '\0';
	for (i = 0; i < s->ncrypto; i++) {
		const struct kw_alg *a = &s->crypto[i];

		if (!a->selectable || strcmp(a->name, name) || !can_take(a, use, w, sizeof(w)))
			continue;
		if (!best || a->priority > best->priority)
			best = a;
	}
	sel = kw_select(s, name);
	if (sel && sel != best && (!best || strcmp(sel->driver, best->driver))) {
		*kernel = sel;
		can_take(sel, use, why, whylen);
	}
	return best;
}

void dmbind_fill(struct dmmap *m, const struct kw_state *s, int start)
{
	int i;

	for (i = 0; i < m->nalgs; i++) {
		struct dmmap_alg *a = &m->algs[i];
		const struct kw_alg *k, *p;

		p = dmbind_pick(s, a->name, a->use, &k, a->kernel_why,
				sizeof(a->kernel_why));
		snprintf(a->now, sizeof(a->now), "%s", p ? p->driver : "");
		a->now_prio = p ? p->priority : 0;
		snprintf(a->kernel, sizeof(a->kernel), "%s", k ? k->driver : "");
		if (!k)
			a->kernel_why[0] = '\0';
		if (start)
			snprintf(a->held, sizeof(a->held), "%s", a->now);
	}
}

void dmbind_watch(struct dmbind *b, struct dmmap *m)
{
	int i, r;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	if (b->n < WATCH_MAX) {
		for (i = 0; i < m->nalgs; i++)
			snprintf(b->announced[b->n][i], DMT_NAME_LEN, "%s", m->algs[i].now);
		for (i = 0; i < m->nlevels; i++) {
			r = dmmap_mismatches(m->lv[i].major, m->lv[i].minor,
					     &b->mm_base[b->n][i]);
			b->mm_lines[b->n][i] = r > 0 ? r : 0;
			b->mm_run[b->n][i] = 0;
		}
		b->m[b->n++] = m;
	}
	pthread_mutex_unlock(&b->lock);
}

void dmbind_mismatch_bank(struct dmbind *b, unsigned int major,
			  unsigned int minor, int count)
{
	uint64_t v;
	int w, i;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	for (w = 0; w < b->n; w++) {
		for (i = 0; i < b->m[w]->nlevels; i++) {
			const struct dmmap_level *l = &b->m[w]->lv[i];

			if (!b->mm_lines[w][i] || l->major != major || l->minor != minor ||
			    dmmap_mismatches(major, minor, &v) <= 0)
				continue;
			if (count)
				b->mm_run[w][i] += v - b->mm_base[w][i];
			b->mm_base[w][i] = v;
		}
	}
	pthread_mutex_unlock(&b->lock);
}

char *dmbind_mismatches(struct dmbind *b)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = NULL;
	uint64_t v, n;
	int w, i, said = 0;

	if (!b)
		return NULL;
	pthread_mutex_lock(&b->lock);
	for (w = 0; w < b->n; w++) {
		for (i = 0; i < b->m[w]->nlevels; i++) {
			const struct dmmap_level *l = &b->m[w]->lv[i];

			if (!b->mm_lines[w][i] || dmmap_mismatches(l->major, l->minor, &v) <= 0)
				continue;
			n = b->mm_run[w][i] + (v - b->mm_base[w][i]);
			if (!f && !(f = open_memstream(&out, &len)))
				goto unlock;
			fprintf(f, "%sdm %s: dm-integrity counted %" PRIu64 " checksum mismatch%s during the run (the kernel's counter, status field 1)",
				said++ ? "; " : "", l->name, n, n == 1 ? "" : "es");
		}
	}
unlock:
	pthread_mutex_unlock(&b->lock);
	if (f)
		fclose(f);
	return out;
}

struct dmmap *dmbind_find(struct dmbind *b, unsigned int major,
			   unsigned int minor)
{
	struct dmmap *r = NULL;
	int i;

	if (!b)
		return NULL;
	pthread_mutex_lock(&b->lock);
	for (i = 0; i < b->n && !r; i++)
		if (b->m[i]->lv[0].major == major && b->m[i]->lv[0].minor == minor)
			r = b->m[i];
	pthread_mutex_unlock(&b->lock);
	return r;
}

char *dmbind_reloaded(struct dmbind *b, const char *name,
		      const struct kw_state *s, struct dix_evdata *d)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int m_, i, n = 0;

	memset(d, 0, sizeof(*d));
	d->type = EVD_DMRELOAD;
	d->name = xstrdup(name);
	if (!f)
		return NULL;
	if (!b) {
		fclose(f);
		free(out);
		return NULL;
	}
	pthread_mutex_lock(&b->lock);
	for (m_ = 0; m_ < b->n; m_++) {
		struct dmmap *m = b->m[m_];

		dmbind_fill(m, s, 0);
		for (i = 0; i < m->nalgs; i++) {
			struct dmmap_alg *a = &m->algs[i];

			if (strcmp(m->lv[a->level].name, name))
				continue;
			fprintf(f, "%s%s: %s -> %s", n++ ? ", " : "", a->name,
				a->held[0] ? a->held : "(not known)",
				a->now[0] ? a->now : "(none)");
			d->removed = xrealloc(d->removed, n * sizeof(*d->removed));
			d->added = xrealloc(d->added, n * sizeof(*d->added));
			memset(&d->removed[n - 1], 0, sizeof(*d->removed));
			memset(&d->added[n - 1], 0, sizeof(*d->added));
			d->removed[n - 1].name = xstrdup(a->name);
			d->removed[n - 1].driver = a->held[0] ? xstrdup(a->held) : NULL;
			d->added[n - 1].name = xstrdup(a->name);
			d->added[n - 1].driver = a->now[0] ? xstrdup(a->now) : NULL;
			d->nremoved = d->nadded = n;
			snprintf(a->held, DMT_NAME_LEN, "%s", a->now);
			snprintf(b->announced[m_][i], DMT_NAME_LEN, "%s", a->now);
		}
	}
	pthread_mutex_unlock(&b->lock);
	fputs(n ? " (inferred)" : "", f);
	fclose(f);
	if (!n) {
		free(out);
		return NULL;
	}
	return out;
}

char *dmbind_poll(struct dmbind *b, const struct kw_state *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int w, i, said = 0;

	if (!b)
		return NULL;
	pthread_mutex_lock(&b->lock);
	for (w = 0; w < b->n; w++) {
		struct dmmap *m = b->m[w];

		dmbind_fill(m, s, 0);
		for (i = 0; i < m->nalgs; i++) {
			const struct dmmap_alg *a = &m->algs[i];

			if (!strcmp(a->now, b->announced[w][i]))
				continue;
			snprintf(b->announced[w][i], DMT_NAME_LEN, "%s", a->now);
			if (!strcmp(a->now, a->held))
				continue;
			if (!f && !(f = open_memstream(&out, &len)))
				goto unlock;
			fprintf(f, "%sdm %s: %s: the mapping would get %s now, and keeps its TFMs on %s (inferred) until its table is reloaded",
				said++ ? "; " : "", m->lv[a->level].name, a->name,
				a->now[0] ? a->now : "no driver",
				a->held[0] ? a->held : "the driver it allocated");
			/* the kernel's own pick, which this consumer refuses */
			if (a->kernel[0] && a->kernel_why[0])
				fprintf(f, " (the kernel selects %s, which it cannot take: %s)",
					a->kernel, a->kernel_why);
		}
	}
unlock:
	pthread_mutex_unlock(&b->lock);
	if (f)
		fclose(f);
	return out;
}
