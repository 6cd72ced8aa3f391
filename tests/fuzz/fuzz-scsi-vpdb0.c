// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-vpdb0.c - scsi_parse_vpd_block_limits() on any Block Limits
 * VPD page, then the probe's diagnosis and reports that show the limits.
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_scsi();

	if (scsi_parse_vpd_block_limits(data, size, &r->scsi.bl))
		return 0;
	FUZZ_CHECK(size >= 16, "accepted a %zu-byte page", size);
	r->scsi.bl_ok = true;
	fuzz_probe(r);
	return 0;
}
