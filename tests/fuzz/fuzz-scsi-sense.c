// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-sense.c - scsi_parse_sense() on any bytes a device or HBA can
 * return as sense data (SG_IO sb_len_wr is at most 252).
 *
 * Checks what the parser promises: a response code it accepts is one of
 * 0x70-0x73, the PI kind agrees with ASC/ASCQ, and its name is a string.
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scsi_sense s;

	if (scsi_parse_sense(data, size, &s))
		return 0;
	FUZZ_CHECK(s.response_code >= 0x70 && s.response_code <= 0x73,
		   "response code 0x%x", s.response_code);
	FUZZ_CHECK(s.sense_key <= 0xf, "sense key 0x%x", s.sense_key);
	FUZZ_CHECK((s.pi == SCSI_PI_NONE) == (s.asc != 0x10),
		   "pi %d for ASC 0x%x", s.pi, s.asc);
	FUZZ_CHECK(strlen(scsi_pi_error_name(s.pi)) > 0, "pi name");
	return 0;
}
