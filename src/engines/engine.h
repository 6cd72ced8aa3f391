/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - the I/O engine interface (version DIX_ENGINE_VERSION).
 *
 * An engine is one file in src/engines/ exporting one designated-initialiser
 * struct dix_engine named engine_<file name>, and one line in
 * src/engines/Makemodule.am (DIX_ENGINES += ...); the table in engines.c is
 * generated from that list.  What it can drive is data in its struct, so
 * nothing else in dixload names engines; so are its options (@options:
 * rows of the option table, taken only when it is the run's engine) and
 * their checks (@check), so nothing else names an engine's option.  Once
 * per run, before the workers: check(), then setup().  The job loop calls:
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

#include <stddef.h>
#include <stdint.h>

#include "pi/pi.h"
#include "lib/stats.h"

struct dix_opts;
struct dix_devdesc;
struct dix_option;
struct dix_depth;

/* Bumped when struct dix_engine or the call contract changes. */
#define DIX_ENGINE_VERSION	4

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
 * @start: submission time, for latency: ticks of the latency clock
 *	(lib/tclock.h)
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
	uint64_t start;
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
 * @max_xfer: the largest pass-through transfer in bytes: the device's
 *	queue/max_hw_sectors_kb, and no more pages than queue/max_segments
 *	(a pass-through request is never split, and the pages of a user
 *	buffer need not be contiguous); 0 when unknown
 * @max_io: set by init() of a pass-through engine: the most data bytes
 *	one I/O can carry within @max_xfer, metadata interleaved after each
 *	block on the wire counted (an NVMe extended-LBA namespace, sg with
 *	--pi app).  0: only the device's own limits apply (the block layer
 *	splits what is larger)
 * @o: the run's options (the engine's own among them: see @options of
 *	struct dix_engine)
 * @job: the worker's id; @jobs: how many workers there are
 * @io_size: the largest I/O the worker will queue, in bytes (--bs, or the
 *	preconditioning writes' size); 0 when not known
 * @note: set by init() when how the engine drives the target is worth
 *	knowing and depends on the system ("sg path: async (/dev/sg0)"); the
 *	job reports it once per run as a note event (empty: nothing to say),
 *	one event per line when it holds several ('\n' between them)
 *
 * @desc: the target's description (device/devdesc.h): pass-through engines
 *	read the device's own format and identity in it (its SCSI or NVMe
 *	part, devs_open() asks for the part an engine's @targets name), the
 *	io_uring engine the block layer's integrity capability
 *
 * @check_every/@check_ns: set by an engine that checks its results against
 *	a reference of its own (the crypto engines): every how many requests
 *	it checks (--verify-every; 0: it checks none) and the CPU time the
 *	checks took over the load, in ns, for the summary's share of the
 *	checks in dixload's CPU (a reference that costs more than the kernel's
 *	work hides a driver change)
 *
 * @inflight: the run's meter of requests actually in flight (lib/depth.h),
 *	shared by every worker: an engine whose submission can complete
 *	inside the call (AF_ALG AIO on some kernels) counts its requests
 *	there, so the run reports what was in flight, not what was asked;
 *	NULL when the run does not measure
 * @said: the run's record of what its engine instances have said once
 *	(eng_once()), shared by every worker and both phases of the run, so
 *	"once per run" is per run: a second run in the process (a dixload
 *	sweep point, a job beside this one) says it again; NULL: no run
 *	around the instance, which then says everything
 * @bed: a test bed's context for this engine, NULL outside the tests
 *	(null.h: struct null_bed; sg.h: struct dix_sg_bed); the run hands
 *	every instance its own (struct dix_run.eng_bed), so a test bed is
 *	a value of the run it drives, never a process-wide hook
 *
 * init() of a DIX_TGT_CRYPTO engine may raise @depth: --iodepth counts
 * requests in flight per TFM, and a worker holds several TFMs.
 */
struct dix_eng_ctx {
	int fd;
	unsigned int depth;
	uint32_t lbs;
	void *priv;
	const char *path;
	int pi_mode;
	struct pi_format pif;
	char errmsg[768];
	uint64_t max_xfer;
	uint64_t max_io;
	const struct dix_opts *o;
	int job;
	int jobs;
	uint64_t io_size;
	char note[768];
	const struct dix_devdesc *desc;
	struct dix_depth *inflight;
	unsigned int *said;
	void *bed;
	uint64_t check_every;
	uint64_t check_ns;
};

