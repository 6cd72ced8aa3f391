// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - human and JSON-lines output.
 *
 * MB/s is 10^6 bytes per second, over the measured interval.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "job.h"
#include "report.h"
#include "util.h"

#define MB 1e6

const char *exit_status_text(int status)
{
	switch (status) {
	case DIX_EXIT_OK:
		return "success";
	case DIX_EXIT_USAGE:
		return "usage or setup error";
	case DIX_EXIT_IO:
		return "I/O errors";
	case DIX_EXIT_INTEGRITY:
		return "integrity errors (PI or data verification)";
	case DIX_EXIT_ACTION:
		return "a scheduled action failed";
	}
	return "unknown";
}

static int json(const struct dix_run *r)
{
	return r->o->format == OUT_JSON;
}

void report_start(struct dix_run *r)
{
	FILE *f = stdout;

	if (json(r)) {
		fprintf(f, "{\"type\":\"start\",\"version\":\"%s\",\"dev\":",
			PACKAGE_VERSION);
		json_escape(f, r->t->path);
		fprintf(f, ",\"size\":%llu,\"lbs\":%u,\"is_blk\":%s,\"settings\":{",
			(unsigned long long)r->t->size, r->t->lbs,
			r->t->is_blk ? "true" : "false");
		opts_print_effective(f, r->o, 1);
		fputs("},\"integrity\":", f);
		integrity_print(f, r->t, 1);
		fputs("}\n", f);
	} else {
		fprintf(f, "dixload %s: ", PACKAGE_VERSION);
		opts_print_effective(f, r->o, 0);
		fputc('\n', f);
		integrity_print(f, r->t, 0);
	}
	fflush(f);
}

void report_interval(struct dix_run *r, const struct meter_sample *s)
{
	FILE *f = stdout;
	const struct dix_counters *c = &s->tot;
	unsigned long long ops = c->ops[DIX_READ] + c->ops[DIX_WRITE];
	unsigned long long err = counters_errors(c);
	int k;

	if (json(r)) {
		fprintf(f, "{\"type\":\"interval\",\"t\":%.3f,\"dt\":%.3f,"
			"\"read_bps\":%.0f,\"write_bps\":%.0f,\"iops\":%.1f,"
			"\"ops\":%llu,\"rec\":%llu,\"err\":%llu,\"errors\":{",
			s->t, s->dt, s->read_bps, s->write_bps, s->iops, ops,
			(unsigned long long)c->recovered, err);
		for (k = 0; k < DIX_ERR_NR; k++)
			fprintf(f, "%s\"%s\":%llu", k ? "," : "",
				dix_errkind_name(k),
				(unsigned long long)c->errors[k]);
		fputs("}}\n", f);
	} else if (!r->o->quiet) {
		fprintf(f, "[%5.1fs] R %7.2f MB/s, W %7.2f MB/s, IOPS %6.0f | Ops %8llu, Rec %2llu, Err %2llu\n",
			s->t, s->read_bps / MB, s->write_bps / MB, s->iops,
			ops, (unsigned long long)c->recovered, err);
	}
	fflush(f);
}

void report_event(struct dix_run *r, const struct dix_event *ev)
{
	FILE *f = stdout;

	if (json(r)) {
		fprintf(f, "{\"type\":\"event\",\"t\":%.3f,\"kind\":\"%s\",\"what\":",
			ev->t, ev->kind == EV_ACTION ? "action" :
			ev->kind == EV_CHANGE ? "change" : "note");
		json_escape(f, ev->what);
		if (ev->ok >= 0)
			fprintf(f, ",\"ok\":%s", ev->ok ? "true" : "false");
		if (ev->duration >= 0)
			fprintf(f, ",\"duration\":%.3f", ev->duration);
		if (ev->detail) {
			fputs(",\"detail\":", f);
			json_escape(f, ev->detail);
		}
		if (ev->json)
			fputs(ev->json, f);
		fputs("}\n", f);
	} else {
		fprintf(f, "[%5.1fs] %s", ev->t, ev->what);
		if (ev->ok >= 0)
			fprintf(f, ": %s", ev->ok ? "ok" : "FAILED");
		if (ev->duration >= 0)
			fprintf(f, " (%.2f s)", ev->duration);
		if (ev->detail)
			fprintf(f, "%s%s", ev->ok >= 0 ? ": " : " - ",
				ev->detail);
		fputc('\n', f);
	}
	fflush(f);
}

/* A latency in ns as a short human string with its unit. */
static const char *lat_str(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 10000)
		snprintf(buf, len, "%llu us", (unsigned long long)(ns + 500) / 1000);
	else if (ns < 10000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	return buf;
}

/*
 * The summary lists up to --max-report extents of each kind: a flood of
 * one kind (every read failing) must not hide the one block of another.
 * t->ext is sorted by kind, then LBA: extent @i is listed when fewer than
 * --max-report of its kind come before it.
 */
static int extent_listed(const struct dix_run *r, const struct dix_totals *t,
			 size_t i)
{
	size_t first = i;

	while (first && t->ext[first - 1].kind == t->ext[i].kind)
		first--;
	return i - first < r->o->max_report;
}

