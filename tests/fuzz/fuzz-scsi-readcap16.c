// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-readcap16.c - scsi_parse_readcap16() on any READ CAPACITY(16)
 * parameter data, then the probe's diagnosis and reports of a disk that
 * returned it (block length against the kernel's, protection type against
 * the integrity format, the expected format).
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_scsi();
	struct scsi_readcap16 *rc = &r->scsi.rc;

	if (scsi_parse_readcap16(data, size, rc))
		return 0;
	FUZZ_CHECK(rc->block_length, "block length 0 accepted");
	FUZZ_CHECK(rc->prot_en ? rc->protection_type >= 1 &&
		   rc->protection_type <= 3 : rc->protection_type == 0,
		   "prot_en %d protection_type %u", rc->prot_en,
		   rc->protection_type);
	r->scsi.rc_ok = true;
	fuzz_probe(r);
	return 0;
}
