// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * aio.c - the kcapi engine's asynchronous submission (--submit async):
 * libkcapi's AIO calls, one thread per TFM making them.
 *
 * The queued requests of a TFM go to the kernel in AIO calls of one
 * direction, at most --iodepth-batch of them and no more than the
 * socket's send buffer holds (kc_aio_limit()), and a call returns when all
 * of its requests completed.  libkcapi's AIO call waits for its own batch,
 * so each TFM has a thread making its calls (tfm_thread()): all --tfms of
 * a job are in the kernel at once, while the job thread checks the
 * results of those that are done and hands them their next requests.
 * The TFM's thread runs nothing but libkcapi; the IVs, the AEAD inputs
 * and the checks stay in the job thread.
 */
#include "config.h"

#include <errno.h>
#include <kcapi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "engines/kcapi/kc.h"
#include "lib/depth.h"

/*
 * libkcapi sends the data of every request of the call before the kernel
 * consumes any, and an AF_ALG socket holds at most its send buffer
 * (sk_sndbuf, from net.core.wmem_default, rounded down to pages) of
 * unconsumed data: beyond that sendmsg() sleeps for room that never comes
 * (measured, 6.1: 112 requests of 4 KiB in one call hung; 32 ran).
 * libkcapi does not expose the socket to raise SO_SNDBUF on it.
 */
unsigned int kc_aio_limit(size_t inl, unsigned long *sndbuf)
{
	unsigned long wmem = 212992, pages;
	FILE *f = fopen("/proc/sys/net/core/wmem_default", "re");

	if (f) {
		if (fscanf(f, "%lu", &wmem) != 1)
			wmem = 212992;
		fclose(f);
	}
	*sndbuf = wmem;
	pages = wmem / 4096 ? wmem / 4096 : 1;
	pages /= (inl + 4095) / 4096;
	return pages ? pages : 1;
}

/*
 * An AF_ALG op socket has one IV (ctx->iv) and, since Linux 6.7 and the
 * stable kernels of January 2024 (6.1.74, 5.15.148: 67b164a871af, "crypto:
 * af_alg - Disallow multiple in-flight AIO requests"), one request in
 * flight: af_alg_alloc_areq() fails the next one with EBUSY while
 * ctx->inflight is set, and only af_alg_free_resources() clears it, which
 * a deferring driver calls from its completion (af_alg_async_cb()).
 * libkcapi's AIO call sends all of its requests' data on its one op
 * socket and submits a read for each: with cryptd the first is queued to
 * the worker (-EIOCBQUEUED), the second gets EBUSY, the call fails, and
 * the data left in the socket (ctx->used, no MSG_MORE) fails the next
 * sendmsg with EINVAL (af_alg_sendmsg()).  Measured, 6.1.176 guest,
 * cryptd(xts(aes)): every request failed from --iodepth 4 on.  So a
 * driver that defers gets --iodepth op sockets per TFM (accept() on the
 * same TFM: same key, same driver), each with its own thread and one
 * request per call; one that completes inside io_submit (the plain
 * drivers, and every driver on 6.1.192, whose algif_skcipher waits for
 * the request) keeps one socket and the batches.
 */
unsigned int kc_lanes(const struct kc *k)
{
	if (!k->async || k->a->type == KC_HASH)
		return 1;
	/* a wrapper, or a driver name of one (cryptd(__xts-aes-aesni)) */
	if (k->spec.nwrap || !strncmp(k->spec.inner, "cryptd(", 7) ||
	    !strncmp(k->spec.inner, "pcrypt(", 7))
		return k->iodepth;
	return 1;
}

/*
 * The kernel's part of one AIO call @c of TFM @t, in the TFM's thread:
 * nothing but libkcapi and the kernel (the checks and the buffers' setup
 * stay in the job thread).  Hashes: libkcapi has no AIO digest, so the
 * requests go one by one, each result in t->res.
 */
static void call_run(struct kc *k, struct kc_tfm *t, struct kc_call *c,
		     struct iovec *iin, struct iovec *iout)
{
	const unsigned char *iv = k->iv[c->v[0]->idx];
	/*
	 * In flight: the call's n, unless io_submit() completes each inside
	 * the call (the probe, kc->aio_inline), when the kernel holds one at
	 * a time; hashes go one by one
	 */
	unsigned int i, m = k->aio_inline ? 1 : c->n;

