/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * era.h - what the kernel's era does to the kcapi engine, as words: why
 * bind(2) refused an algorithm (7.2's mask, 7.3's af_alg_restrict), and
 * what the probe of --submit async found (kcapi/probe.c).  Pure functions
 * over the facts, which era_facts() reads, so tests give fakes of the
 * kernel's answers.
 */
#ifndef DIX_ENGINES_KCAPI_ERA_H
#define DIX_ENGINES_KCAPI_ERA_H

#include <stddef.h>

/**
 * struct kc_era - the facts of the running kernel the messages use.
 * @release: uname -r ("6.1.0-57-amd64")
 * @version: the upstream version where the distribution says it (Debian's
 *	uname -v: "6.1.192-1"), else ""
 * @major/@minor: of @release
 * @restrict_: /proc/sys/crypto/af_alg_restrict (7.3), -1 when absent
 * @async: the algorithm bound is asynchronous: 1 (a cryptd/pcrypt
 *	wrapper, or /proc/crypto says "async: yes" of it), 0, -1 unknown
 * @driver: the driver the kernel selects for it ("" unknown)
 */
struct kc_era {
	char release[80];
	char version[80];
	int major, minor;
	int restrict_;
	int async;
	char driver[128];
};

/**
 * struct kc_probe - what io_submit() did with the first requests of a TFM
 * (kcapi/probe.c).
 * @n: requests submitted in one io_submit() call
 * @done: of them, complete when it returned (io_getevents with a zero
 *	timeout right after it)
 * @err: 0, or -errno: the probe could not run (the run then counts one
 *	request in flight per call, the least it can have held)
 * @why: with @err, what failed
 * @fifo: the look ran SCHED_FIFO (see probe.c): a deferring driver's
 *	worker could not complete a request between io_submit() and the look
 */
struct kc_probe {
	unsigned int n, done;
	int err, fifo;
	char why[160];
};

struct kc;

/**
 * kc_probe_aio() - submit @n requests (at most 16) of @k's algorithm, as
 * the load's AIO calls would, on a socket of the probe's own, into @p.
 * Return: 0, or -errno (also in @p->err, with @p->why).
 */
int kc_probe_aio(struct kc *k, unsigned int n, struct kc_probe *p);

/**
 * kc_probe_defers() - whether @k's driver defers its requests: one probe
 * request still in the kernel when io_submit() returned (kc_probe_aio()).
 * Return: 1 when it does, 0 when it completed inside the call or the probe
 * could not tell.
 */
int kc_probe_defers(struct kc *k);

/**
 * kc_explain() - @err's text for a refusal of @name (bind ENOENT, socket
 * EAFNOSUPPORT) when the kernel's era explains it (kcapi/era.h), with the
 * name this kernel has for a driver it no longer has; "" otherwise.
 * Return: @out.
 */
const char *kc_explain(const char *name, int err, char *out, size_t len);

/** kc_era_read() - the facts for algorithm (or driver) @name. */
void kc_era_read(struct kc_era *e, const char *name);

/**
 * kc_era_refusal() - why bind(2) or socket(2) refused @name with @err
 * (-ENOENT, -EAFNOSUPPORT), by @e, into @out: af_alg_restrict (7.3) or the
 * 7.2 mask, naming --engine kload.
 * Return: 1 when the era explains it, 0 (@out "") when it does not.
 */
int kc_era_refusal(const struct kc_era *e, const char *name, int err,
		   char *out, size_t len);

/**
 * kc_era_async_note() - the start line's words on --submit async: what
 * the probe @p found on @e's kernel for @name, with @iodepth asked per TFM
 * and @threads TFM threads, into @out.  Return: 1 when io_submit
 * completed every probe request inside the call (one request in flight
 * per thread), 0 when the kernel held some of them asynchronously.
 */
int kc_era_async_note(const struct kc_era *e, const struct kc_probe *p,
		      const char *name, unsigned int iodepth,
		      unsigned int threads, char *out, size_t len);

#endif
