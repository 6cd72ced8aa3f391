// SPDX-License-Identifier: GPL-2.0-or-later
/* test-verify.c - block header encode/verify, damage and misplacement. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "extent.h"
#include "stats.h"
#include "tap.h"
#include "verify.h"

int main(void)
{
	const uint32_t bs = 512, n = 8;
	unsigned char *buf = malloc(bs * n), *copy = malloc(bs * n);
	struct verify_fail f;
	struct bad_extent e;
	char msg[512], want[512];
	uint32_t i;
	int all = 1;

	verify_fill(buf, bs * n, bs, 1 << 20, 1234, 7);
	for (i = 0; i < n; i++)
		all &= verify_block(buf + i * bs, bs, (1 << 20) + i * bs, &f) == VF_OK;
	ok(all, "freshly filled blocks verify");

	memcpy(copy, buf, bs * n);
	verify_fill(copy, bs * n, bs, 1 << 20, 1234, 8);
	ok(memcmp(copy + DIX_HDR_SIZE, buf + DIX_HDR_SIZE, bs - DIX_HDR_SIZE),
	   "a new write sequence changes the pattern");

	memset(copy, 0, bs);
	is_int(verify_block(copy, bs, 0, &f), VF_UNWRITTEN, "zeros are unwritten");

	/* flip one byte in the pattern */
	memcpy(copy, buf, bs * n);
	copy[3 * bs + 100] ^= 0x40;
	is_int(verify_block(copy + 3 * bs, bs, (1 << 20) + 3 * bs, &f), VF_CHANGED,
	       "flipped byte detected");
	is_int(f.byte, 100, "first differing byte");
	is_int(f.found, buf[3 * bs + 100] ^ 0x40, "found byte");
	is_int(f.expected, buf[3 * bs + 100], "expected byte");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	snprintf(want, sizeof(want),
		 "verify: LBA 2051: content changed at byte 100 of the block, expected 0x%02x, found 0x%02x",
		 buf[3 * bs + 100], buf[3 * bs + 100] ^ 0x40);
	is_str(msg, want, "a changed block as an extent: LBA, byte, expected, found");
	ok(e.count == 1 && e.kind == DIX_ERR_VERIFY && !e.has_src, "one verify block");

	/* damage only the header's sequence field */
	memcpy(copy, buf, bs * n);
	copy[24] ^= 1;
	is_int(verify_block(copy, bs, 1 << 20, &f), VF_CHANGED, "header damage detected");
	/* only the stored checksum damaged: the pattern is intact */
	memcpy(copy, buf, bs * n);
	copy[33] ^= 1;
	is_int(verify_block(copy, bs, 1 << 20, &f), VF_CHANGED, "checksum damage detected");
	is_int(f.byte, -1, "no pattern byte differs");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	ok(!strncmp(msg, "verify: LBA 2048: header damaged (checksum expected 0x", 54) &&
	   strstr(msg, ", found 0x"), "header damage: both checksums (%s)", msg);
	extent_free(&e);

	/* a whole intact block at the wrong place */
	is_int(verify_block(buf + 2 * bs, bs, 4096, &f), VF_MISPLACED, "misplaced block");
	is_int(f.hdr_offset, (1 << 20) + 2 * bs, "header names where it belongs");
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 8: misplaced, holds data written for LBA 2050",
	       "misplaced: where it is and where its data belongs");
	memset(copy, 0, bs);
	verify_block(copy, bs, 512, &f);
	verify_extent(&f, 512, &e);
	extent_describe(&e, 512, msg, sizeof(msg));
	is_str(msg, "verify: LBA 1: no dixload header (never written, or the header was destroyed)",
	       "no header");

	/* 4096-byte blocks too */
	free(buf);
	buf = malloc(4096 * 2);
	verify_fill(buf, 8192, 4096, 0, 99, 1);
	is_int(verify_block(buf + 4096, 4096, 4096, &f), VF_OK, "4k block verifies");
	buf[4096 + 4095] ^= 0xff;
	is_int(verify_block(buf + 4096, 4096, 4096, &f), VF_CHANGED, "last byte change");
	is_int(f.byte, 4095, "last byte position");

	ok(block_hash("abc", 3, 0) != block_hash("abd", 3, 0), "hash differs");
	ok(block_hash("abc", 3, 0) != block_hash("abc", 3, 1), "hash is seeded");
	free(buf);
	free(copy);
	return tap_done();
}
