// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tclock.c - choosing and calibrating the latency clock (tclock.h says
 * why it exists): the time-stamp counter when the kernel's clocksource is
 * "tsc", its rate measured against CLOCK_MONOTONIC over 2 ms (or 4, or 8),
 * to 5e-4 or better.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "lib/tclock.h"
#include "lib/util.h"

struct dix_tclock dix_tclock = { .tsc = 0, .mult = 1ull << 32 };

#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define CAL_NS		2000000ull	/* the calibration's span */
#define CAL_TRIES	5		/* readings per end, the tightest kept */

uint64_t tclock_calibrate(uint64_t t0, uint64_t n0, uint64_t t1, uint64_t n1)
{
	unsigned __int128 m;

	if (t1 <= t0 || n1 <= n0)
		return 0;
	m = ((unsigned __int128)(n1 - n0) << 32) / (t1 - t0);
	/* a tick of 1/64 to 64 ns: a 15.6 MHz to 64 GHz counter */
	if (m < (1ull << 26) || m > (1ull << 38))
		return 0;
	return (uint64_t)m;
}

#ifdef DIX_TCLOCK_TSC
/*
 * One (ticks, ns) reading: clock_gettime() between two counter reads, the
 * pair with the fewest ticks between of CAL_TRIES, the ticks its middle;
 * *@spread is those ticks, the reading's uncertainty (a preemption
 * between the reads puts the two apart).
 */
static void reading(uint64_t *t, uint64_t *n, uint64_t *spread)
{
	uint64_t a, b, ns;
	int i;

	*spread = UINT64_MAX;
	for (i = 0; i < CAL_TRIES; i++) {
		a = __rdtsc();
		ns = dix_now_ns();
		b = __rdtsc();
		if (b >= a && b - a < *spread) {
			*spread = b - a;
			*t = a + (b - a) / 2;
			*n = ns;
		}
	}
}

/*
 * The rate over CAL_NS, taken again over twice and four times the span
 * until the two readings' uncertainty is within 5e-4 of it: on a busy
 * machine every pair of one end may have been preempted, which would put
 * every latency of the run off by as much.  A reading is a vDSO call
 * between two counter reads: about 40 ns here, 300 in the 6.1 guest
 * under icount (75 instructions of 4 ns), whose first span passes
 * (600 ticks of uncertainty against 1000 allowed).  None good enough:
 * CLOCK_MONOTONIC.
 */
static void calibrate(void)
{
	uint64_t t0 = 0, n0 = 0, t1 = 0, n1 = 0, s0, s1, m;
	struct timespec ts;
	char cs[64];
	int i;

	if (read_sysfs_str(CLOCKSOURCE, cs, sizeof(cs)) || strcmp(cs, "tsc"))
		return;
	for (i = 0; i < 3; i++) {
		ts.tv_sec = 0;
		ts.tv_nsec = CAL_NS << i;
		reading(&t0, &n0, &s0);
		nanosleep(&ts, NULL);
		reading(&t1, &n1, &s1);
		if (t1 > t0 && s0 + s1 <= (t1 - t0) / 2000)
			break;
	}
	if (i == 3)
		return;
	m = tclock_calibrate(t0, n0, t1, n1);
	if (!m)
		return;
	dix_tclock.mult = m;
	dix_tclock.tsc = 1;
}
#else
static void calibrate(void)
{
}
#endif

void tclock_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, calibrate);
}
