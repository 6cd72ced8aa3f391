// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * job.c - the depth loop of one worker.
 *
 * Keep @iodepth I/Os in flight: pick the next (direction, offset), make
 * sure it does not touch a block with a write in flight, prepare the data
 * (headers and pattern for writes), queue it, commit the batch, reap
 * completions, account and verify them.  An I/O that fails with an I/O
 * error is retried once; if the retry succeeds it counts as recovered
 * (Rec), otherwise as an error (Err).  Integrity failures are never
 * retried: they are counted by kind at once.
 *
 * Every bad block (or failed I/O) becomes a bad extent (extent.h): it is
 * counted, written to --error-log at once, and handed to the worker's
 * tracker, which prints it on stderr when it closes (up to --max-report
 * extents for the whole run).
 *
 * The same loop runs the preconditioning pass (precond.h): sequential
 * writes of the plan's size over the worker's slice, the last one shorter
 * when the slice ends first, with the headers and PI a load write carries.
 * Its counters are the worker's own; run.c takes them out of the load's.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "verify/extent.h"
#include "lib/inflight.h"
#include "core/inject.h"
#include "verify/journal.h"
#include "core/job.h"
#include "lib/ratelimit.h"
#include "core/run.h"
#include "lib/util.h"
#include "verify/verify.h"

/* Retry notes printed per worker before they are only counted. */
#define NOTE_PRINT_LIMIT	20

/* Offsets: sequential, or a full-period LCG permutation per pass. */
struct gen {
	uint64_t nblocks;	/* I/O-sized blocks in the slice */
	uint64_t issued;	/* blocks issued in this pass */
	uint64_t m;		/* power of two >= nblocks */
	uint64_t a, c, x;	/* LCG x = a*x + c mod m */
	uint64_t rng;		/* xorshift state: mix and pass seeds */
	int random;
	int loop;		/* --runtime: start a new pass at the end */
};

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void gen_pass(struct gen *g)
{
	g->issued = 0;
	if (!g->random)
		return;
	/* a = 1 mod 4 and c odd give full period modulo a power of two */
	g->a = (rng_next(&g->rng) & ~3ull) | 5;
	g->c = rng_next(&g->rng) | 1;
	g->x = rng_next(&g->rng) & (g->m - 1);
}

static void gen_init(struct gen *g, uint64_t nblocks, int random, int loop,
		     uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->nblocks = nblocks;
	g->random = random;
	g->loop = loop;
	g->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	g->m = 1;
	while (g->m < nblocks)
		g->m <<= 1;
	gen_pass(g);
}

/* Next block index, or -1 when the region has been covered once. */
static int64_t gen_next(struct gen *g)
{
	if (g->issued == g->nblocks) {
		if (!g->loop)
			return -1;
		gen_pass(g);
	}
	g->issued++;
	if (!g->random)
		return g->issued - 1;
	do {
		g->x = (g->a * g->x + g->c) & (g->m - 1);
	} while (g->x >= g->nblocks);
	return g->x;
}

struct wctx {
	struct dix_worker *w;
	struct dix_run *r;
	const struct dix_opts *o;
	const struct dix_engine *eng;
	struct dix_eng_ctx ectx;
	struct dix_io *ios;
	struct dix_io **free;
	unsigned int nfree;
	unsigned int inflight_n;
	struct inflight fl;
	int track;		/* in-flight range tracking needed */
	struct gen g;
	uint32_t lbs;
	int notes;		/* retry notes printed */
	int logged;		/* --error-log lines not yet flushed */
	int pi_app;		/* --pi app: dixload generates and checks PI */
	struct pi_format pif;	/* the job's view: separate metadata */
	size_t nint;		/* protection intervals per I/O */
	struct inject inj;
	unsigned int batch;	/* I/Os per submit system call */
	uint64_t bs;		/* bytes per I/O (the last precondition
				 * write of a slice may be shorter) */
	struct rate_limit rl;	/* --rate, --rate-iops (this worker's share) */
	int capped;		/* a cap applies to the load */
	int pre;		/* the preconditioning pass */
	uint64_t pre_next;	/* its next offset */
};

