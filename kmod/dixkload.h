/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dixkload.h - a load's state, shared by the load (dixkload_main.c: TFMs,
 * requests, checks) and its control interface (dixkload_ctl.c: the misc
 * device and its ioctls).  Everything hangs off one struct dk_load per open
 * file: the module has no load state of its own.
 */
#ifndef DIXKLOAD_H
#define DIXKLOAD_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/llist.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <crypto/hash.h>

#include "dixkload_uapi.h"

struct dk_ref;

/* the most slots (requests in flight) of one load: a kernel thread each in
 * sync mode */
#define DK_MAX_SLOTS	4096
#define DK_RUNNERS	256	/* async: runner threads, one per slot up to this */

struct dk_load;

struct dk_tfm {
	struct crypto_skcipher *sk;
	struct crypto_ahash *ah;
	u32 idx;
	atomic64_t nreq;	/* requests completed on this TFM */
};

struct dk_slot {
	struct dk_load *ld;
	struct dk_tfm *t;
	u32 idx;
	struct skcipher_request *skreq;
	struct ahash_request *ahreq;
	u8 *src, *dst, *ref;
	u8 digest[64];
	u8 iv[32];
	struct scatterlist sg_src, sg_dst;
	u64 seq;		/* this slot's requests so far */
	u64 t_submit;
	int err;		/* the completion's status */
	int decrypt;
	struct crypto_wait wait;	/* sync mode */
	struct task_struct *th;		/* sync mode */
	struct llist_node node;		/* async mode: handed to a runner */
	bool back;			/* async: a request came back */
};

struct dk_load {
	struct mutex mu;		/* START/REOPEN/STOP/release */
	struct dixkload_cfg cfg;
	bool started;
	bool stopping;
	u32 ntfms, nslots;
	struct dk_tfm *tfms;
	struct dk_slot *slots;
	struct dk_ref *ref_own;
	struct crypto_sync_skcipher *ref_sk;
	struct crypto_shash *ref_sh;
	struct llist_head ready;		/* async: slots for a runner's turn */
	wait_queue_head_t rwait;
	struct task_struct *runner[DK_RUNNERS];
	u32 nrunners;
	atomic_t active;		/* async slots not idle */
	bool queued;			/* async: dk_go() queued every slot */
	wait_queue_head_t idle;
	spinlock_t lock;		/* st and the in-flight integral */
	u64 t_last;
	struct dixkload_stats st;
};

/* the in-flight integral up to @now; under ld->lock */
void dk_advance(struct dk_load *ld, u64 now);
/* allocate the TFMs, slots and the reference of ld->cfg; reason in st.why */
int dk_alloc(struct dk_load *ld);
/* start the threads (sync) or queue every slot (async) */
int dk_go(struct dk_load *ld);
/* stop submitting and wait until nothing is in flight */
void dk_halt(struct dk_load *ld);
/* free what dk_alloc() allocated */
void dk_free(struct dk_load *ld);

#endif
