// SPDX-License-Identifier: GPL-2.0
/*
 * dixoffload - a model of a QAT-shaped crypto offload device (issue 36).
 *
 * It registers xts(aes) as an asynchronous skcipher, driver
 * xts-aes-dixoffload, in QAT's shape: priority 4001, CRYPTO_ALG_ASYNC |
 * CRYPTO_ALG_NEED_FALLBACK | CRYPTO_ALG_ALLOCATES_MEMORY, `devices` devices
 * of `instances` instances (rings of `ring_size`) and `engines` engines.
 * Why a model: the 2023 thread argues over a device nobody in the bed has;
 * a device whose latency and engines are parameters has an answer that can
 * be computed before it is measured (doc/offload.md gives the formula).
 *
 * The result is computed by a software fallback at submission (so it is
 * correct, and its CPU cost is the guest's own, as the real driver's
 * descriptor work is); the request then occupies one engine of its device
 * for latency_us + n / mbps of modelled time and completes from a soft-mode
 * hrtimer (softirq, as QAT completes from a tasklet; never hardirq).
 *
 * The fallback is allocated with mask CRYPTO_ALG_NEED_FALLBACK, so it can
 * never be this driver.  It may be asynchronous (on 6.1 xts-aes-aesni is a
 * SIMD wrapper that goes through cryptd when the FPU is not usable): its
 * -EINPROGRESS/-EBUSY is handled by counting two parties per request, the
 * fallback and the engine; whichever finishes last completes the request.
 * Handling it keeps the cheapest implementation (aesni's by8 XTS) as the
 * fallback, which a CRYPTO_ALG_ASYNC mask would exclude.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/dmi.h>
#include <linux/kmod.h>
#include <crypto/aes.h>
#include <crypto/xts.h>
#include <crypto/scatterwalk.h>
#include <crypto/internal/skcipher.h>

#include "dixbed.h"

#define DIXOFF_DRIVER "xts-aes-dixoffload"
#define DIXOFF_MAX_ENGINES 64

/* Fixed at load: the shape of the devices. */
static unsigned int devices = 2;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "modelled devices (1-16, default 2)");
static unsigned int instances = 2;
module_param(instances, uint, 0444);
MODULE_PARM_DESC(instances, "instances (rings) per device (1-64, default 2)");
static unsigned int engines = 4;
module_param(engines, uint, 0444);
MODULE_PARM_DESC(engines, "engines per device (1-64, default 4)");
static unsigned int ring_size = 64;
module_param(ring_size, uint, 0444);
MODULE_PARM_DESC(ring_size, "requests on one instance's ring (1-4096, default 64)");
static int priority = 4001;
module_param(priority, int, 0444);
MODULE_PARM_DESC(priority, "cra_priority at registration (default 4001, QAT's in 2023); change it at run time with crypto_user");
static bool allocates_memory = true;
module_param(allocates_memory, bool, 0444);
MODULE_PARM_DESC(allocates_memory, "set CRYPTO_ALG_ALLOCATES_MEMORY (default 1, as QAT; 0 lets dm-crypt take it)");
static char *fallback = "xts(aes)";
module_param(fallback, charp, 0444);
MODULE_PARM_DESC(fallback, "algorithm or driver of the software fallback (default xts(aes), mask NEED_FALLBACK)");
static char *fallback_module = "aesni_intel";
module_param(fallback_module, charp, 0444);
MODULE_PARM_DESC(fallback_module, "module loaded before the fallback is allocated, so it is the cheapest there is (default aesni_intel; empty: none)");
static bool allow_real;
module_param(allow_real, bool, 0444);
MODULE_PARM_DESC(allow_real, "load on a machine that is not an emulated (TCG) QEMU guest, where it takes xts(aes) from every user (default 0)");