static inline void cadd(uint64_t *p, uint64_t v)
{
	/* sole writer: a relaxed store is enough for the meter's loads */
	__atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

/* With several devices every message names its device first. */
static const char *dev_prefix(const struct wctx *x)
{
	return x->r->ndevs > 1 ? x->w->dev->path : "";
}

/* Print a note about a failure that is retried, unless 20 were printed. */
static void print_note(struct wctx *x, const char *msg)
{
	if (x->notes >= NOTE_PRINT_LIMIT)
		return;
	pthread_mutex_lock(&x->r->lock);
	fprintf(stderr, "dixload: %s%s%s\n", dev_prefix(x), x->r->ndevs > 1 ?
		": " : "", msg);
	if (++x->notes == NOTE_PRINT_LIMIT)
		fprintf(stderr,
			"dixload: job %d: further retries are not announced\n",
			x->w->id);
	pthread_mutex_unlock(&x->r->lock);
}

/*
 * The tracker closed extent @e: print it while fewer than --max-report
 * extents have been printed in the whole run, then say once that the rest
 * are only counted.
 */
static void extent_closed(const struct bad_extent *e, void *arg)
{
	struct wctx *x = arg;
	uint64_t max = x->o->max_report;
	uint64_t n = __atomic_add_fetch(&x->r->extents_closed, 1,
					__ATOMIC_RELAXED);
	char line[1024];

	if (n > max + 1)
		return;
	pthread_mutex_lock(&x->r->lock);
	if (n <= max) {
		extent_describe(e, x->lbs, line, sizeof(line));
		fprintf(stderr, "dixload: %s%s%s\n", dev_prefix(x),
			x->r->ndevs > 1 ? ": " : "", line);
	} else {
		fprintf(stderr,
			"dixload: further bad extents are counted, not printed (--max-report %llu)\n",
			(unsigned long long)max);
	}
	pthread_mutex_unlock(&x->r->lock);
}

/* One --error-log line; flushed when the I/O is released. */
static void log_bad(struct wctx *x, const struct bad_extent *b)
{
	struct jw w;

	pthread_mutex_lock(&x->r->errlog_lock);
	jw_init(&w, x->r->errlog);
	jw_obj_open(&w, NULL);
	jw_num(&w, "t", run_elapsed(x->r), 3);
	if (x->r->ndevs > 1)
		jw_str(&w, "dev", x->w->dev->path);
	jw_int(&w, "job", x->w->id);
	jw_uint(&w, "offset", b->lba * x->lbs);
	extent_json(&w, b, x->lbs);
	jw_obj_close(&w);
	fputc('\n', x->r->errlog);
	pthread_mutex_unlock(&x->r->errlog_lock);
	x->logged++;
}

/* Count, log and track the bad extent @b (its detail is taken over). */
static void record_bad(struct wctx *x, struct bad_extent *b)
{
	struct dix_worker *w = x->w;

	cadd(&w->c.errors[b->kind], 1);
	if (x->r->errlog)
		log_bad(x, b);
	tracker_add(&w->ext, b, dix_now());
	if (x->o->max_errors && counters_errors(&w->c) >= x->o->max_errors)
		run_request_stop(x->r);
}

/* A bad extent of kind @kind over @count LBAs from byte @offset. */
static void bad_init(const struct wctx *x, struct bad_extent *b, int kind,
		     uint64_t offset, uint64_t count, const char *cause)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->lba = offset / x->lbs;
	b->count = count;
	b->byte = -1;
	b->cause = cause_intern(cause);
}

/* The blocks of @io were checked: open extents next to them may close. */
static void checked(struct wctx *x, const struct dix_io *io)
{
	tracker_checked(&x->w->ext, io->offset / x->lbs, io->len / x->lbs,
			dix_now());
}

/*
 * The failed @io as a bad extent over its blocks.  The cause names the
 * failed check in words with the device's code ("read failed: guard check
 * failed (ASC 10/01)"), or the errno in words, EILSEQ as "integrity check
 * failed (EILSEQ)"; what the device said goes in the detail.
 */
static void failure_extent(const struct wctx *x, const struct dix_io *io,
			   int kind, struct bad_extent *b)
{
	const char *dir = io->dir == DIX_READ ? "read" : "write";
	const char *check = dix_errkind_check(kind);
	char cause[160];

	if (x->w->dev->t.crypto)
		dir = io->dir == DIX_READ ? "decrypt" : "encrypt";
	if (x->w->dev->t.crypto && kind == DIX_ERR_VERIFY && io->status[0])
		snprintf(cause, sizeof(cause), "%s: %s check failed", dir,
			 io->status);
	else if (io->res >= 0)
		snprintf(cause, sizeof(cause), "short %s", dir);
	else if (check && io->status[0])
		snprintf(cause, sizeof(cause), "%s failed: %s (%s)", dir, check,
			 io->status);
	else
		snprintf(cause, sizeof(cause), "%s failed: %s", dir,
			 dix_io_strerror(-io->res));
	bad_init(x, b, kind, io->offset, io->len / x->lbs, cause);
	if (io->res >= 0) {
		if (asprintf(&b->detail, "%d of %u bytes", io->res,
			     io->len) < 0)
			b->detail = NULL;
	} else if (io->detail[0]) {
		b->detail = strndup(io->detail, sizeof(io->detail));
	} else if (kind == DIX_ERR_UNKNOWN) {
		b->detail = strdup("the block layer does not say which tag");
	}
}

