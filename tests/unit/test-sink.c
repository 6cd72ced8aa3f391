// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sink.c - the sink registry hands every record kind to every sink
 * that has an op for it, in registration order, skips the ops a sink left
 * NULL, sends kernel changes to @change and the other events to @event,
 * refuses a sink past DIX_SINKS_MAX and closes each one; the file sinks
 * (--log, --plot) write only at the summary of a run that started.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pi/selftest.h"
#include "report/sink.h"
#include "tap.h"

enum {
	K_START, K_PROGRESS, K_PRECOND, K_INTERVAL, K_EVENT, K_CHANGE,
	K_TRANSITION, K_SUMMARY, K_CLOSE, K_NR
};

static const char *const kind_names[K_NR] = {
	"start", "precond_progress", "precond", "interval", "event", "change",
	"transition", "summary", "close",
};

/* What a recording sink saw: the kind, its sink's id, one fact of each. */
struct seen {
	int kind;
	int sink;
	double fact;
};

static struct seen seen[64];
static int nseen;

static void saw(void *priv, int kind, double fact)
{
	if (nseen < (int)(sizeof(seen) / sizeof(seen[0])))
		seen[nseen++] = (struct seen){ kind, *(int *)priv, fact };
}

static void rec_start(void *p, const struct rec_start *r)
{
	saw(p, K_START, r->ndevs);
}

static void rec_progress(void *p, const struct rec_precond_progress *r)
{
	saw(p, K_PROGRESS, (double)r->bytes);
}

static void rec_precond(void *p, const struct rec_precond *r)
{
	saw(p, K_PRECOND, (double)r->region);
}

static void rec_interval(void *p, const struct rec_interval *r)
{
	saw(p, K_INTERVAL, r->s->t + (r->ranks ? r->ranks[1].rank : 0) +
	    (r->ds ? 100 * r->ds[1].iops : 0));
}

static void rec_event(void *p, const struct dix_event *r)
{
	saw(p, K_EVENT, r->t);
}

static void rec_change(void *p, const struct dix_event *r)
{
	saw(p, K_CHANGE, r->t);
}

static void rec_transition(void *p, const struct rec_transition *r)
{
	saw(p, K_TRANSITION, r->tr->ratio);
}

static void rec_summary(void *p, const struct rec_summary *r)
{
	saw(p, K_SUMMARY, r->status);
}

static void rec_close(void *p)
{
	saw(p, K_CLOSE, 0);
}

static const struct dix_sink_ops recording = {
	.name = "recording",
	.start = rec_start, .precond_progress = rec_progress,
	.precond = rec_precond, .interval = rec_interval,
	.event = rec_event, .change = rec_change,
	.transition = rec_transition, .summary = rec_summary,
	.close = rec_close,
};

/* A sink that wants only the summary: the registry must skip the rest. */
static const struct dix_sink_ops summary_only = {
	.name = "summary-only",
	.summary = rec_summary,
};

static struct dix_devdesc tgt = { .path = "/dev/x", .lbs = 512 };
static struct rec_dev devs[2] = {
	{ .path = "/dev/x", .t = &tgt, .pre_on = 1, .pre_reason = "asked" },
	{ .path = "/dev/y", .t = &tgt },
};

/* One record of each kind, with a fact the recorder keeps. */
static void emit_all(struct dix_sinks *s, const struct dix_opts *o,
		     struct dix_totals *tot)
{
	struct rec_start st = { .o = o, .devs = devs, .ndevs = 2 };
	struct rec_precond_progress pp = { .bytes = 4096, .region = 8192,
					   .seconds = 1 };
	struct rec_precond pc = { .dev = &devs[0], .region = 8192,
				  .complete = 1, .mode = "on" };
	struct meter_sample sm = { .t = 1.0, .dt = 1.0, .read_bps = 1e6 };
	struct meter_sample ds[2] = { { .t = 1.0 }, { .t = 1.0, .iops = 7 } };
	struct dix_rank_row rows[2] = { { .rank = 0 }, { .rank = 1 } };
	struct rec_interval iv = { .o = o, .s = &sm, .ds = ds, .devs = devs,
				   .ndevs = 2, .ranks = rows, .nranks = 2 };
	struct dix_event ev[3] = {
		{ .t = 1.5, .kind = EV_ACTION, .what = "exec 'true'", .ok = 1,
		  .duration = 0.1 },
		{ .t = 1.6, .kind = EV_CHANGE, .what = "crc_t10dif transform",
		  .ok = -1, .duration = -1 },
		{ .t = 1.7, .kind = EV_NOTE, .what = "a note", .ok = -1,
		  .duration = -1 },
	};
	struct dix_transition tr = { .event = 0, .ratio = 2.5, .nbefore = 3,
				     .nafter = 3, .before = 10e6,
				     .after = 25e6, .significant = 1 };
	struct tr_window w = { 0.1, 0.9, 1.1, 1.9 };
	struct rec_transition rt = { .tr = &tr, .w = &w, .what = ev[0].what };
	struct rec_summary sum = { .o = o, .started = tot != NULL, .t = tot,
				   .devs = devs, .ndevs = 1, .events = ev,
				   .tr = &tr, .ntr = 1, .status = 3 };
	struct dix_totals none;

