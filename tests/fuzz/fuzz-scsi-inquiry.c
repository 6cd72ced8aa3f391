// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-scsi-inquiry.c - scsi_parse_inquiry() on any standard INQUIRY
 * response, then the probe's diagnosis and reports of a disk that returned
 * it: the vendor, product and revision strings go into messages and JSON,
 * so they must come out printable and terminated.
 */
#include "config.h"

#include "fuzz.h"
#include "proto/scsi_parse.h"

static void printable(const char *s, size_t max, const char *what)
{
	size_t n = strnlen(s, max);

	FUZZ_CHECK(n < max, "%s not terminated", what);
	for (; *s; s++)
		FUZZ_CHECK(*s >= 0x20 && *s < 0x7f, "%s byte 0x%02x", what,
			   (unsigned char)*s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_scsi();

	if (scsi_parse_inquiry(data, size, &r->scsi.inq))
		return 0;
	printable(r->scsi.inq.vendor, sizeof(r->scsi.inq.vendor), "vendor");
	printable(r->scsi.inq.product, sizeof(r->scsi.inq.product), "product");
	printable(r->scsi.inq.revision, sizeof(r->scsi.inq.revision),
		  "revision");
	FUZZ_CHECK(r->scsi.inq.pdt <= 0x1f, "pdt %u", r->scsi.inq.pdt);
	r->scsi.inq_ok = true;
	fuzz_probe(r);
	return 0;
}
