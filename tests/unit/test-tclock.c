// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-tclock.c - the latency clock: the rate of two readings, ticks to
 * nanoseconds without overflow over long spans, the counter chosen
 * exactly where the kernel keeps time with it, and a sleep measured by it
 * as CLOCK_MONOTONIC measures it.
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "lib/tclock.h"
#include "lib/util.h"
#include "tap.h"

int main(void)
{
	struct timespec ts = { 0, 20000000 };
	uint64_t t0, n0, t1, n1, by_ticks, by_ns, diff;
	char cs[64];
	int tsc_kernel;

	/* 1 GHz: one tick a nanosecond; 3 GHz: a third */
	is_int(tclock_calibrate(1000, 5000, 2001000, 2005000), 1ull << 32,
	       "2e6 ticks in 2e6 ns: 1 ns a tick");
	is_int(tclock_calibrate(0, 0, 3000000000ull, 1000000000ull),
	       (1ull << 32) / 3, "3e9 ticks in 1 s: 1/3 ns a tick");
	is_int(tclock_calibrate(10, 10, 10, 20), 0, "no ticks between: refused");
	is_int(tclock_calibrate(10, 20, 30, 20), 0, "no time between: refused");
	is_int(tclock_calibrate(0, 0, 1000, 1000000), 0, "1000 ns a tick: refused");
	is_int(tclock_calibrate(0, 0, 1000000000ull, 1000), 0,
	       "1e6 ticks a ns: refused");

	/* before tclock_init() ticks are nanoseconds */
	is_int(tclock_ns(100, 350), 250, "nanosecond ticks convert 1:1");
	is_int(tclock_ns(350, 100), 0, "a later start than end is 0");
	dix_tclock.mult = (1ull << 32) / 3;
	/* an hour of a 3 GHz counter: the product needs more than 64 bits */
	by_ticks = tclock_ns(7, 7 + 3600ull * 3000000000ull);
	/* the 32.32 rate is 2.3e-10 short of a third */
	if (!ok(by_ticks <= 3600000000000ull && by_ticks > 3600000000000ull - 1000,
		"an hour of 3 GHz ticks is an hour to a microsecond (the product exceeds 64 bits)"))
		printf("#   got %llu ns\n", (unsigned long long)by_ticks);
	dix_tclock.mult = 1ull << 32;

	tclock_init();
	tsc_kernel = !read_sysfs_str("/sys/devices/system/clocksource/clocksource0/current_clocksource",
				     cs, sizeof(cs)) && !strcmp(cs, "tsc");
#ifdef DIX_TCLOCK_TSC
	is_int(dix_tclock.tsc, tsc_kernel,
	       "the counter is used exactly when the kernel's clocksource is tsc");
#else
	is_int(dix_tclock.tsc, 0, "no counter on this architecture");
#endif
	printf("# clocksource %s, ticks %s, %.6f ns a tick\n", tsc_kernel ? "tsc" : "other",
	       dix_tclock.tsc ? "tsc" : "ns", dix_tclock.mult / 4294967296.0);

	t0 = tclock_now();
	n0 = dix_now_ns();
	nanosleep(&ts, NULL);
	n1 = dix_now_ns();
	t1 = tclock_now();
	by_ticks = tclock_ns(t0, t1);
	by_ns = n1 - n0;
	diff = by_ticks > by_ns ? by_ticks - by_ns : by_ns - by_ticks;
	/* the ticks' span encloses the ns span: a preemption between the
	 * reads of one end may add to it, the rate's error is 1e-4 at most */
	if (!ok(by_ticks + by_ns / 10000 >= by_ns && diff <= by_ns / 100 + 500000,
		"a 20 ms sleep: %llu ns by the latency clock, %llu by CLOCK_MONOTONIC",
		(unsigned long long)by_ticks, (unsigned long long)by_ns))
		printf("#   differ by %llu ns\n", (unsigned long long)diff);
	return tap_done();
}
