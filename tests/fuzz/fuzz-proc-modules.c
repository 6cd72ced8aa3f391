// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-proc-modules.c - kw_parse_modules() on any /proc/modules text, and
 * what the hot-load code asks of the list: kw_module_loaded() and the
 * loaded/unloaded difference between two snapshots and its event data.  The
 * input is "before" NUL "after" (one text alone is compared with itself).
 *
 * Checks: the list is sorted, every module it holds is found by
 * kw_module_loaded() under its own name, and a list compared with itself
 * shows nothing loaded or unloaded.
 */
#include "config.h"

#include "fuzz.h"
#include "kernel/kwatch.h"

static void parse(const char *text, struct kw_state *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	FUZZ_CHECK(kw_parse_modules(text, &s->modules, &s->nmodules) == 0,
		   "parse failed");
	s->have_modules = 1;
	for (i = 0; i < s->nmodules; i++) {
		FUZZ_CHECK(s->modules[i][0], "empty name at %d", i);
		FUZZ_CHECK(!i || strcmp(s->modules[i - 1], s->modules[i]) <= 0,
			   "not sorted at %d", i);
		/* a name the kernel could have: the query side truncates
		 * at KW_MOD_LEN */
		if (strlen(s->modules[i]) < KW_MOD_LEN)
			FUZZ_CHECK(kw_module_loaded(s, s->modules[i]) == 1,
				   "'%s' listed but not loaded", s->modules[i]);
	}
}

static void use_diff(const struct kw_state *a, const struct kw_state *b)
{
	struct kw_diff d;
	struct dix_evdata ev;

	kw_diff(a, b, &d);
	kw_diff_data(&d, EVD_MODULES, NULL, &ev);
	FUZZ_CHECK(d.nloaded <= b->nmodules && d.nunloaded <= a->nmodules,
		   "%d loaded of %d, %d unloaded of %d", d.nloaded, b->nmodules,
		   d.nunloaded, a->nmodules);
	FUZZ_CHECK(ev.type == EVD_MODULES, "diff data of type %d", ev.type);
	dix_evdata_clear(&ev);
	kw_diff_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char *before = fuzz_text(data, size);
	char *after = nul ? fuzz_text(nul + 1, size - (nul + 1 - data)) :
			    fuzz_text(data, size);
	struct kw_state a, b;
	struct kw_diff d;

	parse(before, &a);
	parse(after, &b);
	kw_diff(&a, &a, &d);
	FUZZ_CHECK(!d.nloaded && !d.nunloaded,
		   "a list differs from itself: %d loaded, %d unloaded",
		   d.nloaded, d.nunloaded);
	kw_diff_free(&d);
	use_diff(&a, &b);
	use_diff(&b, &a);
	kw_free(&a);
	kw_free(&b);
	free(before);
	free(after);
	return 0;
}
