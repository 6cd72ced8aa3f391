// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmioctl.c - the device-mapper ioctl requests, built in memory (see
 * dmioctl.h for why the key-bearing ones set DM_SECURE_DATA_FLAG).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "proto/dmioctl.h"

/* struct dm_target_spec: 40 bytes, status at 16, next at 20 */
#define SPEC_SIZE	40

void dmio_wipe_free(void *p, size_t n)
{
	if (!p)
		return;
	/* not optimised away like a memset before free() may be */
	explicit_bzero(p, n);
	free(p);
}

void dmio_init(struct dm_ioctl *io, size_t size, unsigned int major,
	       unsigned int minor, uint32_t flags)
{
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = 0;
	io->version[2] = 0;
	io->data_size = (uint32_t)size;
	io->data_start = sizeof(*io);
	io->dev = makedev(major, minor);
	io->flags = flags;
}

void dmio_status_request(struct dm_ioctl *io, size_t size, unsigned int major,
			 unsigned int minor, int table)
{
	dmio_init(io, size, major, minor, DM_SECURE_DATA_FLAG |
		  (table ? DM_STATUS_TABLE_FLAG : 0));
}

int dmio_load_request(const uint8_t *src, size_t len, uint32_t count,
		      unsigned int major, unsigned int minor, uint8_t **out,
		      size_t *outlen)
{
	size_t off = 0, w = sizeof(struct dm_ioctl);
	size_t size = sizeof(struct dm_ioctl) + 2 * len + 64 * (size_t)count + 8;
	uint8_t *b = calloc(1, size);
	uint32_t i;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		size_t plen, rec;
		uint32_t next;

		if (off > len || len - off < SPEC_SIZE)
			goto bad;
		plen = strnlen((const char *)src + off + SPEC_SIZE, len - off - SPEC_SIZE);
		if (plen == len - off - SPEC_SIZE)
			goto bad;
		rec = (SPEC_SIZE + plen + 1 + 7) & ~(size_t)7;
		if (w + rec > size)
			goto bad;
		memcpy(b + w, src + off, SPEC_SIZE + plen + 1);
		/* status 0; next relative to this record (0 for the last) */
		memset(b + w + 16, 0, 4);
		next = i + 1 < count ? (uint32_t)rec : 0;
		memcpy(b + w + 20, &next, 4);
		w += rec;
		memcpy(&next, src + off + 20, 4);
		if (i + 1 < count && next <= off)
			goto bad;
		off = next;
	}
	dmio_init((struct dm_ioctl *)b, w, major, minor, DM_SECURE_DATA_FLAG);
	((struct dm_ioctl *)b)->target_count = count;
	*out = b;
	*outlen = size;
	return 0;
bad:
	dmio_wipe_free(b, size);
	return -EBADMSG;
}
