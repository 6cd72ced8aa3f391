// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter.c - interval rates over measured time on absolute deadlines.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/meter.h"
#include "lib/util.h"

void meter_init(struct meter *m, double start, double period)
{
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->last = start;
	m->period = period;
	m->k = 1;
}

double meter_deadline(const struct meter *m)
{
	return m->start + m->k * m->period;
}

int meter_sample(struct meter *m, double now, const struct dix_counters *tot,
		 struct meter_sample *s)
{
	double dt = now - m->last;
	uint64_t d_rb, d_wb, d_ops;

	if (!(dt > 0))
		return -EAGAIN;
	d_rb = tot->bytes[DIX_READ] - m->prev.bytes[DIX_READ];
	d_wb = tot->bytes[DIX_WRITE] - m->prev.bytes[DIX_WRITE];
	d_ops = tot->ops[DIX_READ] + tot->ops[DIX_WRITE] -
		m->prev.ops[DIX_READ] - m->prev.ops[DIX_WRITE];

	s->t = now - m->start;
	s->dt = dt;
	s->read_bps = d_rb / dt;
	s->write_bps = d_wb / dt;
	s->iops = d_ops / dt;
	s->unwritten = tot->unwritten - m->prev.unwritten;
	s->tot = *tot;

	m->prev = *tot;
	m->last = now;
	/* next deadline strictly after now: missed ones are skipped */
	while (meter_deadline(m) <= now)
		m->k++;
	return 0;
}

void sample_log_add(struct sample_log *l, const struct meter_sample *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->s = xrealloc(l->s, l->cap * sizeof(*l->s));
	}
	l->s[l->n++] = *s;
}

void sample_log_free(struct sample_log *l)
{
	free(l->s);
	memset(l, 0, sizeof(*l));
}
