/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.h - self-describing data blocks.
 *
 * Every logical block dixload writes starts with a header: magic, the byte
 * offset it was written to, the run's seed, a write sequence number, the
 * block size and a check word (DIXLOAD1, DIXLOAD2: a checksum of the whole
 * block; DIXLOAD3: of the header); the rest is a body derived from (seed,
 * offset, seq).  A reader needs no state from the
 * writer, so verification works within a run and across runs: a block
 * whose body or check word fails has changed; a block whose header names another
 * offset sits at the wrong place; a block in which nothing is dixload's
 * (hdrcheck.h: not the magic within a few bits, nor a field vouched for
 * by another, nor the body) was never written (an error with --verify
 * strict, or where the run knows it wrote: job-verify.h); any other
 * block that fails is damaged, whatever part of it is.
 */
#ifndef DIX_VERIFY_H
#define DIX_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "verify/blockhdr.h"	/* the header layout and magics */

enum verify_kind {
	VF_OK,		/* header present and block intact */
	VF_UNWRITTEN,	/* nothing in it is dixload's: never written */
	VF_CHANGED,	/* checksum mismatch: content changed */
	VF_MISPLACED,	/* intact block that belongs at another offset */
};

/**
 * struct verify_fail - what verify_block() found.
 * @kind: see enum verify_kind
 * @offset: byte offset of the block checked
 * @hdr_offset: the offset the block's header names (VF_MISPLACED)
 * @csum_expected: check word stored in the header (VF_CHANGED)
 * @csum_found: check word of the block as read (VF_CHANGED)
 * @byte: first differing byte within the block (VF_CHANGED; -1 when the
 *	body is intact, or not compared, and the header was damaged)
 * @expected: the byte the body has there
 * @found: the byte read there
 * @hdr_fields: VF_CHANGED with @byte -1: the damaged header fields
 *	(HDR_F_* of hdrcheck.h; 0 when not known)
 * @magic: the magic read (VF_CHANGED)
 * @magic_want: with HDR_F_MAGIC: the magic of the block's format
 * @size_field: the block size its header names (VF_CHANGED)
 * @written_for: with @hdr_fields: the offset its data was written for
 */
struct verify_fail {
	enum verify_kind kind;
	uint64_t offset;
	uint64_t hdr_offset;
	uint64_t csum_expected, csum_found;
	int byte;
	uint8_t expected, found;
	unsigned int hdr_fields;
	uint64_t magic, magic_want;
	uint32_t size_field;
	uint64_t written_for;
};

/**
 * verify_fill() - fill @len bytes of @buf (a multiple of @bsize) with
 * DIXLOAD3 blocks (header and body) for blocks starting at byte @offset,
 * written with @seed and write sequence number @seq.
 */
void verify_fill(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
		 uint64_t seed, uint32_t seq);

/**
 * verify_fill_format() - verify_fill() in the format of @magic
 * (DIX_HDR_MAGIC1, 2 or 3): the older formats' writer, for tests and the
 * benchmark that hold the formats to each other.
 *
 * Return: 0, or -1 when this build cannot write that format (DIXLOAD2
 * without libxxhash, an unknown magic).
 */
int verify_fill_format(void *buf, uint32_t len, uint32_t bsize,
		       uint64_t offset, uint64_t seed, uint32_t seq,
		       uint64_t magic);

/**
 * verify_block() - check one block of @bsize bytes read from @offset.
 * Return: the kind found (VF_OK, VF_UNWRITTEN, VF_CHANGED, VF_MISPLACED),
 * with details in @f.
 */
enum verify_kind verify_block(const void *blk, uint32_t bsize,
			      uint64_t offset, struct verify_fail *f);

/**
 * verify_block_near() - verify_block() given @near, a neighbouring block
 * of the same read (or NULL): when @near's magic is exact, its seed and
 * sequence are tried on a block whose header is destroyed whole, since
 * the blocks of one write share them (hdrcheck.h).
 */
enum verify_kind verify_block_near(const void *blk, uint32_t bsize,
				   uint64_t offset, const void *near,
				   struct verify_fail *f);

/**
 * verify_header_id() - the run seed and write sequence number in the header
 * of @blk; only meaningful for a block verify_block() found VF_OK.
 */
void verify_header_id(const void *blk, uint64_t *seed, uint32_t *seq);

/**
 * verify_run() - the fast path of a read check over @len bytes (a multiple
 * of @bsize) read from byte @offset: how many bytes from the start are
 * intact blocks written for exactly their place, up to the first block
 * that is not (which verify_block() then names).  DIXLOAD3 and, built
 * with libxxhash, DIXLOAD2 blocks have a fast path: 0 for the others.
 */
uint32_t verify_run(const void *buf, uint32_t len, uint32_t bsize,
		    uint64_t offset);

struct bad_extent;

/**
 * verify_extent() - the bad block @f (not VF_OK) as a one-block extent of
 * kind verify, for a target of logical block size @lbs: misplaced with the
 * LBA its data was written for, content changed with the first changed
 * byte, header damaged naming the damaged fields in the cause ("header
 * damaged: magic") and their values and both check words in @b->detail
 * (malloc'd), or no header.
 */
void verify_extent(const struct verify_fail *f, uint32_t lbs,
		   struct bad_extent *b);

/** block_hash() - the DIXLOAD1 checksum: 64-bit hash of @len bytes. */
uint64_t block_hash(const void *p, size_t len, uint64_t seed);

#endif
