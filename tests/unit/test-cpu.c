// SPDX-License-Identifier: GPL-2.0-or-later
/* test-cpu.c - /proc/stat parsing and CPU shares between two readings. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "report/cpu.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* A 6.1 guest's /proc/stat head, and the same 100 ticks later. */
static const char stat_a[] =
	"cpu  1000 0 2000 10000 50 0 20 0 0 0\n"
	"cpu0 1000 0 2000 10000 50 0 20 0 0 0\n"
	"intr 12345 0 0\n";
static const char stat_b[] =
	"cpu  1030 10 2040 10010 55 1 24 0 0 0\n"
	"cpu0 1030 10 2040 10010 55 1 24 0 0 0\n";

int main(void)
{
	struct cpu_snap a, b;
	struct cpu_usage u;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	is_int(cpu_parse_stat(stat_a, &a), 0, "parse");
	ok(a.have_stat && a.user == 1000 && a.system == 2000 &&
	   a.idle == 10000 && a.iowait == 50 && a.softirq == 20,
	   "fields of the cpu line");
	is_int(cpu_parse_stat("cpu0 1 2 3 4\nintr 1\n", &b), -EINVAL,
	       "no aggregate cpu line: -EINVAL");
	is_int(cpu_parse_stat("", &b), -EINVAL, "empty text");
	is_int(cpu_parse_stat("cpu  1 2\n", &b), -EINVAL, "too few fields");
	/* kernels before 2.6.11 have no steal: 7 fields still parse */
	memset(&b, 0, sizeof(b));
	is_int(cpu_parse_stat("cpu  1 2 3 4 5 6 7\n", &b), 0, "7 fields");
	ok(b.softirq == 7 && b.steal == 0, "7 fields: steal 0");

	memset(&b, 0, sizeof(b));
	cpu_parse_stat(stat_b, &b);
	a.t = 10.0;
	b.t = 11.0;
	a.self_user = 1.0;
	a.self_sys = 2.0;
	b.self_user = 1.25;
	b.self_sys = 2.5;
	cpu_between(&a, &b, &u);
	/* 100 ticks: usr 30+10 nice, sys 40, idle 10, iowait 5, irq 1, softirq 4 */
	ok(u.valid, "valid");
	ok(near(u.usr, 40), "usr includes nice (%g)", u.usr);
	ok(near(u.sys, 40), "sys (%g)", u.sys);
	ok(near(u.iowait, 5), "iowait (%g)", u.iowait);
	ok(near(u.irq, 1), "irq (%g)", u.irq);
	ok(near(u.softirq, 4), "softirq (%g)", u.softirq);
	ok(near(u.busy, 85), "busy = not idle, not iowait (%g)", u.busy);
	ok(near(u.busy_s, 85.0 / (double)sysconf(_SC_CLK_TCK)),
	   "busy CPU seconds: 85 ticks of USER_HZ (%g)", u.busy_s);
	ok(near(u.self_s, 0.75), "dixload's seconds (%g)", u.self_s);
	ok(near(u.self_pct, 75), "dixload's share of one CPU (%g)", u.self_pct);

	b.have_stat = 0;
	cpu_between(&a, &b, &u);
	ok(!u.valid && near(u.self_s, 0.75),
	   "no /proc/stat: machine shares unknown, own seconds kept");
	return tap_done();
}