/*
 * --journal check pass: an intact block (or one without a header) that is
 * not a version the journal allows at @off is a bad block of kind verify.
 * Return: 1 when it was recorded.
 */
static int journal_refuses(struct wctx *x, const unsigned char *blk,
			   uint64_t off, int present)
{
	struct bad_extent bad;
	uint64_t seed = 0;
	uint32_t seq = 0;
	char why[200];

	if (present)
		verify_header_id(blk, &seed, &seq);
	if (!journal_check(x->r->journal, off, present, seed, seq, why,
			   sizeof(why)))
		return 0;
	memset(&bad, 0, sizeof(bad));
	bad.kind = DIX_ERR_VERIFY;
	bad.lba = off / x->lbs;
	bad.count = 1;
	bad.byte = -1;
	bad.cause = cause_intern("a version the journal does not allow");
	bad.detail = xstrdup(why);
	record_bad(x, &bad);
	return 1;
}

static void verify_read(struct wctx *x, struct dix_io *io)
{
	const unsigned char *b = io->buf;
	struct verify_fail f;
	struct bad_extent bad;
	uint32_t i;

	for (i = 0; i < io->len; i += x->lbs) {
		enum verify_kind k;
		uint32_t n, j;

		/* intact blocks in one call; only the others one by one */
		n = verify_run(b + i, io->len - i, x->lbs, io->offset + i);
		/* --journal check pass: the intact run's versions too */
		if (x->r->journal && !x->r->journal_write)
			for (j = 0; j < n; j += x->lbs)
				journal_refuses(x, b + i + j, io->offset + i + j, 1);
		i += n;
		if (i >= io->len)
			break;
		k = verify_block(b + i, x->lbs, io->offset + i, &f);
		if (x->r->journal && !x->r->journal_write &&
		    (k == VF_OK || k == VF_UNWRITTEN) &&
		    journal_refuses(x, b + i, io->offset + i, k == VF_OK))
			continue;
		if (k == VF_OK)
			continue;
		if (k == VF_UNWRITTEN) {
			cadd(&x->w->c.unwritten, 1);
			if (x->o->verify != VERIFY_STRICT)
				continue;
		}
		verify_extent(&f, x->lbs, &bad);
		record_bad(x, &bad);
	}
}

/* Where a PI failure of interval @i of @io is: its byte offset. */
static uint64_t pi_offset(const struct wctx *x, const struct dix_io *io,
			  size_t i)
{
	return io->offset + i * x->pif.interval;
}

/*
 * Every failing interval of @io but @skip, each a bad extent: the
 * whole-buffer check names only the first, so on failure each interval is
 * checked again on its own (the slow path runs only when something failed).
 * Return: the kind found at interval @skip (the one an --inject rule
 * broke), or DIX_ERR_NR when it passed.
 */
static int pi_report_all(struct wctx *x, struct dix_io *io,
			 const struct pi_io *pio, size_t skip)
{
	unsigned char *data = io->buf, *meta = io->meta;
	char cause[96], values[80];
	struct bad_extent bad;
	struct pi_fail fail;
	struct pi_io one;
	int at_skip = DIX_ERR_NR;
	size_t i;

	for (i = 0; i < x->nint; i++) {
		one = *pio;
		one.lba = pio->lba + i;
		one.ref = pi_ref_expected(&x->pif, pio, i);
		if (pi_verify(&x->pif, data + i * x->pif.interval,
			      meta + i * x->pif.ms, 1, &one, &fail) <= 0)
			continue;
		if (i == skip) {
			at_skip = fail.kind;
			continue;
		}
		snprintf(cause, sizeof(cause), "%s (checked by dixload)",
			 dix_errkind_check(fail.kind));
		bad_init(x, &bad, fail.kind, pi_offset(x, io, i),
			 x->pif.interval / x->lbs, cause);
		pi_fail_values(&fail, values, sizeof(values));
		bad.detail = strdup(values);
		record_bad(x, &bad);
	}
	return at_skip;
}

/*
 * --pi app reads: check the tuples dixload got back.  Every Nth read of an
 * --inject rule first breaks one tuple in the buffer: the check must catch
 * that one (caught), or it is an integrity failure; any other interval
 * that fails is an integrity failure of its own.
 */
