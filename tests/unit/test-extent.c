// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-extent.c - bad blocks coalesced into extents: which blocks join,
 * the merge of shuffled and repeated findings across I/Os and workers, the
 * text and JSON of an extent, and when the per-worker tracker closes one
 * for the live print.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "verify/extent.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "tap.h"

static const char *misplaced, *changed, *eio;

static struct bad_extent blk(int kind, const char *cause, uint64_t lba,
			     uint64_t count)
{
	struct bad_extent e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.cause = cause;
	e.lba = lba;
	e.count = count;
	e.byte = -1;
	return e;
}

static struct bad_extent moved(uint64_t lba, uint64_t src)
{
	struct bad_extent e = blk(DIX_ERR_VERIFY, misplaced, lba, 1);

	e.has_src = 1;
	e.src = src;
	return e;
}

static struct bad_extent change(uint64_t lba, int byte, int exp, int found)
{
	struct bad_extent e = blk(DIX_ERR_VERIFY, changed, lba, 1);

	e.byte = byte;
	e.expected = exp;
	e.found = found;
	return e;
}

static void test_join(void)
{
	struct bad_extent e, b;

	e = moved(100, 50);
	b = moved(101, 51);
	is_int(extent_join(&e, &b), 1, "next block, source in step: joins");
	ok(e.lba == 100 && e.count == 2 && e.src == 50, "100-101 from 50");
	b = moved(99, 49);
	is_int(extent_join(&e, &b), 1, "block before, source in step: joins");
	ok(e.lba == 99 && e.count == 3 && e.src == 49,
	   "99-101 from 49 (the first block's source)");
	b = moved(102, 60);
	is_int(extent_join(&e, &b), 0, "next block, source elsewhere: a new story");
	b = moved(103, 53);
	is_int(extent_join(&e, &b), 0, "a gap of one block: no join");
	b = moved(100, 50);
	is_int(extent_join(&e, &b), 1, "the same block again (a later pass): joins");
	is_int(e.count, 3, "... without growing");

	e = change(10, 40, 1, 2);
	b = change(11, 300, 3, 4);
	is_int(extent_join(&e, &b), 1, "content changed at another byte: same cause");
	ok(e.byte == 40 && e.expected == 1 && e.found == 2,
	   "the first block's particulars are kept");
	b = change(9, 77, 5, 6);
	b.detail = strdup("first");
	is_int(extent_join(&e, &b), 1, "a block before it joins");
	ok(e.lba == 9 && e.byte == 77 && e.detail && !strcmp(e.detail, "first") &&
	   !b.detail, "... and its particulars become the extent's (detail moved)");
	extent_free(&e);

	e = blk(DIX_ERR_VERIFY, changed, 5, 1);
	b = moved(6, 6);
	is_int(extent_join(&e, &b), 0, "another cause: no join");
	b = blk(DIX_ERR_GUARD, changed, 6, 1);
	is_int(extent_join(&e, &b), 0, "another kind: no join");
	e = blk(DIX_ERR_IO, eio, 0, 128);
	b = blk(DIX_ERR_IO, eio, 128, 128);
	b.detail = strdup("sense of the second I/O");
	is_int(extent_join(&e, &b), 1, "two failed I/Os back to back: one extent");
	ok(e.count == 256 && !e.detail, "256 blocks, the first I/O's detail (none)");
}

static void test_merge(void)
{
	struct bad_extent v[400];
	size_t n = 0, i, m;

	/* a 128-block copy, one changed block, and repeats, shuffled */
	for (i = 0; i < 128; i++)
		v[n++] = moved(2560 + i, 1280 + i);
	v[n++] = change(65537, 488, 0x76, 0x58);
	for (i = 0; i < 64; i++)
		v[n++] = moved(2600 + i, 1320 + i);	/* seen again */
	v[n++] = change(65537, 488, 0x76, 0x58);
	srand(7);
	for (i = n - 1; i > 0; i--) {
		size_t j = rand() % (i + 1);
		struct bad_extent t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	m = extents_merge(v, n);
	is_int(m, 2, "194 findings, shuffled, with repeats: 2 extents");
	ok(v[0].lba == 2560 && v[0].count == 128 && v[0].src == 1280,
	   "misplaced 2560 +128 from 1280 first (by LBA)");
	ok(v[1].lba == 65537 && v[1].count == 1 && v[1].byte == 488,
	   "then the changed block");

	/* by kind first, then LBA */
	n = 0;
	v[n++] = blk(DIX_ERR_GUARD, eio, 5, 1);
	v[n++] = change(900, 1, 2, 3);
	v[n++] = blk(DIX_ERR_IO, eio, 1000, 8);
	v[n++] = change(7, 1, 2, 3);
	m = extents_merge(v, n);
	ok(m == 4 && v[0].kind == DIX_ERR_IO && v[1].kind == DIX_ERR_VERIFY &&
	   v[1].lba == 7 && v[2].lba == 900 && v[3].kind == DIX_ERR_GUARD,
	   "sorted by kind (io, verify, guard), then LBA");
	is_int(extents_merge(v, 0), 0, "nothing to merge");
}

static char printed[16][256];
static int nprinted;

static void closed(const struct bad_extent *e, void *arg)
{
	if (nprinted < 16)
		extent_describe(e, 512, printed[nprinted], sizeof(printed[0]));
	nprinted++;
	(void)arg;
}

static void add_range(struct extent_tracker *t, uint64_t lba, uint64_t n,
		      double now)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct bad_extent b = moved(lba + i, lba + i + 1000);

		tracker_add(t, &b, now);
	}
}

