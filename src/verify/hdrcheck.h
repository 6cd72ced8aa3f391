/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hdrcheck.h - whether a block that failed its check is a damaged dixload
 * block or one dixload never wrote, and which fields of its header are
 * damaged.
 *
 * Why: a block whose magic was not exactly DIXLOAD1/2/3 used to read as
 * "never written", which the default --verify counts and does not fail, so
 * one flipped bit in the magic of a written block passed as success.  The
 * header's fields vouch for each other (the offset names the block, the
 * size field its size, the DIXLOAD3 check word is a function of the other
 * words, the body follows from the block's place, seed and sequence), so
 * a block with one damaged field, or several, is still recognised as
 * dixload's.  hdrcheck.c gives the rules and the false-positive
 * probability of each on data dixload never wrote.
 *
 * Only blocks that failed the fast path (verify_run()) come here.
 */
#ifndef DIX_HDRCHECK_H
#define DIX_HDRCHECK_H

#include <stddef.h>
#include <stdint.h>

/* the damaged fields of a header (struct hdr_view.fields) */
#define HDR_F_MAGIC	0x01u
#define HDR_F_OFFSET	0x02u
#define HDR_F_SEED	0x04u
#define HDR_F_SEQ	0x08u
#define HDR_F_SIZE	0x10u
#define HDR_F_CHECK	0x20u
/* the check word disagrees with the seed and sequence, and the body cannot
 * tell which of the three is damaged */
#define HDR_F_UNSURE	0x40u

/* body bytes compared with the body a header's identity gives */
#define HDR_PROBE	16

/**
 * typedef hdr_pattern_fn - the first HDR_PROBE body bytes of a DIXLOAD1
 * (@multi 0) or DIXLOAD2 (@multi 1) block written for @offset with @seed
 * and @seq, into @out (verify.c owns the pattern).
 */
typedef void (*hdr_pattern_fn)(uint64_t seed, uint64_t offset, uint32_t seq,
			       int multi, unsigned char *out);

/**
 * struct hdr_view - what hdr_examine() made of a header.
 * @fields: HDR_F_* of the fields found damaged
 * @magic: the magic of the block's format (the one read when exact, else
 *	the format its body matched, else the nearest known magic)
 * @written_for: the byte offset the block's data was written for (the
 *	block's own, or the one a self-consistent header names)
 * @seed: with @identified, the seed the body was written with
 * @w3: with @identified, the sequence/size word it was written with
 * @identified: the body matched a seed and sequence (read, or recovered
 *	through the check word)
 */
struct hdr_view {
	unsigned int fields;
	uint64_t magic;
	uint64_t written_for;
	uint64_t seed;
	uint64_t w3;
	int identified;
};

/**
 * hdr_examine() - judge the header of the @bsize-byte block @blk read from
 * byte @offset, which failed its check; @pat gives the older formats'
 * bodies; @near, when not NULL, is the header of a neighbouring block of
 * the same read whose magic is exact: the blocks of one write share its
 * seed and sequence, so a header destroyed whole is still found by its
 * body.
 *
 * Return: 1 when something in the block is dixload's (@v then names the
 * damaged fields), 0 when nothing is (never written by dixload, with the
 * probability hdrcheck.c gives).  @v is filled either way.
 */
int hdr_examine(const unsigned char *blk, uint32_t bsize, uint64_t offset,
		hdr_pattern_fn pat, const unsigned char *near,
		struct hdr_view *v);

/**
 * hdr_fields_text() - "magic, offset" for HDR_F_MAGIC | HDR_F_OFFSET: the
 * names of @fields, in header order.  Return: @buf.
 */
const char *hdr_fields_text(unsigned int fields, char *buf, size_t len);

#endif
