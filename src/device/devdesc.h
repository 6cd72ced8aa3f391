/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devdesc.h - the description of what a load runs on: the device or file
 * opened, how big it is, its logical block size and the kernel's integrity
 * view of it; or the kernel crypto API's virtual device.
 *
 * Named a device description, not a "target": a dm target and LIO's SCSI
 * target are other things that a run may stack under it (doc/devices.md).
 */
#ifndef DIX_DEVDESC_H
#define DIX_DEVDESC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device/claim.h"
#include "device/devdesc_nvme.h"
#include "device/devdesc_scsi.h"
#include "pi/pi.h"

struct dmmap;

/**
 * struct dix_integrity - /sys/block/<dev>/integrity/, as the kernel shows it.
 * @format: e.g. "T10-DIF-TYPE1-CRC"; "none" for files and plain devices
 * @interval: protection_interval_bytes (0 when not shown)
 * @tag_size: tag_size
 * @read_verify: read_verify (-1 when not shown)
 * @write_generate: write_generate (-1 when not shown)
 * @capable: device_is_integrity_capable (-1 when not shown)
 */
struct dix_integrity {
	char format[64];
	uint32_t interval;
	uint32_t tag_size;
	int read_verify;
	int write_generate;
	int capable;
};

/**
 * struct devdesc_lbmd - the block layer's integrity metadata capability
 * (FS_IOC_GETLBMD_CAP, Linux 6.17), read for every block device when it is
 * opened: a kernel query, nothing reaches the device.
 * @err: 0 when the fields hold the answer; else the errno of the query
 *	(ENOTTY/EINVAL: the kernel has none), ENOTBLK for a file
 * @flags: LBMD_PI_CAP_INTEGRITY, LBMD_PI_CAP_REFTAG
 * @interval: protection interval in bytes
 * @size: metadata bytes per interval
 * @pi_size: PI tuple bytes (0: no PI)
 * @pi_offset: the tuple's offset in the metadata
 * @guard_tag_type: LBMD_PI_CSUM_*
 * @app_tag_size, @ref_tag_size, @storage_tag_size: tag bytes
 */
struct devdesc_lbmd {
	int err;
	uint32_t flags;
	uint16_t interval;
	uint8_t size;
	uint8_t pi_size;
	uint8_t pi_offset;
	uint8_t guard_tag_type;
	uint8_t app_tag_size;
	uint8_t ref_tag_size;
	uint8_t storage_tag_size;
};

/**
 * devdesc_lbmd_parse() - the 16 bytes FS_IOC_GETLBMD_CAP fills (struct
 * logical_block_metadata_cap, little-endian as x86 and arm64 lay it out)
 * into @l (pure; @l->err is set to 0).
 *
 * Return: 0, or -EBADMSG when @len is under 16.
 */
int devdesc_lbmd_parse(const uint8_t *buf, size_t len, struct devdesc_lbmd *l);

/**
 * devdesc_lbmd_pif() - the PI format the block layer hands over per I/O,
 * from @l (pure): guard from the tag type, Type 1 when the ref tag is
 * checked (the kernel shows Types 1 and 2 alike) else 3, separate metadata.
 * @why: on failure, the reason without the device's name ("the device
 *	carries no protection information (...)")
 *
 * Return: 0, or -EOPNOTSUPP: no PI, an unknown guard, or a layout dixload
 * cannot generate.
 */
int devdesc_lbmd_pif(const struct devdesc_lbmd *l, struct pi_format *f,
		     char *why, size_t whylen);

/**
 * struct dix_devdesc - an opened device (or file) and its description.
 * @path: as given
 * @name: short name used in messages ("sda", or the file's base name)
 * @fd: O_DIRECT descriptor
 * @is_blk: block device (else regular file)
 * @size: usable bytes
 * @lbs: logical block size: the alignment of buffers, offsets and lengths
 * @integrity: kernel integrity view
 * @max_sectors_kb: queue/max_sectors_kb of the device (a file: of the disk
 *	under it), the largest request the block layer sends unsplit; 0 when
 *	the kernel does not say
 * @max_hw_sectors_kb: queue/max_hw_sectors_kb, the largest pass-through
 *	transfer (0 when not known)
 * @max_segments: queue/max_segments (0 when not known)
 * @crypto: not a device but the kernel crypto API (devdesc_open_crypto()):
 *	@fd is -1, @lbs is the request size, so a "block" is a request
 * @alg: with @crypto, the algorithm loaded (--alg); NULL for a device
 * @verbs: what a read and a write of this device are called in messages,
 *	[0] read and [1] write; NULL: "read" and "write" (devdesc_verb())
 * @self_checked: the engine checks every result itself (the crypto API):
 *	the job's block headers, data verification and range tracking do not
 *	apply, and a failed check is named by the engine's status
 * @injects: --inject applies to the load without --pi app (the crypto
 *	API's tag@N)
 * @uncaught: the cause of an injected fault the device let through, as the
 *	provider words it; NULL: the job's own words
 * @lbmd: the block layer's integrity metadata capability (block devices)
 * @scsi: the SCSI provider's part, when asked (devdesc_ask())
 * @nvme: the NVMe provider's part, when asked (devdesc_ask())
 * @dm: a device-mapper mapping: its table and the stack beneath (the dm
 *	layer over the block provider, device/dmmap.h); NULL otherwise
 * @dm_err: a mapping whose table could not be read: why ("" otherwise)
 * @claim: what devdesc_open() holds on @fd (the O_EXCL claim, the lock)
 * @created: devdesc_open() created the file, and it is still empty
 * @sgio: how SCSI commands reach this target (devdesc_scsi.h): NULL, the
 *	kernel's SG_IO; a test's emulated disk otherwise.  The SCSI provider
 *	and the sg engine send through it alike
 */
