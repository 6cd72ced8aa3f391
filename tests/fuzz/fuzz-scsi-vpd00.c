// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-vpd00.c - the Supported VPD Pages page (0x00): its declared
 * length (scsi_vpd_page_len(), which every VPD parser starts with) and the
 * page lookup the probe does before asking for 0x86 and 0xB0.
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int n = scsi_vpd_page_len(data, size, 0x00);
	unsigned int page;

	if (n < 0)
		return 0;
	FUZZ_CHECK(n >= 4 && (size_t)n <= size, "page length %d of %zu bytes",
		   n, size);
	for (page = 0; page < 0x100; page++) {
		int s = scsi_vpd_supported(data, size, page);

		FUZZ_CHECK(s == 0 || s == 1, "supported(0x%x) = %d", page, s);
	}
	return 0;
}