/* Writable at run time (/sys/module/dixoffload/parameters). */
static unsigned int latency_us = 1000;
module_param(latency_us, uint, 0644);
MODULE_PARM_DESC(latency_us, "fixed engine time per request, microseconds (default 1000)");
static unsigned int mbps = 100;
module_param(mbps, uint, 0644);
MODULE_PARM_DESC(mbps, "engine speed, MB/s = bytes per microsecond (default 100; 0 = no per-byte time)");
static unsigned int corrupt_every;
module_param(corrupt_every, uint, 0644);
MODULE_PARM_DESC(corrupt_every, "flip a byte of every Nth result (default 0 = off; ignored until registration's self-tests are over)");
static unsigned long corrupted;
module_param(corrupted, ulong, 0444);
MODULE_PARM_DESC(corrupted, "results corrupted so far (read only)");
static unsigned long completed;
module_param(completed, ulong, 0444);
MODULE_PARM_DESC(completed, "requests completed so far (read only)");
static unsigned long backlogged;
module_param(backlogged, ulong, 0444);
MODULE_PARM_DESC(backlogged, "requests that found their ring full and were backlogged (-EBUSY) (read only)");
static unsigned long refused;
module_param(refused, ulong, 0444);
MODULE_PARM_DESC(refused, "requests refused with -ENOSPC (ring full, no MAY_BACKLOG) (read only)");

struct dixoff_dev;

struct dixoff_inst {
	struct dixoff_dev *dev;
	spinlock_t lock;		/* inflight, backlog */
	unsigned int inflight;		/* on the ring */
	unsigned int refs;		/* TFMs bound (under dixoff_bind_lock) */
	struct list_head backlog;
};

struct dixoff_dev {
	spinlock_t lock;		/* free_at */
	unsigned int refs;		/* TFMs bound (under dixoff_bind_lock) */
	ktime_t free_at[DIXOFF_MAX_ENGINES];
	struct dixoff_inst *inst;
};

static struct dixoff_dev *dixoff_devs;
static DEFINE_MUTEX(dixoff_bind_lock);
static DEFINE_SPINLOCK(dixoff_stat_lock);	/* the counters above */
static bool dixoff_registered;			/* self-tests are over */

struct dixoff_tfm {
	struct crypto_skcipher *fb;
	struct dixoff_inst *inst;
};

struct dixoff_req {
	struct hrtimer timer;
	struct list_head node;		/* on the backlog */
	atomic_t parties;		/* fallback + engine */
	int fb_err;
	struct skcipher_request fbreq;	/* last: the fallback's context follows */
};

/*
 * dixoff_bind - as qat_crypto_get_instance_node(): the device with the
 * fewest TFMs, then its least-used instance.  Called at the first setkey.
 */
static void dixoff_bind(struct dixoff_tfm *ctx)
{
	struct dixoff_dev *best = NULL;
	struct dixoff_inst *bi = NULL;
	unsigned int d, i;

	mutex_lock(&dixoff_bind_lock);
	for (d = 0; d < devices; d++)
		if (!best || dixoff_devs[d].refs < best->refs)
			best = &dixoff_devs[d];
	for (i = 0; i < instances; i++)
		if (!bi || best->inst[i].refs < bi->refs)
			bi = &best->inst[i];
	best->refs++;
	bi->refs++;
	ctx->inst = bi;
	mutex_unlock(&dixoff_bind_lock);
}

static void dixoff_unbind(struct dixoff_tfm *ctx)
{
	if (!ctx->inst)
		return;
	mutex_lock(&dixoff_bind_lock);
	ctx->inst->refs--;
	ctx->inst->dev->refs--;
	mutex_unlock(&dixoff_bind_lock);
	ctx->inst = NULL;
}

static void dixoff_count(unsigned long *c)
{
	unsigned long flags;

	spin_lock_irqsave(&dixoff_stat_lock, flags);
	(*c)++;
	spin_unlock_irqrestore(&dixoff_stat_lock, flags);
}

