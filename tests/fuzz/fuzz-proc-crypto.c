// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-proc-crypto.c - kw_parse_crypto() on any /proc/crypto text, and the
 * kernel watch's use of what it returns: the driver selection
 * (kw_select()), the difference between two snapshots, its text and the
 * event data the sinks render.  The input is two texts, "before" NUL "after" (one text alone is
 * compared with itself and with an empty snapshot).
 *
 * Checks: a snapshot compared with itself shows no difference; against an
 * empty one every selectable entry is added; kw_select() returns the
 * highest selectable priority.
 */
#include "config.h"

#include "fuzz.h"
#include "kernel/kwatch.h"

static int parse(const char *text, struct kw_state *s)
{
	memset(s, 0, sizeof(*s));
	if (kw_parse_crypto(text, &s->crypto, &s->ncrypto))
		return -1;
	s->have_crypto = 1;
	return 0;
}

static void check_select(const struct kw_state *s)
{
	int i, k;

	for (k = 0; kw_algorithms[k]; k++) {
		const struct kw_alg *best = kw_select(s, kw_algorithms[k]);

		for (i = 0; i < s->ncrypto; i++) {
			const struct kw_alg *a = &s->crypto[i];

			if (!a->selectable || strcmp(a->name, kw_algorithms[k]))
				continue;
			FUZZ_CHECK(best && best->priority >= a->priority,
				   "%s: selected %s over %s (%d)",
				   kw_algorithms[k],
				   best ? best->driver : "nothing", a->driver,
				   a->priority);
		}
	}
}

static void use_diff(const struct kw_state *a, const struct kw_state *b)
{
	struct kw_diff d;
	struct dix_evdata ev;
	char *t;
	int i;

	kw_diff(a, b, &d);
	t = kw_registered_text(&d);
	FUZZ_CHECK(t, "no text");
	kw_diff_data(&d, EVD_MODULES, NULL, &ev);
	FUZZ_CHECK(ev.type == EVD_MODULES, "diff data of type %d", ev.type);
	dix_evdata_clear(&ev);
	for (i = 0; i < d.nchanges; i++)
		FUZZ_CHECK(d.changes[i].text && d.changes[i].label &&
			   (d.changes[i].data.type == EVD_TRANSFORM ||
			    d.changes[i].data.type == EVD_DRIVER),
			   "change %d incomplete", i);
	free(t);
	kw_diff_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char *before = fuzz_text(data, size);
	char *after = nul ? fuzz_text(nul + 1, size - (nul + 1 - data)) :
			    fuzz_text(data, size);
	struct kw_state a, b, none;
	struct kw_diff d;
	int i, selectable = 0;

	memset(&none, 0, sizeof(none));
	none.have_crypto = 1;
	if (parse(before, &a))
		goto out;
	check_select(&a);
	kw_diff(&a, &a, &d);
	FUZZ_CHECK(!d.nadded && !d.nremoved && !d.nchanges,
		   "a snapshot differs from itself: %d added, %d removed, %d changes",
		   d.nadded, d.nremoved, d.nchanges);
	kw_diff_free(&d);
	for (i = 0; i < a.ncrypto; i++)
		selectable += a.crypto[i].selectable;
	kw_diff(&none, &a, &d);
	/* an entry listed twice (same name, driver and type) counts twice */
	FUZZ_CHECK(d.nadded == selectable, "%d of %d selectable added",
		   d.nadded, selectable);
	kw_diff_free(&d);
	use_diff(&none, &a);
	use_diff(&a, &none);
	if (!parse(after, &b)) {
		check_select(&b);
		use_diff(&a, &b);
		use_diff(&b, &a);
		kw_free(&b);
	}
	kw_free(&a);
out:
	free(before);
	free(after);
	return 0;
}
