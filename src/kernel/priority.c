// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * priority.c - the --priority action: a registered crypto driver's
 * priority set at run time through crypto_user, and everything undone at
 * the end of the run.
 *
 * Why: the kernel gives a lookup by algorithm name the registered driver
 * of highest priority, so a priority decides which driver every new user
 * gets; the 2023 QAT patch was a priority change (4001 -> 201).  A lookup
 * ranks registered drivers only, and the kernel removes an unused template
 * instance (xts(ecb(aes-generic))) when a better driver of that name
 * registers, so making a slower driver win means registering it first:
 * a driver name with a template ("xts(ecb(aes-generic))") that is not
 * registered is instantiated here (CRYPTO_MSG_NEWALG), at its own priority,
 * and then set (CRYPTO_MSG_UPDATEALG) like any other.
 *
 * The system is left as found: each changed driver gets its first priority
 * back and each instance dixload registered is deleted (CRYPTO_MSG_DELALG),
 * when the run ends, whether by its runtime or a signal (the control
 * thread's end runs after the workers closed their TFMs).  Each of these is
 * a step with its own event, so a restore that failed shows as failed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kwatch.h"
#include "kernel/cryptoname.h"
#include "kernel/priority.h"
#include "lib/util.h"

static void step_init(struct prio_step *st, const char *driver)
{
	memset(st, 0, sizeof(*st));
	st->data.type = EVD_PRIORITY;
	st->data.driver = xstrdup(driver);
}

static void step_free(struct prio_step *st)
{
	free(st->detail);
	dix_evdata_clear(&st->data);
}

/* The selected implementation of @alg in @s, as an event names it, or NULL. */
static struct dix_ev_alg *ev_sel(const struct kw_state *s, const char *alg)
{
	const struct kw_alg *a = s->have_crypto ? kw_select(s, alg) : NULL;
	struct dix_ev_alg *e;

	if (!a)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->name = xstrdup(a->name);
	e->driver = xstrdup(a->driver);
	e->priority = a->priority;
	e->module = xstrdup(a->module);
	return e;
}

/* The selection of @alg in @s as text: "xts-aes-aesni (401)" or "(none)". */
static void sel_text(const struct kw_state *s, const char *alg, char *buf,
		     size_t len)
{
	const struct kw_alg *a = s->have_crypto ? kw_select(s, alg) : NULL;

	if (a)
		snprintf(buf, len, "%s (%d)", a->driver, a->priority);
	else
		snprintf(buf, len, "(none)");
}

/*
 * The watched algorithms whose selection moved from @b to @e, and @own (the
 * driver's own algorithm) even when it did not: "; xts(aes): A (401) -> B
 * (1000)" into @text, each one into @d's selections.
 */
static void selections(FILE *text, struct dix_evdata *d,
		       const struct kw_state *b, const struct kw_state *e,
		       const char *own)
{
	char x[KW_NAME_LEN + 16], y[KW_NAME_LEN + 16];
	int i, own_seen = 0;

	for (i = 0; kw_algorithms[i] || (own && !own_seen); i++) {
		const char *alg = kw_algorithms[i] ? kw_algorithms[i] : own;
		struct dix_ev_sel *sel;

		if (own && !strcmp(alg, own))
			own_seen = 1;
		sel_text(b, alg, x, sizeof(x));
		sel_text(e, alg, y, sizeof(y));
		if (!strcmp(x, y) && !(own && !strcmp(alg, own)))
			continue;
		if (!strcmp(x, y))
			fprintf(text, "; %s: %s stays selected", alg, x);
		else
			fprintf(text, "; %s: %s -> %s", alg, x, y);
		d->sels = xrealloc(d->sels, (d->nsels + 1) * sizeof(*d->sels));
		sel = &d->sels[d->nsels++];
		sel->algorithm = xstrdup(alg);
		sel->sel[0] = ev_sel(b, alg);
		sel->sel[1] = ev_sel(e, alg);
		if (!kw_algorithms[i])
			break;
	}
}

static struct prio_changed *changed_find(struct prio_ctx *p, const char *d)
{
	int i;

	for (i = 0; i < p->nchanged; i++)
		if (!strcmp(p->changed[i].driver, d))
			return &p->changed[i];
	return NULL;
}

/*
 * Remember the instances in @after that @before did not list, and name them
 * in @text ("registered A, B; ").
 */
static void remember_made(struct prio_ctx *p, const struct kw_state *before,
			  const struct kw_state *after, FILE *text)
{
	int i, j, n = 0;

	for (i = 0; i < after->ncrypto; i++) {
		const char *d = after->crypto[i].driver;
		struct cru_alg a;
		int seen = 0;

		for (j = 0; j < before->ncrypto && !seen; j++)
			seen = !strcmp(before->crypto[j].driver, d);
		for (j = 0; j < p->nmade && !seen; j++)
			seen = !strcmp(p->made[j], d);
		/* only instances can be deleted: a module's driver
		 * appearing meanwhile is not dixload's */
		if (seen || cru_get(p->cru, d, &a) || !(a.flags & CRU_F_INSTANCE))
			continue;
		p->made = xrealloc(p->made, (p->nmade + 1) * sizeof(*p->made));
		snprintf(p->made[p->nmade++], KW_NAME_LEN, "%s", d);
		fprintf(text, "%s%s", n++ ? ", " : "registered ", d);
	}
	if (n)
		fputs("; ", text);
}

static const char *errtext(int e, char *name, size_t len)
{
	return dix_errno_name(-e, name, len);
}

void prio_apply(struct prio_ctx *p, const struct action *a, prio_emit_fn emit,
		void *arg)
{
	struct kw_state before, mid, after;
	struct prio_step st;
	struct cru_alg alg;
	char why[1024], name[32], flags[160];
	char *detail = NULL;
	size_t dlen = 0;
	double start = dix_now();
	FILE *df;
	int e, made = 0;

	step_init(&st, a->arg);
	snprintf(st.what, sizeof(st.what), "priority %s=%s", a->arg, a->value);
	if (!p->cru)
		p->cru = act_crypto_user(why, sizeof(why));
	if (!p->cru) {
		st.detail = xstrdup(why);
		st.duration = dix_now() - start;
		emit(arg, &st);
		step_free(&st);
		return;
	}
	kw_snapshot(&before, p->proc_root, "/sys");
	mid = before;
	e = cru_get(p->cru, a->arg, &alg);
	if (e == -ENOENT && act_instantiable(a->arg)) {
		e = cru_instantiate(p->cru, a->arg, 0, 0);
		if (!e) {
			made = 1;
			kw_snapshot(&mid, p->proc_root, "/sys");
		}
		/* EEXIST: registered meanwhile by someone else, not made here */
		if (!e || e == -EEXIST)
			e = cru_get(p->cru, a->arg, &alg);
	}
	if (!e)
		e = cru_set_priority(p->cru, a->arg, a->prio);
	st.duration = dix_now() - start;
	kw_snapshot(&after, p->proc_root, "/sys");

	df = open_memstream(&detail, &dlen);
	if (!df) {
		st.detail = xstrdup("out of memory");
		goto out;
	}
	/* registered, even if setting its priority then failed: the end of
	 * the run deletes it */
	if (made)
		remember_made(p, &before, &mid, df);
	if (e) {
		/* what the kernel said, in its words */
		char hint[300];

		fprintf(df, "crypto_user: %s (%s)%s%s", errtext(e, name, sizeof(name)),
			strerror(-e),
			e == -ENOENT ? act_instantiable(a->arg) ?
			": no template or algorithm builds this instance" :
			": no driver of that name is registered" :
			e == -EPERM ? ": changing a priority needs CAP_NET_ADMIN" : "",
			e == -ENOENT ? crypto_name_hint(a->arg, hint, sizeof(hint)) : "");
		st.data.err = xstrdup(errtext(e, name, sizeof(name)));
	} else {
		struct prio_changed *c = changed_find(p, a->arg);

		st.ok = 1;
		if (!c) {
			p->changed = xrealloc(p->changed, (p->nchanged + 1) *
					      sizeof(*p->changed));
			c = &p->changed[p->nchanged++];
			snprintf(c->driver, sizeof(c->driver), "%s", a->arg);
			c->orig = alg.priority;
		}
		c->now = a->prio;
		fprintf(df, "%s (%s): priority %u -> %u", a->arg, alg.name,
			alg.priority, a->prio);
		cru_flags_text(alg.flags, flags, sizeof(flags));
		if (flags[0])
			fprintf(df, " [%s]", flags);
		st.data.alg = xstrdup(alg.name);
		st.data.prio_from = alg.priority;
		st.data.prio_to = a->prio;
		st.data.pflags = EVP_PRIORITY | EVP_FLAGS |
			(made ? EVP_INSTANTIATED : 0) |
			(alg.flags & CRU_F_ALLOCATES_MEMORY ? EVP_ALLOCMEM : 0) |
			(alg.flags & CRU_F_ASYNC ? EVP_ASYNC : 0);
		selections(df, &st.data, &before, &after, alg.name);
	}
	fclose(df);
	st.detail = detail;
out:
	emit(arg, &st);
	step_free(&st);
	if (made)
		kw_free(&mid);
	kw_free(&before);
	kw_free(&after);
}

/* One restore step: @c's driver back to its first priority. */
static void restore_one(struct prio_ctx *p, const struct prio_changed *c,
			prio_emit_fn emit, void *arg)
{
	struct kw_state before, after;
	struct prio_step st;
	struct cru_alg alg;
	char name[32], *detail = NULL;
	size_t dlen = 0;
	double start = dix_now();
	FILE *df;
	int e;

	step_init(&st, c->driver);
	snprintf(st.what, sizeof(st.what), "restore priority %s=%u", c->driver,
		 c->orig);
	kw_snapshot(&before, p->proc_root, "/sys");
	e = cru_get(p->cru, c->driver, &alg);
	if (!e)
		e = cru_set_priority(p->cru, c->driver, c->orig);
	st.duration = dix_now() - start;
	kw_snapshot(&after, p->proc_root, "/sys");
	df = open_memstream(&detail, &dlen);
	if (!df) {
		st.detail = xstrdup("out of memory");
	} else {
		if (e == -ENOENT) {
			/* the kernel removed it (an instance torn down when a
			 * better driver registered, a module unloaded):
			 * nothing is left to restore */
			st.ok = 1;
			fprintf(df, "%s is no longer registered: nothing to restore",
				c->driver);
			st.data.pflags = EVP_GONE;
		} else if (e) {
			fprintf(df, "crypto_user: %s (%s); %s stays at priority %u",
				errtext(e, name, sizeof(name)), strerror(-e),
				c->driver, c->now);
			st.data.err = xstrdup(errtext(e, name, sizeof(name)));
		} else {
			st.ok = 1;
			fprintf(df, "%s (%s): priority %u -> %u", c->driver,
				alg.name, alg.priority, c->orig);
			st.data.alg = xstrdup(alg.name);
			st.data.prio_from = alg.priority;
			st.data.prio_to = c->orig;
			st.data.pflags = EVP_PRIORITY;
			selections(df, &st.data, &before, &after, alg.name);
		}
		fclose(df);
		st.detail = detail;
	}
	emit(arg, &st);
	step_free(&st);
	kw_free(&before);
	kw_free(&after);
}

/* One delete step: instance @d unregistered, or why not. */
static void delete_step(const char *d, int e, double duration,
			prio_emit_fn emit, void *arg)
{
	struct prio_step st;
	char name[32];

	step_init(&st, d);
	snprintf(st.what, sizeof(st.what), "delete instance %s", d);
	st.duration = duration;
	st.ok = !e || e == -ENOENT;
	st.data.pflags = EVP_DELETE | (!e ? EVP_DELETED : 0);
	if (!e)
		st.detail = xstrdup("unregistered (crypto_user DELALG)");
	else if (e == -ENOENT)
		st.detail = xstrdup("already gone: the kernel removed it");
	else if (asprintf(&st.detail, "crypto_user: %s (%s)%s", errtext(e, name, sizeof(name)),
			  strerror(-e), e == -EBUSY ?
			  ": still held after 3 s (a TFM or another instance uses it); it stays registered" :
			  "") < 0)
		st.detail = NULL;
	if (e && e != -ENOENT)
		st.data.err = xstrdup(errtext(e, name, sizeof(name)));
	emit(arg, &st);
	step_free(&st);
}

static int longer_first(const void *a, const void *b)
{
	size_t x = strlen(a), y = strlen(b);

	return x == y ? strcmp(a, b) : x > y ? -1 : 1;
}

int prio_changed_any(const struct prio_ctx *p)
{
	return p->cru && (p->nchanged > 0 || p->nmade > 0);
}

void prio_restore(struct prio_ctx *p, prio_emit_fn emit, void *arg)
{
	int i;

	if (!p->cru)
		return;
	for (i = p->nchanged - 1; i >= 0; i--)
		restore_one(p, &p->changed[i], emit, arg);
	p->nchanged = 0;
}

void prio_undo(struct prio_ctx *p, prio_emit_fn emit, void *arg)
{
	double start = dix_now(), give_up = start + 3;
	int *res, i, left;

	if (!p->cru) {
		free(p->changed);
		free(p->made);
		return;
	}
	prio_restore(p, emit, arg);
	/*
	 * Outer instances first: deleting ecb(aes-generic) also tears down
	 * xts(ecb(aes-generic)) built on it (measured, 6.1: the inner one's
	 * DELALG succeeded and the outer was gone), and an outer instance's
	 * driver name holds its inner ones', so longer names go first.  Then
	 * passes until none is left or a pass deletes nothing: a TFM closed a
	 * moment ago may still hold one.
	 */
	qsort(p->made, p->nmade, sizeof(*p->made), longer_first);
	res = xcalloc(p->nmade + 1, sizeof(*res));
	for (i = 0; i < p->nmade; i++)
		res[i] = 1;	/* not tried yet */
	for (left = p->nmade; left > 0;) {
		int progress = 0;

		for (i = 0; i < p->nmade; i++) {
			if (res[i] != 1 && res[i] != -EBUSY)
				continue;
			res[i] = cru_delete(p->cru, p->made[i]);
			if (res[i] != -EBUSY) {
				delete_step(p->made[i], res[i],
					    dix_now() - start, emit, arg);
				left--;
				progress = 1;
			}
		}
		if (!progress) {
			if (dix_now() >= give_up)
				break;
			usleep(100000);
		}
	}
	for (i = 0; i < p->nmade; i++)
		if (res[i] == -EBUSY)
			delete_step(p->made[i], res[i], dix_now() - start,
				    emit, arg);
	free(res);
	cru_close(p->cru);
	p->cru = NULL;
	free(p->changed);
	free(p->made);
	p->changed = NULL;
	p->made = NULL;
	p->nchanged = p->nmade = 0;
}