static void pi_check_read(struct wctx *x, struct dix_io *io)
{
	struct dix_worker *w = x->w;
	struct pi_io pio;
	struct pi_fail fail, what;
	struct bad_extent bad;
	int inj = inject_next(&x->inj, 0);
	size_t idx = 0;
	char cause[96];
	long nbad;
	int caught;

	pi_io_init(&pio, &x->pif, io->offset / x->pif.interval);
	pio.ref = io->ref;
	pio.app = io->app;
	if (inj != DIX_ERR_NR) {
		idx = (io->offset / x->o->bs) % x->nint;
		if (pi_corrupt(&x->pif, io->buf, io->meta, x->nint, idx, inj,
			       &pio, &what))
			inj = DIX_ERR_NR;	/* escaped tuple: nothing to break */
		else
			cadd(&w->c.injected[inj], 1);
	}
	nbad = pi_verify(&x->pif, io->buf, io->meta, x->nint, &pio, &fail);
	if (inj != DIX_ERR_NR && nbad == 1 && fail.index == idx) {
		cadd(&w->c.caught[fail.kind], 1);	/* the common case */
		return;
	}
	caught = nbad > 0 ? pi_report_all(x, io, &pio,
					  inj != DIX_ERR_NR ? idx : SIZE_MAX) :
			    DIX_ERR_NR;
	if (inj == DIX_ERR_NR)
		return;
	if (caught != DIX_ERR_NR) {
		cadd(&w->c.caught[caught], 1);
		return;
	}
	snprintf(cause, sizeof(cause),
		 "injected %s fault not caught by the read check",
		 dix_errkind_name(inj));
	bad_init(x, &bad, inj, pi_offset(x, io, idx), x->pif.interval / x->lbs,
		 cause);
	record_bad(x, &bad);
}

/*
 * A write that carried an injected fault: the device (or the kernel)
 * rejecting it is the expected outcome.
 */
static void injected_write_done(struct wctx *x, struct dix_io *io)
{
	struct dix_worker *w = x->w;
	struct bad_extent bad;
	char cause[160];
	int kind;

	if (io->res == (int32_t)io->len) {
		snprintf(cause, sizeof(cause),
			 x->w->dev->t.crypto ?
			 "injected wrong authentication tag not caught: the kernel's decrypt accepted it" :
			 "injected %s fault not caught: the write succeeded",
			 dix_errkind_name(io->injected));
		bad_init(x, &bad, io->injected, io->offset, io->len / x->lbs,
			 cause);
		record_bad(x, &bad);
		return;
	}
	if (io->res < 0 && io->errkind < DIX_ERR_NR) {
		kind = io->errkind;
	} else if (io->res == -EILSEQ) {
		kind = DIX_ERR_UNKNOWN;
	} else {
		snprintf(cause, sizeof(cause),
			 "%s with an injected %s fault failed, but not with a PI error: %s",
			 io->dir == DIX_WRITE ? "write" : "decrypt",
			 dix_errkind_name(io->injected),
			 io->res < 0 ? dix_io_strerror(-io->res) : "short write");
		bad_init(x, &bad, DIX_ERR_IO, io->offset, io->len / x->lbs,
			 cause);
		if (io->detail[0])
			bad.detail = strndup(io->detail, sizeof(io->detail));
		record_bad(x, &bad);
		return;
	}
	cadd(&w->c.caught[kind], 1);
}

/* Latency, bytes and ops of an I/O that transferred all its bytes. */
static void account_done(struct wctx *x, const struct dix_io *io)
{
	struct dix_worker *w = x->w;

	lat_add(&w->lat[io->dir], dix_now_ns() - io->start_ns);
	cadd(&w->c.bytes[io->dir], io->len);
	cadd(&w->c.ops[io->dir], 1);
	/* --journal: the write is acknowledged (its seq is in its header) */
	if (io->dir == DIX_WRITE && x->r->journal_write) {
		uint64_t seed;
		uint32_t seq;

		verify_header_id(io->buf, &seed, &seq);
		journal_ack(x->r->journal, io->offset, io->len, seq);
	}
}

/*
 * Account a finished I/O.  Returns 1 when it must be queued again.
 * A write carrying an injected fault is never retried: its rejection is
 * the answer.
 */
