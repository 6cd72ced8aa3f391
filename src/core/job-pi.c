// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job-pi.c - the reports of a worker's --pi app and --inject loads: every
 * failing interval of a read as its own bad extent, and the verdict on an
 * I/O that carried an injected fault.  Called only when a check failed or
 * a fault was injected; the per-I/O generation and check are inline in
 * job-pi.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job-pi.h"
#include "lib/util.h"

/* The slow path runs only when something failed. */
int pi_report_all(struct wctx *x, struct dix_io *io, const struct pi_io *pio,
		  size_t skip)
{
	unsigned char *data = io->buf, *meta = io->meta;
	char cause[96], values[80];
	struct bad_extent bad;
	struct pi_fail fail;
	struct pi_io one;
	int at_skip = DIX_ERR_NR;
	size_t i;

	for (i = 0; i < x->nint; i++) {
		one = *pio;
		one.lba = pio->lba + i;
		one.ref = pi_ref_expected(&x->pif, pio, i);
		if (pi_verify(&x->pif, data + i * x->pif.interval,
			      meta + i * x->pif.ms, 1, &one, &fail) <= 0)
			continue;
		if (i == skip) {
			at_skip = fail.kind;
			continue;
		}
		snprintf(cause, sizeof(cause), "%s (checked by dixload)",
			 dix_errkind_check(fail.kind));
		bad_init(x, &bad, fail.kind, pi_offset(x, io, i),
			 x->pif.interval / x->lbs, cause);
		pi_fail_values(&fail, values, sizeof(values));
		bad.detail = strdup(values);
		record_bad(x, &bad);
	}
	return at_skip;
}

void injected_write_done(struct wctx *x, struct dix_io *io)
{
	struct dix_worker *w = x->w;
	struct bad_extent bad;
	char cause[160];
	int kind;

	if (io->res == (int32_t)io->len) {
		if (x->w->dev->t.uncaught)
			snprintf(cause, sizeof(cause), "%s",
				 x->w->dev->t.uncaught);
		else
			snprintf(cause, sizeof(cause),
				 "injected %s fault not caught: the write succeeded",
				 dix_errkind_name(io->injected));
		bad_init(x, &bad, io->injected, io->offset, io->len / x->lbs,
			 cause);
		record_bad(x, &bad);
		return;
	}
	if (io->res < 0 && io->errkind < DIX_ERR_NR) {
		kind = io->errkind;
	} else if (io->res == -EILSEQ) {
		kind = DIX_ERR_UNKNOWN;
	} else {
		snprintf(cause, sizeof(cause),
			 "%s with an injected %s fault failed, but not with a PI error: %s",
			 io->dir == DIX_WRITE ? "write" : "decrypt",
			 dix_errkind_name(io->injected),
			 io->res < 0 ? dix_io_strerror(-io->res) : "short write");
		bad_init(x, &bad, DIX_ERR_IO, io->offset, io->len / x->lbs,
			 cause);
		if (io->detail[0])
			bad.detail = strndup(io->detail, sizeof(io->detail));
		record_bad(x, &bad);
		return;
	}
	cadd(&w->c.caught[kind], 1);
}
