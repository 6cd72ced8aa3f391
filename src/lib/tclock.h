/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclock.h - the latency clock: the CPU's time-stamp counter where the
 * kernel keeps its own time with it, CLOCK_MONOTONIC elsewhere.
 *
 * Every I/O reads a clock twice (submission and completion).  In the 6.1
 * guest under icount (scripts/bench-vm) a vDSO clock_gettime() costs about
 * 72 instructions and rdtsc one; that vDSO reads the same counter and
 * scales it, so where the kernel's clocksource is "tsc" the counter is
 * what CLOCK_MONOTONIC is made of, synchronised across CPUs (the kernel
 * switches away from it when it finds otherwise, and this then keeps to
 * clock_gettime()).  A latency is the difference of two reads scaled by a
 * rate measured against CLOCK_MONOTONIC when the clock is set up (2-8 ms,
 * at most 5e-4 off, else it stays clock_gettime(); the histogram's buckets
 * are 6 %); NTP's slewing of CLOCK_MONOTONIC (at most 500 ppm) is not
 * followed.
 */
#ifndef DIX_TCLOCK_H
#define DIX_TCLOCK_H

#include <stdint.h>

#include "lib/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define DIX_TCLOCK_TSC	1
#endif

/**
 * struct dix_tclock - how ticks become nanoseconds.
 * @tsc: ticks are the time-stamp counter's (else CLOCK_MONOTONIC's ns)
 * @mult: nanoseconds per tick, fixed point with 32 fractional bits
 *	(1 << 32 when ticks are nanoseconds)
 */
struct dix_tclock {
	int tsc;
	uint64_t mult;
};

extern struct dix_tclock dix_tclock;

/**
 * tclock_init() - choose and calibrate the clock, once per process (later
 * calls return at once; thread-safe).  Before it, ticks are nanoseconds.
 */
void tclock_init(void);

/**
 * tclock_calibrate() - the 32.32 nanoseconds per tick of two readings
 * (@t0 ticks at @n0 ns, @t1 at @n1).
 * Return: the rate, or 0 when the readings cannot be a clock's (ticks or
 * time not ahead, or a tick outside [1/64, 64] ns).
 */
uint64_t tclock_calibrate(uint64_t t0, uint64_t n0, uint64_t t1, uint64_t n1);

/** tclock_now() - the latency clock now, in ticks. */
static inline uint64_t tclock_now(void)
{
#ifdef DIX_TCLOCK_TSC
	if (__builtin_expect(dix_tclock.tsc, 1))
		return __rdtsc();
#endif
	return dix_now_ns();
}

/**
 * tclock_ns() - the nanoseconds from tick @from to tick @to (0 when @to
 * is not later: the counters of two CPUs may differ by a few ticks).
 */
static inline uint64_t tclock_ns(uint64_t from, uint64_t to)
{
	if (to <= from)
		return 0;
	return (uint64_t)(((unsigned __int128)(to - from) * dix_tclock.mult) >> 32);
}

#endif