struct dix_devdesc {
	const char *path;
	char name[64];
	int fd;
	int is_blk;
	uint64_t size;
	uint32_t lbs;
	struct dix_integrity integrity;
	uint32_t max_sectors_kb;
	uint32_t max_hw_sectors_kb;
	uint32_t max_segments;
	int crypto;
	const char *alg;
	const char *const *verbs;
	bool self_checked;
	bool injects;
	const char *uncaught;
	struct devdesc_lbmd lbmd;
	struct devdesc_scsi scsi;
	struct devdesc_nvme nvme;
	struct dmmap *dm;
	char dm_err[200];
	struct dix_claim claim;
	int created;
	sgio_fn *sgio;
};

/* What devdesc_ask() asks the device itself (besides what the kernel says). */
#define DEVDESC_ASK_SCSI	0x1	/* INQUIRY, READ CAPACITY(16) */
#define DEVDESC_ASK_NVME	0x2	/* namespace id, Identify Namespace */

/**
 * devdesc_ask() - complete @t's description from the device itself: the
 * providers named in @what (DEVDESC_ASK_*) send their read-only commands on
 * @t->fd.  Each provider's outcome, failures included, is in its part of
 * @t; whoever needs the part says what a failure means.
 * @timeout_ms: of each SCSI command (0: the provider's default)
 */
void devdesc_ask(struct dix_devdesc *t, unsigned int what,
		 unsigned int timeout_ms);

/**
 * devdesc_verb() - what @t calls a write (@write) or a read in messages:
 * "write"/"read", or its provider's words ("encrypt"/"decrypt").
 */
static inline const char *devdesc_verb(const struct dix_devdesc *t, bool write)
{
	if (t->verbs)
		return t->verbs[write];
	return write ? "write" : "read";
}

/**
 * devdesc_open_crypto() - the crypto provider (devdesc_crypto.c): the
 * virtual device of a crypto engine.  @path is shown as the target
 * ("kcapi:xts(aes)"), @alg is its name and @t->alg, the size is @size
 * bytes of requests of @bs bytes (the request number of an offset is
 * offset / @bs).  Nothing is opened; the description says what the job
 * does otherwise for it (@verbs, @self_checked, @injects, @uncaught).
 */
void devdesc_open_crypto(struct dix_devdesc *t, const char *path,
			const char *alg, uint64_t size, uint32_t bs);

/* How devdesc_open() opens its target. */
#define DEVDESC_WRITE	0x1	/* read-write (else read-only) */
#define DEVDESC_CREATE	0x2	/* a missing regular file is created, empty */
#define DEVDESC_FORCE	0x4	/* --force: a claim or lock held elsewhere warns */
#define DEVDESC_BUFFERED 0x8	/* --buffered: without O_DIRECT (the page cache) */

/**
 * devdesc_open() - open @path with O_DIRECT (none with DEVDESC_BUFFERED) for reading (and writing with
 * DEVDESC_WRITE in @how), claimed and locked against other writers
 * (device/claim.h: @t->claim says what is held, @t->claim.warn what
 * --force let through).  A missing file is created empty with
 * DEVDESC_CREATE (@t->created), an error otherwise.  Nothing here changes
 * the size of the target: devdesc_resize() does, once every check passed.
 * @err: reason on failure, naming the path
 *
 * Return: 0 or -errno (then nothing is left open, nothing created).
 */
int devdesc_open(struct dix_devdesc *t, const char *path, unsigned int how,
		 char *err, size_t errlen);

/**
 * devdesc_resize() - extend the regular file of @t to @size bytes (never
 * shrunk), and make @size its size; a file devdesc_open() created is the
 * run's from here on (devdesc_close() keeps it).
 * @err: reason on failure, naming the path and both sizes
 *
 * Return: 0 or -errno.
 */
int devdesc_resize(struct dix_devdesc *t, uint64_t size, char *err,
		   size_t errlen);

struct dix_opts;

/**
 * devdesc_fit_region() - check --bs and --offset of @o against @t and fit
 * --size to it: a size of 0 or one passing the end of @t is cut at the end,
 * then down to a whole number of --bs x --jobs so every job gets an equal
 * slice of whole I/Os.
 * @err: the reason on failure; every number in it is named ("its size is
 *	N bytes"), so an offset is never mistaken for the target's size
 * @warn: set to a warning when a --size given was cut at the end, else ""
 *
 * Return: 0, or -EINVAL with @err set.
 */
int devdesc_fit_region(const struct dix_devdesc *t, struct dix_opts *o,
		      char *err, size_t errlen, char *warn, size_t warnlen);

/**
 * devdesc_close() - close the descriptor, which ends the claim and the
 * lock; a file devdesc_open() created and devdesc_resize() never sized is
 * removed, so a run refused in its setup leaves nothing behind.
 */
void devdesc_close(struct dix_devdesc *t);

/** integrity_print() - the kernel integrity view as one human line. */
void integrity_print(FILE *f, const struct dix_devdesc *t);

struct jw;

/** integrity_json() - the kernel integrity view as the JSON object member @key. */
void integrity_json(struct jw *w, const char *key, const struct dix_devdesc *t);

#endif
