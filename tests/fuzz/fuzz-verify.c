// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-verify.c - the block checks (verify.h) over any bytes: a read
 * brings back whatever the device holds, and the checks trust nothing in
 * it (a header may name any seed, offset or size).  The input is read as
 * 512-byte blocks from byte offset 1 MiB, the offset of the stored
 * fixtures (tests/data/verify-dixload*-512.hex) the fuzzer starts from.
 *
 * Checks: the fast path (verify_run()) passes only blocks verify_block()
 * finds intact at their place, and stops at no intact DIXLOAD3 block whose
 * seed has a pool (unless the run began in another format); a changed block names a body byte that differs, with
 * the byte read; a misplaced one names another offset.
 */
#include "config.h"

#include <endian.h>
#include <inttypes.h>

#include "fuzz.h"
#include "verify/extent.h"
#include "verify/pool.h"
#include "verify/verify.h"

#define BS	512u
#define OFF	(1ull << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t len = size > (64u << 10) ? 64u << 10 : (uint32_t)size;
	uint32_t run, i;
	unsigned char *buf;

	len -= len % BS;
	if (!len)
		return 0;
	buf = malloc(len);	/* the exact size: ASan sees a read past it */
	if (!buf)
		return 0;
	memcpy(buf, data, len);
	run = verify_run(buf, len, BS, OFF);
	FUZZ_CHECK(run % BS == 0 && run <= len, "verify_run() gave %" PRIu32
		   " of %" PRIu32 " bytes", run, len);
	for (i = 0; i < len; i += BS) {
		const unsigned char *blk = buf + i;
		struct verify_fail f;
		struct bad_extent e;
		char msg[512];
		enum verify_kind k = verify_block(blk, BS, OFF + i, &f);
		uint64_t magic, seed;

		memcpy(&magic, blk, 8);
		memcpy(&seed, blk + 16, 8);
		magic = le64toh(magic);
		seed = le64toh(seed);
		if (i < run)
			FUZZ_CHECK(k == VF_OK, "block %" PRIu32 " passed the fast path, verify_block() says %d",
				   i / BS, k);
		/* a run is of one format: it may stop where the format changes */
		if (i == run && magic == DIX_HDR_MAGIC3 && k == VF_OK)
			FUZZ_CHECK((run && memcmp(buf, "DIXLOAD3", 8)) || !pool_get(seed),
				   "the fast path stopped at intact DIXLOAD3 block %" PRIu32, i / BS);
		if (k == VF_CHANGED && f.byte >= 0)
			FUZZ_CHECK(f.byte >= 40 && f.byte < (int)BS && f.expected != f.found &&
				   blk[f.byte] == f.found,
				   "block %" PRIu32 ": changed byte %d, expected 0x%02x, found 0x%02x",
				   i / BS, f.byte, f.expected, f.found);
		if (k == VF_MISPLACED)
			FUZZ_CHECK(f.hdr_offset != OFF + i, "block %" PRIu32 " misplaced at its own place",
				   i / BS);
		if (k != VF_OK) {
			verify_extent(&f, BS, &e);
			extent_describe(&e, BS, msg, sizeof(msg));
			FUZZ_CHECK(!strncmp(msg, "verify: LBA ", 12), "extent text: %s", msg);
			extent_free(&e);
		}
	}
	free(buf);
	return 0;
}
