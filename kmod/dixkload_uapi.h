/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dixkload_uapi.h - the control interface of the dixkload module: a crypto
 * load run inside the kernel, driven and read by dixload's kload engine.
 *
 * The interface is a misc character device, /dev/dixkload, mode 0600 (root
 * only; the module refuses an opener without CAP_SYS_ADMIN as well).  Each
 * open file is one load: its TFMs, threads and counters belong to that file
 * and end with it, so two dixload runs (or two jobs of one run) never see
 * each other's state.
 *
 *   DIXKLOAD_IOC_START  configure and start the load (struct dixkload_cfg);
 *                       -EBUSY when this file's load already runs
 *   DIXKLOAD_IOC_STATS  a snapshot of the cumulative counters
 *                       (struct dixkload_stats); the reader takes deltas
 *   DIXKLOAD_IOC_REOPEN drain the requests in flight, free the TFMs and
 *                       allocate them again, so a driver the kernel now
 *                       prefers (a hot-loaded module, a changed priority)
 *                       takes the load; the new driver is in the stats
 *   DIXKLOAD_IOC_STOP   stop the load and wait until no request of it is in
 *                       flight; the counters stay readable
 *
 * Shared, unchanged, by kmod/ (kernel) and src/ (user space): only fixed-
 * size types, no pointers, 8-byte aligned members.  DIXKLOAD_ABI is bumped
 * when a struct changes; the engine refuses a module of another ABI.
 */
#ifndef DIXKLOAD_UAPI_H
#define DIXKLOAD_UAPI_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define DIXKLOAD_ABI		1
#define DIXKLOAD_DEVNAME	"dixkload"

/* the crypto API type of the load */
enum dixkload_kind {
	DIXKLOAD_SKCIPHER = 0,	/* xts(aes), cbc(aes), ctr(aes), cryptd(...) */
	DIXKLOAD_AHASH = 1,	/* crc32c, crct10dif, sha256, hmac(sha256) */
	DIXKLOAD_AEAD = 2,	/* gcm(aes), rfc4106(gcm(aes)), authenc(...) */
};

enum dixkload_dir {
	DIXKLOAD_ENCRYPT = 0,
	DIXKLOAD_DECRYPT = 1,
	DIXKLOAD_DIGEST = 2,	/* the only direction of an ahash */
	DIXKLOAD_MIXED = 3,	/* encrypt and decrypt alternately */
};

enum dixkload_submit {
	/* the 2023 thread's module: one kernel thread per request slot, each
	 * submitting and waiting (crypto_wait_req) for its own request */
	DIXKLOAD_SYNC = 0,
	/* every slot submitted at once; each completion callback checks its
	 * request and submits the next one in the same slot */
	DIXKLOAD_ASYNC = 1,
};

/* struct dixkload_cfg.flags */
#define DIXKLOAD_F_BACKLOG	0x1	/* CRYPTO_TFM_REQ_MAY_BACKLOG */
/*
 * Test only: corrupt the result of every corrupt_every-th request after
 * the driver returns it and before the check, so the check's counting can
 * be proven on a real kernel.  Refused unless the module was loaded with
 * allow_corrupt=1.
 */
#define DIXKLOAD_F_CORRUPT	0x2

/**
 * struct dixkload_cfg - one load.
 * @abi: DIXKLOAD_ABI
 * @kind: enum dixkload_kind
 * @dir: enum dixkload_dir
 * @submit: enum dixkload_submit
 * @alg: the algorithm (xts(aes)) or a driver name (xts-aes-aesni), NUL
 *	terminated, as crypto_alloc_*() takes it
 * @tfms: TFMs (1 ..  DIXKLOAD_MAX_TFMS)
 * @inflight: requests in flight per TFM (1 .. DIXKLOAD_MAX_INFLIGHT); in
 *	sync mode, kernel threads per TFM
 * @req_size: bytes per request (16 .. DIXKLOAD_MAX_REQ, a multiple of 16
 *	for skciphers)
 * @keylen: bytes of @key used (0 for an unkeyed hash)
 * @key: the key; the module derives each TFM's IVs itself
 * @check_every: check every Nth request against the software reference
 *	(1: every request; 0: none)
 * @corrupt_every: with DIXKLOAD_F_CORRUPT, corrupt every Nth result
 * @seed: the data pattern's seed
 * @flags: DIXKLOAD_F_*
 */