static void test_tracker(void)
{
	struct extent_tracker t, u;
	struct bad_extent all[64];
	size_t n;

	/* damage inside one I/O: closed as soon as the I/O is checked */
	tracker_init(&t, 0, 4096, 100, closed, NULL);
	nprinted = 0;
	add_range(&t, 10, 4, 0);
	is_int(nprinted, 0, "nothing printed while the I/O is being checked");
	tracker_checked(&t, 0, 128, 0);
	is_int(nprinted, 1, "closed when its I/O has been checked");
	is_str(printed[0], "verify: LBA 10-13 (4 blocks, 2 KiB): misplaced, holds data written for LBA 1010-1013",
	       "live line");

	/* damage across an I/O boundary, completions in order */
	nprinted = 0;
	add_range(&t, 250, 6, 0.1);		/* end of I/O 128-255 */
	tracker_checked(&t, 128, 128, 0.1);
	is_int(nprinted, 0, "open at the end of its I/O: the next one may continue it");
	add_range(&t, 256, 10, 0.2);
	tracker_checked(&t, 256, 128, 0.2);
	is_int(nprinted, 1, "closed when the next I/O ends it");
	is_str(printed[0], "verify: LBA 250-265 (16 blocks, 8 KiB): misplaced, holds data written for LBA 1250-1265",
	       "one line across the I/O boundary");

	/* damage at the start of an I/O whose predecessor was read clean */
	nprinted = 0;
	tracker_checked(&t, 1152, 128, 0.25);
	add_range(&t, 1280, 128, 0.25);
	tracker_checked(&t, 1280, 128, 0.25);
	is_int(nprinted, 0, "a whole I/O bad: the next one may continue it");
	tracker_checked(&t, 1408, 128, 0.26);
	is_int(nprinted, 1, "closed by the next I/O: the one before was remembered as checked");
	is_str(printed[0], "verify: LBA 1280-1407 (128 blocks, 64 KiB): misplaced, holds data written for LBA 2280-2407",
	       "the whole I/O, once");

	/* the same, the later I/O completing first */
	nprinted = 0;
	add_range(&t, 512, 3, 0.3);
	tracker_checked(&t, 512, 128, 0.3);
	add_range(&t, 500, 12, 0.3);
	tracker_checked(&t, 384, 128, 0.3);
	is_int(nprinted, 1, "out-of-order completions: one extent");
	is_str(printed[0], "verify: LBA 500-514 (15 blocks, 7680 bytes): misplaced, holds data written for LBA 1500-1514",
	       "grown at the front");

	/* a neighbour never read: closed after EXTENT_OPEN_SECONDS */
	nprinted = 0;
	add_range(&t, 1023, 1, 1.0);
	tracker_checked(&t, 896, 128, 1.0);
	tracker_checked(&t, 2048, 128, 1.5);
	is_int(nprinted, 0, "still open 0.5 s later");
	tracker_checked(&t, 2048, 128, 2.0);
	is_int(nprinted, 1, "closed 1 s after it last grew");

	/* the slice's ends count as checked neighbours */
	nprinted = 0;
	add_range(&t, 4090, 6, 3.0);
	tracker_checked(&t, 4032, 64, 3.0);
	is_int(nprinted, 1, "at the end of the slice: closed with its I/O");

	/* a block bridging two open extents */
	nprinted = 0;
	add_range(&t, 3000, 2, 4.0);
	add_range(&t, 3003, 2, 4.0);
	is_int(t.nopen, 2, "two open extents with a gap");
	add_range(&t, 3002, 1, 4.0);
	is_int(t.nopen, 1, "the block between joins them");
	tracker_close_all(&t);
	is_str(printed[0], "verify: LBA 3000-3004 (5 blocks, 2560 bytes): misplaced, holds data written for LBA 4000-4004",
	       "bridged extent");

	/* more open extents than EXTENT_OPEN_MAX: the oldest closes */
	nprinted = 0;
	for (n = 0; n < EXTENT_OPEN_MAX + 1; n++)
		add_range(&t, 5000 + 10 * n, 1, 5.0 + n * 0.01);
	is_int(nprinted, 1, "one closed to make room");
	is_str(printed[0], "verify: LBA 5000: misplaced, holds data written for LBA 6000",
	       "the oldest one");
	tracker_close_all(&t);
	is_int(nprinted, EXTENT_OPEN_MAX + 1, "close_all closes the rest");
	is_int(t.nopen, 0, "none open");
	is_int(t.n, 8 + EXTENT_OPEN_MAX, "every closed extent kept");
	tracker_free(&t);

	/* the bound: extents beyond it are counted */
	tracker_init(&t, 0, 100, 2, NULL, NULL);
	add_range(&t, 1, 1, 0);
	add_range(&t, 3, 2, 0);
	add_range(&t, 9, 3, 0);
	tracker_close_all(&t);
	ok(t.n == 2 && t.dropped == 1 && t.dropped_blocks == 3,
	   "max 2: the third extent (3 blocks) is counted, not kept");
	tracker_free(&t);

	/* two workers' slices: an extent across the boundary merges at the end */
	tracker_init(&t, 0, 64, 100, NULL, NULL);
	tracker_init(&u, 64, 128, 100, NULL, NULL);
	add_range(&t, 60, 4, 0);
	add_range(&u, 64, 6, 0);
	tracker_checked(&t, 32, 32, 0);
	tracker_checked(&u, 64, 32, 0);
	ok(t.n == 1 && u.n == 1, "each worker closed its part at its slice's end");
	memcpy(all, t.v, t.n * sizeof(*all));
	memcpy(all + t.n, u.v, u.n * sizeof(*all));
	n = extents_merge(all, t.n + u.n);
	ok(n == 1 && all[0].lba == 60 && all[0].count == 10 && all[0].src == 1060,
	   "merged across workers: LBA 60-69 from 1060");
	free(t.v);
	free(u.v);
}

