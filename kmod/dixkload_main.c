// SPDX-License-Identifier: GPL-2.0
/*
 * dixkload - a crypto load run inside the kernel, for dixload's kload engine.
 *
 * The 2023 "de-prioritize QAT" thread measured its drivers from a kernel
 * module (several threads, each waiting synchronously, 112 requests in
 * flight), and from 7.2 on AF_ALG refuses asynchronous drivers to user space
 * altogether: so the load that reaches QAT, cryptd or any async driver with
 * requests in flight is an in-kernel one.  This module is that load, driven
 * through /dev/dixkload (kmod/dixkload_uapi.h):
 *
 *  - a load is one open file: its TFMs, slots (a request each) and counters
 *    hang off the file and end with it, so two loads never share state;
 *  - DIXKLOAD_SYNC: one kernel thread per slot submits and waits for its
 *    own request, as the thread's module did;
 *  - DIXKLOAD_ASYNC: every slot is submitted at once; a completion queues
 *    the slot's work item, which accounts, checks and resubmits.  The
 *    callback may run in softirq (a driver's tasklet, cryptd's worker on
 *    another path): checking there would hold the CPU with bottom halves
 *    off, and a driver may not expect to be re-entered from its own
 *    completion, so the callback only stamps the time and queues the work;
 *  - every Nth result (check_every) is compared with a software reference
 *    TFM, allocated synchronous (never the async driver under test) and
 *    never of the tested driver's name (see ref_alloc()).
 *
 * The crypto API's rules are kept: with CRYPTO_TFM_REQ_MAY_BACKLOG, -EBUSY
 * means queued, and the callback is first called with -EINPROGRESS when the
 * request leaves the backlog (not a completion); without it, -EBUSY and
 * -ENOSPC are refusals (QAT: -ENOSPC after its retries): counted, the slot
 * pauses and submits again.
 *
 * One source for 6.1 to 7.x: the completion callback's signature changed in
 * 6.3 (void *data instead of struct crypto_async_request *).
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/uaccess.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/llist.h>
#include <linux/scatterlist.h>
#include <linux/random.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/capability.h>
#include <linux/version.h>
#include <crypto/skcipher.h>
#include <crypto/hash.h>

#include "dixkload.h"
#include "dixkload_ref.h"

/* ---------------------------------------------------------------- */
/* counters */

/* the in-flight integral up to @now; under ld->lock */
void dk_advance(struct dk_load *ld, u64 now)
{
	if (now > ld->t_last)
		ld->st.inflight_ns += ld->st.inflight_now * (now - ld->t_last);
	ld->t_last = now;
}

static void dk_enter(struct dk_load *ld)
{
	unsigned long fl;
	u64 now = ktime_get_ns();

	spin_lock_irqsave(&ld->lock, fl);
	dk_advance(ld, now);
	ld->st.inflight_now++;
	if (ld->st.inflight_now > ld->st.inflight_max)
		ld->st.inflight_max = ld->st.inflight_now;
	spin_unlock_irqrestore(&ld->lock, fl);
}

static void dk_leave(struct dk_load *ld, u64 now)
{
	unsigned long fl;

	spin_lock_irqsave(&ld->lock, fl);
	dk_advance(ld, now);
	if (ld->st.inflight_now)
		ld->st.inflight_now--;
	spin_unlock_irqrestore(&ld->lock, fl);
}

static void dk_count(struct dk_load *ld, u64 lat_ns, int err, u64 *reqno)
{
	unsigned long fl;

	spin_lock_irqsave(&ld->lock, fl);
	ld->st.requests++;
	*reqno = ld->st.requests;
	if (err) {
		ld->st.errors++;
		ld->st.last_errno = -err;
	} else {
		ld->st.bytes += ld->cfg.req_size;
	}
	ld->st.lat[dixkload_bucket_of(lat_ns)]++;
	spin_unlock_irqrestore(&ld->lock, fl);
}

static void dk_add(struct dk_load *ld, u64 *field, u64 n)
{
	unsigned long fl;

	spin_lock_irqsave(&ld->lock, fl);
	*field += n;
	spin_unlock_irqrestore(&ld->lock, fl);
}

