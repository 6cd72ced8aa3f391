/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * byteorder.h - loads and stores of big- and little-endian integers at any
 * alignment, the one copy for the whole tree.
 *
 * SCSI CDBs, sense data and PI tuples are big-endian; NVMe structures and
 * the CRC folding's word loads are little-endian.  memcpy() + <endian.h>
 * compiles to one load and a bswap on x86 and is safe on unaligned buffers
 * (device replies, tuples at odd offsets in interleaved sectors).
 */
#ifndef DIX_BYTEORDER_H
#define DIX_BYTEORDER_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t get_be16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

static inline uint32_t get_be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline uint64_t get_be64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline uint32_t get_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t get_le64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline void put_be16(void *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_be32(void *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_be64(void *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_le16(void *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_le32(void *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

#endif