static int complete(struct wctx *x, struct dix_io *io)
{
	struct bad_extent bad;
	char msg[1100];
	int kind;

	if (io->injected != DIX_ERR_NR) {
		if (io->res == (int32_t)io->len)
			account_done(x, io);
		injected_write_done(x, io);
		return 0;
	}
	if (io->res == (int32_t)io->len) {
		if (io->retried || io->recovered)
			cadd(&x->w->c.recovered, 1);
		account_done(x, io);
		if (io->dir == DIX_READ && x->pi_app)
			pi_check_read(x, io);
		/* a crypto engine checked the result itself (engine.h) */
		if (io->dir == DIX_READ && x->o->verify != VERIFY_OFF &&
		    !x->w->dev->t.crypto)
			verify_read(x, io);
		if (io->dir == DIX_READ &&
		    (x->pi_app || x->o->verify != VERIFY_OFF))
			checked(x, io);
		return 0;
	}
	/* EILSEQ is how the block layer reports a failed integrity check */
	if (io->errkind < DIX_ERR_NR && io->res < 0)
		kind = io->errkind;
	else if (io->res == -EILSEQ)
		kind = DIX_ERR_UNKNOWN;
	else
		kind = DIX_ERR_IO;
	failure_extent(x, io, kind, &bad);
	/*
	 * One retry for I/O errors (a success then counts as recovered);
	 * integrity failures are what the run is looking for, never retried.
	 * What the device said about the failure (the sense of a pass-through
	 * command) is shown even when the retry succeeds: it is all the user
	 * learns of that Rec; a bare errno would add nothing to the count.
	 */
	if (kind == DIX_ERR_IO && !io->retried &&
	    !__atomic_load_n(&x->r->stop, __ATOMIC_RELAXED)) {
		if (io->detail[0]) {
			extent_describe(&bad, x->lbs, msg, sizeof(msg) - 12);
			strcat(msg, "; retrying");
			print_note(x, msg);
		}
		extent_free(&bad);
		io->retried = 1;
		return 1;
	}
	record_bad(x, &bad);
	checked(x, io);
	return 0;
}

static void release(struct wctx *x, struct dix_io *io)
{
	if (x->track)
		inflight_del(&x->fl, io->idx);
	x->free[x->nfree++] = io;
	x->inflight_n--;
	/* the --error-log lines of this I/O reach the file now */
	if (x->logged) {
		pthread_mutex_lock(&x->r->errlog_lock);
		fflush(x->r->errlog);
		pthread_mutex_unlock(&x->r->errlog_lock);
		x->logged = 0;
	}
}

/*
 * --journal: write and sync the records so far.  A journal that cannot be
 * written cannot promise anything after a crash: the run stops.
 */
static int journal_failed(struct wctx *x)
{
	int r = journal_flush(x->r->journal);

	if (!r)
		return 0;
	snprintf(x->w->errmsg, sizeof(x->w->errmsg), "--journal %s: %s",
		 x->o->journal, strerror(-r));
	x->w->err = r;
	run_request_stop(x->r);
	return r;
}

/*
 * Queue @io (counted in *@queued until commit).  Engines that complete
 * inside queue(), and queue() failures, are accounted here; the slot is
 * released unless the I/O is left in flight.
 */
static void submit(struct wctx *x, struct dix_io *io, int *queued)
{
	int r;

	for (;;) {
		io->start_ns = dix_now_ns();
		io->errkind = DIX_ERR_NR;
		io->recovered = 0;
		io->detail[0] = '\0';
		io->status[0] = '\0';
		cadd(&x->w->c.submitted, 1);
		/*
		 * --journal: the intent must be stable before the write can
		 * reach the device; an engine without commit() does the I/O
		 * inside queue(), so its batch is this one write
		 */
		if (x->r->journal_write && !x->eng->commit &&
		    io->dir == DIX_WRITE && journal_failed(x))
			r = -EIO;
		else
			r = x->eng->queue(&x->ectx, io);
		if (r == DIX_Q_QUEUED) {
			(*queued)++;
			return;
		}
		if (r < 0)
			io->res = r;
		if (!complete(x, io))
			break;
	}
	release(x, io);
}

/*
 * --pi app: the reference tag seed of the I/O and, for writes, the tuples,
 * one of them deliberately wrong when an --inject rule says so.
 */
static void pi_prepare(struct wctx *x, struct dix_io *io)
{
	size_t nint = io->len / x->pif.interval;
	struct pi_io pio;
	struct pi_fail what;
	size_t idx;
	int inj;

	pi_io_init(&pio, &x->pif, io->offset / x->pif.interval);
	io->ref = pio.ref;
	io->app = pio.app;
	io->meta_len = pi_meta_len(&x->pif, nint);
	if (io->dir != DIX_WRITE)
		return;
	pi_generate(&x->pif, io->buf, io->meta, nint, &pio);
	/* preconditioning writes carry no injected faults: x->inj is empty */
	inj = inject_next(&x->inj, 1);
	if (inj == DIX_ERR_NR)
		return;
	idx = rng_next(&x->g.rng) % nint;
	if (pi_corrupt(&x->pif, io->buf, io->meta, nint, idx, inj, &pio,
		       &what))
		return;
	io->injected = inj;
	cadd(&x->w->c.injected[inj], 1);
}