/* ---------------------------------------------------------------- */
/* the reference */

/*
 * The software reference: dixkload's own (dixkload_ref.c) for the
 * algorithms it has; for the others, the same transformation from a
 * synchronous implementation whose driver is not the one under test.
 * Candidates, in order: the algorithm's own name (mask CRYPTO_ALG_ASYNC: the best
 * synchronous one), then generic spellings of it (aes-generic on 6.x,
 * aes-lib on 7.x, NAME-generic for hashes).  The first whose driver name
 * differs from @tested is taken; none: -ENOENT, and the load does not start
 * unchecked.
 */
static const char *const aes_impls[] = { "aes-generic", "aes-lib", "aes-aesni" };

static int ref_names(const char *cra, int hash, char (*out)[CRYPTO_MAX_ALG_NAME],
		     int max)
{
	int n = 0, i;
	const char *p;

	strscpy(out[n++], cra, CRYPTO_MAX_ALG_NAME);
	if (hash) {
		snprintf(out[n++], CRYPTO_MAX_ALG_NAME, "%s-generic", cra);
		snprintf(out[n++], CRYPTO_MAX_ALG_NAME, "%s-lib", cra);
		return n;
	}
	/* MODE(aes) or MODE(ecb(aes)): MODE(IMPL) for each AES implementation */
	p = strchr(cra, '(');
	if (!p || !strstr(cra, "aes"))
		return n;
	for (i = 0; i < ARRAY_SIZE(aes_impls) && n < max; i++)
		snprintf(out[n++], CRYPTO_MAX_ALG_NAME, "%.*s(%s)",
			 (int)(p - cra), cra, aes_impls[i]);
	return n;
}

static int ref_alloc(struct dk_load *ld, const char *cra, const char *tested)
{
	char names[6][CRYPTO_MAX_ALG_NAME];
	int hash = ld->cfg.kind == DIXKLOAD_AHASH;
	int n = ref_names(cra, hash, names, ARRAY_SIZE(names)), i, err = -ENOENT;
	struct dk_ref *own = dk_ref_new(cra, ld->cfg.key, ld->cfg.keylen);

	if (IS_ERR(own))
		return PTR_ERR(own);
	if (own) {
		ld->ref_own = own;
		strscpy(ld->st.ref_driver, dk_ref_name(own),
			sizeof(ld->st.ref_driver));
		return 0;
	}
	for (i = 0; i < n; i++) {
		const char *drv;

		if (hash) {
			struct crypto_shash *sh = crypto_alloc_shash(names[i], 0, 0);

			if (IS_ERR(sh))
				continue;
			drv = crypto_tfm_alg_driver_name(crypto_shash_tfm(sh));
			if (!strcmp(drv, tested)) {
				crypto_free_shash(sh);
				continue;
			}
			if (ld->cfg.keylen) {
				err = crypto_shash_setkey(sh, ld->cfg.key, ld->cfg.keylen);
				if (err) {
					crypto_free_shash(sh);
					return err;
				}
			}
			ld->ref_sh = sh;
		} else {
			struct crypto_sync_skcipher *sk =
				crypto_alloc_sync_skcipher(names[i], 0, 0);

			if (IS_ERR(sk))
				continue;
			drv = crypto_tfm_alg_driver_name(crypto_skcipher_tfm(&sk->base));
			if (!strcmp(drv, tested)) {
				crypto_free_sync_skcipher(sk);
				continue;
			}
			err = crypto_sync_skcipher_setkey(sk, ld->cfg.key, ld->cfg.keylen);
			if (err) {
				crypto_free_sync_skcipher(sk);
				return err;
			}
			ld->ref_sk = sk;
		}
		strscpy(ld->st.ref_driver, drv, sizeof(ld->st.ref_driver));
		return 0;
	}
	return err;
}

static void ref_free(struct dk_load *ld)
{
	dk_ref_free(ld->ref_own);
	ld->ref_own = NULL;
	if (ld->ref_sk)
		crypto_free_sync_skcipher(ld->ref_sk);
	if (ld->ref_sh)
		crypto_free_shash(ld->ref_sh);
	ld->ref_sk = NULL;
	ld->ref_sh = NULL;
}

