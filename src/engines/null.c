// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * null.c - the null engine: I/O completes in memory, the target is never
 * read or written (null.h says what reads return and which faults it can
 * make).  It exists to test dixload itself: the depth loop's ordering,
 * batching, retry, verification and injection against completions whose
 * order and failures a test chooses, which no real device gives on demand.
 *
 * The store is sparse so a test region costs what was written, not what
 * --size says: 64 KiB chunks under a two-level directory, each level
 * allocated on first write and published with a compare-and-swap, so the
 * workers of one target (disjoint slices, possibly sharing a chunk) need no
 * lock.  Data moves at completion (getevents(), or inside queue() for
 * NULL_INLINE), as a device's DMA would, never while the job may still
 * touch the buffer.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf/options.h"
#include "engines/engine.h"
#include "engines/null.h"
#include "lib/util.h"

#define CHUNK_SHIFT	16			/* 64 KiB of data per chunk */
#define CHUNK_SIZE	(1ull << CHUNK_SHIFT)
#define PAGE_SHIFT	12			/* chunk pointers per page */
#define DIR_SHIFT	20			/* pages per directory */
/* 2^(16 + 12 + 20) bytes: 256 TiB, beyond any --size a test gives */
#define STORE_LIMIT	(1ull << (CHUNK_SHIFT + PAGE_SHIFT + DIR_SHIFT))

/* A sparse byte array: zeros until written. */
struct sparse {
	unsigned char ***dir;		/* [1 << DIR_SHIFT] pages, lazily */
};

/* What is kept of one target: its data and, for --pi app, its tuples. */
struct null_store {
	char *path;
	struct sparse data;
	struct sparse meta;		/* pif.ms bytes per interval */
	struct null_store *next;
};

/* What an instance does: the options of its run and the test bed's part. */
struct null_set {
	enum null_order order;
	uint64_t seed;
	int keep;
	uint64_t fail_every;
	int fail_errno;
	uint64_t flip_every;
	struct pi_format pif;
	int check_pi;
	int watch;
};

struct null_inst {
	struct null_set c;
	struct null_bed *bed;		/* the test bed to count for, or NULL */
	struct null_store *st;
	struct dix_io **held;		/* queued, not yet committed */
	unsigned int nheld;
	struct dix_io **flight;		/* committed, not yet completed */
	unsigned int nflight;
	struct dix_io **ready;		/* completed by the last getevents() */
	uint64_t *qseq;			/* per slot: when it was queued */
	uint64_t queued;		/* I/Os queued */
	struct null_stats seen;
	uint64_t done;			/* I/Os completed */
	uint64_t reads;			/* reads completed */
	uint64_t rng;
};

/* --complete's values, in enum null_order's order */
static const char *const complete_names[] = {
	"fifo", "reverse", "shuffle", "inline", NULL,
};

/* --fail-errno's values, and the errnos they stand for */
static const char *const errno_names[] = {
	"eio", "eilseq", "enospc", "etimedout", "enodev", NULL,
};
static const int errno_values[] = { EIO, EILSEQ, ENOSPC, ETIMEDOUT, ENODEV };

#define NULL_REFUSAL	"does not complete in memory"
#define OFF(f)		((long)offsetof(struct dix_opts, f))

static const struct dix_option null_options[] = {
	{
		.name = "complete", .type = OPT_ENUM, .off = OFF(complete),
		.def = "fifo", .allowed = complete_names, .metavar = "ORDER",
		.refusal = NULL_REFUSAL,
		.help = "completions: all in flight in submission order (fifo) or the last first (reverse), a random part in a random order from --seed (shuffle), or inside the submission (inline)",
	},
	{
		.name = "fail-every", .type = OPT_UINT, .off = OFF(fail_every),
		.def = "0", .metavar = "N", .refusal = NULL_REFUSAL,
		.help = "every Nth I/O a job completes fails with --fail-errno, moving no data (0: none)",
	},
	{
		.name = "fail-errno", .type = OPT_ENUM, .off = OFF(fail_errno),
		.def = "eio", .allowed = errno_names, .metavar = "ERRNO",
		.refusal = NULL_REFUSAL,
		.help = "the error of --fail-every (eio is retried once; eilseq is an integrity failure)",
	},
	{
		.name = "flip-every", .type = OPT_UINT, .off = OFF(flip_every),
		.def = "0", .metavar = "N", .refusal = NULL_REFUSAL,
		.help = "every Nth read a job completes comes back with a bit of its last byte flipped (0: none)",
	},
	{
		.name = "discard", .type = OPT_FLAG, .off = OFF(discard),
		.refusal = NULL_REFUSAL,
		.help = "keep nothing: writes are dropped, reads leave their buffer as it is",
	},
	{ .name = NULL },
};

