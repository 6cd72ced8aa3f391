/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nvme_parse.h - pure parsers of NVMe Identify data: the Identify Namespace
 * data structure (CNS 00h) and the NVM Command Set specific Identify
 * Namespace data structure (CNS 05h, CSI 00h) with its Extended LBA Formats.
 *
 * They read raw little-endian bytes at the offsets of the NVMe Base and NVM
 * Command Set specifications, so they build and are tested without libnvme
 * and run on canned responses (tests/data/NAME.hex).
 */
#ifndef DIX_NVME_PARSE_H
#define DIX_NVME_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Size of every Identify data structure. */
#define NVME_IDENTIFY_LEN 4096

/**
 * struct nvme_ns_format - the Identify Namespace fields that describe data,
 * metadata and protection information.
 * @nsze: namespace size in logical blocks
 * @nlbaf: number of LBA formats (the 0's based NLBAF field + 1)
 * @format_index: in-use LBA format (FLBAS bits 3:0 and 6:5)
 * @extended_lba: FLBAS bit 4: metadata travels at the end of each logical
 *	block in the data buffer (else in a separate buffer)
 * @mc: metadata capabilities (bit 0 extended, bit 1 separate supported)
 * @dpc: end-to-end data protection capabilities, raw
 * @dpc_types: @dpc decoded: bit N set = Type N supported
 * @dpc_first: PI may be placed in the first bytes of metadata
 * @dpc_last: PI may be placed in the last bytes of metadata
 * @dps: end-to-end data protection type settings, raw
 * @protection_type: DPS bits 2:0: 0 = no PI, 1..3 = Type 1..3
 * @pi_first: DPS bit 3: PI is in the first bytes of metadata (else last)
 * @metadata_size: LBAF[@format_index].MS, bytes of metadata per block
 * @lbads: LBAF[@format_index].LBADS, log2 of the data size
 * @data_size: 1 << @lbads, bytes of data per logical block
 * @relative_performance: LBAF[@format_index].RP (0 best .. 3 degraded)
 */
struct nvme_ns_format {
	uint64_t nsze;
	unsigned int nlbaf;
	unsigned int format_index;
	bool extended_lba;
	unsigned int mc;
	unsigned int dpc;
	unsigned int dpc_types;
	bool dpc_first;
	bool dpc_last;
	unsigned int dps;
	unsigned int protection_type;
	bool pi_first;
	unsigned int metadata_size;
	unsigned int lbads;
	uint32_t data_size;
	unsigned int relative_performance;
};

/**
 * nvme_parse_id_ns() - parse an Identify Namespace data structure.
 * @buf: response bytes
 * @len: number of valid bytes (4096 for a full structure)
 * @f: result
 *
 * Only the bytes up to the in-use LBA format descriptor are needed, so a
 * structure truncated after it still parses.
 *
 * Return: 0; -EBADMSG when @len does not reach the in-use LBA format
 * descriptor, the in-use format index is beyond NLBAF, the protection type
 * in DPS is a reserved value (4..7), or the in-use format's LBADS is below
 * 9 (data sizes under 512 bytes are not allowed; 0 marks an unavailable
 * format).
 */
int nvme_parse_id_ns(const uint8_t *buf, size_t len, struct nvme_ns_format *f);

/**
 * struct nvme_nvm_ns - NVM Command Set specific namespace data for one LBA
 * format.
 * @pic: protection information capabilities, raw (bit 0 16b guard PI
 *	format supported, bit 1 STC, bit 2 storage tag checking...)
 * @sts: storage tag size in bits of the format (ELBAF.STS)
 * @pif: protection information format (ELBAF.PIF): 0 16b guard, 1 32b
 *	guard, 2 64b guard
 * @guard_bits: 16, 32 or 64, from @pif
 * @pi_size: bytes of the PI tuple: 8 for 16b guard, 16 for 32b/64b guard
 */
struct nvme_nvm_ns {
	unsigned int pic;
	unsigned int sts;
	unsigned int pif;
	unsigned int guard_bits;
	unsigned int pi_size;
};

/**
 * nvme_parse_nvm_id_ns() - parse the NVM Command Set specific Identify
 * Namespace data for LBA format @format_index.
 * @buf: response bytes
 * @len: number of valid bytes (4096 for a full structure)
 * @format_index: the in-use format index from nvme_parse_id_ns()
 * @n: result
 *
 * Return: 0; -EBADMSG when @len does not reach the ELBAF entry of
 * @format_index or its PIF is the reserved value 3; -EINVAL when
 * @format_index > 63.
 */
int nvme_parse_nvm_id_ns(const uint8_t *buf, size_t len,
			 unsigned int format_index, struct nvme_nvm_ns *n);

/**
 * nvme_nvm_ns_default() - what a controller without the NVM Command Set
 * specific Identify Namespace structure means: every PI format is the
 * 16-bit-guard one (NVMe 1.x).
 */
void nvme_nvm_ns_default(struct nvme_nvm_ns *n);

#endif
