// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - the machine's CPU time split (/proc/stat) and dixload's own CPU
 * seconds (getrusage), see cpu.h.
 *
 * Cost: one read of /proc/stat and one getrusage() per meter interval,
 * about 30 us together here, once a second: the meter's cost per I/O does
 * not change.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "report/cpu.h"
#include "lib/util.h"

int cpu_parse_stat(const char *text, struct cpu_snap *s)
{
	const char *p = text;
	unsigned long long v[8] = { 0 };
	int n;

	while (p && strncmp(p, "cpu ", 4)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -EINVAL;
	n = sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EINVAL;
	s->user = v[0];
	s->nice = v[1];
	s->system = v[2];
	s->idle = v[3];
	s->iowait = v[4];
	s->irq = v[5];
	s->softirq = v[6];
	s->steal = v[7];
	s->have_stat = 1;
	return 0;
}

void cpu_read(struct cpu_snap *s)
{
	struct rusage ru;
	char buf[4096];
	ssize_t n = -1;
	int fd;

	memset(s, 0, sizeof(*s));
	s->t = dix_now();
	fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* the "cpu " line comes first: one page is plenty */
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		buf[n] = '\0';
		cpu_parse_stat(buf, s);
	}
	if (!getrusage(RUSAGE_SELF, &ru)) {
		s->self_user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		s->self_sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
}

void cpu_between(const struct cpu_snap *a, const struct cpu_snap *b,
		 struct cpu_usage *u)
{
	double usr, sys, idle, iow, irq, sirq, steal, tot;
	double wall = b->t - a->t;

	memset(u, 0, sizeof(*u));
	u->self_user_s = b->self_user - a->self_user;
	u->self_sys_s = b->self_sys - a->self_sys;
	u->self_s = u->self_user_s + u->self_sys_s;
	u->self_pct = wall > 0 ? 100 * u->self_s / wall : 0;
	if (!a->have_stat || !b->have_stat)
		return;
	usr = (double)(b->user - a->user) + (double)(b->nice - a->nice);
	sys = (double)(b->system - a->system);
	idle = (double)(b->idle - a->idle);
	iow = (double)(b->iowait - a->iowait);
	irq = (double)(b->irq - a->irq);
	sirq = (double)(b->softirq - a->softirq);
	steal = (double)(b->steal - a->steal);
	tot = usr + sys + idle + iow + irq + sirq + steal;
	if (tot <= 0)
		return;
	u->valid = 1;
	u->usr = 100 * usr / tot;
	u->sys = 100 * sys / tot;
	u->iowait = 100 * iow / tot;
	u->irq = 100 * irq / tot;
	u->softirq = 100 * sirq / tot;
	u->busy = 100 * (usr + sys + irq + sirq + steal) / tot;
	/* /proc/stat counts in USER_HZ ticks (proc(5)) */
	u->busy_s = (usr + sys + irq + sirq + steal) / (double)sysconf(_SC_CLK_TCK);
}