/*
 * --inject tag@N on a crypto engine: mark every Nth decrypt, whose
 * authentication tag the engine then corrupts on its way to the kernel.
 */
static void tag_prepare(struct wctx *x, struct dix_io *io)
{
	int inj = inject_next(&x->inj, 0);

	if (inj == DIX_ERR_NR)
		return;
	io->injected = inj;
	cadd(&x->w->c.injected[inj], 1);
}

/* Submit what the engine holds; on failure stop the run (returns -errno). */
static int commit_batch(struct wctx *x)
{
	int r;

	/* --journal: one fdatasync for the intents of the whole batch */
	if (x->r->journal_write && journal_failed(x))
		return -EIO;
	r = x->eng->commit(&x->ectx);

	if (r >= 0)
		return 0;
	snprintf(x->w->errmsg, sizeof(x->w->errmsg),
		 "engine %s: submit failed: %s", x->eng->name,
		 dix_io_strerror(-r));
	x->w->err = r;
	run_request_stop(x->r);
	return r;
}

/*
 * The largest pass-through transfer @t takes: max_hw_sectors_kb, and no
 * more pages than max_segments (the pages of a 4 KiB-aligned user buffer
 * need not be contiguous; one segment each at worst).  0: not known.
 */
static uint64_t pass_through_limit(const struct dix_devdesc *t)
{
	uint64_t hw = (uint64_t)t->max_hw_sectors_kb * 1024;
	uint64_t segs = (uint64_t)t->max_segments * 4096;

	if (!hw || (segs && segs < hw))
		return segs;
	return hw;
}

