/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmioctl.h - the device-mapper ioctl requests dixload sends, built in
 * memory (no I/O), so a test can check every field of them.
 *
 * The requests that carry a dm-crypt key, the table read back with its keys
 * (DM_TABLE_STATUS with DM_STATUS_TABLE_FLAG) and the table loaded again
 * (DM_TABLE_LOAD), set DM_SECURE_DATA_FLAG: with it the kernel clears the
 * caller's buffer after copying it in and wipes its own copy before freeing
 * it (drivers/md/dm-ioctl.c copy_params(), free_params()); without it the
 * kernel's copies of the key are freed as they are.  cryptsetup sets it on
 * the same requests.  dixload wipes its own copies (dmio_wipe_free()).
 */
#ifndef DIX_DMIOCTL_H
#define DIX_DMIOCTL_H

#include <linux/dm-ioctl.h>
#include <stddef.h>
#include <stdint.h>

/**
 * dmio_init() - a request header for mapping @major:@minor in a buffer of
 * @size bytes (at least sizeof(struct dm_ioctl), zeroed by the caller):
 * version DM_VERSION_MAJOR, the data area right after the header, @flags.
 */
void dmio_init(struct dm_ioctl *io, size_t size, unsigned int major,
	       unsigned int minor, uint32_t flags);

/**
 * dmio_status_request() - a DM_TABLE_STATUS request: the live table with
 * its keys (@table 1, DM_STATUS_TABLE_FLAG) or the status lines (@table 0),
 * either way with DM_SECURE_DATA_FLAG.
 */
void dmio_status_request(struct dm_ioctl *io, size_t size, unsigned int major,
			 unsigned int minor, int table);

/**
 * dmio_load_request() - the DM_TABLE_LOAD request from a DM_TABLE_STATUS
 * reply's data area @src (@len bytes, @count struct dm_target_spec records,
 * each one's next an offset from @src): the same records, each one's next
 * now relative to itself, strings padded to 8 bytes, DM_SECURE_DATA_FLAG.
 * @out: receives the malloc'ed request (it holds the keys: free it with
 *	dmio_wipe_free(*@out, *@outlen))
 *
 * Return: 0, -ENOMEM, or -EBADMSG for a malformed @src.
 */
int dmio_load_request(const uint8_t *src, size_t len, uint32_t count,
		      unsigned int major, unsigned int minor, uint8_t **out,
		      size_t *outlen);

/** dmio_wipe_free() - explicit_bzero() @n bytes of @p, then free it (NULL ok). */
void dmio_wipe_free(void *p, size_t n);

#endif
