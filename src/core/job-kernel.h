/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job-kernel.h - the worker's loop for an engine whose load runs in the
 * kernel (DIX_ENG_KERNEL, engines/engine.h): job-kernel.c says why.
 */
#ifndef DIX_JOB_KERNEL_H
#define DIX_JOB_KERNEL_H

#include <stdint.h>

struct wctx;

/**
 * kernel_poll_ns() - how often the worker asks the engine for its tally:
 * a tenth of the meter's period @interval_ms (0: no meter lines), within
 * 10-100 ms.
 */
uint64_t kernel_poll_ns(uint64_t interval_ms);

/**
 * worker_kernel_loop() - run the kernel's load until the run stops, its
 * requests are done or the load ends by itself, accounting each tally in
 * the worker's histograms and counters; then the final tally.  Sets
 * w->err and w->errmsg when the engine fails.
 */
void worker_kernel_loop(struct wctx *x);

#endif