/* Put req onto an engine of its device: it finishes at the modelled time. */
static void dixoff_start(struct skcipher_request *req, struct dixoff_dev *dev)
{
	struct dixoff_req *rc = skcipher_request_ctx(req);
	unsigned int e, best = 0, mb = READ_ONCE(mbps);
	u64 ns = (u64)READ_ONCE(latency_us) * 1000;
	ktime_t now = ktime_get(), start, done;
	unsigned long flags;

	if (mb)
		ns += div_u64((u64)req->cryptlen * 1000, mb);
	spin_lock_irqsave(&dev->lock, flags);
	for (e = 1; e < engines; e++)
		if (ktime_before(dev->free_at[e], dev->free_at[best]))
			best = e;
	start = ktime_after(dev->free_at[best], now) ? dev->free_at[best] : now;
	done = ktime_add_ns(start, ns);
	dev->free_at[best] = done;
	spin_unlock_irqrestore(&dev->lock, flags);
	hrtimer_start(&rc->timer, done, HRTIMER_MODE_ABS_SOFT);
}

static struct skcipher_alg dixoff_alg;

static void dixoff_corrupt(struct skcipher_request *req)
{
	unsigned int n = READ_ONCE(corrupt_every);
	unsigned long flags;
	bool hit;
	u8 b;

	if (!n || !READ_ONCE(dixoff_registered) || !dixbed_tested(&dixoff_alg.base) ||
	    !req->cryptlen)
		return;
	spin_lock_irqsave(&dixoff_stat_lock, flags);
	hit = completed % n == n - 1;
	if (hit)
		corrupted++;
	spin_unlock_irqrestore(&dixoff_stat_lock, flags);
	if (!hit)
		return;
	scatterwalk_map_and_copy(&b, req->dst, 0, 1, 0);
	b ^= 0x01;
	scatterwalk_map_and_copy(&b, req->dst, 0, 1, 1);
}

/* The last of the two parties completes the request to its owner. */
static void dixoff_party_done(struct skcipher_request *req)
{
	struct dixoff_req *rc = skcipher_request_ctx(req);
	int err;

	if (!atomic_dec_and_test(&rc->parties))
		return;
	err = rc->fb_err;
	if (!err)
		dixoff_corrupt(req);
	dixoff_count(&completed);
	local_bh_disable();
	skcipher_request_complete(req, err);
	local_bh_enable();
}

/* Engine done (softirq): free a ring slot, move a backlogged one onto it. */
static enum hrtimer_restart dixoff_timer_fn(struct hrtimer *t)
{
	struct dixoff_req *rc = container_of(t, struct dixoff_req, timer);
	struct skcipher_request *req = container_of((void *)rc, struct skcipher_request, __ctx);
	struct dixoff_tfm *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	struct dixoff_inst *in = ctx->inst;
	struct skcipher_request *next = NULL;
	unsigned long flags;

