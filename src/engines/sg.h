/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sg.h - the sg engine's transport hooks.
 *
 * Every blocking command the sg engine sends (READ/WRITE(16), READ/WRITE(32)
 * at --iodepth 1 or on threads) goes through its target's transport
 * (struct dix_devdesc.sgio, device/devdesc_scsi.h: SG_IO on the target's
 * descriptor, which also carries the description's INQUIRY and READ
 * CAPACITY(16)), the asynchronous ones (--iodepth > 1) through struct
 * dix_sg_async_ops (write()/poll()/read() on the disk's /dev/sgN), the
 * kernel's unless the run's test bed (struct dix_sg_bed) gives its own.
 * The unit test points both at an emulated DIF disk so
 * that interleaved protection information is checked like a real
 * DIF-formatted drive would (scsi_debug ignores PI interleaved in a
 * pass-through buffer).
 */
#ifndef DIX_ENGINES_SG_H
#define DIX_ENGINES_SG_H

#include <poll.h>
#include <stddef.h>

#include <scsi/sg.h>

#include "device/devdesc_scsi.h"

/**
 * struct dix_sg_async_ops - the sg driver's asynchronous interface, used
 * at --iodepth > 1 (the unit test stands in for the driver here too).
 * @open: open the sg node of the disk whose block device is open as
 *	@blkfd, non-blocking; its path into @node, and on failure the reason
 *	into @why.  Return: a descriptor, or -errno.  Called once per queue
 *	slot (per up to 16 slots beyond 256).
 * @submit: start the command @hdr (write() of the header): 0 or -errno;
 *	@hdr, its CDB, sense and data buffers stay the engine's until reaped
 * @reap: one completed command's header into @hdr, its pack_id and
 *	usr_ptr as submitted (read()): 1, 0 when none is complete, or -errno
 * @poll: poll() @n descriptors for POLLIN (a completion to read), waiting
 *	at most @timeout ms (-1: until one has): how many are ready (0 on a
 *	timeout or a signal), or -errno
 * @close: close a descriptor @open gave
 */
struct dix_sg_async_ops {
	int (*open)(int blkfd, char *node, size_t nlen, char *why,
		    size_t wlen);
	int (*submit)(int fd, struct sg_io_hdr *hdr);
	int (*reap)(int fd, struct sg_io_hdr *hdr);
	int (*poll)(struct pollfd *p, unsigned int n, int timeout);
	void (*close)(int fd);
};

/**
 * struct dix_sg_bed - a test bed of the sg engine, handed to the run it
 * drives (struct dix_run.eng_bed; each instance gets it as ctx->bed), so
 * a test's driver is a value of its run, not of the process.
 * @async: the asynchronous interface to use (NULL: the kernel's)
 */
struct dix_sg_bed {
	const struct dix_sg_async_ops *async;
};

#endif