	/* a failed call poisons libkcapi 1.4's handle (kc_tfm_renew()) */
	if (t->failed && k->a->type != KC_HASH && kc_tfm_renew(k, t) == 0)
		t->failed = 0;
	if (k->depth && k->a->type != KC_HASH)
		depth_enter(k->depth, m);
	switch (k->a->type) {
	case KC_SKCIPHER:
		c->r = c->dir == DIX_WRITE ?
		       kcapi_cipher_encrypt_aio(t->h, iin, iout, c->n,
						iv, KCAPI_ACCESS_HEURISTIC) :
		       kcapi_cipher_decrypt_aio(t->h, iin, iout, c->n,
						iv, KCAPI_ACCESS_HEURISTIC);
		break;
	case KC_AEAD:
		c->r = c->dir == DIX_WRITE ?
		       kcapi_aead_encrypt_aio(t->h, iin, iout, c->n, iv,
					      KCAPI_ACCESS_HEURISTIC) :
		       kcapi_aead_decrypt_aio(t->h, iin, iout, c->n, iv,
					      KCAPI_ACCESS_HEURISTIC);
		break;
	default:
		for (i = 0; i < c->n; i++) {
			if (k->depth)
				depth_enter(k->depth, 1);
			t->res[iin - t->iin + i] =
				kcapi_md_digest(t->h, iin[i].iov_base,
						iin[i].iov_len,
						iout[i].iov_base,
						iout[i].iov_len);
			if (k->depth)
				depth_leave(k->depth, 1);
		}
		c->r = 0;
	}
	if (k->depth && k->a->type != KC_HASH)
		depth_leave(k->depth, m);
	if (c->r < 0 && k->a->type != KC_HASH)
		t->failed = 1;
}

/*
 * A TFM's thread: run the calls it is handed, one set at a time.  Each
 * TFM has one, so with --submit async the --tfms of a job really are in
 * the kernel at once: libkcapi's AIO call returns only when its own
 * batch completed, and a job thread making the calls itself made its
 * TFMs take turns (--jobs = --tfms was the workaround).  Measured (6.1,
 * TCG guest with 2 CPUs, xts(aes) 4 KiB, 4 TFMs x QD16, --verify off,
 * busy host): dixload's own CPU 96-100 % of one CPU in one job before,
 * 170-178 % with these threads, 193-196 % with --jobs 4.
 */
static void *tfm_thread(void *arg)
{
	struct kc_tfm *t = arg;
	struct kc *k = t->k;
	unsigned int i, off;

	pthread_mutex_lock(&k->lock);
	for (;;) {
		while (t->state != TFM_RUN && t->state != TFM_STOP)
			pthread_cond_wait(&t->go, &k->lock);
		if (t->state == TFM_STOP)
			break;
		pthread_mutex_unlock(&k->lock);
		for (i = 0, off = 0; i < t->ncall; off += t->call[i].n, i++)
			call_run(k, t, &t->call[i], t->iin + off,
				 t->iout + off);
		pthread_mutex_lock(&k->lock);
		t->state = TFM_DONE;
		pthread_cond_signal(&k->fin);
	}
	pthread_mutex_unlock(&k->lock);
	return NULL;
}

int kc_start_threads(struct kc *k, char *err, size_t len)
{
	unsigned int i;
	int r;

	if (pthread_mutex_init(&k->lock, NULL) ||
	    pthread_cond_init(&k->fin, NULL))
		return -ENOMEM;
	k->locked = 1;
	for (i = 0; i < k->ntfm; i++) {
		struct kc_tfm *t = &k->tfm[i];

		if (pthread_cond_init(&t->go, NULL))
			return -ENOMEM;
		t->state = TFM_IDLE;
		r = pthread_create(&t->th, NULL, tfm_thread, t);
		if (r) {
			pthread_cond_destroy(&t->go);
			snprintf(err, len, "kcapi: starting TFM %u's thread: %s",
				 t->id, strerror(r));
			return -r;
		}
		t->started = 1;
	}
	return 0;
}

/* A call in the kernel finishes before its thread stops. */
void kc_stop_threads(struct kc *k)
{
	unsigned int i;

	if (!k->locked)
		return;
	for (i = 0; k->tfm && i < k->ntfm; i++) {
		struct kc_tfm *t = &k->tfm[i];

		if (!t->started)
			continue;
		pthread_mutex_lock(&k->lock);
		while (t->state == TFM_RUN)
			pthread_cond_wait(&k->fin, &k->lock);
		t->state = TFM_STOP;
		pthread_cond_signal(&t->go);
		pthread_mutex_unlock(&k->lock);
		pthread_join(t->th, NULL);
		pthread_cond_destroy(&t->go);
		t->started = 0;
	}
	pthread_cond_destroy(&k->fin);
	pthread_mutex_destroy(&k->lock);
	k->locked = 0;
}

/*
 * Hand idle TFM @t its queued requests: reopen it if --rebind auto asked,
 * prepare every request (IV, AEAD input), group them into AIO calls of
 * one direction and at most k->aio_max requests (see kc_aio_limit()), and
 * wake its thread.  Runs in the job thread.
 */