/* the IV of a slot's request: from the seed, the slot and its number */
static void dk_iv(const struct dk_slot *s, u8 *iv, unsigned int len)
{
	u64 a = s->ld->cfg.seed ^ ((u64)s->idx << 40) ^ s->seq;
	unsigned int i;

	for (i = 0; i < len; i++)
		iv[i] = (u8)(a >> ((i & 7) * 8)) ^ (u8)(i * 0x9d);
}

/* Compare the result with the reference's; 1 when they differ. */
static int dk_check(struct dk_slot *s, const u8 *iv)
{
	struct dk_load *ld = s->ld;
	u64 t0 = ktime_get_ns();
	int bad;

	if (ld->ref_own && s->ahreq) {
		u8 want[64];
		unsigned int n = dk_ref_digest(ld->ref_own, s->src,
					       ld->cfg.req_size, want);

		bad = memcmp(want, s->digest, n) != 0;
	} else if (ld->ref_own) {
		dk_ref_cipher(ld->ref_own, s->decrypt, iv, s->src, s->ref,
			      ld->cfg.req_size);
		bad = memcmp(s->ref, s->dst, ld->cfg.req_size) != 0;
	} else if (ld->ref_sh) {
		SHASH_DESC_ON_STACK(desc, ld->ref_sh);
		u8 want[64];

		desc->tfm = ld->ref_sh;
		bad = crypto_shash_digest(desc, s->src, ld->cfg.req_size, want) ||
		      memcmp(want, s->digest,
			     crypto_shash_digestsize(ld->ref_sh));
		shash_desc_zero(desc);
	} else {
		SYNC_SKCIPHER_REQUEST_ON_STACK(req, ld->ref_sk);
		struct scatterlist sg_in, sg_out;
		u8 ivc[32];
		u8 *want = s->ref;

		memcpy(ivc, iv, sizeof(ivc));
		sg_init_one(&sg_in, s->src, ld->cfg.req_size);
		sg_init_one(&sg_out, want, ld->cfg.req_size);
		skcipher_request_set_sync_tfm(req, ld->ref_sk);
		skcipher_request_set_callback(req, 0, NULL, NULL);
		skcipher_request_set_crypt(req, &sg_in, &sg_out, ld->cfg.req_size, ivc);
		bad = (s->decrypt ? crypto_skcipher_decrypt(req) :
		       crypto_skcipher_encrypt(req)) ||
		      memcmp(want, s->dst, ld->cfg.req_size);
		skcipher_request_zero(req);
	}
	dk_add(ld, &ld->st.check_ns, ktime_get_ns() - t0);
	dk_add(ld, &ld->st.checked, 1);
	return bad;
}

/* ---------------------------------------------------------------- */
/* one request */

