// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-vpd86.c - scsi_parse_vpd_ext_inquiry() on any Extended INQUIRY
 * Data VPD page, then the probe's diagnosis (SPT against the formatted
 * protection type, the check bits) and reports.
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_scsi();
	struct scsi_ext_inquiry *ei = &r->scsi.ei;

	if (scsi_parse_vpd_ext_inquiry(data, size, ei))
		return 0;
	FUZZ_CHECK(ei->spt <= 7, "spt %u", ei->spt);
	FUZZ_CHECK(!(ei->type_mask & ~0xeu), "type mask 0x%x", ei->type_mask);
	r->scsi.ei_ok = true;
	/* a formatted Type 1 disk, so the SPT rules have something to hold */
	r->scsi.rc_ok = true;
	r->scsi.rc.block_length = 512;
	r->scsi.rc.prot_en = true;
	r->scsi.rc.protection_type = 1;
	fuzz_probe(r);
	return 0;
}
