// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sink_csv.c - the --log sink: keeps the total's intervals and the events
 * and writes them as one CSV table (csvlog.h) when a run that started
 * ends; a run that never started writes no file.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/util.h"
#include "report/csvlog.h"
#include "report/sink.h"

void *sink_csv_new(const char *path)
{
	return sink_log_new(path);
}

static void csv_summary(void *priv, const struct rec_summary *r)
{
	struct sink_log *l = priv;
	FILE *f;
	int e;

	if (!r->started)
		return;
	f = fopen(l->path, "w");
	if (!f) {
		e = -errno;
	} else {
		e = csv_write(f, l->samples.s, l->samples.n, l->ev, l->nev);
		if (fclose(f) && !e)
			e = -errno;
	}
	if (e)
		dix_err("--log %s: %s", l->path, strerror(-e));
}

const struct dix_sink_ops sink_csv_ops = {
	.name = "csv",
	.interval = sink_log_interval,
	.event = sink_log_event,
	.change = sink_log_event,
	.summary = csv_summary,
	.close = sink_log_free,
};
