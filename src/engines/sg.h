/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sg.h - the sg engine's transport hook.
 *
 * Every command the sg engine sends (READ CAPACITY(16), READ/WRITE(16),
 * READ/WRITE(32)) goes through dix_sg_transport.  It is SG_IO on the
 * target's descriptor; the unit test points it at an emulated DIF disk so
 * that interleaved protection information is checked like a real
 * DIF-formatted drive would (scsi_debug ignores PI interleaved in a
 * pass-through buffer).
 */
#ifndef DIX_ENGINES_SG_H
#define DIX_ENGINES_SG_H

#include <scsi/sg.h>

/**
 * dix_sg_transport - send one SCSI command.
 * @fd: the target's descriptor (block device or /dev/sgN)
 * @hdr: a filled sg_io_hdr; on return its status, sense and resid fields
 *	are set as SG_IO sets them
 *
 * May be called from several threads at once.
 * Return: 0 when the command reached the device (its outcome is in @hdr),
 * or -errno when it could not be sent.
 */
extern int (*dix_sg_transport)(int fd, struct sg_io_hdr *hdr);

#endif
