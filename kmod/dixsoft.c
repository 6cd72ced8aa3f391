// SPDX-License-Identifier: GPL-2.0
/*
 * dixsoft - a synchronous xts(aes) whose CPU cost per byte is a parameter:
 * AES-NI's part in the 2023 thread, beside the offload model (issue 36).
 *
 * Why: offload pays only when it takes CPU work away, and in the bed the
 * model's fallback runs on the guest's one vCPU like everything else.  So
 * the CPU competitor must cost more guest time per byte than the model's
 * own per-request cost, and that cost must be known: a correct result (a
 * software fallback) plus ns_per_kib of busy guest work per KiB, spun on
 * the guest's clock (under dixvm's instruction-counting clock,
 * instructions), not a sleep (dixsoft_spend()).
 *
 * Priority 500: above aesni's 401, so that aesni, which the model's
 * fallback pulls in, never takes the selection; below the model's 4001 and
 * above the 2023 patch's 201, so that lowering the model to 201 hands the
 * TFMs back to dixsoft, as it handed them back to AES-NI in the thread.
 *
 * CRYPTO_ALG_NEED_FALLBACK is set so that the fallbacks allocated with
 * that mask (the model's and this one's own) are never dixsoft.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>
#include <linux/atomic.h>
#include <linux/kmod.h>
#include <crypto/aes.h>
#include <crypto/xts.h>
#include <crypto/internal/skcipher.h>

#include "dixbed.h"

#define DIXSOFT_DRIVER "xts-aes-dixsoft"

static int priority = 500;
module_param(priority, int, 0444);
MODULE_PARM_DESC(priority, "cra_priority at registration (default 500: above aesni's 401, below the model's 4001, above the patch's 201)");
static unsigned int ns_per_kib = 125000;
module_param(ns_per_kib, uint, 0644);
MODULE_PARM_DESC(ns_per_kib, "busy guest time per KiB on top of the fallback's work, ns (default 125000: 0.5 ms a 4 KiB request)");
static char *fallback = "xts(aes)";
module_param(fallback, charp, 0444);
MODULE_PARM_DESC(fallback, "algorithm or driver of the synchronous fallback (default xts(aes), mask ASYNC | NEED_FALLBACK)");
static char *fallback_module = "aesni_intel";
module_param(fallback_module, charp, 0444);
MODULE_PARM_DESC(fallback_module, "module loaded before registration, so the fallback is the cheapest there is, as the model's (default aesni_intel; empty: none)");
static bool allow_real;
module_param(allow_real, bool, 0444);
MODULE_PARM_DESC(allow_real, "load on a machine that is not an emulated (TCG) QEMU guest, where it takes xts(aes) from aesni's users (default 0)");
static unsigned long completed;
module_param(completed, ulong, 0444);
MODULE_PARM_DESC(completed, "requests completed so far (read only)");

struct dixsoft_ctx {
	struct crypto_sync_skcipher *fb;
};

static int dixsoft_init_tfm(struct crypto_skcipher *tfm)
{
	struct dixsoft_ctx *c = crypto_skcipher_ctx(tfm);

	/* synchronous (the sync API masks ASYNC) and never dixsoft or the model */
	c->fb = crypto_alloc_sync_skcipher(fallback, 0, CRYPTO_ALG_NEED_FALLBACK);
	return PTR_ERR_OR_ZERO(c->fb);
}

static void dixsoft_exit_tfm(struct crypto_skcipher *tfm)
{
	struct dixsoft_ctx *c = crypto_skcipher_ctx(tfm);

	crypto_free_sync_skcipher(c->fb);
}

static int dixsoft_setkey(struct crypto_skcipher *tfm, const u8 *key,
			  unsigned int len)
{
	struct dixsoft_ctx *c = crypto_skcipher_ctx(tfm);
	int err = xts_verify_key(tfm, key, len);

	if (err)
		return err;
	crypto_sync_skcipher_clear_flags(c->fb, CRYPTO_TFM_REQ_MASK);
	crypto_sync_skcipher_set_flags(c->fb, crypto_skcipher_get_flags(tfm) &
				       CRYPTO_TFM_REQ_MASK);
	return crypto_sync_skcipher_setkey(c->fb, key, len);
}

static struct skcipher_alg dixsoft_alg;

