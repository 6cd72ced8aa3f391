/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-pi.h - a worker's --pi app tuples and deliberate faults (--inject):
 * dixload generates the protection information of its writes and checks
 * that of its reads itself; every Nth write (or read buffer) of an --inject
 * rule carries one wrong tuple, which the device, the kernel or the check
 * must catch.  On a crypto engine, --inject tag@N marks every Nth decrypt
 * whose authentication tag the engine corrupts.
 *
 * What runs for every I/O of such a load is inline here (the CRC itself is
 * pi/pi.h's); the reports of failures are calls into job-pi.c.
 */
#ifndef DIX_JOB_PI_H
#define DIX_JOB_PI_H

#include <stddef.h>
#include <stdint.h>

#include "core/inject.h"
#include "core/job-ctx.h"
#include "core/job-extents.h"
#include "core/job-offsets.h"
#include "pi/pi.h"

/** pi_offset() - where a PI failure of interval @i of @io is: its byte offset. */
static inline uint64_t pi_offset(const struct wctx *x, const struct dix_io *io,
				 size_t i)
{
	return io->offset + i * x->pif.interval;
}

/**
 * pi_report_all() - every failing interval of @io but @skip, each a bad
 * extent: the whole-buffer check names only the first, so on failure each
 * interval is checked again on its own.
 * Return: the kind found at interval @skip (the one an --inject rule
 * broke), or DIX_ERR_NR when it passed.
 */
int pi_report_all(struct wctx *x, struct dix_io *io, const struct pi_io *pio,
		  size_t skip);

/**
 * injected_write_done() - account the completion of @io, which carried an
 * injected fault: the device (or the kernel) rejecting it is the expected
 * outcome (caught); its success, or a failure that is no PI error, is an
 * integrity failure.
 */
void injected_write_done(struct wctx *x, struct dix_io *io);

/*
 * --pi app reads: check the tuples dixload got back.  Every Nth read of an
 * --inject rule first breaks one tuple in the buffer: the check must catch
 * that one (caught), or it is an integrity failure; any other interval
 * that fails is an integrity failure of its own.
 */
static inline void pi_check_read(struct wctx *x, struct dix_io *io)
{
	struct dix_worker *w = x->w;
	struct pi_io pio;
	struct pi_fail fail, what;
	struct bad_extent bad;
	int inj = inject_next(&x->inj, 0);
	size_t idx = 0;
	char cause[96];
	long nbad;
	int caught;

	pi_io_init(&pio, &x->pif, io->offset / x->pif.interval);
	pio.ref = io->ref;
	pio.app = io->app;
	if (inj != DIX_ERR_NR) {
		idx = (io->offset / x->o->bs) % x->nint;
		if (pi_corrupt(&x->pif, io->buf, io->meta, x->nint, idx, inj,
			       &pio, &what))
			inj = DIX_ERR_NR;	/* escaped tuple: nothing to break */
		else
			cadd(&w->c.injected[inj], 1);
	}
	nbad = pi_verify(&x->pif, io->buf, io->meta, x->nint, &pio, &fail);
	if (inj != DIX_ERR_NR && nbad == 1 && fail.index == idx) {
		cadd(&w->c.caught[fail.kind], 1);	/* the common case */
		return;
	}
	caught = nbad > 0 ? pi_report_all(x, io, &pio,
					  inj != DIX_ERR_NR ? idx : SIZE_MAX) :
			    DIX_ERR_NR;
	if (inj == DIX_ERR_NR)
		return;
	if (caught != DIX_ERR_NR) {
		cadd(&w->c.caught[caught], 1);
		return;
	}
	snprintf(cause, sizeof(cause),
		 "injected %s fault not caught by the read check",
		 dix_errkind_name(inj));
	bad_init(x, &bad, inj, pi_offset(x, io, idx), x->pif.interval / x->lbs,
		 cause);
	record_bad(x, &bad);
}

/*
 * --pi app: the reference tag seed of the I/O and, for writes, the tuples,
 * one of them deliberately wrong when an --inject rule says so.
 */
static inline void pi_prepare(struct wctx *x, struct dix_io *io)
{
	size_t nint = io->len / x->pif.interval;
	struct pi_io pio;
	struct pi_fail what;
	size_t idx;
	int inj;

	pi_io_init(&pio, &x->pif, io->offset / x->pif.interval);
	io->ref = pio.ref;
	io->app = pio.app;
	io->meta_len = pi_meta_len(&x->pif, nint);
	if (io->dir != DIX_WRITE)
		return;
	pi_generate(&x->pif, io->buf, io->meta, nint, &pio);
	/* preconditioning writes carry no injected faults: x->inj is empty */
	inj = inject_next(&x->inj, 1);
	if (inj == DIX_ERR_NR)
		return;
	idx = rng_next(&x->g.rng) % nint;
	if (pi_corrupt(&x->pif, io->buf, io->meta, nint, idx, inj, &pio,
		       &what))
		return;
	io->injected = inj;
	cadd(&x->w->c.injected[inj], 1);
}

/*
 * --inject tag@N on a crypto engine: mark every Nth decrypt, whose
 * authentication tag the engine then corrupts on its way to the kernel.
 */
static inline void tag_prepare(struct wctx *x, struct dix_io *io)
{
	int inj = inject_next(&x->inj, 0);

	if (inj == DIX_ERR_NR)
		return;
	io->injected = inj;
	cadd(&x->w->c.injected[inj], 1);
}

#endif