/**
 * eng_once() - 1 the first time an instance of this run asks with @bit
 * (one of its engine's own bits: a run has one engine), 0 after; 1 when
 * the instance has no run (@ctx->said NULL).
 */
static inline int eng_once(struct dix_eng_ctx *ctx, unsigned int bit)
{
	if (!ctx->said)
		return 1;
	return !(__atomic_fetch_or(ctx->said, bit, __ATOMIC_RELAXED) & bit);
}

/**
 * eng_max_io() - the most data bytes of an I/O whose wire transfer, @meta
 * bytes after each @lbs-byte block, stays within @max_xfer bytes (0 when
 * @max_xfer is unknown: no limit known).
 */
static inline uint64_t eng_max_io(uint64_t max_xfer, uint32_t lbs,
				  uint32_t meta)
{
	return max_xfer / (lbs + meta) * lbs;
}

#define DIX_ENG_SYNC	0x1	/* completes every I/O inside queue() */
/*
 * The load runs in the kernel, not in the job loop: the engine's requests
 * are submitted and completed there (the dixkload module, engines/kload.c)
 * and the job asks the engine for what was measured, tally(), instead of
 * queueing I/Os.  Why not I/Os that stand for the kernel's requests: an
 * engine whose getevents() invented one completion per request counted by
 * the kernel would carry latencies it did not measure and cost a dix_io per
 * request; the tally hands over the kernel's own counts and histogram.
 */
#define DIX_ENG_KERNEL	0x2

/**
 * struct dix_eng_tally - what a DIX_ENG_KERNEL engine measured since its
 * last tally(), filled by the engine, accounted by the job.
 * @lat: per direction, the worker's own latency histograms: the engine
 *	adds the requests completed (lat_add_bucket()), failed ones too
 *	(their latency was measured: a kernel's histogram does not tell them
 *	apart); their count is the worker's ops, so ops, bytes and latency
 *	stay one consistent set
 * @errors: per kind, the requests that failed since the last tally
 * @first_kind: the kind of the failure named below (DIX_ERR_NR: none)
 * @first_dir: its direction (DIX_READ decrypt, DIX_WRITE encrypt)
 * @first_req: its request number (the bad extent's "LBA")
 * @first_cause: the failed check or the error, in words
 * @first_detail: which TFM and request, what the reference was
 * @note: a note event for the run ("" none): a reopen of the TFMs
 */
struct dix_eng_tally {
	struct lat_hist *lat[DIX_DIR_NR];
	uint64_t errors[DIX_ERR_NR];
	int first_kind;
	int first_dir;
	uint64_t first_req;
	char first_cause[160];
	char first_detail[256];
	char note[320];
};

/* Where an engine's I/O can go (struct dix_engine.targets). */
#define DIX_TGT_BLOCK	0x1	/* block devices and files, through the block layer */
#define DIX_TGT_SCSI	0x2	/* SCSI disks only, by pass-through: no block-layer PI */
#define DIX_TGT_NVME	0x4	/* NVMe namespaces only, by pass-through: no block-layer PI */
/*
 * No device: the kernel crypto API, --alg naming the load.  The job runs
 * the same loop (meter, report, hot-load, plot and CSV see requests as
 * I/Os), over a virtual device (devdesc_crypto.c) whose "blocks" are
 * requests of --bs bytes: an I/O's offset / --bs is its request number.
 * The job's block headers, data verification and range tracking do not
 * apply: the engine checks every result itself.
 */
#define DIX_TGT_CRYPTO	0x8
/*
 * No I/O at all: the engine completes every I/O in memory (engines/null.c).
 * --dev is opened as for a block engine (its size and block size make the
 * region) but never read or written.
 */
#define DIX_TGT_NULL	0x10

/**
 * enum dix_app_pi - the protection information an engine carries from user
 * space with --pi app, and so the targets on which --pi app can work.
 * @DIX_APP_PI_NONE: none; --pi app is refused
 * @DIX_APP_PI_SCSI: the drive's PI of a SCSI disk (RDPROTECT/WRPROTECT)
 * @DIX_APP_PI_NVME: the drive's PI of an NVMe namespace (PRINFO); 16- and
 *	64-bit guards (no 32-bit guard: Linux has none either)
 * @DIX_APP_PI_KERNEL: the block layer's integrity format, handed over per
 *	I/O (io_uring read/write PI attributes); needs the running kernel to
 *	offer them
 */
