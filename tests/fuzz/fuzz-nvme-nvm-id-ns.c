// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-nvme-nvm-id-ns.c - nvme_parse_nvm_id_ns() on any NVM Command Set
 * specific Identify Namespace data, for every format index the in-use one
 * can be (FLBAS gives 0..63; 64 must be refused), then the probe's
 * diagnosis and reports of a PI namespace whose in-use format it is.
 */
#include "config.h"

#include <errno.h>

#include "fuzz.h"
#include "proto/nvme_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_nvme();
	struct nvme_nvm_ns n;
	unsigned int i;

	FUZZ_CHECK(nvme_parse_nvm_id_ns(data, size, 64, &n) == -EINVAL,
		   "format index 64 accepted");
	for (i = 0; i < 64; i++) {
		if (nvme_parse_nvm_id_ns(data, size, i, &n))
			continue;
		FUZZ_CHECK(n.pif <= 2 && n.guard_bits == 16u << n.pif &&
			   n.pi_size == (n.pif ? 16u : 8u),
			   "format %u: pif %u guard %u pi_size %u", i, n.pif,
			   n.guard_bits, n.pi_size);
		if (i)
			continue;
		r->nvme.ns_ok = true;
		r->nvme.f.nlbaf = 1;
		r->nvme.f.metadata_size = n.pi_size;
		r->nvme.f.lbads = 9;
		r->nvme.f.data_size = 512;
		r->nvme.f.protection_type = 1;
		r->nvme.f.dpc_types = 1u << 1;
		r->nvme.nvm_ok = true;
		r->nvme.n = n;
		fuzz_probe(r);
	}
	return 0;
}