static void summary_json(struct dix_run *r, const struct dix_totals *t,
			 int status)
{
	static const char *const dirs[] = { "read", "write" };
	const struct dix_counters *c = &t->c;
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	FILE *f = stdout;
	int d, k, i, n;

	fprintf(f, "{\"type\":\"summary\",\"elapsed\":%.6f", t->elapsed);
	for (d = 0; d < DIX_DIR_NR; d++)
		fprintf(f, ",\"%s_bytes\":%llu,\"%s_ops\":%llu,\"%s_bps\":%.0f,\"%s_iops\":%.1f",
			dirs[d], (unsigned long long)c->bytes[d], dirs[d],
			(unsigned long long)c->ops[d], dirs[d],
			c->bytes[d] / el, dirs[d], c->ops[d] / el);
	fprintf(f, ",\"ops\":%llu,\"rec\":%llu,\"err\":%llu",
		(unsigned long long)(c->ops[0] + c->ops[1]),
		(unsigned long long)c->recovered,
		(unsigned long long)counters_errors(c));
	fputs(",\"errors\":{", f);
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "\"%s\":%llu,", dix_errkind_name(k),
			(unsigned long long)c->errors[k]);
	fprintf(f, "\"recovered\":%llu}", (unsigned long long)c->recovered);
	fputs(",\"injected\":{", f);
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "", dix_errkind_name(k),
			(unsigned long long)c->injected[k]);
	fputs("},\"caught\":{", f);
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "", dix_errkind_name(k),
			(unsigned long long)c->caught[k]);
	fputs("},\"bad_extents\":[", f);
	for (i = 0, n = 0; (size_t)i < t->next; i++) {
		if (!extent_listed(r, t, i))
			continue;
		struct jw w;

		if (n++)
			fputc(',', f);
		jw_init(&w, f);
		jw_obj_open(&w, NULL);
		extent_json(&w, &t->ext[i], r->t->lbs);
		jw_obj_close(&w);
	}
	fprintf(f, "],\"bad_extents_total\":%llu,\"bad_extents_unlisted\":%llu,\"bad_blocks\":%llu",
		(unsigned long long)(t->next + t->ext_dropped),
		(unsigned long long)(t->next + t->ext_dropped - n),
		(unsigned long long)(t->ext_blocks + t->ext_dropped_blocks));
	fprintf(f, ",\"unwritten_blocks\":%llu,\"lat_ns\":{",
		(unsigned long long)t->unwritten);
	for (d = 0; d < DIX_DIR_NR; d++) {
		const struct lat_hist *h = &t->lat[d];

		fprintf(f, "%s\"%s\":{\"p50\":%llu,\"p99\":%llu,\"p99.9\":%llu,\"max\":%llu}",
			d ? "," : "", dirs[d],
			(unsigned long long)lat_percentile(h, 0.5),
			(unsigned long long)lat_percentile(h, 0.99),
			(unsigned long long)lat_percentile(h, 0.999),
			(unsigned long long)h->max_ns);
	}
	fputs("},\"transitions\":[", f);
	for (i = 0; i < r->ntransitions; i++) {
		const struct dix_transition *tr = &r->transitions[i];
		const struct dix_event *ev = &r->events[tr->event];

		fprintf(f, "%s{\"event\":", i ? "," : "");
		json_escape(f, ev->what);
		fprintf(f, ",\"at\":%.3f,\"change_at\":", tr->at);
		if (isnan(tr->change_at))
			fputs("null", f);
		else
			fprintf(f, "%.3f", tr->change_at);
		/* a side without steady intervals has no mean: null, not 0 */
		if (tr->nbefore && tr->nafter)
			fprintf(f, ",\"before\":%.0f,\"after\":%.0f,\"ratio\":%.3f,"
				"\"before_sd\":%.0f,\"after_sd\":%.0f",
				tr->before, tr->after, tr->ratio, tr->before_sd,
				tr->after_sd);
		else
			fputs(",\"before\":null,\"after\":null,\"ratio\":null,"
			      "\"before_sd\":null,\"after_sd\":null", f);
		fprintf(f, ",\"n_before\":%d,\"n_after\":%d,\"significant\":%s}",
			tr->nbefore, tr->nafter,
			tr->significant ? "true" : "false");
	}
	fputs("],\"settings\":{", f);
	opts_print_effective(f, r->o, 1);
	fputs("},\"integrity\":", f);
	integrity_print(f, r->t, 1);
	fprintf(f, ",\"exit\":%d,\"exit_text\":\"%s\"}\n", status,
		exit_status_text(status));
}

/*
 * The bad extents by kind, up to --max-report of each, then what was not
 * listed: "bad extents: 2 (129 blocks)" and one line per extent.
 */