	memset(&none, 0, sizeof(none));
	if (!tot)
		sum.t = &none;
	sinks_start(s, &st);
	sinks_precond_progress(s, &pp);
	sinks_precond(s, &pc);
	sinks_interval(s, &iv);
	sinks_event(s, &ev[0]);
	sinks_event(s, &ev[1]);
	sinks_event(s, &ev[2]);
	sinks_transition(s, &rt);
	sinks_summary(s, &sum);
}

static void test_registry(void)
{
	static const struct { int kind; double fact; } want[] = {
		{ K_START, 2 }, { K_PROGRESS, 4096 }, { K_PRECOND, 8192 },
		{ K_INTERVAL, 1.0 + 1 + 700 }, { K_EVENT, 1.5 },
		{ K_CHANGE, 1.6 }, { K_EVENT, 1.7 }, { K_TRANSITION, 2.5 },
		{ K_SUMMARY, 3 },
	};
	struct dix_sinks s;
	struct dix_opts o;
	struct dix_totals tot;
	int id1 = 1, id2 = 2, id3 = 3, seen_kind[K_NR] = { 0 }, i, k, e;

	memset(&s, 0, sizeof(s));
	memset(&o, 0, sizeof(o));
	memset(&tot, 0, sizeof(tot));
	nseen = 0;
	is_int(sinks_add(&s, &recording, &id1), 0, "first sink registered");
	is_int(sinks_add(&s, &summary_only, &id2), 0, "second sink registered");
	is_int(sinks_add(&s, &recording, &id3), 0, "third sink registered");
	emit_all(&s, &o, &tot);
	sinks_close(&s);
	is_int(s.n, 0, "closing empties the registry");

	/* sink 1 saw each record in order, then sink 2 (if it wants it),
	 * then sink 3; the closes come last, in the same order */
	k = 0;
	for (i = 0; i < (int)(sizeof(want) / sizeof(want[0])); i++) {
		int sinks[3] = { 1, 2, 3 }, j;

		for (j = 0; j < 3; j++) {
			if (sinks[j] == 2 && want[i].kind != K_SUMMARY)
				continue;
			ok(k < nseen && seen[k].kind == want[i].kind &&
			   seen[k].sink == sinks[j] &&
			   seen[k].fact == want[i].fact,
			   "record %d: %s to sink %d with its data", k,
			   kind_names[want[i].kind], sinks[j]);
			k++;
		}
	}
	ok(k + 2 == nseen && seen[k].kind == K_CLOSE && seen[k].sink == 1 &&
	   seen[k + 1].kind == K_CLOSE && seen[k + 1].sink == 3,
	   "sinks 1 and 3 closed after the last record (%d seen)", nseen);
	for (i = 0; i < nseen; i++)
		if (seen[i].sink == 1)
			seen_kind[seen[i].kind]++;
	for (i = 0; i < K_NR; i++)
		ok(seen_kind[i] > 0, "the recording sink received a %s record",
		   kind_names[i]);

	memset(&s, 0, sizeof(s));
	for (i = 0, e = 0; i < DIX_SINKS_MAX && !e; i++)
		e = sinks_add(&s, &summary_only, &id2);
	is_int(e, 0, "DIX_SINKS_MAX sinks fit");
	is_int(sinks_add(&s, &summary_only, &id2), -ENOSPC,
	       "one more is refused");
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "r");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