static int worker_setup(struct wctx *x)
{
	struct dix_worker *w = x->w;
	const struct dix_opts *o = x->o;
	unsigned int depth, i;
	size_t align;
	int r;

	x->lbs = x->w->dev->t.lbs;
	tracker_init(&w->ext, w->start / x->lbs, w->end / x->lbs,
		     DIX_EXTENTS_MAX, extent_closed, x);
	x->pre = w->precond;
	x->bs = x->pre ? x->w->dev->pre.io_size : o->bs;
	x->pre_next = w->start;
	depth = (x->eng->flags & DIX_ENG_SYNC) ? 1 :
		x->pre ? x->w->dev->pre.iodepth : o->iodepth;
	x->batch = o->iodepth_batch < depth ? o->iodepth_batch : depth;
	x->ectx.fd = x->w->dev->t.fd;
	x->ectx.depth = depth;
	x->ectx.lbs = x->lbs;
	x->ectx.path = x->w->dev->t.path;
	x->ectx.pi_mode = o->pi;
	x->ectx.max_xfer = pass_through_limit(&x->w->dev->t);
	x->ectx.io_size = x->bs;
	x->ectx.o = o;
	x->ectx.job = w->id;
	x->ectx.jobs = x->w->dev->nworkers;
	x->ectx.desc = &x->w->dev->t;
	if (x->eng->init) {
		r = x->eng->init(&x->ectx);
		if (r) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: setup failed: %s", x->eng->name,
				 x->ectx.errmsg[0] ? x->ectx.errmsg :
				 strerror(-r));
			return r;
		}
	}
	/* how the engine drives the target, once per run (engine.h) */
	if (x->ectx.note[0] && w->id == 0 && !x->pre) {
		struct dix_event ev = { .kind = EV_NOTE, .ok = -1,
					.duration = -1 };

		ev.t = 0;	/* setup is over before the clock starts */
		ev.what = x->ectx.note;
		run_event(x->r, &ev);
	}
	/* a crypto engine holds --iodepth per TFM (engine.h) */
	depth = x->ectx.depth;
	x->batch = o->iodepth_batch < depth ? o->iodepth_batch : depth;
	/* preconditioning's large writes within what the engine can carry */
	if (x->pre && x->ectx.max_io && x->bs > x->ectx.max_io &&
	    x->ectx.max_io >= x->lbs)
		x->bs = x->ectx.max_io - x->ectx.max_io % x->lbs;
	w->io_size = x->bs;
	x->pi_app = o->pi == PI_APP;
	if (x->pi_app) {
		x->pif = x->ectx.pif;
		x->pif.interleaved = false;	/* engines interleave on the wire */
		if (pi_format_check(&x->pif) || o->bs % x->pif.interval ||
		    x->bs % x->pif.interval) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: --pi app needs a PI-formatted target with a protection interval dividing --bs (%s)",
				 x->eng->name, x->w->dev->t.path);
			return -EINVAL;
		}
		x->nint = x->bs / x->pif.interval;
		/* the load's own setup reports it, at its time */
		if (w->id == 0 && !x->pre) {
			struct dix_event ev = { .kind = EV_NOTE, .ok = -1,
						.duration = -1 };
			char desc[128], what[256];

			pi_format_describe(&x->pif, desc, sizeof(desc));
			snprintf(what, sizeof(what),
				 "pi app: engine %s, %s: %s", x->eng->name,
				 x->w->dev->t.name, desc);
			ev.t = 0;	/* before the clock starts */
			ev.what = what;
			run_event(x->r, &ev);
		}
		if (!x->pre &&
		    inject_parse(o, &x->inj, w->errmsg, sizeof(w->errmsg)))
			return -EINVAL;
	}
	/* a crypto engine's --inject tag@N (dixload.c lets only that by) */
	if (x->w->dev->t.crypto &&
	    inject_parse(o, &x->inj, w->errmsg, sizeof(w->errmsg)))
		return -EINVAL;
	x->ios = xcalloc(depth, sizeof(*x->ios));
	x->free = xcalloc(depth, sizeof(*x->free));
	align = x->lbs > 4096 ? x->lbs : 4096;
	for (i = 0; i < depth; i++) {
		if (posix_memalign(&x->ios[i].buf, align, x->bs)) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "out of memory for %u buffers of %llu bytes",
				 depth, (unsigned long long)x->bs);
			return -ENOMEM;
		}
		memset(x->ios[i].buf, 0, x->bs);
		x->ios[i].idx = i;
		x->ios[i].injected = DIX_ERR_NR;
		if (x->pi_app) {
			x->ios[i].meta_len = pi_meta_len(&x->pif, x->nint);
			x->ios[i].meta = xcalloc(1, x->ios[i].meta_len);
		}
		x->free[x->nfree++] = &x->ios[depth - 1 - i];
	}
	/*
	 * Track ranges when a read could see a write in flight (verified
	 * data) or two writes to one block could be in flight (order
	 * undefined).  Preconditioning writes each block once: no overlap.
	 */
	x->track = !x->pre && rw_writes(o->rw) && !x->w->dev->t.crypto &&
		   (o->verify != VERIFY_OFF || depth > 1);
	if (x->track && inflight_init(&x->fl, depth))
		return -ENOMEM;
	gen_init(&x->g, (w->end - w->start) / o->bs, rw_is_random(o->rw),
		 o->runtime > 0, o->seed * 0x2545f4914f6cdd1dull + w->id + 1);
	return 0;
}

static void worker_teardown(struct wctx *x)
{
	unsigned int i;

	/* what is still open is complete now: print it, keep it for the end */
	tracker_close_all(&x->w->ext);

	if (x->eng->cleanup && x->ectx.priv)
		x->eng->cleanup(&x->ectx);
	if (x->ios)
		for (i = 0; i < x->ectx.depth; i++) {
			free(x->ios[i].buf);
			free(x->ios[i].meta);
		}
	free(x->ios);
	free(x->free);
	if (x->track)
		inflight_free(&x->fl);
}

static int pick_dir(struct wctx *x)
{
	if (x->pre)
		return DIX_WRITE;
	switch (x->o->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return DIX_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return DIX_WRITE;
	default:
		return rng_next(&x->g.rng) % 100 < x->o->rwmixread ?
		       DIX_READ : DIX_WRITE;
	}
}

/*
 * The next I/O of the pass: its offset and length in *@off and *@len.
 * Return: 0, or -1 when the slice has been covered (and no --runtime loop).
 */
static int next_block(struct wctx *x, uint64_t *off, uint32_t *len)
{
	int64_t b;

	if (x->pre) {
		if (x->pre_next >= x->w->end)
			return -1;
		*off = x->pre_next;
		*len = x->w->end - *off < x->bs ? x->w->end - *off : x->bs;
		x->pre_next += *len;
		return 0;
	}
	b = gen_next(&x->g);
	if (b < 0)
		return -1;
	*off = x->w->start + (uint64_t)b * x->bs;
	*len = x->bs;
	return 0;
}

