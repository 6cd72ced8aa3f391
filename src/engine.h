/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - the I/O engine interface (version 1).
 *
 * An engine is one file in src/engines/ exporting one designated-initialiser
 * struct dix_engine, listed in the table in engines.c.  The job loop calls:
 *
 *   init()                      once per worker thread
 *   queue(io)                   for each I/O; returns DIX_Q_COMPLETED when
 *                               the I/O is already done (sync engines) with
 *                               io->res set, DIX_Q_QUEUED when the engine
 *                               holds it until commit(), or -errno
 *   commit()                    submit everything queued
 *   getevents(min)              wait for at least @min completions; returns
 *                               how many are ready, or -errno
 *   event(i)                    the i-th ready I/O, with io->res set
 *   cleanup()                   once at the end
 *
 * Synchronous engines set DIX_ENG_SYNC and only implement queue().
 */
#ifndef DIX_ENGINE_H
#define DIX_ENGINE_H

#include <stdint.h>

#include "pi.h"
#include "stats.h"

#define DIX_ENGINE_VERSION	1

enum { DIX_Q_COMPLETED = 0, DIX_Q_QUEUED = 1 };

/**
 * struct dix_io - one I/O in flight.
 * @buf: data buffer, aligned to the logical block size (at least 4096)
 * @offset: byte offset on the target
 * @len: bytes
 * @dir: DIX_READ or DIX_WRITE
 * @res: bytes transferred, or -errno (set by the engine on completion)
 * @idx: slot index in the worker (0 .. iodepth-1)
 * @retried: this is the retry of a failed I/O
 * @start_ns: submission time, for latency
 * @seq: write sequence number stamped into the block headers
 * @meta: separate metadata (protection information) for engines that carry
 *	PI from user space (--pi app): @len / interval tuples, laid out per
 *	ctx->pif; the engine interleaves it itself where the wire needs that
 * @meta_len: bytes in @meta
 * @ref: reference tag of the first interval (the job sets it = LBA in
 *	intervals for Types 1/2); engines pass it to the device (NVMe cdw14,
 *	io_uring's seed, SCSI expected initial ref tag for Type 2)
 * @app: application tag written/expected
 * @injected: kind of fault deliberately put in this write (DIX_ERR_NR: none)
 * @errkind: for engines that know which check failed (DIX_ERR_GUARD ...),
 *	set with a negative @res; DIX_ERR_NR when they do not know
 * @recovered: the device reported a recovered error on a successful I/O
 * @detail: what the device said about a failure the engine could decode
 *	(SCSI sense, NVMe status), without the target, direction or LBA the
 *	job already names; set by the engine with a negative @res, left empty
 *	otherwise (the job clears it before each queue()).  The job appends it
 *	to its error message: engines print nothing themselves.
 * @status: with @detail, the device's status in short ("ASC 10/01",
 *	"NVMe status 0x282"), so the job can name the failed check with its
 *	code ("guard check failed (ASC 10/01)"); empty when not known
 */
struct dix_io {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint8_t dir;
	uint8_t retried;
	uint8_t recovered;
	uint8_t errkind;
	int32_t res;
	unsigned int idx;
	uint32_t seq;
	uint64_t start_ns;
	void *meta;
	uint32_t meta_len;
	uint64_t ref;
	uint16_t app;
	uint8_t injected;
	char detail[256];
	char status[24];
};

/**
 * struct dix_eng_ctx - what an engine instance sees of its worker.
 * @fd: the target, opened with O_DIRECT
 * @depth: the most I/Os that will be in flight at once
 * @lbs: logical block size of the target
 * @priv: the engine's own state, set by init()
 * @path: the target's path (engines may open their own handle: sg, nvme)
 * @pi_mode: PI_KERNEL, PI_APP or PI_OFF requested by --pi
 * @pif: filled by init() of a DIX_ENG_PI engine when @pi_mode is PI_APP:
 *	the target's protection format as the engine found it on the device
 * @errmsg: init() failure reason, shown to the user
 */
struct dix_eng_ctx {
	int fd;
	unsigned int depth;
	uint32_t lbs;
	void *priv;
	const char *path;
	int pi_mode;
	struct pi_format pif;
	char errmsg[256];
};

#define DIX_ENG_SYNC	0x1	/* completes every I/O inside queue() */
#define DIX_ENG_PI	0x2	/* carries PI from user space (--pi app) */
#define DIX_ENG_PIOFF	0x4	/* can send no PI at all (--pi off) */

struct dix_engine {
	const char *name;
	const char *help;
	unsigned int flags;
	int (*init)(struct dix_eng_ctx *ctx);
	int (*queue)(struct dix_eng_ctx *ctx, struct dix_io *io);
	int (*commit)(struct dix_eng_ctx *ctx);
	int (*getevents)(struct dix_eng_ctx *ctx, unsigned int min);
	struct dix_io *(*event)(struct dix_eng_ctx *ctx, int i);
	void (*cleanup)(struct dix_eng_ctx *ctx);
};

/** engine_find() - the built-in engine named @name, or NULL. */
const struct dix_engine *engine_find(const char *name);

/** engine_list() - NULL-terminated table of the built-in engines. */
const struct dix_engine *const *engine_list(void);

#endif