static char *slurp(const char *path)
{
	long n = file_size(path);
	char *buf;
	FILE *f;

	if (n < 0 || !(f = fopen(path, "r")))
		return NULL;
	buf = calloc(1, n + 1);
	if (fread(buf, 1, n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* --log and --plot through the registry: files only for a started run. */
static void test_file_sinks(void)
{
	char dir[] = "/tmp/test-sink.XXXXXX", csv[64], svg[64], *text;
	struct dix_sinks s;
	struct dix_opts o;
	struct dix_totals tot;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(csv, sizeof(csv), "%s/log.csv", dir);
	snprintf(svg, sizeof(svg), "%s/plot.svg", dir);
	memset(&o, 0, sizeof(o));
	memset(&tot, 0, sizeof(tot));
	o.log = csv;
	o.plot = svg;
	o.format = OUT_JSON;

	memset(&s, 0, sizeof(s));
	sinks_add(&s, &sink_csv_ops, sink_csv_new(csv));
	sinks_add(&s, &sink_svg_ops, sink_svg_new(svg));
	emit_all(&s, &o, NULL);
	sinks_close(&s);
	ok(file_size(csv) < 0 && file_size(svg) < 0,
	   "a run that never started writes neither --log nor --plot");

	memset(&s, 0, sizeof(s));
	sinks_add(&s, &sink_csv_ops, sink_csv_new(csv));
	sinks_add(&s, &sink_svg_ops, sink_svg_new(svg));
	emit_all(&s, &o, &tot);
	sinks_close(&s);
	text = slurp(csv);
	ok(text && strstr(text, "\ninterval,1.000,1.000,1000000,0,1000000,") &&
	   strstr(text, "\nevent,1.500,,,,,,,,,action,exec 'true',1,0.100,") &&
	   strstr(text, "\nevent,1.600,,,,,,,,,change,crc_t10dif transform,"),
	   "--log holds the interval and the events it was handed");
	free(text);
	text = slurp(svg);
	ok(text && strstr(text, "exec &apos;true&apos;") &&
	   strstr(text, "before 10.0 MB/s") &&
	   strstr(text, "after 25.0 MB/s (\u00d72.50)"),
	   "--plot marks the action and draws the transition's level");
	free(text);
	unlink(csv);
	unlink(svg);
	rmdir(dir);
}

/*
 * The JSON summary names a build its self-test refused, and carries no
 * such key while none was: a reader of the JSON alone learns that another
 * build computed the run's checks.
 */
static void test_selftest_json(void)
{
	struct dix_opts o;
	struct dix_totals tot;
	struct rec_summary sum;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int pass;

	memset(&o, 0, sizeof(o));
	memset(&tot, 0, sizeof(tot));
	memset(&sum, 0, sizeof(sum));
	sum.o = &o;
	sum.started = 1;
	sum.t = &tot;
	sum.devs = devs;
	sum.ndevs = 1;
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			selftest_refuse("crc16", "test-broken", "isal",
					"crc16 of 513 bytes at +9: 0xcabe, want 0xcabf");
		f = open_memstream(&buf, &len);
		if (!f) {
			ok(0, "open_memstream: %s", strerror(errno));
			return;
		}
		sink_json_ops.summary(f, &sum);
		fclose(f);
		if (!pass)
			ok(buf && !strstr(buf, "selftest_refused"),
			   "no refusal: the summary has no selftest_refused");
		else
			ok(buf && strstr(buf, "\"selftest_refused\":[{\"path\":\"crc16\","
					 "\"impl\":\"test-broken\",\"fallback\":\"isal\","
					 "\"why\":\"crc16 of 513 bytes at +9: 0xcabe, want 0xcabf\"}]"),
			   "a refused build is named in the summary: %s", buf ? buf : "");
		free(buf);
		buf = NULL;
	}
	selftest_forget();
}

/*
 * A significant fall is said as plainly as a rise (the 2023 seed's
 * measurement is a fall: the offload at 4001 losing), in words and in
 * the JSON's direction; no direction without a verdict.
 */
static void test_direction(void)
{
	static const double ratio[3] = { 0.64, 2.5, 0.98 };
	static const int sig[3] = { 1, 1, 0 };
	static const char *const human[3] = { "significant fall\n",
		"significant rise\n", "no significant change\n" };
	static const char *const json[3] = { "\"direction\":\"fall\"",
		"\"direction\":\"rise\"", NULL };
	struct dix_event ev = { .t = 8, .kind = EV_ACTION,
				.what = "modprobe dixoffload", .ok = 1,
				.duration = 1 };
	struct dix_transition tr;
	struct dix_totals tot;
	struct rec_summary sum;
	struct dix_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i, j;

	memset(&o, 0, sizeof(o));
	memset(&tot, 0, sizeof(tot));
	for (i = 0; i < 3; i++) {
		memset(&tr, 0, sizeof(tr));
		tr.ratio = ratio[i];
		tr.before = 4.45e6;
		tr.after = ratio[i] * 4.45e6;
		tr.nbefore = tr.nafter = 6;
		tr.steady = 1;
		tr.significant = sig[i];
		memset(&sum, 0, sizeof(sum));
		sum.o = &o;
		sum.started = 1;
		sum.t = &tot;
		sum.devs = devs;
		sum.ndevs = 1;
		sum.events = &ev;
		sum.tr = &tr;
		sum.ntr = 1;
		for (j = 0; j < 2; j++) {
			f = open_memstream(&buf, &len);
			if (!f) {
				ok(0, "open_memstream: %s", strerror(errno));
				return;
			}
			(j ? sink_json_ops : sink_human_ops).summary(f, &sum);
			fclose(f);
			if (!j)
				ok(buf && strstr(buf, human[i]),
				   "ratio %.2f: the row says %.*s", ratio[i],
				   (int)strlen(human[i]) - 1, human[i]);
			else if (json[i])
				ok(buf && strstr(buf, json[i]),
				   "ratio %.2f: JSON %s", ratio[i], json[i]);
			else
				ok(buf && !strstr(buf, "\"direction\""),
				   "ratio %.2f, not significant: no direction", ratio[i]);
			free(buf);
			buf = NULL;
		}
	}
}

/* An event with its facts survives the pack an MPI rank sends. */
static void test_event_pack(void)
{
	char *loaded[] = { "crct10dif_pclmul", "crc_t10dif" };
	struct dix_ev_alg added = { "crct10dif", "crct10dif-pclmul", 200,
				    "crct10dif_pclmul" };
	struct dix_ev_alg sel = { NULL, "crct10dif-generic", 100, "kernel" };
	struct dix_event ev = {
		.t = 10.25, .kind = EV_ACTION, .what = "modprobe x", .ok = 1,
		.duration = 0.05, .label = "x",
		.data = { .type = EVD_MODULE, .name = "x", .sel = { &sel, NULL },
			  .loaded = loaded, .nloaded = 2, .added = &added,
			  .nadded = 1, .returned = -22, .err = "EINVAL" },
	}, back, copy;
	char *buf = NULL;
	const char *p;
	size_t len = 0;

	dix_event_pack(&ev, &buf, &len);
	dix_event_pack(&ev, &buf, &len);
	p = buf;
	is_int(dix_event_unpack(&p, buf + len, &back), 0, "first event unpacked");
	ok(back.t == 10.25 && back.kind == EV_ACTION && back.ok == 1 &&
	   !strcmp(back.what, "modprobe x") && !back.detail &&
	   !strcmp(back.label, "x") && back.data.type == EVD_MODULE &&
	   !strcmp(back.data.name, "x") && back.data.nloaded == 2 &&
	   !strcmp(back.data.loaded[1], "crc_t10dif") &&
	   back.data.nadded == 1 && back.data.added[0].priority == 200 &&
	   !strcmp(back.data.added[0].module, "crct10dif_pclmul") &&
	   back.data.sel[0] && !back.data.sel[0]->name &&
	   back.data.sel[0]->priority == 100 && !back.data.sel[1] &&
	   back.data.returned == -22 && !strcmp(back.data.err, "EINVAL"),
	   "its text and facts are the ones packed");
	dix_event_copy(&copy, &back);
	dix_event_clear(&back);
	ok(!strcmp(copy.data.added[0].driver, "crct10dif-pclmul") &&
	   !strcmp(copy.data.loaded[0], "crct10dif_pclmul"),
	   "a copy owns its facts (the original freed)");
	dix_event_clear(&copy);
	is_int(dix_event_unpack(&p, buf + len, &back), 0, "second event unpacked");
	ok(p == buf + len, "the two events fill the buffer");
	dix_event_clear(&back);
	p = buf;
	is_int(dix_event_unpack(&p, buf + len / 2 - 3, &back), -1,
	       "a cut event is refused");
	ok(p == buf && !back.what, "and leaves nothing behind");
	free(buf);
}

int main(void)
{
	test_registry();
	test_file_sinks();
	test_selftest_json();
	test_direction();
	test_event_pack();
	return tap_done();
}
