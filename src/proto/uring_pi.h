/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uring_pi.h - the user-space ABI of io_uring's protection information
 * attribute and of FS_IOC_GETLBMD_CAP, for headers that predate them.
 *
 * Debian 12 ships liburing 2.3 and Linux 6.1 uapi headers: neither has
 * struct io_uring_attr_pi (Linux 6.14, IORING_FEAT_RW_ATTR) nor the
 * logical block metadata capability query (Linux 6.17).  The layouts below
 * are the kernel's ABI; each block is only used when the installed headers
 * lack it, so newer headers win.  Include after <liburing.h>.
 */
#ifndef DIX_URING_PI_H
#define DIX_URING_PI_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/types.h>

#ifndef IORING_FEAT_RW_ATTR
#define IORING_FEAT_RW_ATTR	(1U << 16)
#endif

#ifndef IORING_RW_ATTR_FLAG_PI
#define IORING_RW_ATTR_FLAG_PI	(1U << 0)

/**
 * struct io_uring_attr_pi - PI attribute of a read/write SQE (32 bytes).
 * @flags: IO_INTEGRITY_CHK_* checks asked of the device/controller
 * @app_tag: application tag written / expected
 * @len: bytes at @addr (intervals x metadata size)
 * @addr: the metadata buffer
 * @seed: reference tag of the first interval; the block layer remaps
 *	seed + i to the device's ref tags and back
 * @rsvd: must be 0
 */
struct io_uring_attr_pi {
	__u16 flags;
	__u16 app_tag;
	__u32 len;
	__u64 addr;
	__u64 seed;
	__u64 rsvd;
};
#endif

#ifndef IO_INTEGRITY_CHK_GUARD
#define IO_INTEGRITY_CHK_GUARD	(1U << 0)
#define IO_INTEGRITY_CHK_REFTAG	(1U << 1)
#define IO_INTEGRITY_CHK_APPTAG	(1U << 2)
#endif

#ifndef FS_IOC_GETLBMD_CAP
/**
 * struct logical_block_metadata_cap - what FS_IOC_GETLBMD_CAP reports.
 * @lbmd_flags: LBMD_PI_CAP_INTEGRITY (the device carries PI),
 *	LBMD_PI_CAP_REFTAG (the ref tag is checked: Type 1/2)
 * @lbmd_interval: protection interval in bytes
 * @lbmd_size: metadata bytes per interval
 * @lbmd_opaque_size: non-PI metadata bytes
 * @lbmd_opaque_offset: their offset in the metadata
 * @lbmd_pi_size: PI tuple bytes (0: no PI)
 * @lbmd_pi_offset: the tuple's offset in the metadata
 * @lbmd_guard_tag_type: LBMD_PI_CSUM_*
 * @lbmd_app_tag_size: application tag bytes
 * @lbmd_ref_tag_size: reference tag bytes
 * @lbmd_storage_tag_size: storage tag bytes
 * @lbmd_rsvd: reserved
 */
struct logical_block_metadata_cap {
	__u32 lbmd_flags;
	__u16 lbmd_interval;
	__u8 lbmd_size;
	__u8 lbmd_opaque_size;
	__u8 lbmd_opaque_offset;
	__u8 lbmd_pi_size;
	__u8 lbmd_pi_offset;
	__u8 lbmd_guard_tag_type;
	__u8 lbmd_app_tag_size;
	__u8 lbmd_ref_tag_size;
	__u8 lbmd_storage_tag_size;
	__u8 lbmd_rsvd;
};

#define LBMD_PI_CAP_INTEGRITY		(1U << 0)
#define LBMD_PI_CAP_REFTAG		(1U << 1)
#define LBMD_PI_CSUM_NONE		0
#define LBMD_PI_CSUM_IP			1
#define LBMD_PI_CSUM_CRC16_T10DIF	2
#define LBMD_PI_CSUM_CRC64_NVME		4
#define FS_IOC_GETLBMD_CAP	_IOWR(0x15, 2, struct logical_block_metadata_cap)
#endif

_Static_assert(sizeof(struct io_uring_attr_pi) == 32,
	       "struct io_uring_attr_pi is 32 bytes in the kernel ABI");
_Static_assert(sizeof(struct logical_block_metadata_cap) == 16,
	       "struct logical_block_metadata_cap is 16 bytes in the kernel ABI");

/* SQE offsets of attr_ptr and attr_type_mask (Linux 6.14 uapi). */
#define DIX_SQE_ATTR_PTR	48
#define DIX_SQE_ATTR_TYPE_MASK	56

/**
 * uring_sqe_set_attr() - point a prepared read/write SQE at attributes.
 * @sqe: the SQE (struct io_uring_sqe *; any header version)
 * @ptr: the attribute (struct io_uring_attr_pi for IORING_RW_ATTR_FLAG_PI)
 * @mask: IORING_RW_ATTR_FLAG_* bits saying what @ptr holds
 *
 * Old headers name these bytes addr3/__pad2, so they are written by offset.
 */
static inline void uring_sqe_set_attr(void *sqe, const void *ptr,
				      uint64_t mask)
{
	uint64_t p = (uintptr_t)ptr;

	memcpy((char *)sqe + DIX_SQE_ATTR_PTR, &p, sizeof(p));
	memcpy((char *)sqe + DIX_SQE_ATTR_TYPE_MASK, &mask, sizeof(mask));
}

#endif