/*
 * --rate/--rate-iops: whether the pending I/O must wait for its bucket.
 * With I/Os in flight the worker goes on reaping them (their latency stays
 * honest: nothing sleeps while a completion waits); with none it sleeps
 * towards the deadline, at most 100 ms at a time so a stop is seen soon.
 */
static int rate_wait(struct wctx *x, int dir, uint64_t len)
{
	uint64_t wait = rate_limit_take(&x->rl, dir, len, dix_now_ns());
	struct timespec ts;

	if (!wait)
		return 0;
	if (x->inflight_n)
		return 1;
	if (wait > 100000000)
		wait = 100000000;
	ts.tv_sec = wait / 1000000000;
	ts.tv_nsec = wait % 1000000000;
	nanosleep(&ts, NULL);
	return 1;
}

void *worker_main(void *arg)
{
	struct dix_worker *w = arg;
	struct wctx x = { .w = w, .r = w->run, .o = w->run->o,
			  .eng = w->run->eng };
	uint64_t pend_off = 0;
	uint32_t pend_len = 0;
	int have_pend = 0, pend_dir = 0, exhausted = 0, i, n;

	w->err = worker_setup(&x);
	run_worker_ready(x.r, w, !w->err);
	if (w->err)
		goto out;
	/*
	 * the caps are the run's: each of the jobs holds its share, counted
	 * from the load's start (the gate), not from the setup's
	 */
	rate_limit_init(&x.rl, x.o->rate, x.o->rate_iops, x.r->nworkers,
			dix_now_ns());
	x.capped = !x.pre && (rate_limit_active(&x.rl, DIX_READ) ||
			      rate_limit_active(&x.rl, DIX_WRITE));

	for (;;) {
		int stopping = __atomic_load_n(&x.r->stop, __ATOMIC_RELAXED);
		int queued = 0;
		unsigned int burst = 0;

		/* at most depth per round, so sync engines see the stop flag */
		while (!stopping && !exhausted && x.nfree &&
		       burst++ < x.ectx.depth) {
			struct dix_io *io;

			if (!have_pend) {
				if (next_block(&x, &pend_off, &pend_len)) {
					exhausted = 1;
					break;
				}
				pend_dir = pick_dir(&x);
				have_pend = 1;
			}
			if (x.track && inflight_conflicts(&x.fl, pend_off,
							  pend_len,
							  pend_dir == DIX_WRITE))
				break;	/* wait for the overlapping write */
			if (x.capped && rate_wait(&x, pend_dir, pend_len))
				break;
			io = x.free[--x.nfree];
			x.inflight_n++;
			have_pend = 0;
			io->offset = pend_off;
			io->len = pend_len;
			io->dir = pend_dir;
			io->retried = 0;
			io->injected = DIX_ERR_NR;
			if (io->dir == DIX_WRITE) {
				verify_fill(io->buf, io->len, x.lbs,
					    io->offset, x.o->seed, ++w->seq);
				if (x.r->journal_write)
					journal_intent(x.r->journal, io->offset,
						       io->len, w->seq);
			}
			if (x.pi_app)
				pi_prepare(&x, io);
			else if (x.inj.n && io->dir == DIX_READ)
				tag_prepare(&x, io);
			if (x.track)
				inflight_add(&x.fl, io->idx, io->offset,
					     io->len, io->dir == DIX_WRITE);
			submit(&x, io, &queued);
			/*
			 * Submit every --iodepth-batch I/Os: one system call
			 * for a whole depth is cheapest on targets that
			 * complete inside the submit (tmpfs), but an
			 * asynchronous device (loop, NVMe) starts on the first
			 * I/O only when it is submitted.
			 */
			if ((unsigned int)queued >= x.batch) {
				if (commit_batch(&x))
					break;
				queued = 0;
			}
		}
		/* on failure, the engine's cleanup waits for what is in flight */
		if (w->err || (queued && commit_batch(&x)))
			break;
		if (!x.inflight_n) {
			if (stopping || exhausted)
				break;
			continue;
		}
		if (x.eng->flags & DIX_ENG_SYNC)
			continue;
		n = x.eng->getevents(&x.ectx, 1);
		if (n < 0) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "engine %s: reaping completions failed: %s",
				 x.eng->name, dix_io_strerror(-n));
			w->err = n;
			run_request_stop(x.r);
			break;
		}
		queued = 0;
		for (i = 0; i < n; i++) {
			struct dix_io *io = x.eng->event(&x.ectx, i);

			if (complete(&x, io))
				submit(&x, io, &queued);	/* the retry */
			else
				release(&x, io);
		}
		if (queued && commit_batch(&x))
			break;
	}
out:
	worker_teardown(&x);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	run_worker_done(x.r);
	return NULL;
}