static void test_text(void)
{
	struct bad_extent e;
	char buf[512], sz[32];
	FILE *f;
	struct jw w;
	char *js = NULL;
	size_t jl = 0;

	e = moved(2560, 1280);
	e.count = 128;
	extent_describe(&e, 512, buf, sizeof(buf));
	is_str(buf, "verify: LBA 2560-2687 (128 blocks, 64 KiB): misplaced, holds data written for LBA 1280-1407",
	       "misplaced extent (the issue's line)");
	e = change(65537, 488, 0x76, 0x58);
	extent_describe(&e, 512, buf, sizeof(buf));
	is_str(buf, "verify: LBA 65537: content changed at byte 488 of the block, expected 0x76, found 0x58",
	       "one changed block (the issue's line)");
	e.count = 3;
	extent_describe(&e, 4096, buf, sizeof(buf));
	is_str(buf, "verify: LBA 65537-65539 (3 blocks, 12 KiB): content changed, first at byte 488 of LBA 65537, expected 0x76, found 0x58",
	       "several changed blocks: the first one's byte");
	e = blk(DIX_ERR_GUARD, cause_intern("read failed: guard check failed (ASC 10/01)"), 0, 32);
	e.detail = "SCSI status 0x02, Aborted Command";
	extent_describe(&e, 512, buf, sizeof(buf));
	is_str(buf, "guard: LBA 0-31 (32 blocks, 16 KiB): read failed: guard check failed (ASC 10/01) (SCSI status 0x02, Aborted Command)",
	       "a failed I/O with what the device said");
	e = blk(DIX_ERR_VERIFY, cause_intern(CAUSE_NO_HEADER), 3000, 1);
	extent_describe(&e, 512, buf, sizeof(buf));
	is_str(buf, "verify: LBA 3000: no dixload header (never written, or the header was destroyed)",
	       "no header");

	is_str(extent_size_text(65536, sz, sizeof(sz)), "64 KiB", "64 KiB");
	is_str(extent_size_text(1536, sz, sizeof(sz)), "1536 bytes", "1536 bytes");
	is_str(extent_size_text(3ull << 30, sz, sizeof(sz)), "3 GiB", "3 GiB");
	is_str(extent_size_text(512, sz, sizeof(sz)), "512 bytes", "512 bytes");

	ok(cause_intern("misplaced") == misplaced, "interned causes are one pointer");

	f = open_memstream(&js, &jl);
	e = change(65537, 488, 0x76, 0x58);
	jw_init(&w, f);
	jw_obj_open(&w, NULL);
	jw_num(&w, "t", 1.5, 1);
	extent_json(&w, &e, 512);
	jw_obj_close(&w);
	fclose(f);
	is_str(js, "{\"t\":1.5,\"kind\":\"verify\",\"lba\":65537,\"count\":1,\"bytes\":512,\"cause\":\"content changed\",\"byte\":488,\"expected\":118,\"found\":88,\"text\":\"verify: LBA 65537: content changed at byte 488 of the block, expected 0x76, found 0x58\"}",
	       "JSON of a changed block");
	free(js);
	js = NULL;
	f = open_memstream(&js, &jl);
	e = moved(2560, 1280);
	e.count = 128;
	jw_init(&w, f);
	jw_obj_open(&w, NULL);
	extent_json(&w, &e, 512);
	jw_obj_close(&w);
	fclose(f);
	ok(strstr(js, "\"lba\":2560,\"count\":128,\"bytes\":65536,\"cause\":\"misplaced\",\"written_for_lba\":1280,") != NULL,
	   "JSON of a misplaced extent: %s", js);
	free(js);
}

int main(void)
{
	misplaced = cause_intern(CAUSE_MISPLACED);
	changed = cause_intern(CAUSE_CHANGED);
	eio = cause_intern("read failed: Input/output error");
	test_join();
	test_merge();
	test_tracker();
	test_text();
	return tap_done();
}
