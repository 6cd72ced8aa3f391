/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * precond.h - preconditioning: write the whole region once, sequentially
 * and with large I/Os, before the measured load.
 *
 * Why: a sector that was never written carries the escape application tag
 * 0xffff, and neither the kernel nor scsi_debug checks its guard.  Reading
 * it is cheaper than reading a written one, so under a random read/write
 * mix on a fresh PI device every read gets slower as the writes fill the
 * disk: measured 28 -> 16 MB/s over the 10 s before a hot-load (dif1,
 * 256 MiB scsi_debug, TCG guest).  A before/after comparison on such a
 * disk compares a drift, not a step.  Written once, every block carries
 * data, PI and a dixload header, every read is a checked one, and the
 * "before" level is steady.
 *
 * The decision is a pure function of the options, the target and the
 * engine, so the unit tests drive it without a device; the writing itself
 * is the workers' job (job-loop.c) and its bookkeeping run.c's.
 */
#ifndef DIX_PRECOND_H
#define DIX_PRECOND_H

#include <stdint.h>

#include "engines/engine.h"
#include "conf/options.h"
#include "device/devdesc.h"

/* Largest preconditioning write.  The device's max_sectors_kb caps it
 * further: the block layer would split a larger write anyway (scsi_debug
 * on 6.1: 512 KiB, at which dixload wrote the 256 MiB disk at 44-46 MB/s
 * under TCG on a busy host; dd with 1 MiB writes: 52 MB/s on a quiet one). */
#define PRECOND_IO_MAX		(1u << 20)
/* Writes in flight per job, at least: sequential writes keep a device busy
 * only when the next one is queued before the previous completes. */
#define PRECOND_DEPTH_MIN	4

/**
 * struct precond_plan - what preconditioning will do and why.
 * @on: write the region before the load
 * @reason: why, for the start lines and JSON ("auto: reads on a
 *	T10-DIF-TYPE1-CRC device", "precondition=off")
 * @io_size: bytes per write (a multiple of the logical block size); an
 *	engine may carry less (struct dix_eng_ctx.max_io)
 * @iodepth: writes in flight per job (the sync engine still does one)
 */
struct precond_plan {
	int on;
	char reason[192];
	uint64_t io_size;
	unsigned int iodepth;
};

/**
 * struct precond_result - what preconditioning did.
 * @ran: it was started
 * @complete: every byte of the region was written
 * @bytes: bytes written (not counted in the meter, the summary or Ops)
 * @region: bytes it set out to write
 * @seconds: how long it took
 * @errors: errors while writing (then the load does not start)
 * @io_size: bytes per write used (the plan's, or less where the engine
 *	cannot carry that much: metadata interleaved on the wire)
 */
struct precond_result {
	int ran;
	int complete;
	uint64_t bytes;
	uint64_t region;
	double seconds;
	uint64_t errors;
	uint64_t io_size;
};

/**
 * precond_decide() - decide whether to precondition, and why.
 * @o: effective options (@o->precondition, @o->rw, @o->pi, @o->size,
 *	@o->jobs, @o->iodepth)
 * @profile: the profile that set @o->precondition, or NULL (the command
 *	line or the default did): named in the reason
 * @t: the opened target (its integrity format, logical block size and
 *	max_sectors_kb)
 * @e: the engine (whether it carries PI from user space)
 * @p: filled with the decision, the reason, the write size and depth
 *
 * auto preconditions when the workload reads and writes and the target
 * carries PI: a block device whose kernel integrity format is not none or
 * nop, or an engine carrying dixload's PI (sg, nvme) with --pi app.  A
 * read-only workload is left alone under auto: it checks the data an
 * earlier run wrote, which preconditioning would overwrite.
 */
void precond_decide(const struct dix_opts *o, const char *profile,
		    const struct dix_devdesc *t, const struct dix_engine *e,
		    struct precond_plan *p);

/**
 * precond_io_size() - bytes per preconditioning write.
 * @slice: bytes of one job's slice (the write never exceeds it)
 * @lbs: logical block size
 * @max_sectors_kb: the device's request limit (0: unknown)
 *
 * Return: PRECOND_IO_MAX, capped by @max_sectors_kb and @slice, rounded
 * down to a multiple of @lbs, at least @lbs.
 */
uint64_t precond_io_size(uint64_t slice, uint32_t lbs,
			 uint32_t max_sectors_kb);

#endif
