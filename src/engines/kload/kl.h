/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kl.h - what the kload engine's files share.  The engine
 * (src/engines/kload.c, one DIX_ENGINES entry: its options, their checks,
 * the per-worker set-up and the tally) is split by concern into
 * src/engines/kload/: alg.c (what --alg is for the module: its kind, key
 * and block size), sys.c (the module and its device: loading dixkload,
 * opening /dev/dixkload, its ABI, the ioctls, behind struct kl_sys so the
 * unit test drives the engine against a fake kernel) and tally.c (a STATS
 * snapshot minus the last one, into the job's histograms and error
 * counts).  Nothing outside the engine and its unit test includes this.
 */
#ifndef DIX_ENGINES_KLOAD_KL_H
#define DIX_ENGINES_KLOAD_KL_H

#include <stddef.h>
#include <stdint.h>

#include <dixkload_uapi.h>

#include "engines/engine.h"

/* alg.c */

/**
 * struct kl_alg - what the module needs to know of --alg.
 * @kind: enum dixkload_kind
 * @keylen: key bytes (0: an unkeyed hash)
 * @align: --bs must be a multiple of this
 * @base: the algorithm inside the wrappers, as the table names it
 */
struct kl_alg {
	unsigned int kind, keylen, align;
	const char *base;
};

/**
 * kl_resolve() - what --alg @name is: an algorithm of the table, cryptd(X)
 * or pcrypt(X) around one, or a driver /proc/crypto lists (its algorithm
 * then gives the kind).  Return: 0, or -EINVAL with @err saying why and
 * what is accepted.
 */
int kl_resolve(const char *name, struct kl_alg *a, char *err, size_t len);

/** kl_alg_names() - the table's algorithms, "a, b, c", into @out. */
void kl_alg_names(char *out, size_t len);

/** kl_key() - the key of --seed @seed into @key (@len bytes). */
void kl_key(uint64_t seed, uint8_t *key, size_t len);

/* sys.c */

/**
 * struct kl_sys - the calls the engine makes of the system, replaceable
 * by a test: load the module (mod_need()'s contract: 1 loaded now, 0
 * there, -errno with @msg), open the device (fd or -errno), an ioctl (0
 * or -errno), close.
 */
struct kl_sys {
	int (*need)(const char *name, char *msg, size_t len);
	int (*open)(void);
	int (*ioctl)(int fd, unsigned long req, void *arg);
	void (*close)(int fd);
};

/** kl_sys - the calls in use: the real system unless a test set its own. */
extern const struct kl_sys *kl_sys;

/**
 * kl_module_ready() - once per run: load dixkload unless it is there, and
 * check that it speaks this build's DIXKLOAD_ABI.  The note (what was
 * loaded) into @note, "" when nothing was.  Return: 0, or -errno with @err
 * saying why and how to build the module.
 */
int kl_module_ready(char *note, size_t nlen, char *err, size_t elen);

/* tally.c */

/** kl_dirs: a worker's loads, one per direction it runs. */
#define KL_LOADS	2

/**
 * struct kl_load - one open /dev/dixkload file: one load of the module.
 * @fd: its file
 * @dir: DIX_READ (decrypt) or DIX_WRITE (encrypt, digest)
 * @tfm0: its first TFM's number across the run
 * @ntfm: its TFMs
 * @t0_ns: the module's clock when the load started (its first STATS)
 * @last: the module's counters at the last tally (cumulative)
 * @driver: the driver its TFMs were last seen bound to
 */
struct kl_load {
	int fd;
	int dir;
	unsigned int tfm0, ntfm;
	uint64_t t0_ns;
	struct dixkload_stats last;
	uint64_t check_ns;	/* the module's checks since the start */
	char driver[128];
};

/**
 * kl_account() - what @cur adds to @ld->last, into @t: its latency
 * buckets into t->lat[@ld->dir], its mismatches as verify errors and its
 * driver errors as io errors, the first of each named, its checks' time
 * into @ld->check_ns; @ld->last becomes @cur.  Return: the requests @cur adds.
 */
uint64_t kl_account(struct kl_load *ld, const struct dixkload_stats *cur,
		    struct dix_eng_tally *t);

/**
 * kl_depth() - the module's in-flight figures of @n loads summed: the
 * maximum (*@max: the largest of the loads' maxima and of @now_sum, the
 * sum of their counts seen at once), the integral (ns x requests) and the
 * time it spans (the longest).
 */
void kl_depth(const struct kl_load *ld, int n, uint64_t now_sum,
	      uint64_t *max, uint64_t *area, uint64_t *span);

#endif