static int dispatch(struct kc *k, struct kc_tfm *t)
{
	unsigned int i;
	size_t inl, outl;
	int r, d;

	if (!t->npend[DIX_READ] && !t->npend[DIX_WRITE])
		return 0;
	t->nwork = 0;
	t->ncall = 0;
	r = kc_maybe_rebind(k, t, t->npend[DIX_READ] ? t->pend[DIX_READ][0] :
			    t->pend[DIX_WRITE][0]);
	if (r)
		return r;
	for (d = 0; d < DIX_DIR_NR; d++) {
		for (i = 0; i < t->npend[d]; i++) {
			struct dix_io *io = t->pend[d][i];
			struct kc_call *c;

			if (!t->ncall || t->call[t->ncall - 1].dir != d ||
			    t->call[t->ncall - 1].n == k->aio_max) {
				c = &t->call[t->ncall++];
				c->dir = d;
				c->n = 0;
				c->v = t->work + t->nwork;
			}
			c = &t->call[t->ncall - 1];
			/* the call sends its first request's IV only */
			r = kc_prepare(k, io, c->n ? k->iv[c->v[0]->idx] : NULL);
			if (r)
				return r;
			kc_lens(k, io, &inl, &outl);
			t->iin[t->nwork].iov_base = k->a->type == KC_AEAD ?
						    k->in[io->idx] : io->buf;
			t->iin[t->nwork].iov_len = inl;
			t->iout[t->nwork].iov_base = k->out[io->idx];
			t->iout[t->nwork].iov_len = outl;
			t->work[t->nwork++] = io;
			c->n++;
		}
		t->npend[d] = 0;
	}
	pthread_mutex_lock(&k->lock);
	t->state = TFM_RUN;
	k->nrun++;
	pthread_cond_signal(&t->go);
	pthread_mutex_unlock(&k->lock);
	return 0;
}

/*
 * TFM @t's calls are done: check every request (in the job thread, which
 * owns OpenSSL's context) and make them ready.
 */
static void collect(struct kc *k, struct kc_tfm *t)
{
	unsigned int i, j, w = 0;

	for (i = 0; i < t->ncall; i++) {
		struct kc_call *c = &t->call[i];

		for (j = 0; j < c->n; j++, w++) {
			struct dix_io *io = c->v[j];

			k->prev[io->idx] = j && (k->a->type == KC_SKCIPHER ||
						 k->a->chain != CH_NONE) ?
					   c->v[j - 1] : NULL;
			if (k->a->type == KC_HASH)
				kc_finish(k, io, t->res[w], t->iout[w].iov_len,
					  0);
			else if (c->r < 0)	/* one failure fails the call */
				kc_finish(k, io, c->r, 0, c->n);
			else
				kc_finish(k, io, t->iout[w].iov_len,
					  t->iout[w].iov_len, c->n);
			k->ready[k->nready++] = io;
		}
	}
	t->ncall = 0;
	t->nwork = 0;
}

int kc_commit(struct dix_eng_ctx *ctx)
{
	struct kc *k = ctx->priv;
	unsigned int i;
	int r, state;

	if (!k->async)
		return 0;
	for (i = 0; i < k->ntfm; i++) {
		pthread_mutex_lock(&k->lock);
		state = k->tfm[i].state;
		pthread_mutex_unlock(&k->lock);
		/* a busy TFM gets its queue when its calls are done */
		if (state != TFM_IDLE)
			continue;
		r = dispatch(k, &k->tfm[i]);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Wait until TFMs holding at least @min requests are done, check their
 * requests and hand each TFM what was queued for it meanwhile.
 */
int kc_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct kc *k = ctx->priv;
	unsigned int i;
	int n, r;

	k->nready = 0;
	if (!k->async)
		return 0;
	for (;;) {
		int done = 0;

		pthread_mutex_lock(&k->lock);
		while (k->nrun && (unsigned int)k->nready < min) {
			for (i = 0; i < k->ntfm; i++)
				if (k->tfm[i].state == TFM_DONE)
					break;
			if (i < k->ntfm)
				break;
			pthread_cond_wait(&k->fin, &k->lock);
		}
		for (i = 0; i < k->ntfm; i++)
			if (k->tfm[i].state == TFM_DONE) {
				k->tfm[i].state = TFM_IDLE;
				k->nrun--;
				done++;
			}
		pthread_mutex_unlock(&k->lock);
		if (!done)
			break;
		for (i = 0; i < k->ntfm; i++) {
			struct kc_tfm *t = &k->tfm[i];

			if (!t->ncall)
				continue;
			pthread_mutex_lock(&k->lock);
			r = t->state;
			pthread_mutex_unlock(&k->lock);
			if (r != TFM_IDLE)
				continue;
			collect(k, t);
			r = dispatch(k, t);
			if (r)
				return r;
		}
		if ((unsigned int)k->nready >= min)
			break;
	}
	n = k->nready;
	return n;
}
