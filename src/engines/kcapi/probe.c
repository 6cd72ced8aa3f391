// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe.c - what io_submit() does with a TFM's requests on this kernel,
 * measured before the load: --submit async is a wish, and the kernel may
 * complete every "async" request inside the call (Debian 12's 6.1.0-57:
 * algif_skcipher lost its AIO path), so a TFM holds one request whatever
 * --iodepth says.  A kernel version says what should happen; only a
 * measurement says what does, so the version is never the test.
 *
 * libkcapi hides its io_submit() inside its AIO call, which returns when
 * every request is done, so the probe makes the calls itself on an AF_ALG
 * socket of its own, bound to the name the TFMs bind to: one sendmsg()
 * with the data of @n requests, one io_submit() of @n reads, then
 * io_getevents() with a zero timeout.  Requests already complete then were
 * done inside io_submit(); the rest were in flight asynchronously.  The
 * same socket type, driver and request shape as the load's calls, and no
 * instance registered or left behind (the probe binds to what is there).
 *
 * A deferring driver's worker (cryptd's, queued on this CPU) can run the
 * moment io_submit() returns, before the look: with one CPU (the bed's
 * guests) it preempts the caller on its way out of the system call and
 * completes the request, which would read as done inside the call.  So
 * the probe's thread runs SCHED_FIFO for its io_submit() and the look
 * (root only; a kernel worker is SCHED_OTHER), and says when it could not.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <linux/aio_abi.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engines/authenc_key.h"
#include "engines/kcapi/era.h"
#include "engines/kcapi/kc.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define PROBE_MAX	16

static int fail(struct kc_probe *p, const char *what, int e)
{
	p->err = -e;
	snprintf(p->why, sizeof(p->why), "%s: %s", what, strerror(e));
	return p->err;
}

/* The probe socket's key: the engine's (authenc: the rtattr blob). */
static int probe_key(struct kc *k, int s)
{
	unsigned char blob[AUTHENC_KEY_HDR + 64];
	const void *key = k->key;
	int n = (int)k->a->keylen;

	if (!n)
		return 0;
	if (k->a->authkeylen) {
		n = authenc_key(blob, sizeof(blob), k->key + AUTHKEY_OFF,
				k->a->authkeylen, k->key, k->a->keylen);
		if (n < 0)
			return -EINVAL;
		key = blob;
	}
	return setsockopt(s, SOL_ALG, ALG_SET_KEY, key, (socklen_t)n) ?
	       -errno : 0;
}

/* Encrypt: ALG_SET_OP, the IV and (AEAD) the associated data length. */
static ssize_t probe_send(struct kc *k, int op, unsigned char *data,
			  size_t dlen)
{
	union {
		char buf[CMSG_SPACE(4) + CMSG_SPACE(4 + 16) + CMSG_SPACE(4)];
		struct cmsghdr align;
	} c;
	struct iovec iov = { data, dlen };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = c.buf,
			      .msg_controllen = sizeof(c.buf) };
	struct cmsghdr *h;
	struct af_alg_iv *iv;
	uint32_t v;

	memset(&c, 0, sizeof(c));
	if (k->a->type != KC_AEAD)
		msg.msg_controllen -= CMSG_SPACE(4);
	h = CMSG_FIRSTHDR(&msg);
	h->cmsg_level = SOL_ALG;
	h->cmsg_type = ALG_SET_OP;
	h->cmsg_len = CMSG_LEN(4);
	v = ALG_OP_ENCRYPT;
	memcpy(CMSG_DATA(h), &v, 4);
	h = CMSG_NXTHDR(&msg, h);
	h->cmsg_level = SOL_ALG;
	h->cmsg_type = ALG_SET_IV;
	h->cmsg_len = CMSG_LEN(4 + 16);
	iv = (struct af_alg_iv *)CMSG_DATA(h);
	iv->ivlen = k->a->ivlen;
	if (k->a->type == KC_AEAD) {
		h = CMSG_NXTHDR(&msg, h);
		h->cmsg_level = SOL_ALG;
		h->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		h->cmsg_len = CMSG_LEN(4);
		v = k->a->assoclen;
		memcpy(CMSG_DATA(h), &v, 4);
	}
	return sendmsg(op, &msg, 0);
}