static void dk_kick(struct dk_slot *s);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
static void dk_done(void *data, int err)
{
	struct dk_slot *s = data;
#else
static void dk_done(struct crypto_async_request *areq, int err)
{
	struct dk_slot *s = areq->data;
#endif
	/* out of the backlog and onto the driver: still in flight */
	if (err == -EINPROGRESS)
		return;
	s->err = err;
	s->back = true;
	dk_leave(s->ld, ktime_get_ns());
	dk_kick(s);
}

static int dk_backlog(const struct dk_load *ld)
{
	return ld->cfg.flags & DIXKLOAD_F_BACKLOG;
}

/* Prepare and submit @s's next request; the driver's return. */
static int dk_submit(struct dk_slot *s, crypto_completion_t done, void *data)
{
	struct dk_load *ld = s->ld;
	u32 flags = dk_backlog(ld) ? CRYPTO_TFM_REQ_MAY_BACKLOG : 0;
	int err;

	s->seq++;
	if (ld->cfg.dir == DIXKLOAD_MIXED)
		s->decrypt = s->seq & 1;
	s->t_submit = ktime_get_ns();
	dk_enter(ld);
	if (s->ahreq) {
		ahash_request_set_callback(s->ahreq, flags, done, data);
		ahash_request_set_crypt(s->ahreq, &s->sg_src, s->digest,
					ld->cfg.req_size);
		err = crypto_ahash_digest(s->ahreq);
	} else {
		dk_iv(s, s->iv, crypto_skcipher_ivsize(s->t->sk));
		skcipher_request_set_callback(s->skreq, flags, done, data);
		skcipher_request_set_crypt(s->skreq, &s->sg_src, &s->sg_dst,
					   ld->cfg.req_size, s->iv);
		err = s->decrypt ? crypto_skcipher_decrypt(s->skreq) :
				   crypto_skcipher_encrypt(s->skreq);
	}
	if (err == -EBUSY && dk_backlog(ld)) {
		dk_add(ld, &ld->st.backlogged, 1);
		return -EINPROGRESS;
	}
	if (err != -EINPROGRESS)
		dk_leave(ld, ktime_get_ns());	/* not in flight any more */
	return err;
}

/* a refusal: -EBUSY without MAY_BACKLOG, or -ENOSPC */
static int dk_refused(const struct dk_load *ld, int err)
{
	return err == -ENOSPC || (err == -EBUSY && !dk_backlog(ld));
}

/* Account one completed request of @s with status @err; check it. */
static void dk_complete(struct dk_slot *s, int err, u64 t_done)
{
	struct dk_load *ld = s->ld;
	u64 reqno, treq, every = ld->cfg.check_every;
	u8 iv[32];

	dk_count(ld, t_done - s->t_submit, err, &reqno);
	treq = atomic64_inc_return(&s->t->nreq);
	if (err)
		return;
	if ((ld->cfg.flags & DIXKLOAD_F_CORRUPT) && ld->cfg.corrupt_every &&
	    reqno % ld->cfg.corrupt_every == 0) {
		if (s->ahreq)
			s->digest[0] ^= 0x01;
		else
			s->dst[0] ^= 0x01;
	}
	if (!every || reqno % every)
		return;
	/* the IV the request used: the driver may have advanced s->iv */
	if (!s->ahreq)
		dk_iv(s, iv, crypto_skcipher_ivsize(s->t->sk));
	if (dk_check(s, iv)) {
		unsigned long fl;

		spin_lock_irqsave(&ld->lock, fl);
		if (!ld->st.mismatches++) {
			ld->st.first_bad_tfm = s->t->idx;
			ld->st.first_bad_req = treq;
		}
		spin_unlock_irqrestore(&ld->lock, fl);
	}
}

/* ---------------------------------------------------------------- */
/* sync mode: a thread per slot */

static int dk_thread(void *arg)
{
	struct dk_slot *s = arg;
	struct dk_load *ld = s->ld;

	/*
	 * Nice 19: a thread at 100 % that yields to anything else that wants
	 * the CPU.  Alone it runs as fast; beside it, the work the load is
	 * there to watch can still run: measured in the 6.1 guest (one CPU),
	 * `modprobe aesni_intel` took 16-27 s beside 32 such threads at nice
	 * 0, and dixload's own meter and control thread starve alike.
	 */
	set_user_nice(current, MAX_NICE);
	while (!kthread_should_stop() && !READ_ONCE(ld->stopping)) {
		int err;

		crypto_init_wait(&s->wait);
		err = dk_submit(s, crypto_req_done, &s->wait);
		if (err == -EINPROGRESS) {
			/* crypto_req_done ignores the backlog's -EINPROGRESS */
			wait_for_completion(&s->wait.completion);
			err = s->wait.err;
			dk_leave(ld, ktime_get_ns());
		} else if (dk_refused(ld, err)) {
			dk_add(ld, &ld->st.refused, 1);
			s->seq--;
			usleep_range(20, 50);
			continue;
		}
		dk_complete(s, err, ktime_get_ns());
		cond_resched();
	}
	/* kthread_stop() needs the thread to wait for it */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 100);
	return 0;
}