enum dix_app_pi {
	DIX_APP_PI_NONE,
	DIX_APP_PI_SCSI,
	DIX_APP_PI_NVME,
	DIX_APP_PI_KERNEL,
};

/**
 * struct dix_engine - one engine: what it can do (data read by the option
 * checks, probe, --help and --version) and its operations.
 * @version: DIX_ENGINE_VERSION the engine was written against
 * @name: --engine NAME
 * @help: one paragraph for --help
 * @flags: DIX_ENG_SYNC
 * @targets: DIX_TGT_* it can drive
 * @app_pi: enum dix_app_pi
 * @needs: what it needs from the kernel beyond the target, for probe and
 *	errors ("Linux 6.14+ io_uring PI attributes"), or NULL
 * @options: its own options, NULL-terminated rows (conf/options.h) whose
 *	fields are in struct dix_opts; the parser takes them only when this
 *	is the run's engine, and --help lists them under it (NULL: none)
 * @check: once per run, after the options are parsed: the engine's options
 *	against each other and the run's (NULL: nothing to check).  Return 0,
 *	or -EINVAL with the reason in @err: the option, its value, what is
 *	allowed
 * @setup: once per run, after @check, before the workers (NULL: none):
 *	run-wide state; a DIX_TGT_CRYPTO engine writes the name of its load
 *	into @name (its virtual target is "ENGINE:NAME").  Return 0 or -errno
 *	with the reason in @name
 * @init: per-worker set-up (NULL: none); fills ctx->errmsg on failure
 * @queue: one I/O (see the top of this file)
 * @commit/@getevents/@event: asynchronous engines only
 * @cleanup: per-worker tear-down (NULL: none)
 * @tally: DIX_ENG_KERNEL engines only, instead of @queue: what the
 *	kernel completed since the last call into @t (zeroed by the job,
 *	@t->lat set); @final: the run is over, stop the load first and give
 *	everything it did.  Return: 0, 1 when the load ended by itself (the
 *	kernel stopped it: its reason in ctx->errmsg, and the run stops),
 *	or -errno with the reason in ctx->errmsg
 */
struct dix_engine {
	unsigned int version;
	const char *name;
	const char *help;
	unsigned int flags;
	unsigned int targets;
	enum dix_app_pi app_pi;
	const char *needs;
	const struct dix_option *options;
	int (*check)(const struct dix_opts *o, char *err, size_t len);
	int (*setup)(const struct dix_opts *o, char *name, size_t len);
	int (*init)(struct dix_eng_ctx *ctx);
	int (*queue)(struct dix_eng_ctx *ctx, struct dix_io *io);
	int (*commit)(struct dix_eng_ctx *ctx);
	int (*getevents)(struct dix_eng_ctx *ctx, unsigned int min);
	struct dix_io *(*event)(struct dix_eng_ctx *ctx, int i);
	void (*cleanup)(struct dix_eng_ctx *ctx);
	int (*tally)(struct dix_eng_ctx *ctx, struct dix_eng_tally *t,
		     int final);
};

/** engine_carries_pi() - @e can take PI generated by dixload (--pi app). */
static inline int engine_carries_pi(const struct dix_engine *e)
{
	return e->app_pi != DIX_APP_PI_NONE;
}

/**
 * engine_bypasses_block_layer() - @e talks to the device directly, so with
 * --pi off nothing adds PI behind its back (the block layer would).
 */
static inline int engine_bypasses_block_layer(const struct dix_engine *e)
{
	return !(e->targets & DIX_TGT_BLOCK);
}

/** engine_is_crypto() - @e loads the kernel crypto API, not a device. */
static inline int engine_is_crypto(const struct dix_engine *e)
{
	return !!(e->targets & DIX_TGT_CRYPTO);
}

/**
 * engine_names() - the built engines that satisfy @pred (NULL: all), as
 * "a, b, c" in table order, into @out.  Return: how many.
 */
int engine_names(int (*pred)(const struct dix_engine *e), char *out, size_t len);

/** engine_find() - the built-in engine named @name, or NULL. */
const struct dix_engine *engine_find(const char *name);

/** engine_list() - NULL-terminated table of the built-in engines. */
const struct dix_engine *const *engine_list(void);

/**
 * engine_options_register() - tell the option parser every built engine's
 * options (opts_add_engine()); before the first parse.
 */
void engine_options_register(void);

#endif
