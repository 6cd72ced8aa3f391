// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfsact.c - the --sysfs action: the write at its second, and the value
 * each file held before the run put back when the run ends.
 *
 * Why put back: the A/B the docs suggest, integrity/read_verify=0 mid-run,
 * would otherwise leave the host's PI checking off after dixload exits
 * (issue 33), the way --priority would leave a driver ranked first if it
 * did not restore.  The value is read just before the run's first write to
 * a file (a second write to it keeps that first value), and written back
 * after the workers have stopped, whether the run ended by its runtime, a
 * signal or a failure: the control thread's end runs in each case
 * (control_stop()).  A file that cannot be read before the write cannot be
 * put back, and its events say so.  --sysfs-keep leaves every value as the
 * run set it, and a note per file says what it held.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ctl.h"
#include "kernel/hotload.h"
#include "kernel/sysfsact.h"
#include "lib/event.h"
#include "lib/util.h"

int sysfs_restore_value(const char *shown, char *out, char *why, size_t len)
{
	const char *open = strchr(shown, '['), *close;
	size_t n;

	if (!shown[0]) {
		snprintf(why, len, "it read as empty, which is no value to write back");
		return -EINVAL;
	}
	if (strchr(shown, '\n')) {
		snprintf(why, len, "it reads as several lines, which no write takes back");
		return -EINVAL;
	}
	if (!open) {
		snprintf(out, SYSFS_VALUE_MAX, "%s", shown);
		return 0;
	}
	close = strchr(open, ']');
	if (!close || close == open + 1 || strchr(close, '[') ||
	    memchr(open + 1, ' ', close - open - 1)) {
		snprintf(why, len, "it reads as '%.200s', which names no one current choice in brackets",
			 shown);
		return -EINVAL;
	}
	/* "noop [mq-deadline] none": the choice in force is what to write */
	n = close - open - 1;
	memcpy(out, open + 1, n);
	out[n] = '\0';
	return 0;
}

static struct sysfs_saved *saved_find(struct ctl *c, const char *res)
{
	int i;

	for (i = 0; i < c->nsysfs; i++)
		if (!strcmp(c->sysfs[i].resolved, res))
			return &c->sysfs[i];
	return NULL;
}

/*
 * Read @path before a write: 0 with the text in @buf, or -errno; a text
 * longer than sysfs shows (a scratch file in the tests) is -EFBIG.
 */
static int read_value(const char *path, char *buf, size_t len)
{
	int e = read_sysfs_str(path, buf, len);

	if (!e && strlen(buf) > SYSFS_VALUE_MAX)
		e = -EFBIG;
	return e;
}

/*
 * Remember @a's file before its first write: the value to put back, or why
 * it cannot be (@rd: what reading it returned).  Return the entry.
 */
static struct sysfs_saved *remember(struct ctl *c, const struct action *a,
				    int rd, const char *before)
{
	struct sysfs_saved *s = saved_find(c, a->resolved);
	char val[SYSFS_VALUE_MAX + 1], why[512], name[32];

	if (s)
		return s;
	c->sysfs = xrealloc(c->sysfs, (c->nsysfs + 1) * sizeof(*c->sysfs));
	s = &c->sysfs[c->nsysfs++];
	memset(s, 0, sizeof(*s));
	s->arg = xstrdup(a->arg);
	s->resolved = xstrdup(a->resolved);
	if (rd) {
		snprintf(why, sizeof(why), "it could not be read before the write (%s: %s)",
			 dix_errno_name(-rd, name, sizeof(name)),
			 rd == -EFBIG ? "longer than sysfs shows" : strerror(-rd));
		s->why = xstrdup(why);
		return s;
	}
	s->shown = xstrdup(before);
	if (sysfs_restore_value(before, val, why, sizeof(why)))
		s->why = xstrdup(why);
	else
		s->orig = xstrdup(val);
	return s;
}

/*
 * The event says what the kernel returned: the bytes write(2) took, or the
 * errno of the call that failed, by name and in words.
 */
