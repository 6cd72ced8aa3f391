/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extent.h - bad blocks reported as extents.
 *
 * A damaged region is usually many blocks with one story: a 64 KiB block
 * copied over another is 128 misplaced 512-byte blocks, a failed 1 MiB read
 * is 2048 blocks with one sense.  Printed block by block, the first region
 * used up the messages and the next one was never named.  So consecutive
 * LBAs with the same error kind and cause coalesce into one extent (for
 * misplaced data, only while the data's home LBAs continue in step), and
 * every region gets one line:
 *
 *   verify: LBA 2560-2687 (128 blocks, 64 KiB): misplaced, holds data written for LBA 1280-1407
 *   verify: LBA 65537: content changed at byte 488 of the block, expected 0x76, found 0x58
 *
 * Each worker keeps its own extents in a tracker (no locking on the error
 * path); an extent is printed live when it closes, and at the end the
 * workers' lists are merged, so an extent crossing I/O boundaries or the
 * boundary between two workers' slices is one extent in the summary.
 */
#ifndef DIX_EXTENT_H
#define DIX_EXTENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/json.h"

/**
 * struct bad_extent - consecutive bad blocks with one kind and cause.
 * @lba: first LBA
 * @count: LBAs in the extent (>= 1)
 * @src: with @has_src: the LBA the data in block @lba was written for
 *	(misplaced data); the following blocks hold the following LBAs' data
 * @cause: what is wrong, in words without per-block values ("misplaced",
 *	"content changed", "read failed: integrity check failed (EILSEQ)"),
 *	from cause_intern(): equal causes are equal pointers
 * @detail: particulars of the first block or I/O that are not part of the
 *	cause (what the device said, the tags found), or NULL; owned by the
 *	extent (malloc'd)
 * @byte: "content changed": the first changed byte of the first block;
 *	-1 when not known
 * @kind: enum dix_errkind
 * @has_src: @src is set
 * @expected: "content changed": the byte the pattern has at @byte
 * @found: "content changed": the byte read there
 */
struct bad_extent {
	uint64_t lba;
	uint64_t count;
	uint64_t src;
	const char *cause;
	char *detail;
	int32_t byte;
	uint8_t kind;
	uint8_t has_src;
	uint8_t expected;
	uint8_t found;
};

/* Causes of data verification failures (kind verify). */
#define CAUSE_MISPLACED	"misplaced"
#define CAUSE_CHANGED	"content changed"
#define CAUSE_HEADER	"header damaged"
#define CAUSE_NO_HEADER	"no dixload header (never written, or the header was destroyed)"
/* no header where this run wrote (it preconditioned the region, or wrote
 * the block earlier in the load): the write was lost, or went elsewhere */
#define CAUSE_LOST	"no dixload header where this run wrote (a lost or misdirected write)"

/**
 * cause_intern() - the one shared copy of cause text @s.
 *
 * Extents compare causes by pointer, so a cause must always come from
 * here.  Thread-safe.  The copies live until the process ends: causes hold
 * no per-block values (those go in @detail), so there are few of them.
 * Return: the shared copy.
 */
const char *cause_intern(const char *s);

/**
 * extent_join() - add @b to @e when it continues it.
 * @e: an extent
 * @b: an extent (often one block) to add
 *
 * @b joins when the kind and cause are the same, the LBA ranges touch or
 * overlap (an overlap is the same damage seen again, e.g. on the next pass
 * of a --runtime loop) and, for misplaced data, the data's home LBAs
 * continue in step.  The particulars (@detail, @byte ...) of the lower
 * first LBA are kept.
 *
 * Return: 1 when joined: @b's @detail is then owned by @e or freed, and @b
 * must not be used again; 0 when not (nothing changed).
 */
int extent_join(struct bad_extent *e, struct bad_extent *b);

/**
 * extents_merge() - coalesce @v[0..@n) in place and sort it by kind, then
 * LBA.  Extents merged away have their @detail freed.
 * Return: the number of extents left.
 */
size_t extents_merge(struct bad_extent *v, size_t n);

/** extent_free() - free what @e owns (@detail). */
void extent_free(struct bad_extent *e);

/**
 * extent_size_text() - "64 KiB", "1536 bytes", "2 MiB": @bytes in the
 * largest binary unit that divides it.
 * Return: @buf.
 */
const char *extent_size_text(uint64_t bytes, char *buf, size_t len);

/**
 * extent_describe() - one line for @e, e.g. "verify: LBA 2560-2687 (128
 * blocks, 64 KiB): misplaced, holds data written for LBA 1280-1407", with
 * the kind named as in the JSON "errors" object.
 * @lbs: logical block size in bytes
 * Return: what snprintf() returns.
 */
int extent_describe(const struct bad_extent *e, uint32_t lbs, char *buf,
		    size_t len);

/**
 * extent_json() - the members of @e, written into the object @w has open:
 * "kind", "lba", "count", "bytes", "cause", then what applies of
 * "written_for_lba", "byte", "expected", "found", "detail", and "text"
 * (extent_describe()).  The caller opens the object and may put its own
 * members first (the --error-log line's "t", "job", "offset").
 */
void extent_json(struct jw *w, const struct bad_extent *e, uint32_t lbs);

#define EXTENT_OPEN_MAX		16	/* extents a tracker keeps open */
#define EXTENT_HISTORY		32	/* checked ranges a tracker remembers */
#define EXTENT_OPEN_SECONDS	1.0	/* an open extent closes this long
					 * after it last grew */

/**
 * struct extent_open - an extent not yet closed.
 * @e: the extent
 * @touched: when it last grew (seconds, the caller's clock)
 * @lo_done: the block before it was checked and did not join (or there is
 *	none in the slice): it cannot grow downwards
 * @hi_done: the same for the block after it
 */
struct extent_open {
	struct bad_extent e;
	double touched;
	int lo_done;
	int hi_done;
};

/**
 * struct extent_tracker - one worker's bad extents as they are found.
 * @v: the closed extents (@n of @cap), in the order they closed
 * @max: most extents kept in @v; beyond it extents are counted only
 * @dropped: extents not kept because @v was full
 * @dropped_blocks: the blocks of those extents
 * @open: extents still growing (@nopen of them)
 * @lo: first LBA of the worker's slice
 * @hi: the LBA after it
 * @seen: the last EXTENT_HISTORY ranges checked ([0] start, [1] end), so
 *	an extent opened next to a range checked before it (the previous I/O
 *	of a sequential pass) knows at once that it cannot grow there
 * @nseen: ranges ever added to @seen (the next goes to @nseen % its size)
 * @closed: called with each extent as it closes (the live print), or NULL
 * @arg: passed to @closed
 *
 * An open extent closes when it cannot grow any more, as far as the worker
 * can tell: the blocks on both sides have been checked without joining it
 * (or lie outside the slice); when it has not grown for
 * EXTENT_OPEN_SECONDS, so a live print is never held back long by a
 * neighbour the load does not read soon; when EXTENT_OPEN_MAX are open and
 * another is needed (the oldest closes); or at tracker_close_all().  The
 * live print may so show one region in two pieces; the merged summary
 * never does.
 */
struct extent_tracker {
	struct bad_extent *v;
	size_t n, cap, max;
	uint64_t dropped, dropped_blocks;
	struct extent_open open[EXTENT_OPEN_MAX];
	int nopen;
	uint64_t lo, hi;
	uint64_t seen[EXTENT_HISTORY][2];
	unsigned int nseen;
	void (*closed)(const struct bad_extent *e, void *arg);
	void *arg;
};

/**
 * tracker_init() - an empty tracker for the slice [@lo, @hi) (LBAs) that
 * keeps at most @max closed extents and calls @closed (may be NULL) with
 * each as it closes.
 */
void tracker_init(struct extent_tracker *t, uint64_t lo, uint64_t hi,
		  size_t max, void (*closed)(const struct bad_extent *e,
					     void *arg), void *arg);

/**
 * tracker_add() - a bad extent (usually one block, or one failed I/O) was
 * found at time @now.  Its @detail is owned by the tracker afterwards.
 */
void tracker_add(struct extent_tracker *t, struct bad_extent *b, double now);

/*
 * tracker_close_checked() - tracker_checked()'s work on the open extents
 * (there is at least one) after [@lba, @end) was checked.
 */
void tracker_close_checked(struct extent_tracker *t, uint64_t lba,
			   uint64_t end, double now);

/**
 * tracker_checked() - the blocks [@lba, @lba + @count) have been checked
 * (a read verified, or a failed I/O recorded) after every bad block in
 * them was added: open extents next to them cannot grow there.  Closes
 * what cannot grow any more or has not grown for EXTENT_OPEN_SECONDS.
 *
 * Inline: every verified read ends here, and a run with no bad block has
 * no open extent, so the common case is the history's two stores.
 */
static inline void tracker_checked(struct extent_tracker *t, uint64_t lba,
				   uint64_t count, double now)
{
	uint64_t *s = t->seen[t->nseen % EXTENT_HISTORY];

	s[0] = lba;
	s[1] = lba + count;
	t->nseen++;
	if (t->nopen)
		tracker_close_checked(t, lba, lba + count, now);
}

/** tracker_close_all() - close every open extent (at the end of the load). */
void tracker_close_all(struct extent_tracker *t);

/** tracker_free() - free the closed extents (and their details). */
void tracker_free(struct extent_tracker *t);

#endif
