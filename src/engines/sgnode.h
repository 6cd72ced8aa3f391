/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sgnode.h - the SCSI generic character device (/dev/sgN) of a SCSI disk's
 * block device, for the sg driver's asynchronous interface.
 */
#ifndef DIX_ENGINES_SGNODE_H
#define DIX_ENGINES_SGNODE_H

#include <stddef.h>
#include <sys/types.h>

/**
 * sg_node_open() - open the sg node of the disk whose block device is @blk.
 * @sysfs: the sysfs mount ("/sys"; tests give a fake tree)
 * @devdir: where device nodes live ("/dev")
 * @blk: the block device's number (st_rdev)
 * @node: the node's path on success ("/dev/sg0")
 * @nlen: size of @node
 * @why: on failure, the reason in words, naming what was looked at
 * @wlen: size of @why
 *
 * The disk's sg device is the one entry of
 * @sysfs/dev/block/MAJ:MIN/device/scsi_generic/; its number is in that
 * entry's "dev" file.  When @devdir has no node of that name (devtmpfs not
 * mounted, or an old static /dev), it is created with mknod, mode 0600,
 * and removed again as soon as it is open (or the open failed): the
 * descriptor works without it, and @devdir is left as it was found, even by
 * a run that is killed.  A node that was there before stays.  A node of
 * that name with another device number is not used.  The node is
 * opened read-write, non-blocking and close-on-exec, and must answer
 * SG_GET_VERSION_NUM with a version of 3.0 or later (the v3 sg_io_hdr
 * interface).
 *
 * Return: the open descriptor, or -errno (-ENODEV: no sg device for @blk,
 * i.e. the sg module is not loaded or the device is no SCSI disk).
 */
int sg_node_open(const char *sysfs, const char *devdir, dev_t blk,
		 char *node, size_t nlen, char *why, size_t wlen);

#endif
