/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject.h - deliberate fault injection: "--inject guard|app|ref@N"
 * puts a wrong PI tag of that kind into every Nth write (and, in --pi app
 * mode, into every Nth read buffer before dixload verifies it); "tag@N"
 * (--engine kcapi, an AEAD) a wrong authentication tag into every Nth
 * decrypt's input, counted as kind verify.  An injected fault the device,
 * the kernel or the check catches is counted as caught, not as an error;
 * one that gets through is an integrity failure.
 */
#ifndef DIX_INJECT_H
#define DIX_INJECT_H

#include <stddef.h>
#include <stdint.h>

#include "conf/options.h"
#include "lib/stats.h"

#define INJECT_MAX	3

struct inject_rule {
	int kind;		/* DIX_ERR_GUARD, _APP, _REF; _VERIFY: an AEAD tag */
	uint64_t every;		/* N */
};

/**
 * struct inject - the rules and the per-direction I/O counts of a worker.
 */
struct inject {
	struct inject_rule rule[INJECT_MAX];
	int n;
	uint64_t count[2];
};

/**
 * inject_parse() - parse every --inject value of @o into @in.
 * @err: "--inject 'x': reason (allowed: guard@N, app@N, ref@N)"
 * Return: 0 or -EINVAL.
 */
int inject_parse(const struct dix_opts *o, struct inject *in, char *err,
		 size_t len);

/**
 * inject_next() - count one more I/O in direction @dir (0 read, 1 write).
 * Return: the fault kind to inject into it, or DIX_ERR_NR for none.
 */
int inject_next(struct inject *in, int dir);

#endif