	spin_lock_irqsave(&in->lock, flags);
	if (!list_empty(&in->backlog)) {
		struct dixoff_req *nr = list_first_entry(&in->backlog, struct dixoff_req, node);

		list_del(&nr->node);
		next = container_of((void *)nr, struct skcipher_request, __ctx);
	} else {
		in->inflight--;
	}
	spin_unlock_irqrestore(&in->lock, flags);
	if (next) {
		dixoff_start(next, in->dev);
		skcipher_request_complete(next, -EINPROGRESS);
	}
	dixoff_party_done(req);
	return HRTIMER_NORESTART;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
static void dixoff_fb_done(void *data, int err)
{
	struct skcipher_request *req = data;
#else
static void dixoff_fb_done(struct crypto_async_request *areq, int err)
{
	struct skcipher_request *req = areq->data;
#endif
	struct dixoff_req *rc = skcipher_request_ctx(req);

	if (err == -EINPROGRESS)	/* the fallback's own backlog moved on */
		return;
	rc->fb_err = err;
	dixoff_party_done(req);
}

static int dixoff_crypt(struct skcipher_request *req, bool enc)
{
	struct dixoff_tfm *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	struct dixoff_req *rc = skcipher_request_ctx(req);
	struct dixoff_inst *in = ctx->inst;
	unsigned long flags;
	int ret, queued;

	if (!in)
		return -ENOKEY;
	if (req->cryptlen < AES_BLOCK_SIZE)
		return -EINVAL;
	/*
	 * Everything is set up before the request is on a ring or backlog: a
	 * backlogged request is started by the completion that frees its slot,
	 * which may run as soon as the lock is dropped.  Parties: the fallback,
	 * the engine, and for a backlogged request this submitter too, so it
	 * cannot complete before the fallback has written dst and -EBUSY has
	 * been returned.
	 */
	atomic_set(&rc->parties, 3);
	rc->fb_err = 0;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&rc->timer, dixoff_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
#else
	hrtimer_init(&rc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	rc->timer.function = dixoff_timer_fn;
#endif
	skcipher_request_set_tfm(&rc->fbreq, ctx->fb);
	skcipher_request_set_callback(&rc->fbreq, req->base.flags & CRYPTO_TFM_REQ_MAY_SLEEP ?
				      CRYPTO_TFM_REQ_MAY_SLEEP | CRYPTO_TFM_REQ_MAY_BACKLOG :
				      CRYPTO_TFM_REQ_MAY_BACKLOG, dixoff_fb_done, req);
	skcipher_request_set_crypt(&rc->fbreq, req->src, req->dst, req->cryptlen, req->iv);
	spin_lock_irqsave(&in->lock, flags);
	if (in->inflight < ring_size && list_empty(&in->backlog)) {
		in->inflight++;
		queued = 0;
	} else if (req->base.flags & CRYPTO_TFM_REQ_MAY_BACKLOG) {
		list_add_tail(&rc->node, &in->backlog);
		queued = 1;
	} else {
		queued = -1;
	}
	spin_unlock_irqrestore(&in->lock, flags);
	if (queued < 0) {
		dixoff_count(&refused);
		return -ENOSPC;
	}
	if (queued)
		dixoff_count(&backlogged);

	if (!queued)
		atomic_dec(&rc->parties);	/* on the ring: no submitter's party */
	ret = enc ? crypto_skcipher_encrypt(&rc->fbreq) : crypto_skcipher_decrypt(&rc->fbreq);
	if (ret != -EINPROGRESS && ret != -EBUSY) {
		rc->fb_err = ret;
		atomic_dec(&rc->parties);	/* never the last: the engine's is pending */
	}
	if (queued) {
		dixoff_party_done(req);		/* drops the submitter's */
		return -EBUSY;
	}
	dixoff_start(req, in->dev);
	return -EINPROGRESS;
}

static int dixoff_encrypt(struct skcipher_request *req)
{
	return dixoff_crypt(req, true);
}

static int dixoff_decrypt(struct skcipher_request *req)
{
	return dixoff_crypt(req, false);
}

static int dixoff_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int len)
{
	struct dixoff_tfm *ctx = crypto_skcipher_ctx(tfm);
	int err;

	err = xts_verify_key(tfm, key, len);
	if (err)
		return err;
	crypto_skcipher_clear_flags(ctx->fb, CRYPTO_TFM_REQ_MASK);
	crypto_skcipher_set_flags(ctx->fb, crypto_skcipher_get_flags(tfm) & CRYPTO_TFM_REQ_MASK);
	err = crypto_skcipher_setkey(ctx->fb, key, len);
	if (err)
		return err;
	if (!ctx->inst)		/* a rekey keeps its instance, as QAT's does */
		dixoff_bind(ctx);
	return 0;
}

static int dixoff_init_tfm(struct crypto_skcipher *tfm)
{
	struct dixoff_tfm *ctx = crypto_skcipher_ctx(tfm);

	ctx->fb = crypto_alloc_skcipher(fallback, 0, CRYPTO_ALG_NEED_FALLBACK);
	if (IS_ERR(ctx->fb))
		return PTR_ERR(ctx->fb);
	ctx->inst = NULL;
	crypto_skcipher_set_reqsize(tfm, sizeof(struct dixoff_req) + crypto_skcipher_reqsize(ctx->fb));
	return 0;
}

static void dixoff_exit_tfm(struct crypto_skcipher *tfm)
{
	struct dixoff_tfm *ctx = crypto_skcipher_ctx(tfm);

	dixoff_unbind(ctx);
	crypto_free_skcipher(ctx->fb);
}

static struct skcipher_alg dixoff_alg = {
	.base.cra_name		= "xts(aes)",
	.base.cra_driver_name	= DIXOFF_DRIVER,
	.base.cra_blocksize	= AES_BLOCK_SIZE,
	.base.cra_ctxsize	= sizeof(struct dixoff_tfm),
	.base.cra_module	= THIS_MODULE,
	.min_keysize		= 2 * AES_MIN_KEY_SIZE,
	.max_keysize		= 2 * AES_MAX_KEY_SIZE,
	.ivsize			= AES_BLOCK_SIZE,
	.setkey			= dixoff_setkey,
	.encrypt		= dixoff_encrypt,
	.decrypt		= dixoff_decrypt,
	.init			= dixoff_init_tfm,
	.exit			= dixoff_exit_tfm,
};

static int __init dixoff_init(void)
{
	unsigned int d, i;
	int err;

	if (!dixbed_is_tcg() && !allow_real) {
		pr_err("dixoffload: not a TCG QEMU guest (DMI sys_vendor and CPUID 0x40000000); it would take xts(aes) from this machine's users: load with allow_real=1 to mean it\n");
		return -EPERM;
	}
	if (!devices || devices > 16 || !instances || instances > 64 || !engines ||
	    engines > DIXOFF_MAX_ENGINES || !ring_size || ring_size > 4096) {
		pr_err("dixoffload: devices 1-16, instances 1-64, engines 1-%d, ring_size 1-4096 (got %u %u %u %u)\n",
		       DIXOFF_MAX_ENGINES, devices, instances, engines, ring_size);
		return -EINVAL;
	}
	if (fallback_module && *fallback_module)
		request_module("%s", fallback_module);	/* absent: the fallback is what there is */
	dixoff_devs = kcalloc(devices, sizeof(*dixoff_devs), GFP_KERNEL);
	if (!dixoff_devs)
		return -ENOMEM;
	for (d = 0; d < devices; d++) {
		struct dixoff_dev *dev = &dixoff_devs[d];

		spin_lock_init(&dev->lock);
		dev->inst = kcalloc(instances, sizeof(*dev->inst), GFP_KERNEL);
		if (!dev->inst) {
			err = -ENOMEM;
			goto free;
		}
		for (i = 0; i < instances; i++) {
			dev->inst[i].dev = dev;
			spin_lock_init(&dev->inst[i].lock);
			INIT_LIST_HEAD(&dev->inst[i].backlog);
		}
	}
	dixoff_alg.base.cra_priority = priority;
	dixoff_alg.base.cra_flags = CRYPTO_ALG_ASYNC | CRYPTO_ALG_NEED_FALLBACK |
		(allocates_memory ? CRYPTO_ALG_ALLOCATES_MEMORY : 0);
	err = crypto_register_skcipher(&dixoff_alg);
	if (err)
		goto free;
	WRITE_ONCE(dixoff_registered, true);
	pr_info("dixoffload: %s at %d: %u devices x %u instances (ring %u), %u engines each, %u us + n/%u MB/s\n",
		DIXOFF_DRIVER, priority, devices, instances, ring_size, engines, latency_us, mbps);
	return 0;
free:
	for (d = 0; d < devices; d++)
		kfree(dixoff_devs[d].inst);
	kfree(dixoff_devs);
	return err;
}

static void __exit dixoff_exit(void)
{
	unsigned int d;

	crypto_unregister_skcipher(&dixoff_alg);
	for (d = 0; d < devices; d++)
		kfree(dixoff_devs[d].inst);
	kfree(dixoff_devs);
}

module_init(dixoff_init);
module_exit(dixoff_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dixload's model of a QAT-shaped xts(aes) offload device");
/* No crypto-xts(aes) alias: the kernel would load the model for anyone asking for xts(aes). */
MODULE_ALIAS_CRYPTO(DIXOFF_DRIVER);