void sysfs_act(struct ctl *c, const struct action *a)
{
	char what[4200], label[200], before[SYSFS_VALUE_MAX + 2];
	char after[SYSFS_VALUE_MAX + 2], detail[1400], name[32];
	const char *base = strrchr(a->arg, '/'), *call;
	struct sysfs_saved *s;
	struct dix_evdata data;
	double t = ctl_elapsed(c), start = dix_now(), dur;
	size_t n;
	long ret;
	int rd, ok, got_after = 0;

	ctl_action_what(a, what, sizeof(what));
	snprintf(label, sizeof(label), "%s=%s", base ? base + 1 : a->arg,
		 a->value);
	rd = read_value(a->resolved, before, sizeof(before));
	s = remember(c, a, rd, before);
	ret = sysfs_write(a->resolved, a->value, &call);
	dur = dix_now() - start;
	ok = ret == (long)strlen(a->value) + 1;
	if (ret >= 0)
		s->touched = 1;
	if (ok) {
		free(s->last);
		s->last = xstrdup(a->value);
	}
	if (ret < 0)
		snprintf(detail, sizeof(detail), "%s(2) failed: %s (%s)", call,
			 dix_errno_name(-ret, name, sizeof(name)),
			 strerror(-ret));
	else if (!ok)
		snprintf(detail, sizeof(detail),
			 "write(2) returned %ld: the kernel took %ld of the %zu bytes",
			 ret, ret, strlen(a->value) + 1);
	else if (!rd && read_value(a->resolved, after, sizeof(after)) == 0) {
		got_after = 1;
		snprintf(detail, sizeof(detail), "was %.600s, now %.600s; write(2) returned %ld",
			 before, after, ret);
	} else {
		snprintf(detail, sizeof(detail), "write(2) returned %ld", ret);
	}
	n = strlen(detail);
	/* a file that cannot be put back: said once, at the first write
	 * that reached it */
	if (ret >= 0 && !s->orig && !c->o->sysfs_keep && !s->told) {
		s->told = 1;
		snprintf(detail + n, sizeof(detail) - n,
			 "; the end of the run cannot put it back: %s", s->why);
	}
	/* the facts: where the path led, the call and what it returned */
	data = (struct dix_evdata){
		.type = EVD_SYSFS, .resolved = a->resolved,
		.call = (char *)call, .returned = ret,
		.err = ret < 0 ? (char *)dix_errno_name(-ret, name, sizeof(name)) :
		       NULL,
		.from = !rd ? before : NULL, .to = got_after ? after : NULL,
	};
	ctl_event(c, EV_ACTION, t, what, ok, dur, detail, &data, label);
}

/* One restore step: @s's file back to what it held before the run. */
static void put_back_one(struct ctl *c, const struct sysfs_saved *s)
{
	char what[4200 + SYSFS_VALUE_MAX], label[200], now[SYSFS_VALUE_MAX + 2];
	char detail[1400 + 2 * 600], name[32];
	const char *base = strrchr(s->arg, '/'), *call = NULL;
	struct dix_evdata data;
	double t = ctl_elapsed(c), start = dix_now(), dur;
	const char *was = s->last ? s->last : "what the run left";
	long ret = 0;
	int rd, ok;

	snprintf(what, sizeof(what), "restore sysfs %s=%s", s->arg,
		 s->orig ? s->orig : "?");
	snprintf(label, sizeof(label), "%s=%s", base ? base + 1 : s->arg,
		 s->orig ? s->orig : "?");
	rd = read_value(s->resolved, now, sizeof(now));
	if (!s->orig) {
		ok = 0;
		snprintf(detail, sizeof(detail), "not restored: %.800s; it holds %.600s",
			 s->why, rd ? "what cannot be read" : now);
	} else if (!rd && !strcmp(now, s->shown)) {
		/* a write of the same value may not be a no-op (a scheduler
		 * is set up again): nothing is written */
		ok = 1;
		snprintf(detail, sizeof(detail), "already %.600s, as before the run: nothing to write",
			 now);
	} else {
		ret = sysfs_write(s->resolved, s->orig, &call);
		ok = ret == (long)strlen(s->orig) + 1;
		if (ret < 0)
			snprintf(detail, sizeof(detail), "%s(2) failed: %s (%s); it stays %.600s",
				 call, dix_errno_name(-ret, name, sizeof(name)),
				 strerror(-ret), rd ? was : now);
		else if (!ok)
			snprintf(detail, sizeof(detail),
				 "write(2) returned %ld: the kernel took %ld of the %zu bytes",
				 ret, ret, strlen(s->orig) + 1);
		else
			snprintf(detail, sizeof(detail), "was %.600s, now %.600s (what it held before the run's first --sysfs write); write(2) returned %ld",
				 rd ? was : now, s->orig, ret);
	}
	dur = dix_now() - start;
	data = (struct dix_evdata){
		.type = EVD_SYSFS, .resolved = s->resolved,
		.call = (char *)call, .returned = ret,
		.err = ret < 0 ? (char *)dix_errno_name(-ret, name, sizeof(name)) :
		       NULL,
		.from = !rd ? now : s->last, .to = ok ? s->orig : NULL,
		.pflags = EVS_RESTORE,
	};
	ctl_event(c, EV_ACTION, t, what, ok, dur, detail, &data, label);
}

void sysfs_put_back(struct ctl *c)
{
	int i;

	for (i = c->nsysfs - 1; i >= 0; i--) {
		struct sysfs_saved *s = &c->sysfs[i];

		if (!s->touched) {
			/* a file no write reached is left alone */
		} else if (c->o->sysfs_keep) {
			char text[4200 + 2 * 600];

			snprintf(text, sizeof(text), "sysfs %s kept at %.600s (--sysfs-keep); before the run it held %.600s",
				 s->arg, s->last ? s->last : "what the run left",
				 s->shown ? s->shown : "what could not be read");
			ctl_event(c, EV_NOTE, ctl_elapsed(c), text, -1, -1, NULL,
				  NULL, NULL);
		} else {
			put_back_one(c, s);
		}
		free(s->arg);
		free(s->resolved);
		free(s->shown);
		free(s->orig);
		free(s->why);
		free(s->last);
	}
	free(c->sysfs);
	c->sysfs = NULL;
	c->nsysfs = 0;
}