int kc_probe_aio(struct kc *k, unsigned int n, struct kc_probe *p)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	struct iocb cb[PROBE_MAX], *cbp[PROBE_MAX];
	struct io_event ev[PROBE_MAX];
	struct timespec zero = { 0, 0 }, wait = { 5, 0 };
	aio_context_t ctx = 0;
	unsigned char *in = NULL, *out = NULL;
	size_t inl, outl;
	unsigned int i, got, pending;
	struct sched_param old, rt = { .sched_priority = 1 };
	int pol, fifo;
	int s = -1, op = -1, r;
	long e;

	memset(p, 0, sizeof(*p));
	n = n < 1 ? 1 : n > PROBE_MAX ? PROBE_MAX : n;
	p->n = n;
	inl = outl = k->bs;
	if (k->a->type == KC_AEAD) {
		inl += k->a->assoclen;
		outl += k->a->assoclen + k->a->taglen;
	}
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s",
		 k->a->type == KC_AEAD ? "aead" : "skcipher");
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", k->a->name);
	in = calloc(n, inl);
	out = calloc(n, outl);
	if (!in || !out) {
		r = fail(p, "memory", ENOMEM);
		goto out;
	}
	s = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa))) {
		r = fail(p, s < 0 ? "socket(AF_ALG)" : "bind", errno);
		goto out;
	}
	r = probe_key(k, s);
	if (!r && k->a->type == KC_AEAD &&
	    setsockopt(s, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, k->a->taglen))
		r = -errno;
	if (r) {
		r = fail(p, "setting the key", -r);
		goto out;
	}
	op = accept(s, NULL, 0);
	if (op < 0) {
		r = fail(p, "accept", errno);
		goto out;
	}
	if (probe_send(k, op, in, n * inl) < 0) {
		r = fail(p, "sendmsg", errno);
		goto out;
	}
	if (syscall(__NR_io_setup, n, &ctx)) {
		r = fail(p, "io_setup", errno);
		goto out;
	}
	for (i = 0; i < n; i++) {
		memset(&cb[i], 0, sizeof(cb[i]));
		cb[i].aio_fildes = (uint32_t)op;
		cb[i].aio_lio_opcode = IOCB_CMD_PREAD;
		cb[i].aio_buf = (uint64_t)(uintptr_t)(out + i * outl);
		cb[i].aio_nbytes = outl;
		cb[i].aio_data = i;
		cbp[i] = &cb[i];
	}
	fifo = pthread_getschedparam(pthread_self(), &pol, &old) == 0 &&
	       pthread_setschedparam(pthread_self(), SCHED_FIFO, &rt) == 0;
	p->fifo = fifo;
	e = syscall(__NR_io_submit, ctx, (long)n, cbp);
	if (e < 0) {
		r = fail(p, "io_submit", errno);
		if (fifo)
			pthread_setschedparam(pthread_self(), pol, &old);
		goto out;
	}
	/* what the kernel finished before io_submit() came back */
	got = (unsigned int)e;
	p->n = got;
	e = syscall(__NR_io_getevents, ctx, 0L, (long)got, ev, &zero);
	if (fifo)
		pthread_setschedparam(pthread_self(), pol, &old);
	p->done = e > 0 ? (unsigned int)e : 0;
	r = 0;
	for (i = 0; i < p->done; i++)
		if (ev[i].res < 0 && !r)
			r = fail(p, "a probe request", (int)-ev[i].res);
	/* the rest, before the socket closes under them */
	for (pending = got - p->done; pending; pending -= (unsigned int)e) {
		e = syscall(__NR_io_getevents, ctx, 1L, (long)pending, ev,
			    &wait);
		if (e <= 0) {
			r = fail(p, "waiting for the probe",
				 e < 0 ? errno : ETIMEDOUT);
			goto out;
		}
		for (i = 0; i < (unsigned int)e; i++)
			if (ev[i].res < 0 && !r)
				r = fail(p, "a probe request",
					 (int)-ev[i].res);
	}
out:
	if (ctx)
		syscall(__NR_io_destroy, ctx);
	if (op >= 0)
		close(op);
	if (s >= 0)
		close(s);
	free(in);
	free(out);
	return r;
}

int kc_probe_defers(struct kc *k)
{
	struct kc_probe p;

	kc_probe_aio(k, 1, &p);
	return !p.err && p.n == 1 && p.done == 0;
}
