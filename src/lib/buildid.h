/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildid.h - what two dixload processes must share to exchange raw C
 * records: MPI ranks send each other their rows, events and latency
 * histograms as bytes (mpijob.h), so a rank of another version, another
 * byte order or another record layout would be read as garbage and summed
 * into the job's figures without a word.  Each rank's identity is compared
 * with rank 0's before anything else is exchanged.
 */
#ifndef DIX_BUILDID_H
#define DIX_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define DIX_BUILD_RECORDS	4

/**
 * struct dix_build_id - one process's build, as the other ranks see it.
 * @version: PACKAGE_VERSION
 * @order: 0x01020304 as this host stores it (byte order)
 * @sizes: the sizes of the records exchanged, in the caller's order
 *	(mpijob.c: agreement row, rank row, event head, latency histogram)
 *
 * Plain bytes of fixed size, so two different builds can still read each
 * other's: the one thing every build must keep as it is.
 */
struct dix_build_id {
	char version[32];
	uint32_t order;
	uint32_t sizes[DIX_BUILD_RECORDS];
};

/** dix_build_id_init() - this build's identity with the record @sizes. */
void dix_build_id_init(struct dix_build_id *b,
		       const uint32_t sizes[DIX_BUILD_RECORDS]);

/**
 * dix_build_id_diff() - whether @b differs from @a (a rank against rank 0).
 * @why/@len: when they differ, both identities in words:
 *	"dixload 0.2.0, little-endian, records of 400/1234/40/2064 bytes
 *	against dixload 0.1.0, little-endian, records of 400/1210/40/2064 bytes"
 * Return: 0 the same, 1 different.
 */
int dix_build_id_diff(const struct dix_build_id *a,
		      const struct dix_build_id *b, char *why, size_t len);

#endif