struct dixkload_cfg {
	__u32 abi;
	__u32 kind;
	__u32 dir;
	__u32 submit;
	char alg[128];
	__u32 tfms;
	__u32 inflight;
	__u32 req_size;
	__u32 keylen;
	__u8 key[64];
	__u32 check_every;
	__u32 corrupt_every;
	__u64 seed;
	__u64 flags;
	__u64 reserved[4];
};

#define DIXKLOAD_MAX_TFMS	256
#define DIXKLOAD_MAX_INFLIGHT	256
#define DIXKLOAD_MAX_REQ	(1u << 20)

/*
 * The latency histogram is dixload's (src/lib/stats.h): log-linear, exact
 * below 16 ns, then 16 buckets per power of two, 1024 buckets; the last
 * counts everything above.  One function for both sides.
 */
#define DIXKLOAD_LAT_SUB_BITS	4
#define DIXKLOAD_LAT_SUB	(1u << DIXKLOAD_LAT_SUB_BITS)
#define DIXKLOAD_LAT_BUCKETS	(64 * DIXKLOAD_LAT_SUB)

static inline __u32 dixkload_bucket_of(__u64 ns)
{
	__u32 msb, b;

	if (ns < DIXKLOAD_LAT_SUB)
		return (__u32)ns;
	msb = 63 - __builtin_clzll(ns);
	b = (msb - DIXKLOAD_LAT_SUB_BITS + 1) * DIXKLOAD_LAT_SUB +
	    ((ns >> (msb - DIXKLOAD_LAT_SUB_BITS)) & (DIXKLOAD_LAT_SUB - 1));
	return b < DIXKLOAD_LAT_BUCKETS ? b : DIXKLOAD_LAT_BUCKETS - 1;
}

/* struct dixkload_stats.state */
enum dixkload_state {
	DIXKLOAD_IDLE = 0,
	DIXKLOAD_RUNNING = 1,
	DIXKLOAD_STOPPED = 2,
	DIXKLOAD_FAILED = 3,	/* an error stopped the load: see @why */
};

/**
 * struct dixkload_stats - cumulative since START (the reader takes deltas).
 * @abi: DIXKLOAD_ABI
 * @state: enum dixkload_state
 * @now_ns: ktime_get_ns() when the snapshot was taken
 * @requests: requests completed (successfully or not)
 * @bytes: bytes of the requests completed without error
 * @errors: requests the driver completed or refused with an error
 * @mismatches: results that differ from the software reference
 * @checked: requests checked against the reference
 * @check_ns: time spent in the checks (the reference's own work)
 * @backlogged: submissions answered -EBUSY with MAY_BACKLOG (queued)
 * @refused: submissions refused (-EBUSY without MAY_BACKLOG, -ENOSPC),
 *	retried after a pause
 * @inflight_now: requests submitted and not completed
 * @inflight_max: the most ever in flight at once
 * @inflight_ns: the integral of requests in flight over time, in request
 *	nanoseconds: its delta over the elapsed delta is the mean in flight
 * @last_errno: the last error a request completed with (positive)
 * @first_bad_tfm, @first_bad_req: the first mismatch: its TFM (0-based)
 *	and the request's number on that TFM (1-based; 0: none yet)
 * @driver: the driver of TFM 0 (cra_driver_name) as allocated
 * @ref_driver: the software reference's driver
 * @why: what stopped a FAILED load
 * @lat: completion latency histogram, submit to callback (or to the
 *	waiter's wake-up in sync mode), in ns
 */
struct dixkload_stats {
	__u32 abi;
	__u32 state;
	__u64 now_ns;
	__u64 requests;
	__u64 bytes;
	__u64 errors;
	__u64 mismatches;
	__u64 checked;
	__u64 check_ns;
	__u64 backlogged;
	__u64 refused;
	__u64 inflight_now;
	__u64 inflight_max;
	__u64 inflight_ns;
	__u32 last_errno;
	__u32 first_bad_tfm;
	__u64 first_bad_req;
	char driver[128];
	char ref_driver[128];
	char why[256];
	__u64 lat[DIXKLOAD_LAT_BUCKETS];
};

#define DIXKLOAD_IOC_MAGIC	0xd1
#define DIXKLOAD_IOC_START	_IOW(DIXKLOAD_IOC_MAGIC, 1, struct dixkload_cfg)
#define DIXKLOAD_IOC_STATS	_IOR(DIXKLOAD_IOC_MAGIC, 2, struct dixkload_stats)
#define DIXKLOAD_IOC_REOPEN	_IO(DIXKLOAD_IOC_MAGIC, 3)
#define DIXKLOAD_IOC_STOP	_IO(DIXKLOAD_IOC_MAGIC, 4)

#endif /* DIXKLOAD_UAPI_H */
