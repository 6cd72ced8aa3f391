// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - error kinds, counters and log-linear latency histograms.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>

#include "lib/stats.h"

static const char *const errkind_names[DIX_ERR_NR] = {
	[DIX_ERR_IO] = "io",
	[DIX_ERR_VERIFY] = "verify",
	[DIX_ERR_GUARD] = "guard",
	[DIX_ERR_APP] = "app",
	[DIX_ERR_REF] = "ref",
	[DIX_ERR_UNKNOWN] = "unknown",
};

const char *dix_errkind_name(enum dix_errkind k)
{
	return k < DIX_ERR_NR ? errkind_names[k] : "?";
}

const char *dix_errkind_check(enum dix_errkind k)
{
	switch (k) {
	case DIX_ERR_GUARD:
		return "guard check failed";
	case DIX_ERR_APP:
		return "app tag check failed";
	case DIX_ERR_REF:
		return "ref tag check failed";
	case DIX_ERR_UNKNOWN:
		return "integrity check failed";
	default:
		return NULL;
	}
}

int dix_errkind_is_integrity(enum dix_errkind k)
{
	return k != DIX_ERR_IO && k < DIX_ERR_NR;
}

/* Upper bound (inclusive) in ns of bucket @b. */
static uint64_t lat_bucket_value(unsigned int b)
{
	unsigned int grp = b / LAT_SUB, sub = b % LAT_SUB, msb;

	if (grp == 0)
		return sub;
	msb = grp + LAT_SUB_BITS - 1;
	return ((uint64_t)(LAT_SUB + sub + 1) << (msb - LAT_SUB_BITS)) - 1;
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	unsigned int i;

	for (i = 0; i < LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t lat_count(const struct lat_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < LAT_BUCKETS; i++)
		n += h->bucket[i];
	return n;
}

uint64_t lat_percentile(const struct lat_hist *h, double q)
{
	uint64_t want, seen = 0, v, n = lat_count(h);
	unsigned int i;

	if (!n)
		return 0;
	want = (uint64_t)(q * n + 0.5);
	if (want < 1)
		want = 1;
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want) {
			v = lat_bucket_value(i);
			return v < h->max_ns ? v : h->max_ns;
		}
	}
	return h->max_ns;
}

int lat_bucket_bounds(unsigned int b, uint64_t *lo, uint64_t *hi)
{
	if (b >= LAT_BUCKETS)
		return -ERANGE;
	*lo = b ? lat_bucket_value(b - 1) + 1 : 0;
	*hi = lat_bucket_value(b);
	return 0;
}

/*
 * The per-interval histogram: the taker diffs the owner's monotonic
 * buckets against its last copy instead of the owner swapping buffers at
 * an epoch, because the owner then does no more than it does for the
 * summary (a check of an epoch per I/O would be new work on the hot
 * path).  The cost moves to the taker: LAT_BUCKETS loads per histogram
 * per interval.  The maximum is not monotonic per interval, so it alone
 * is exchanged: the owner's load-compare-store may then overwrite the
 * taker's 0 with a latency of this instant, which belongs to the next
 * interval anyway.
 */
uint64_t lat_take(struct lat_hist *iv, struct lat_hist *seen,
		  struct lat_hist *live)
{
	uint64_t n = 0, v, m, lo, hi;
	int top = -1;
	unsigned int i;

	for (i = 0; i < LAT_BUCKETS; i++) {
		v = __atomic_load_n(&live->bucket[i], __ATOMIC_RELAXED);
		if (v == seen->bucket[i])
			continue;
		iv->bucket[i] += v - seen->bucket[i];
		n += v - seen->bucket[i];
		seen->bucket[i] = v;
		top = i;
	}
	m = __atomic_exchange_n(&live->max_ns, 0, __ATOMIC_RELAXED);
	if (m > seen->max_ns)
		seen->max_ns = m;
	/* a maximum taken at the previous take, its bucket at this one:
	 * the interval's maximum is at least its highest bucket's floor */
	if (top >= 0 && !lat_bucket_bounds(top, &lo, &hi) && m < lo)
		m = lo;
	if (m > iv->max_ns)
		iv->max_ns = m;
	return n;
}

void lat_quantiles(const struct lat_hist *h, struct lat_quant *q)
{
	q->n = lat_count(h);
	q->p50 = lat_percentile(h, 0.5);
	q->p99 = lat_percentile(h, 0.99);
	q->p999 = lat_percentile(h, 0.999);
	q->max = q->n ? h->max_ns : 0;
}

void counters_add(struct dix_counters *dst, const struct dix_counters *src)
{
	int i;

	for (i = 0; i < DIX_DIR_NR; i++) {
		dst->bytes[i] += __atomic_load_n(&src->bytes[i], __ATOMIC_RELAXED);
		dst->ops[i] += __atomic_load_n(&src->ops[i], __ATOMIC_RELAXED);
	}
	for (i = 0; i < DIX_ERR_NR; i++) {
		dst->errors[i] += __atomic_load_n(&src->errors[i], __ATOMIC_RELAXED);
		dst->injected[i] += __atomic_load_n(&src->injected[i], __ATOMIC_RELAXED);
		dst->caught[i] += __atomic_load_n(&src->caught[i], __ATOMIC_RELAXED);
	}
	dst->recovered += __atomic_load_n(&src->recovered, __ATOMIC_RELAXED);
	dst->unwritten += __atomic_load_n(&src->unwritten, __ATOMIC_RELAXED);
	dst->submitted += __atomic_load_n(&src->submitted, __ATOMIC_RELAXED);
}

uint64_t counters_errors(const struct dix_counters *c)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < DIX_ERR_NR; i++)
		n += c->errors[i];
	return n;
}