static void summary_extents(const struct dix_run *r,
			    const struct dix_totals *t)
{
	uint64_t more = 0, more_blocks = 0;
	char line[1024];
	FILE *f = stdout;
	size_t i;

	if (!t->next && !t->ext_dropped)
		return;
	fprintf(f, "bad extents: %llu (%llu block%s)\n",
		(unsigned long long)(t->next + t->ext_dropped),
		(unsigned long long)(t->ext_blocks + t->ext_dropped_blocks),
		t->ext_blocks + t->ext_dropped_blocks == 1 ? "" : "s");
	for (i = 0; i < t->next; i++) {
		const struct bad_extent *e = &t->ext[i];

		if (extent_listed(r, t, i)) {
			extent_describe(e, r->t->lbs, line, sizeof(line));
			fprintf(f, "  %s\n", line);
		} else {
			more++;
			more_blocks += e->count;
		}
		if (more && (i + 1 == t->next || t->ext[i + 1].kind != e->kind)) {
			fprintf(f, "  %s: %llu more extent%s (%llu block%s) not listed (--max-report %llu)\n",
				dix_errkind_name(e->kind),
				(unsigned long long)more, more == 1 ? "" : "s",
				(unsigned long long)more_blocks,
				more_blocks == 1 ? "" : "s",
				(unsigned long long)r->o->max_report);
			more = more_blocks = 0;
		}
	}
	if (t->ext_dropped)
		fprintf(f, "  %llu more extents (%llu blocks) not kept: more than %u per job\n",
			(unsigned long long)t->ext_dropped,
			(unsigned long long)t->ext_dropped_blocks,
			DIX_EXTENTS_MAX);
	if (r->o->error_log)
		fprintf(f, "every bad block: %s (--error-log)\n",
			r->o->error_log);
}

static void summary_human(struct dix_run *r, const struct dix_totals *t,
			  int status)
{
	static const char *const dirs[] = { "read ", "write" };
	const struct dix_counters *c = &t->c;
	double el = t->elapsed > 0 ? t->elapsed : 1e-9;
	char a[32], b[32], cc[32], d[32];
	FILE *f = stdout;
	int k, i;

	fprintf(f, "--- %s: %.2f s ---\n", r->t->path, t->elapsed);
	for (i = 0; i < DIX_DIR_NR; i++) {
		const struct lat_hist *h = &t->lat[i];

		fprintf(f, "%s: %10.2f MB in %.2f s = %8.2f MB/s, %8.0f IOPS",
			dirs[i], c->bytes[i] / MB, t->elapsed,
			c->bytes[i] / el / MB, c->ops[i] / el);
		if (h->count)
			fprintf(f, ", lat p50 %s, p99 %s, p99.9 %s, max %s",
				lat_str(lat_percentile(h, 0.5), a, sizeof(a)),
				lat_str(lat_percentile(h, 0.99), b, sizeof(b)),
				lat_str(lat_percentile(h, 0.999), cc, sizeof(cc)),
				lat_str(h->max_ns, d, sizeof(d)));
		fputc('\n', f);
	}
	fprintf(f, "ops %llu, recovered %llu, errors %llu (",
		(unsigned long long)(c->ops[0] + c->ops[1]),
		(unsigned long long)c->recovered,
		(unsigned long long)counters_errors(c));
	for (k = 0; k < DIX_ERR_NR; k++)
		fprintf(f, "%s%s %llu", k ? ", " : "", dix_errkind_name(k),
			(unsigned long long)c->errors[k]);
	fputs(")\n", f);
	summary_extents(r, t);
	if (t->unwritten && r->o->verify != VERIFY_OFF)
		fprintf(f, "blocks read without a dixload header (never written): %llu\n",
			(unsigned long long)t->unwritten);
	if (r->ntransitions) {
		fprintf(f, "%-44s %7s %7s %9s %9s %6s  %s\n", "transition",
			"at s", "chg s", "before", "after", "ratio",
			"(MB/s, mean ± sd over steady intervals)");
		for (i = 0; i < r->ntransitions; i++) {
			const struct dix_transition *tr = &r->transitions[i];
			char chg[16];

			if (isnan(tr->change_at))
				snprintf(chg, sizeof(chg), "-");
			else
				snprintf(chg, sizeof(chg), "%.1f", tr->change_at);
			if (!tr->nbefore || !tr->nafter) {
				fprintf(f, "%-44.44s %7.1f %7s %9s %9s %6s  too few steady intervals (%d before, %d after)\n",
					r->events[tr->event].what, tr->at, chg,
					"-", "-", "-", tr->nbefore, tr->nafter);
				continue;
			}
			fprintf(f, "%-44.44s %7.1f %7s %9.2f %9.2f %6.2f  ±%.2f/±%.2f %s\n",
				r->events[tr->event].what, tr->at, chg,
				tr->before / MB, tr->after / MB, tr->ratio,
				tr->before_sd / MB, tr->after_sd / MB,
				tr->significant ? "significant" :
				"no significant change");
		}
	}
	fprintf(f, "exit status %d: %s\n", status, exit_status_text(status));
}

void report_summary(struct dix_run *r, const struct dix_totals *t, int status)
{
	if (json(r))
		summary_json(r, t, status);
	else
		summary_human(r, t, status);
	fflush(stdout);
}