/* ---------------------------------------------------------------- */
/*
 * async mode: the load's runners, kernel threads at nice 19 as the sync
 * threads are, one per slot up to DK_RUNNERS, take the slots handed back
 * (dk_done() from the driver's callback, or a slot's own turn) one turn
 * each: account and check what came back, submit the next.  Not work
 * items: an unbound workqueue runs each in a kworker of its own at nice
 * 0, and measured on 6.1 `modprobe dixoffload` beside 8 x 16 async slots
 * took 7.5-7.9 s, its CPU share 1 in 129.  Not one runner per CPU either:
 * it gets the CPU a deferring driver's worker (cryptd's kworker) leaves
 * it, half, and with every result checked (the check costs about 3 times
 * the generic driver's work) the slots waited for it, not in the driver:
 * measured mean 0.47 in flight of 32 asked.
 */
static void dk_kick(struct dk_slot *s)
{
	/* llist_add() orders s->back and s->err before the runner's take */
	llist_add(&s->node, &s->ld->ready);
	wake_up(&s->ld->rwait);
}

static void dk_turn(struct dk_slot *s)
{
	struct dk_load *ld = s->ld;
	int err;

	if (s->back) {		/* a request came back through dk_done() */
		s->back = false;
		dk_complete(s, s->err, ktime_get_ns());
	}
	if (READ_ONCE(ld->stopping)) {
		if (atomic_dec_and_test(&ld->active))
			wake_up(&ld->idle);
		return;
	}
	err = dk_submit(s, dk_done, s);
	if (err == -EINPROGRESS)
		return;		/* dk_done() hands it back */
	if (dk_refused(ld, err)) {
		dk_add(ld, &ld->st.refused, 1);
		s->seq--;
		usleep_range(20, 50);
	} else {
		/* done inside the call (a synchronous driver) or failed */
		dk_complete(s, err, ktime_get_ns());
	}
	dk_kick(s);		/* its next turn after the other slots' */
}

