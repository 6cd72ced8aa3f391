/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - counters shared by the workers, the meter and the report:
 * bytes and ops per direction, errors by kind, latency histograms.
 *
 * Workers update their own struct dix_counters (no sharing, no atomics on the
 * hot path beyond relaxed stores); the meter sums them every interval.
 */
#ifndef DIX_STATS_H
#define DIX_STATS_H

#include <stdint.h>

/* Error kinds, as named in the JSON summary's "errors" object. */
enum dix_errkind {
	DIX_ERR_IO,		/* an I/O that failed (EIO, short transfer ...) */
	DIX_ERR_VERIFY,		/* data read back differs from what was written */
	DIX_ERR_GUARD,		/* PI guard tag mismatch */
	DIX_ERR_APP,		/* PI application tag mismatch */
	DIX_ERR_REF,		/* PI reference tag mismatch */
	DIX_ERR_UNKNOWN,	/* integrity failure, tag not known (EILSEQ) */
	DIX_ERR_NR,
};

/** dix_errkind_name() - JSON key of an error kind ("io", "guard" ...). */
const char *dix_errkind_name(enum dix_errkind k);

/**
 * dix_errkind_check() - the failed check of a PI error kind in words:
 * "guard check failed", "app tag check failed", "ref tag check failed",
 * "integrity check failed" (the tag is not known); NULL for io and verify.
 */
const char *dix_errkind_check(enum dix_errkind k);

/** dix_errkind_is_integrity() - true for verify/guard/app/ref/unknown. */
int dix_errkind_is_integrity(enum dix_errkind k);

enum dix_dir { DIX_READ, DIX_WRITE, DIX_DIR_NR };

/*
 * Latency histogram: log-linear buckets (16 sub-buckets per power of two of
 * nanoseconds), ~6 % resolution, fixed memory, mergeable across threads.
 * It keeps no count of its own: the count is the buckets' sum
 * (lat_count()), taken when a report asks, so an I/O costs one bucket
 * store and the maximum's compare.
 */
#define LAT_SUB_BITS	4
#define LAT_SUB		(1 << LAT_SUB_BITS)
#define LAT_BUCKETS	(64 * LAT_SUB)

struct lat_hist {
	uint64_t max_ns;
	uint64_t bucket[LAT_BUCKETS];
};

/** lat_bucket_of() - the bucket that counts a latency of @ns. */
static inline unsigned int lat_bucket_of(uint64_t ns)
{
	unsigned int msb, b;

	/* exact below LAT_SUB, then LAT_SUB per power of two */
	if (ns < LAT_SUB)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	b = (msb - LAT_SUB_BITS + 1) * LAT_SUB +
	    ((ns >> (msb - LAT_SUB_BITS)) & (LAT_SUB - 1));
	return b < LAT_BUCKETS ? b : LAT_BUCKETS - 1;
}

/**
 * lat_add() - count one latency of @ns in @h.  The owner thread is the
 * only one that adds; its stores are relaxed atomics so another thread
 * may read @h while it runs (lat_take()), at no cost on the hot path
 * (a relaxed store is a plain store).  Inline: every I/O adds one.
 *
 * The maximum is stored before the bucket: a taker that sees the bucket
 * (lat_take() reads the buckets, then exchanges the maximum) finds this
 * latency's maximum in the same interval or an earlier one.
 */
static inline void lat_add(struct lat_hist *h, uint64_t ns)
{
	unsigned int b = lat_bucket_of(ns);

	if (ns > __atomic_load_n(&h->max_ns, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->bucket[b], h->bucket[b] + 1, __ATOMIC_RELAXED);
}
/**
 * lat_add_bucket() - count @n latencies in bucket @b of @h, their largest
 * at least @ns (its bucket's lower bound when that is all that is known):
 * for a histogram counted elsewhere in the same buckets (the dixkload
 * module's), added by @h's owner thread as lat_add() is.
 */
static inline void lat_add_bucket(struct lat_hist *h, unsigned int b,
				  uint64_t n, uint64_t ns)
{
	if (b >= LAT_BUCKETS || !n)
		return;
	if (ns > __atomic_load_n(&h->max_ns, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->bucket[b], h->bucket[b] + n, __ATOMIC_RELAXED);
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src);
/** lat_count() - latencies counted in @h (the sum of its buckets). */
uint64_t lat_count(const struct lat_hist *h);
/** lat_percentile() - latency in ns at quantile @q (0..1); 0 when empty. */
uint64_t lat_percentile(const struct lat_hist *h, double q);

/**
 * lat_bucket_bounds() - the latencies bucket @b holds: [*lo, *hi] in ns.
 * Return: 0, or -ERANGE when @b >= LAT_BUCKETS.
 */
int lat_bucket_bounds(unsigned int b, uint64_t *lo, uint64_t *hi);

/**
 * lat_take() - add to @iv what @live gained since @seen, and make @seen
 * its copy: one interval's histogram of a histogram another thread
 * keeps adding to (lat_add()).
 * @iv: the interval's histogram (added to, so several workers sum)
 * @seen: the taker's copy of @live at the previous take
 * @live: the owner's histogram; its max_ns is exchanged for 0, so the
 *	interval's maximum is exact; @seen keeps the largest taken
 *
 * Only the taker writes @seen; it is the one thread that calls lat_take()
 * on @live.  An add that runs during the take lands in this interval or
 * the next, never in both or neither.
 * Return: the count added to @iv.
 */
uint64_t lat_take(struct lat_hist *iv, struct lat_hist *seen,
		  struct lat_hist *live);

/**
 * struct lat_quant - what a report prints of a histogram.
 * @n: latencies counted
 * @p50: median in ns (0 when @n is 0, as every field)
 * @p99: 99th percentile
 * @p999: 99.9th percentile
 * @max: maximum
 */
struct lat_quant {
	uint64_t n;
	uint64_t p50;
	uint64_t p99;
	uint64_t p999;
	uint64_t max;
};

/** lat_quantiles() - @q from @h (lat_percentile()). */
void lat_quantiles(const struct lat_hist *h, struct lat_quant *q);

struct dix_counters {
	uint64_t bytes[DIX_DIR_NR];
	uint64_t ops[DIX_DIR_NR];
	uint64_t errors[DIX_ERR_NR];
	uint64_t recovered;
	uint64_t injected[DIX_ERR_NR];	/* faults dixload injected on purpose */
	uint64_t caught[DIX_ERR_NR];	/* injected faults the device caught */
	uint64_t unwritten;	/* blocks read without a dixload header */
	/*
	 * I/Os handed to the engine, dixload's own retries included: what a
	 * fault injector that counts commands (scsi_debug's every_nth) sees
	 * of the load, so its injections can be checked against the counts.
	 */
	uint64_t submitted;
};

/** counters_add() - @dst += @src, field by field. */
void counters_add(struct dix_counters *dst, const struct dix_counters *src);

/** counters_errors() - total of errors[] (what the meter calls Err). */
uint64_t counters_errors(const struct dix_counters *c);

#endif