/*
 * The stores are the process's on purpose: they are the "devices", one per
 * path, which a second run on the same path finds written as it would a
 * file (null.h).  What a test sets and counts is its bed's (struct
 * null_bed), never these.
 */
static struct null_store *stores;
static pthread_mutex_t stores_lock = PTHREAD_MUTEX_INITIALIZER;

/* The chunk holding byte @off, allocated when @create; NULL: a hole. */
static unsigned char *chunk_at(struct sparse *s, uint64_t off, int create)
{
	uint64_t c = off >> CHUNK_SHIFT;
	unsigned char ***pp = &s->dir[c >> PAGE_SHIFT];
	unsigned char **page = __atomic_load_n(pp, __ATOMIC_ACQUIRE);
	unsigned char **cp, *chunk, *none = NULL;

	if (!page) {
		unsigned char **fresh, **nopage = NULL;

		if (!create)
			return NULL;
		fresh = xcalloc(1u << PAGE_SHIFT, sizeof(*fresh));
		if (__atomic_compare_exchange_n(pp, &nopage, fresh, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			page = fresh;
		} else {
			free(fresh);	/* another worker's came first */
			page = nopage;
		}
	}
	cp = &page[c & ((1u << PAGE_SHIFT) - 1)];
	chunk = __atomic_load_n(cp, __ATOMIC_ACQUIRE);
	if (chunk || !create)
		return chunk;
	chunk = xcalloc(1, CHUNK_SIZE);
	if (__atomic_compare_exchange_n(cp, &none, chunk, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return chunk;
	free(chunk);
	return none;
}

static void sparse_put(struct sparse *s, uint64_t off, const void *buf,
		       uint64_t len)
{
	const unsigned char *p = buf;

	while (len) {
		uint64_t in = off & (CHUNK_SIZE - 1);
		uint64_t n = CHUNK_SIZE - in < len ? CHUNK_SIZE - in : len;

		memcpy(chunk_at(s, off, 1) + in, p, n);
		p += n;
		off += n;
		len -= n;
	}
}

static void sparse_get(struct sparse *s, uint64_t off, void *buf,
		       uint64_t len)
{
	unsigned char *p = buf;

	while (len) {
		uint64_t in = off & (CHUNK_SIZE - 1);
		uint64_t n = CHUNK_SIZE - in < len ? CHUNK_SIZE - in : len;
		const unsigned char *chunk = chunk_at(s, off, 0);

		if (chunk)
			memcpy(p, chunk + in, n);
		else
			memset(p, 0, n);
		p += n;
		off += n;
		len -= n;
	}
}

static void sparse_free(struct sparse *s)
{
	size_t i, j;

	if (!s->dir)
		return;
	for (i = 0; i < (1u << DIR_SHIFT); i++) {
		if (!s->dir[i])
			continue;
		for (j = 0; j < (1u << PAGE_SHIFT); j++)
			free(s->dir[i][j]);
		free(s->dir[i]);
	}
	free(s->dir);
	s->dir = NULL;
}

/* The store of @path, made on first use; kept until null_reset(). */
static struct null_store *store_get(const char *path)
{
	struct null_store *st;

	pthread_mutex_lock(&stores_lock);
	for (st = stores; st; st = st->next)
		if (!strcmp(st->path, path))
			break;
	if (!st) {
		st = xcalloc(1, sizeof(*st));
		st->path = xstrdup(path);
		/* calloc()ed: untouched pages of the directory cost nothing */
		st->data.dir = xcalloc(1u << DIR_SHIFT, sizeof(*st->data.dir));
		st->meta.dir = xcalloc(1u << DIR_SHIFT, sizeof(*st->meta.dir));
		st->next = stores;
		stores = st;
	}
	pthread_mutex_unlock(&stores_lock);
	return st;
}

void null_reset(void)
{
	struct null_store *st, *next;

	pthread_mutex_lock(&stores_lock);
	for (st = stores; st; st = next) {
		next = st->next;
		sparse_free(&st->data);
		sparse_free(&st->meta);
		free(st->path);
		free(st);
	}
	stores = NULL;
	pthread_mutex_unlock(&stores_lock);
}

struct null_stats null_bed_stats(struct null_bed *b)
{
	struct null_stats s;

	pthread_mutex_lock(&b->lock);
	s = b->stats;
	pthread_mutex_unlock(&b->lock);
	return s;
}

void null_bed_reset(struct null_bed *b)
{
	pthread_mutex_lock(&b->lock);
	memset(&b->conf, 0, sizeof(b->conf));
	memset(&b->stats, 0, sizeof(b->stats));
	pthread_mutex_unlock(&b->lock);
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static int null_init(struct dix_eng_ctx *ctx)
{
	static const struct null_conf none;
	struct null_bed *bed = ctx->bed;
	const struct null_conf *conf = bed ? &bed->conf : &none;
	struct null_inst *n;

	if (ctx->pi_mode == PI_APP && !conf->pif.interval) {
		/* a test that asks for --pi app gives the format */
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "--pi app: the null engine was given no protection format");
		return -EINVAL;
	}
	n = xcalloc(1, sizeof(*n));
	n->c.keep = 1;
	n->c.fail_errno = EIO;
	if (ctx->o) {
		n->c.order = ctx->o->complete;
		n->c.seed = ctx->o->seed;
		n->c.keep = !ctx->o->discard;
		n->c.fail_every = ctx->o->fail_every;
		n->c.fail_errno = errno_values[ctx->o->fail_errno];
		n->c.flip_every = ctx->o->flip_every;
	}
	n->bed = bed;
	n->c.pif = conf->pif;
	n->c.check_pi = conf->check_pi;
	n->c.watch = conf->watch;
	if (conf->slow_ms && ctx->job == conf->slow_job) {
		struct timespec ts = { conf->slow_ms / 1000,
				       conf->slow_ms % 1000 * 1000000L };

		nanosleep(&ts, NULL);
	}
	n->rng = (n->c.seed ^ 0x9e3779b97f4a7c15ull) + 2 * (uint64_t)ctx->job + 1;
	n->held = xcalloc(ctx->depth, sizeof(*n->held));
	n->flight = xcalloc(ctx->depth, sizeof(*n->flight));
	n->ready = xcalloc(ctx->depth, sizeof(*n->ready));
	n->qseq = xcalloc(ctx->depth, sizeof(*n->qseq));
	n->st = store_get(ctx->path ? ctx->path : "");
	if (ctx->pi_mode == PI_APP)
		ctx->pif = n->c.pif;
	ctx->priv = n;
	return 0;
}

/* Where the tuples of byte @off are kept. */
static uint64_t meta_off(const struct null_inst *n, uint64_t off)
{
	return off / n->c.pif.interval * n->c.pif.ms;
}

/*
 * A write whose tuples do not match its data, as a drive checking PI would
 * find it.  Return: the failed check (DIX_ERR_GUARD ...), or DIX_ERR_NR.
 */
static int write_pi_fails(const struct null_inst *n, const struct dix_io *io)
{
	const struct pi_format *f = &n->c.pif;
	struct pi_fail fail;
	struct pi_io pio;

	pi_io_init(&pio, f, io->offset / f->interval);
	pio.ref = io->ref;
	pio.app = io->app;
	if (pi_verify(f, io->buf, io->meta, io->len / f->interval, &pio,
		      &fail) > 0)
		return fail.kind;
	return DIX_ERR_NR;
}

/* The I/O itself: data to or from the store, or the fault it is due. */
static void null_do(struct null_inst *n, struct dix_io *io)
{
	int pi = n->c.pif.interval && io->meta && io->meta_len;
	int kind;

	n->done++;
	n->seen.ios++;
	if (io->offset + io->len > STORE_LIMIT) {
		io->res = -EFBIG;
		return;
	}
	if (n->c.fail_every && n->done % n->c.fail_every == 0) {
		io->res = -n->c.fail_errno;
		return;
	}
	if (io->dir == DIX_WRITE) {
		if (pi && n->c.check_pi &&
		    (kind = write_pi_fails(n, io)) != DIX_ERR_NR) {
			io->res = -EILSEQ;
			io->errkind = kind;
			return;
		}
		if (n->c.keep) {
			sparse_put(&n->st->data, io->offset, io->buf, io->len);
			if (pi)
				sparse_put(&n->st->meta, meta_off(n, io->offset),
					   io->meta, io->meta_len);
		}
	} else {
		if (n->c.keep) {
			sparse_get(&n->st->data, io->offset, io->buf, io->len);
			if (pi)
				sparse_get(&n->st->meta, meta_off(n, io->offset),
					   io->meta, io->meta_len);
		}
		n->reads++;
		/* the last byte: a block's body, never its header */
		if (n->c.flip_every && n->reads % n->c.flip_every == 0)
			((unsigned char *)io->buf)[io->len - 1] ^= 0x10;
	}
	io->res = io->len;
}

static int overlap(const struct dix_io *a, const struct dix_io *b)
{
	return (a->dir == DIX_WRITE || b->dir == DIX_WRITE) &&
	       a->offset < b->offset + b->len && b->offset < a->offset + a->len;
}

/* @watch: @io queued over an I/O in flight. */
static void watch_queue(struct null_inst *n, const struct dix_io *io)
{
	unsigned int i;

	for (i = 0; i < n->nheld; i++)
		n->seen.overlaps += overlap(io, n->held[i]);
	for (i = 0; i < n->nflight; i++)
		n->seen.overlaps += overlap(io, n->flight[i]);
}

/*
 * @watch: ready[@i] completes while one queued before it is still in
 * flight (submitted, or later in this batch of @k).
 */
static int overtakes(const struct null_inst *n, unsigned int i,
		     unsigned int k)
{
	uint64_t q = n->qseq[n->ready[i]->idx];
	unsigned int j;

	for (j = 0; j < n->nflight; j++)
		if (n->qseq[n->flight[j]->idx] < q)
			return 1;
	for (j = i + 1; j < k; j++)
		if (n->qseq[n->ready[j]->idx] < q)
			return 1;
	return 0;
}

static int null_queue(struct dix_eng_ctx *ctx, struct dix_io *io)
{
	struct null_inst *n = ctx->priv;
	unsigned int held;

	if (n->c.watch)
		watch_queue(n, io);
	if (!n->queued)
		n->seen.first_io = dix_now();
	n->qseq[io->idx] = ++n->queued;
	held = n->nheld + n->nflight + 1;
	if (held > n->seen.max_inflight)
		n->seen.max_inflight = held;
	if (n->c.order == NULL_INLINE) {
		null_do(n, io);
		return DIX_Q_COMPLETED;
	}
	n->held[n->nheld++] = io;
	return DIX_Q_QUEUED;
}

static int null_commit(struct dix_eng_ctx *ctx)
{
	struct null_inst *n = ctx->priv;

	if (n->nheld) {
		n->seen.commits++;
		if (n->nheld > n->seen.max_batch)
			n->seen.max_batch = n->nheld;
	}
	memcpy(n->flight + n->nflight, n->held, n->nheld * sizeof(*n->held));
	n->nflight += n->nheld;
	n->nheld = 0;
	return 0;
}

static int null_getevents(struct dix_eng_ctx *ctx, unsigned int min)
{
	struct null_inst *n = ctx->priv;
	unsigned int k, i, pick;

	k = n->nflight;
	if (n->c.order != NULL_SHUFFLE) {
		for (i = 0; i < k; i++)
			n->ready[i] = n->flight[n->c.order == NULL_REVERSE ?
						k - 1 - i : i];
		n->nflight = 0;
	} else {
		/* at least @min, and a random pick of those in flight */
		if (min < k)
			k = min + rng_next(&n->rng) % (k - min + 1);
		for (i = 0; i < k; i++) {
			pick = rng_next(&n->rng) % n->nflight;
			n->ready[i] = n->flight[pick];
			n->flight[pick] = n->flight[--n->nflight];
		}
	}
	for (i = 0; i < k; i++) {
		if (n->c.watch)
			n->seen.reordered += overtakes(n, i, k);
		null_do(n, n->ready[i]);
	}
	return k;
}

static struct dix_io *null_event(struct dix_eng_ctx *ctx, int i)
{
	struct null_inst *n = ctx->priv;

	return n->ready[i];
}

static void null_cleanup(struct dix_eng_ctx *ctx)
{
	struct null_inst *n = ctx->priv;

	if (!n)
		return;
	if (n->bed) {
		struct null_stats *stats = &n->bed->stats;

		pthread_mutex_lock(&n->bed->lock);
		stats->ios += n->seen.ios;
		stats->commits += n->seen.commits;
		stats->reordered += n->seen.reordered;
		stats->overlaps += n->seen.overlaps;
		if (n->seen.max_batch > stats->max_batch)
			stats->max_batch = n->seen.max_batch;
		if (n->seen.max_inflight > stats->max_inflight)
			stats->max_inflight = n->seen.max_inflight;
		if (n->seen.first_io && (!stats->first_io ||
					 n->seen.first_io < stats->first_io))
			stats->first_io = n->seen.first_io;
		pthread_mutex_unlock(&n->bed->lock);
	}
	free(n->qseq);
	free(n->held);
	free(n->flight);
	free(n->ready);
	free(n);
	ctx->priv = NULL;
}

const struct dix_engine engine_null = {
	.version = DIX_ENGINE_VERSION,
	.name = "null",
	.help = "no I/O: completes in memory, reads return what was written (dixload's own cost, and its tests)",
	.targets = DIX_TGT_NULL,
	.options = null_options,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
