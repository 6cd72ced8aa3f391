/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inflight.h - byte ranges in flight, per worker.
 *
 * A read of a block while a write to it is in flight, or two overlapping
 * writes, would make the data read back undefined and verification
 * meaningless; the job loop asks inflight_conflicts() before issuing.
 * Depth is small (<= a few hundred), so a slot-indexed array scanned
 * linearly beats any tree.
 */
#ifndef DIX_INFLIGHT_H
#define DIX_INFLIGHT_H

#include <stdint.h>

struct inflight_range {
	uint64_t start, end;	/* [start, end) */
	uint8_t used, write;
};

struct inflight {
	unsigned int cap;
	unsigned int nwrites;	/* writes in flight: 0 lets reads skip the scan */
	unsigned int nused;
	struct inflight_range *r;
};

/** inflight_init() - room for @cap slots.  Return: 0 or -ENOMEM. */
int inflight_init(struct inflight *fl, unsigned int cap);
void inflight_free(struct inflight *fl);

/**
 * inflight_conflicts() - would an I/O of @len bytes at @off conflict?
 * A read conflicts with an overlapping write; a write with any overlap.
 * Return: 1 on conflict, 0 otherwise.
 */
int inflight_conflicts(const struct inflight *fl, uint64_t off, uint64_t len,
		       int write);

/** inflight_add() - mark slot @slot busy with [off, off+len). */
void inflight_add(struct inflight *fl, unsigned int slot, uint64_t off,
		  uint64_t len, int write);

/** inflight_del() - free slot @slot. */
void inflight_del(struct inflight *fl, unsigned int slot);

#endif
