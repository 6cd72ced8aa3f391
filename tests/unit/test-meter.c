// SPDX-License-Identifier: GPL-2.0-or-later
/* test-meter.c - interval math with an injected clock. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/meter.h"
#include "lib/stats.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

int main(void)
{
	struct meter m;
	struct dix_counters c;
	struct meter_sample s;
	struct lat_hist h;
	uint64_t i, p;

	memset(&c, 0, sizeof(c));
	meter_init(&m, 100.0, 1.0);
	ok(near(meter_deadline(&m), 101.0), "first deadline start+period");

	/* a late wake-up: rates use the measured 1.25 s, not 1 s */
	c.bytes[DIX_READ] = 125000000;
	c.bytes[DIX_WRITE] = 25000000;
	c.ops[DIX_READ] = 1000;
	c.ops[DIX_WRITE] = 250;
	is_int(meter_sample(&m, 101.25, &c, &s), 0, "sample 1");
	ok(near(s.dt, 1.25), "dt measured (%g)", s.dt);
	ok(near(s.read_bps, 100e6), "read rate over measured time (%g)", s.read_bps);
	ok(near(s.write_bps, 20e6), "write rate (%g)", s.write_bps);
	ok(near(s.iops, 1000), "iops (%g)", s.iops);
	ok(near(s.t, 1.25), "t since start (%g)", s.t);
	ok(near(meter_deadline(&m), 102.0), "schedule does not drift: next at 102");

	/* oversleep past two deadlines: one sample, missed ones skipped */
	c.bytes[DIX_READ] += 300000000;
	c.ops[DIX_READ] += 3000;
	is_int(meter_sample(&m, 104.25, &c, &s), 0, "sample after a stall");
	ok(near(s.dt, 3.0) && near(s.read_bps, 100e6) && near(s.write_bps, 0),
	   "stall: rate over the whole 3 s (%g)", s.read_bps);
	ok(near(meter_deadline(&m), 105.0), "next deadline after now");

	is_int(meter_sample(&m, 104.25, &c, &s), -EAGAIN, "no sample for zero time");
	is_int(meter_sample(&m, 104.0, &c, &s), -EAGAIN, "no sample for time going back");

	/* cumulative counters pass through */
	c.errors[DIX_ERR_GUARD] = 2;
	c.recovered = 1;
	meter_sample(&m, 105.0, &c, &s);
	is_int(counters_errors(&s.tot), 2, "Err cumulative");
	is_int(s.tot.recovered, 1, "Rec cumulative");

	/* latency histogram: percentiles within the bucket resolution */
	memset(&h, 0, sizeof(h));
	for (i = 1; i <= 100000; i++)
		lat_add(&h, i * 1000);	/* 1 us .. 100 ms uniform */
	p = lat_percentile(&h, 0.5);
	ok(p >= 50000000 * 0.93 && p <= 50000000 * 1.07, "p50 ~ 50 ms (%llu)",
	   (unsigned long long)p);
	p = lat_percentile(&h, 0.99);
	ok(p >= 99000000 * 0.93 && p <= 100000000, "p99 ~ 99 ms (%llu)",
	   (unsigned long long)p);
	is_int(lat_percentile(&h, 1.0), 100000000, "p100 is the max");
	is_int(h.max_ns, 100000000, "max");
	memset(&h, 0, sizeof(h));
	is_int(lat_percentile(&h, 0.5), 0, "empty histogram");
	lat_add(&h, 5);
	is_int(lat_percentile(&h, 0.5), 5, "small values exact");
	return tap_done();
}