static int dk_runner(void *arg)
{
	struct dk_load *ld = arg;

	set_user_nice(current, MAX_NICE);
	for (;;) {
		struct dk_slot *s, *t;
		struct llist_node *n;

		/* exclusive: a slot handed back wakes one runner, not all */
		wait_event_interruptible_exclusive(ld->rwait,
						   !llist_empty(&ld->ready) ||
						   kthread_should_stop());
		if (kthread_should_stop())
			break;
		n = llist_reverse_order(llist_del_all(&ld->ready));
		llist_for_each_entry_safe(s, t, n, node) {
			dk_turn(s);
			cond_resched();
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* names */

/*
 * cryptd(X) by that name never resolves: cryptd's instance is named X and
 * its driver cryptd(DRIVER OF X), so the lookup builds instances that never
 * match the name asked for (measured on 6.1: -ENOENT, and one more cryptd
 * instance in /proc/crypto per try).  Ask by the driver name the instance
 * will have: X's synchronous driver now, wrapped.  Synchronous: once a
 * cryptd(X) exists it is X's best driver (priority 150), and cryptd wraps
 * what runs in its worker, not another queue.
 */
static int dk_resolve(const struct dixkload_cfg *c, char *out, size_t len)
{
	size_t n = strlen(c->alg);
	char inner[CRYPTO_MAX_ALG_NAME];
	const char *drv;

	if (n < 9 || strncmp(c->alg, "cryptd(", 7) || c->alg[n - 1] != ')') {
		strscpy(out, c->alg, len);
		return 0;
	}
	if (n - 8 >= sizeof(inner))
		return -ENAMETOOLONG;
	memcpy(inner, c->alg + 7, n - 8);
	inner[n - 8] = 0;
	if (c->kind == DIXKLOAD_AHASH) {
		struct crypto_ahash *t =
			crypto_alloc_ahash(inner, 0, CRYPTO_ALG_ASYNC);

		if (IS_ERR(t))
			return PTR_ERR(t);
		drv = crypto_tfm_alg_driver_name(crypto_ahash_tfm(t));
		n = snprintf(out, len, "cryptd(%s)", drv);
		crypto_free_ahash(t);
	} else {
		struct crypto_skcipher *t =
			crypto_alloc_skcipher(inner, 0, CRYPTO_ALG_ASYNC);

		if (IS_ERR(t))
			return PTR_ERR(t);
		drv = crypto_tfm_alg_driver_name(crypto_skcipher_tfm(t));
		n = snprintf(out, len, "cryptd(%s)", drv);
		crypto_free_skcipher(t);
	}
	/* a cut name would ask the crypto API for another algorithm */
	return n < len ? 0 : -ENAMETOOLONG;
}

/* ---------------------------------------------------------------- */
/* a load's TFMs and slots */

void dk_free(struct dk_load *ld)
{
	u32 i;

	for (i = 0; ld->slots && i < ld->nslots; i++) {
		struct dk_slot *s = &ld->slots[i];

		/* 6.16+ ahash_request_free() reads the request: never NULL */
		if (s->skreq)
			skcipher_request_free(s->skreq);
		if (s->ahreq)
			ahash_request_free(s->ahreq);
		kvfree(s->src);
		kvfree(s->dst);
		kvfree(s->ref);
	}
	kvfree(ld->slots);
	ld->slots = NULL;
	for (i = 0; ld->tfms && i < ld->ntfms; i++) {
		if (ld->tfms[i].sk)
			crypto_free_skcipher(ld->tfms[i].sk);
		if (ld->tfms[i].ah)
			crypto_free_ahash(ld->tfms[i].ah);
	}
	kvfree(ld->tfms);
	ld->tfms = NULL;
	ref_free(ld);
}

int dk_alloc(struct dk_load *ld)
{
	const struct dixkload_cfg *c = &ld->cfg;
	const char *drv = NULL, *cra = NULL;
	char name[CRYPTO_MAX_ALG_NAME];
	u32 i;
	int err;

	err = dk_resolve(c, name, sizeof(name));
	if (err) {
		snprintf(ld->st.why, sizeof(ld->st.why),
			 "%s: its inner algorithm: %d", c->alg, err);
		return err;
	}
	ld->ntfms = c->tfms;
	ld->nslots = c->tfms * c->inflight;
	ld->tfms = kvcalloc(ld->ntfms, sizeof(*ld->tfms), GFP_KERNEL);
	ld->slots = kvcalloc(ld->nslots, sizeof(*ld->slots), GFP_KERNEL);
	if (!ld->tfms || !ld->slots)
		return -ENOMEM;
	for (i = 0; i < ld->ntfms; i++) {
		struct dk_tfm *t = &ld->tfms[i];
		struct crypto_tfm *base;

		t->idx = i;
		atomic64_set(&t->nreq, 0);
		if (c->kind == DIXKLOAD_AHASH) {
			t->ah = crypto_alloc_ahash(name, 0, 0);
			if (IS_ERR(t->ah)) {
				err = PTR_ERR(t->ah);
				t->ah = NULL;
				snprintf(ld->st.why, sizeof(ld->st.why),
					 "crypto_alloc_ahash(%s) for TFM %u: %d",
					 name, i, err);
				return err;
			}
			base = crypto_ahash_tfm(t->ah);
			err = c->keylen ? crypto_ahash_setkey(t->ah, c->key, c->keylen) : 0;
		} else {
			t->sk = crypto_alloc_skcipher(name, 0, 0);
			if (IS_ERR(t->sk)) {
				err = PTR_ERR(t->sk);
				t->sk = NULL;
				/* sid's 7.2 is built without cryptd at all */
				snprintf(ld->st.why, sizeof(ld->st.why),
					 "crypto_alloc_skcipher(%s) for TFM %u: %d%s",
					 name, i, err,
					 err == -ENOENT && strncmp(name, "cryptd(", 7) == 0 ?
					 " (is cryptd in this kernel? CONFIG_CRYPTO_CRYPTD)" : "");
				return err;
			}
			base = crypto_skcipher_tfm(t->sk);
			err = crypto_skcipher_setkey(t->sk, c->key, c->keylen);
		}
		if (err)
			return err;
		if (!drv) {
			drv = crypto_tfm_alg_driver_name(base);
			cra = crypto_tfm_alg_name(base);
		}
	}
	strscpy(ld->st.driver, drv, sizeof(ld->st.driver));
	if (c->check_every) {
		err = ref_alloc(ld, cra, drv);
		if (err) {
			/* the names are at most 127 bytes: @why holds them */
			if (snprintf(ld->st.why, sizeof(ld->st.why),
				     "no software reference for %s other than %s itself (%d)",
				     cra, drv, err) >= (int)sizeof(ld->st.why))
				ld->st.why[sizeof(ld->st.why) - 2] = '+';
			return err;
		}
	}
	for (i = 0; i < ld->nslots; i++) {
		struct dk_slot *s = &ld->slots[i];
		u32 j;

		s->ld = ld;
		s->idx = i;
		s->t = &ld->tfms[i / c->inflight];
		s->decrypt = c->dir == DIXKLOAD_DECRYPT;
		s->src = kvmalloc(c->req_size, GFP_KERNEL);
		s->dst = c->kind == DIXKLOAD_AHASH ? NULL :
			 kvmalloc(c->req_size, GFP_KERNEL);
		/* the reference's output: allocated once, not per check */
		s->ref = c->check_every && s->dst ?
			 kvmalloc(c->req_size, GFP_KERNEL) : NULL;
		if (!s->src || (c->kind != DIXKLOAD_AHASH && !s->dst) ||
		    (c->check_every && s->dst && !s->ref))
			return -ENOMEM;
		/* the data: from the seed and the slot, fixed; the IVs vary */
		for (j = 0; j < c->req_size; j += 8) {
			u64 v = (c->seed + i * 0x9e3779b97f4a7c15ull) ^
				((u64)j * 0xbf58476d1ce4e5b9ull);

			memcpy(s->src + j, &v, min(8u, c->req_size - j));
		}
		sg_init_one(&s->sg_src, s->src, c->req_size);
		if (s->dst)
			sg_init_one(&s->sg_dst, s->dst, c->req_size);
		if (s->t->ah)
			s->ahreq = ahash_request_alloc(s->t->ah, GFP_KERNEL);
		else
			s->skreq = skcipher_request_alloc(s->t->sk, GFP_KERNEL);
		if (!s->ahreq && !s->skreq)
			return -ENOMEM;
	}
	return 0;
}

/* Start every slot; under ld->mu. */
int dk_go(struct dk_load *ld)
{
	u32 i;

	WRITE_ONCE(ld->stopping, false);
	if (ld->cfg.submit == DIXKLOAD_SYNC) {
		for (i = 0; i < ld->nslots; i++) {
			struct task_struct *th;

			th = kthread_run(dk_thread, &ld->slots[i], "dixkload/%u", i);
			if (IS_ERR(th))
				return PTR_ERR(th);
			ld->slots[i].th = th;
		}
		return 0;
	}
	atomic_set(&ld->active, ld->nslots);
	init_llist_head(&ld->ready);
	ld->nrunners = min_t(u32, ld->nslots, DK_RUNNERS);
	for (i = 0; i < ld->nrunners; i++) {
		struct task_struct *th;

		th = kthread_run(dk_runner, ld, "dixkload/r%u", i);
		if (IS_ERR(th)) {
			ld->nrunners = i;
			if (!i)
				return PTR_ERR(th);
			break;		/* fewer runners still run every slot */
		}
		ld->runner[i] = th;
	}
	ld->queued = true;
	for (i = 0; i < ld->nslots; i++) {
		ld->slots[i].back = false;
		dk_kick(&ld->slots[i]);
	}
	return 0;
}

/* Stop every slot and wait until none is in flight; under ld->mu. */
void dk_halt(struct dk_load *ld)
{
	u32 i;

	WRITE_ONCE(ld->stopping, true);
	if (ld->cfg.submit == DIXKLOAD_SYNC) {
		for (i = 0; ld->slots && i < ld->nslots; i++) {
			if (ld->slots[i].th)
				kthread_stop(ld->slots[i].th);
			ld->slots[i].th = NULL;
		}
	} else if (ld->queued) {
		/* each slot's work ends at its next turn; a request in
		 * flight comes back first */
		wake_up_all(&ld->rwait);
		wait_event(ld->idle, atomic_read(&ld->active) == 0);
		for (i = 0; i < ld->nrunners; i++)
			kthread_stop(ld->runner[i]);
		ld->nrunners = 0;
		ld->queued = false;
	}
}
