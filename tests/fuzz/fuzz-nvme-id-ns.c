// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-nvme-id-ns.c - nvme_parse_id_ns() on any Identify Namespace data,
 * then the probe's diagnosis and reports of a namespace that returned it
 * (metadata size and PI placement against the kernel's format, engines).
 */
#include "config.h"

#include "fuzz.h"
#include "proto/nvme_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_nvme();
	struct nvme_ns_format *f = &r->nvme.f;

	if (nvme_parse_id_ns(data, size, f))
		return 0;
	FUZZ_CHECK(f->format_index < f->nlbaf && f->nlbaf <= 256,
		   "format %u of %u", f->format_index, f->nlbaf);
	FUZZ_CHECK(f->lbads >= 9 && f->lbads <= 31 &&
		   f->data_size == 1u << f->lbads, "lbads %u data size %u",
		   f->lbads, f->data_size);
	FUZZ_CHECK(f->protection_type <= 3, "type %u", f->protection_type);
	r->nvme.ns_ok = true;
	nvme_nvm_ns_default(&r->nvme.n);
	fuzz_probe(r);
	return 0;
}
