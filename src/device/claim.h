/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * claim.h - hold the target against other writers for the whole run.
 *
 * safety_check() looks at the target once, before the load; whatever opens
 * it afterwards (mkfs, a mount, a dm/md/LVM table, a second dixload) would
 * not be seen.  So a writable block device is opened with O_EXCL, the
 * kernel's own claim, which mkfs, wipefs, mount, device-mapper and md take
 * too: while dixload holds it, each of them gets EBUSY.  Every target (a
 * block device or a regular file) also carries an OFD lock (fcntl
 * F_OFD_SETLK, a write lock for a run that writes, a read lock otherwise),
 * which other dixload runs honour: a file has no kernel claim, and on a
 * block device the lock tells "another dixload" from any other exclusive
 * opener.
 *
 * Both are held by the one descriptor devdesc_open() makes and every job,
 * engine and phase of the run shares (struct dix_devdesc.fd): a second
 * O_EXCL open or lock by dixload itself would refuse its own run.  Both are
 * released when that descriptor is closed at the end of the run (a sweep
 * point, an MPI rank: each run its own claim).
 *
 * Not covered (doc/running.md, "What the claim does not cover"): writers
 * that open without O_EXCL (dd, a plain open(2)); SCSI commands through
 * /dev/sgN and NVMe commands through /dev/ngXnY, which never open the
 * block device; a loop device's backing file, written through the file;
 * and the disk beneath a mapping stacked on the target before the run
 * (the VM bed's dm-crypt over its scsi_debug disk): the claim is on the
 * device named by --dev, not on what it is built from.
 */
#ifndef DIX_CLAIM_H
#define DIX_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct dix_claim - what claim_open() holds on its descriptor.
 * @exclusive: a block device opened with O_EXCL
 * @lock: the OFD lock held: F_WRLCK, F_RDLCK, or F_UNLCK (none)
 * @warn: what --force let through, or why no lock could be taken, as one
 *	line naming the path ("" when nothing)
 */
struct dix_claim {
	bool exclusive;
	short lock;
	char warn[512];
};

/**
 * claim_open() - open @path for the load with @flags (open(2): O_RDWR or
 * O_RDONLY, O_DIRECT, O_CLOEXEC, O_CREAT), claimed and locked.
 * @flags: with O_CREAT the file must not exist (O_EXCL is added: a file
 *	created under the run's feet is not the run's to size)
 * @force: --force: a claim or a lock held elsewhere is warned about in
 *	@c->warn and the target opened without it
 * @c: set to what is held
 * @why: on failure, the reason naming @path and what holds it
 *
 * A block device opened for writing gets O_EXCL; EBUSY then means a
 * mount, a mapping, mkfs or another dixload holds it, and the OFD lock
 * says which.  The lock is taken on the whole target.  A filesystem that
 * takes no OFD locks (EINVAL, ENOLCK) is no refusal: @c->warn says that
 * other dixload runs will not be kept off.
 *
 * Return: the descriptor, or -errno with @why set (nothing left open).
 */
int claim_open(const char *path, int flags, int force, struct dix_claim *c,
	       char *why, size_t len);

/**
 * claim_lock_holder() - the OFD or POSIX lock another open file holds on
 * the target open as @fd that would conflict with a write lock.
 * Return: F_WRLCK, F_RDLCK, F_UNLCK (none), or -errno.
 */
int claim_lock_holder(int fd);

#endif
