// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvme_parse.c - pure parsers of NVMe Identify Namespace data.
 *
 * Offsets (NVMe Base 2.0, NVM Command Set 1.0): NSZE 0, NLBAF 25, FLBAS 26,
 * MC 27, DPC 28, DPS 29, LBAF[i] at 128 + 4i (MS bits 15:0, LBADS 23:16,
 * RP 25:24).  NVM specific: LBSTM 0, PIC 8, ELBAF[i] at 12 + 4i (STS bits
 * 6:0, PIF 8:7).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/byteorder.h"
#include "proto/nvme_parse.h"

int nvme_parse_id_ns(const uint8_t *buf, size_t len, struct nvme_ns_format *f)
{
	unsigned int flbas;
	size_t lbaf_off;
	uint32_t lbaf;

	memset(f, 0, sizeof(*f));
	if (len < 30)
		return -EBADMSG;
	f->nsze = get_le64(buf);
	f->nlbaf = buf[25] + 1u;
	flbas = buf[26];
	/*
	 * Bits 3:0 are the low four bits of the format index; bits 6:5 the
	 * high two, used once a namespace has more than 16 formats.
	 */
	f->format_index = (flbas & 0x0f) | ((flbas >> 5) & 0x03) << 4;
	f->extended_lba = flbas & 0x10;
	f->mc = buf[27];
	f->dpc = buf[28];
	f->dpc_types = (f->dpc & 0x07) << 1;
	f->dpc_first = f->dpc & 0x08;
	f->dpc_last = f->dpc & 0x10;
	f->dps = buf[29];
	f->protection_type = f->dps & 0x07;
	f->pi_first = f->dps & 0x08;
	if (f->protection_type > 3 || f->format_index >= f->nlbaf)
		return -EBADMSG;

	lbaf_off = 128 + 4 * (size_t)f->format_index;
	if (len < lbaf_off + 4)
		return -EBADMSG;
	lbaf = get_le32(buf + lbaf_off);
	f->metadata_size = lbaf & 0xffff;
	f->lbads = (lbaf >> 16) & 0xff;
	f->relative_performance = (lbaf >> 24) & 0x03;
	/* LBADS < 9 (and 0 = format not available) cannot be in use. */
	if (f->lbads < 9 || f->lbads > 31)
		return -EBADMSG;
	f->data_size = 1u << f->lbads;
	return 0;
}

static void set_pif(struct nvme_nvm_ns *n, unsigned int pif)
{
	static const unsigned int bits[3] = { 16, 32, 64 };

	n->pif = pif;
	n->guard_bits = bits[pif];
	/* 16b guard: 8-byte tuple; 32b and 64b guard: 16-byte tuple. */
	n->pi_size = pif ? 16 : 8;
}

void nvme_nvm_ns_default(struct nvme_nvm_ns *n)
{
	memset(n, 0, sizeof(*n));
	set_pif(n, 0);
}

int nvme_parse_nvm_id_ns(const uint8_t *buf, size_t len,
			 unsigned int format_index, struct nvme_nvm_ns *n)
{
	size_t off = 12 + 4 * (size_t)format_index;
	uint32_t elbaf;
	unsigned int pif;

	memset(n, 0, sizeof(*n));
	if (format_index > 63)
		return -EINVAL;
	if (len < off + 4)
		return -EBADMSG;
	n->pic = buf[8];
	elbaf = get_le32(buf + off);
	n->sts = elbaf & 0x7f;
	pif = (elbaf >> 7) & 0x03;
	if (pif == 3)
		return -EBADMSG;
	set_pif(n, pif);
	return 0;
}
