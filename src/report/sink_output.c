// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_output.c - --output: the lines the stdout sink prints (human or
 * JSON), written by dixload itself to a file of the user's.
 *
 * A launcher may drop what its processes print once it is signalled
 * (Open MPI 5's mpirun after SIGINT, an ssh session, a CI runner); a file
 * dixload writes keeps the summary whatever the launcher does.  The stream
 * is line buffered, so after a kill the file holds every whole line
 * printed before it.  The precondition progress line stays the stdout
 * sink's: it is rewritten in place, for a terminal.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/util.h"
#include "report/sink.h"

struct output {
	FILE *f;
	const struct dix_sink_ops *fmt;
};

void *sink_output_new(FILE *f, const struct dix_opts *o)
{
	struct output *p = xcalloc(1, sizeof(*p));

	setvbuf(f, NULL, _IOLBF, 0);
	p->f = f;
	p->fmt = o->format == OUT_JSON ? &sink_json_ops : &sink_human_ops;
	return p;
}

/* Each record to the format's op with the file as its stream. */
#define OUTPUT_OP(name, type)						\
	static void output_##name(void *priv, const type *r)		\
	{								\
		struct output *p = priv;				\
									\
		if (p->fmt->name)					\
			p->fmt->name(p->f, r);				\
	}

OUTPUT_OP(start, struct rec_start)
OUTPUT_OP(precond, struct rec_precond)
OUTPUT_OP(interval, struct rec_interval)
OUTPUT_OP(event, struct dix_event)
OUTPUT_OP(change, struct dix_event)
OUTPUT_OP(transition, struct rec_transition)
OUTPUT_OP(summary, struct rec_summary)

static void output_close(void *priv)
{
	struct output *p = priv;

	fflush(p->f);
	free(p);
}

const struct dix_sink_ops sink_output_ops = {
	.name = "output",
	.start = output_start,
	.precond = output_precond,
	.interval = output_interval,
	.event = output_event,
	.change = output_change,
	.transition = output_transition,
	.summary = output_summary,
	.close = output_close,
};