/*
 * The calibrated work: busy, in the guest's clock, never a sleep, and the
 * CPU's alone.  A spin on the clock with preemption disabled, 20 us at a
 * time: udelay() and ndelay() are preemptible, and where the kernel
 * preempts (sid's 7.2, PREEMPT_DYNAMIC full) two requests' waits
 * overlapped, so 8 x 16 async requests on the one vCPU ran at 2696 IOPS,
 * 0.37 ms each for 0.5 ms of work (measured).  Short slices, because a
 * task woken meanwhile waits for the slice's end: with 1 ms slices
 * `modprobe dixoffload` beside 8 x 16 dixsoft requests took 14.5 s on
 * 6.12 (its self-test's wake-ups each waited), against 0.19 s alone.
 */
static void dixsoft_spend(unsigned int nbytes)
{
	u64 ns = (u64)nbytes * READ_ONCE(ns_per_kib) / 1024;

	if (!dixbed_tested(&dixsoft_alg.base))	/* the self-test's requests */
		return;

	while (ns) {
		u64 chunk = min_t(u64, ns, 20 * NSEC_PER_USEC), t0;

		preempt_disable();
		t0 = ktime_get_ns();
		while (ktime_get_ns() - t0 < chunk)
			cpu_relax();
		preempt_enable();
		ns -= chunk;
	}
}

static int dixsoft_crypt(struct skcipher_request *req, bool enc)
{
	struct dixsoft_ctx *c = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	SYNC_SKCIPHER_REQUEST_ON_STACK(sub, c->fb);
	int err;

	skcipher_request_set_sync_tfm(sub, c->fb);
	skcipher_request_set_callback(sub, req->base.flags, NULL, NULL);
	skcipher_request_set_crypt(sub, req->src, req->dst, req->cryptlen,
				   req->iv);
	err = enc ? crypto_skcipher_encrypt(sub) : crypto_skcipher_decrypt(sub);
	skcipher_request_zero(sub);
	dixsoft_spend(req->cryptlen);
	if (!err)
		WRITE_ONCE(completed, completed + 1);	/* a statistic: races lose counts, never results */
	return err;
}

static int dixsoft_encrypt(struct skcipher_request *req)
{
	return dixsoft_crypt(req, true);
}

static int dixsoft_decrypt(struct skcipher_request *req)
{
	return dixsoft_crypt(req, false);
}

static struct skcipher_alg dixsoft_alg = {
	.base = {
		.cra_name = "xts(aes)",
		.cra_driver_name = DIXSOFT_DRIVER,
		.cra_flags = CRYPTO_ALG_NEED_FALLBACK,
		.cra_blocksize = AES_BLOCK_SIZE,
		.cra_ctxsize = sizeof(struct dixsoft_ctx),
		.cra_module = THIS_MODULE,
	},
	.min_keysize = 2 * AES_MIN_KEY_SIZE,
	.max_keysize = 2 * AES_MAX_KEY_SIZE,
	.ivsize = AES_BLOCK_SIZE,
	.init = dixsoft_init_tfm,
	.exit = dixsoft_exit_tfm,
	.setkey = dixsoft_setkey,
	.encrypt = dixsoft_encrypt,
	.decrypt = dixsoft_decrypt,
};

static int __init dixsoft_init(void)
{
	int err;

	if (!dixbed_is_tcg() && !allow_real) {
		pr_err("dixsoft: not a TCG QEMU guest (DMI sys_vendor and CPUID 0x40000000); at priority %d it would take xts(aes) from this machine's users: load with allow_real=1 to mean it\n",
		       priority);
		return -EPERM;
	}
	/* the fallback's cost is then aesni's on every TFM, before and
	 * after the model's own request for it (measured without: the
	 * generic fallback, 2.09 MB/s, then 3.24 once aesni was loaded) */
	if (fallback_module && *fallback_module)
		request_module("%s", fallback_module);
	dixsoft_alg.base.cra_priority = priority;
	err = crypto_register_skcipher(&dixsoft_alg);
	if (err)
		return err;
	pr_info("dixsoft: %s at %d: the fallback's work plus %u ns per KiB\n",
		DIXSOFT_DRIVER, priority, ns_per_kib);
	return 0;
}

static void __exit dixsoft_exit(void)
{
	crypto_unregister_skcipher(&dixsoft_alg);
}

module_init(dixsoft_init);
module_exit(dixsoft_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dixload's synchronous xts(aes) of a stated CPU cost per byte (the CPU competitor of the offload model)");
/* No crypto-xts(aes) alias: the kernel would load it for anyone asking for xts(aes). */
MODULE_ALIAS_CRYPTO(DIXSOFT_DRIVER);
