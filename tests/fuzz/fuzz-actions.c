// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-actions.c - the scheduled actions and fault rules as a run checks
 * them before the load starts: any "KEY=VALUE" lines set through opt_set()
 * (hotload=MOD@SEC, unload=MOD@SEC, sysfs=PATH=VAL@SEC, exec=CMD@SEC,
 * inject=KIND@N, runtime=SEC ...), then actions_check() and
 * inject_parse(), and the fault rules applied to a few thousand I/Os.
 * Nothing is run: actions_check() only parses, and stat()s sysfs paths.
 *
 * Checks: a rule set that parses injects only its own kinds, and exactly
 * one fault in every N I/Os for a single rule guard@N.
 */
#include "config.h"

#include "fuzz.h"
#include "kernel/hotload.h"
#include "core/inject.h"
#include "conf/options.h"

static void check_inject(const struct dix_opts *o)
{
	struct inject in;
	char err[512];
	int i, k, kinds = 0;
	uint64_t hits = 0;

	if (inject_parse(o, &in, err, sizeof(err))) {
		FUZZ_CHECK(err[0], "inject refused without a reason");
		return;
	}
	FUZZ_CHECK(in.n == o->inject.n && in.n <= INJECT_MAX,
		   "%d rules of %d values", in.n, o->inject.n);
	for (i = 0; i < in.n; i++) {
		FUZZ_CHECK(in.rule[i].every >= 1, "rule %d every 0", i);
		kinds |= 1 << in.rule[i].kind;
	}
	for (i = 0; i < 4096; i++) {
		k = inject_next(&in, i & 1);
		if (k == DIX_ERR_NR)
			continue;
		FUZZ_CHECK(kinds & (1 << k), "injected kind %d not asked", k);
		hits++;
	}
	if (in.n == 1)
		FUZZ_CHECK(hits == 2 * (2048 / in.rule[0].every),
			   "every %llu: %llu faults in 4096 I/Os",
			   (unsigned long long)in.rule[0].every,
			   (unsigned long long)hits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *line, *save = NULL;
	struct dix_opts o;
	char err[4400];

	opts_init(&o);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (opt_find(line))
			opt_set(&o, line, eq + 1, err, sizeof(err));
	}
	err[0] = '\0';
	if (actions_check(&o, err, sizeof(err)))
		FUZZ_CHECK(err[0], "actions refused without a reason");
	check_inject(&o);
	fuzz_print_opts(&o);
	opts_free(&o);
	free(text);
	return 0;
}
