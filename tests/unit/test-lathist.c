// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-lathist.c - the per-interval latency histogram (lib/stats.h):
 * bucket bounds, quantiles against a sorted copy of the samples, merge,
 * and lat_take()'s diff of a histogram another thread keeps adding to.
 * The reference is the samples themselves, kept and sorted here: nothing
 * of src/'s bucket arithmetic is reused to judge it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "rnd.h"
#include "tap.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The @q quantile of sorted @v as lat_percentile() defines the rank. */
static uint64_t ref_quantile(const uint64_t *v, size_t n, double q)
{
	size_t want = (size_t)(q * n + 0.5);

	if (want < 1)
		want = 1;
	return v[want - 1];
}

/* Log-uniform latencies from 1 ns to ~4 s: every bucket group is used. */
static uint64_t rnd_lat(uint64_t *s)
{
	unsigned int bits = rnd_next(s) % 32;

	return (rnd_next(s) & ((1ull << bits) - 1)) | (1ull << bits);
}

/* A quantile is its sample's bucket top: >= the sample, <= 1/16 above. */
static int close_above(uint64_t got, uint64_t ref, uint64_t max)
{
	uint64_t slack = ref / 16 > 0 ? ref / 16 : 0;

	return got >= (ref < max ? ref : max) && got <= ref + slack &&
	       got <= max;
}

static void test_bounds(void)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, lo, hi, v;
	int i, b, bad = 0, prev_ok = 1;
	uint64_t prev_hi = 0;

	for (i = 0; i < 20000; i++) {
		struct lat_hist h;

		memset(&h, 0, sizeof(h));
		v = rnd_lat(&s);
		lat_add(&h, v);
		for (b = 0; b < LAT_BUCKETS && !h.bucket[b]; b++)
			;
		if (b == LAT_BUCKETS || lat_bucket_bounds(b, &lo, &hi) ||
		    v < lo || v > hi || hi - lo > (lo / 16 > 0 ? lo / 16 : 0))
			bad++;
	}
	is_int(bad, 0, "20000 latencies: each in a bucket whose bounds hold it, 1/16 wide");
	/* the buckets tile the line: each starts where the previous ended */
	for (b = 0; b < 60 * LAT_SUB; b++) {
		if (lat_bucket_bounds(b, &lo, &hi) || (b && lo != prev_hi + 1) ||
		    hi < lo)
			prev_ok = 0;
		prev_hi = hi;
	}
	ok(prev_ok, "buckets are contiguous and ordered");
	is_int(lat_bucket_bounds(LAT_BUCKETS, &lo, &hi), -ERANGE,
	       "a bucket past the end is refused");
}

static void test_quantiles(void)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999, 1.0 };
	uint64_t s = 12345, *v, m = 0;
	size_t n = 100000, i, k;
	struct lat_hist h;
	struct lat_quant q;
	int bad = 0;

	v = malloc(n * sizeof(*v));
	memset(&h, 0, sizeof(h));
	for (i = 0; i < n; i++) {
		v[i] = rnd_lat(&s);
		lat_add(&h, v[i]);
		if (v[i] > m)
			m = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < sizeof(qs) / sizeof(qs[0]); k++)
		if (!close_above(lat_percentile(&h, qs[k]),
				 ref_quantile(v, n, qs[k]), m)) {
			printf("#   q %g: got %llu, sample %llu\n", qs[k],
			     (unsigned long long)lat_percentile(&h, qs[k]),
			     (unsigned long long)ref_quantile(v, n, qs[k]));
			bad++;
		}
	is_int(bad, 0, "quantiles within a bucket above the sorted samples'");
	lat_quantiles(&h, &q);
	ok(q.n == n && q.max == m && q.p50 <= q.p99 && q.p99 <= q.p999 &&
	   q.p999 <= q.max, "lat_quantiles: n, max, and ordered");
	memset(&h, 0, sizeof(h));
	lat_quantiles(&h, &q);
	ok(!q.n && !q.p50 && !q.p99 && !q.p999 && !q.max,
	   "an empty interval: all zero");
	free(v);
}

static void test_merge(void)
{
	struct lat_hist a, b, all;
	uint64_t s = 777, x;
	int i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&all, 0, sizeof(all));
	for (i = 0; i < 30000; i++) {
		x = rnd_lat(&s);
		lat_add(i % 3 ? &a : &b, x);
		lat_add(&all, x);
	}
	lat_merge(&a, &b);
	ok(!memcmp(&a, &all, sizeof(a)),
	   "merge of two workers' histograms is the histogram of all");
}

/* A worker's live histogram, with what the meter has taken of it. */
struct taker {
	struct lat_hist live, seen;
	uint64_t n;
	uint64_t max;
	volatile int done;
};

static void *adder(void *arg)
{
	struct taker *t = arg;
	uint64_t s = 4242, x;
	uint64_t i;

	for (i = 0; i < t->n; i++) {
		x = rnd_lat(&s) % 50000000;
		if (x > t->max)
			t->max = x;
		lat_add(&t->live, x);
	}
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_take(void)
{
	struct lat_hist live, seen, iv, ref;
	struct taker *t;
	uint64_t s = 99, x, got, sum = 0, imax = 0;
	pthread_t th;
	int i, takes = 0;

	memset(&live, 0, sizeof(live));
	memset(&seen, 0, sizeof(seen));
	/* interval 1 */
	memset(&ref, 0, sizeof(ref));
	for (i = 0; i < 5000; i++) {
		x = rnd_lat(&s);
		lat_add(&live, x);
		lat_add(&ref, x);
	}
	memset(&iv, 0, sizeof(iv));
	got = lat_take(&iv, &seen, &live);
	ok(got == 5000 && !memcmp(&iv, &ref, sizeof(iv)),
	   "first take: the interval is everything so far");
	/* interval 2: only what came after, its own maximum */
	memset(&ref, 0, sizeof(ref));
	for (i = 0; i < 3000; i++) {
		x = rnd_lat(&s) % 1000;
		lat_add(&live, x);
		lat_add(&ref, x);
	}
	memset(&iv, 0, sizeof(iv));
	got = lat_take(&iv, &seen, &live);
	ok(got == 3000 && !memcmp(iv.bucket, ref.bucket, sizeof(iv.bucket)) &&
	   lat_count(&iv) == 3000, "second take: only the latencies since the first");
	is_int(iv.max_ns, ref.max_ns, "second take: the interval's own maximum");
	is_int(lat_count(&seen), 8000, "the taker's copy counts all taken");
	ok(seen.max_ns > ref.max_ns, "the taker keeps the run's maximum");
	memset(&iv, 0, sizeof(iv));
	ok(lat_take(&iv, &seen, &live) == 0 && !lat_count(&iv) && !iv.max_ns,
	   "a take with nothing new is empty");

	/* one thread adds while this one takes: nothing lost, nothing twice */
	t = calloc(1, sizeof(*t));
	t->n = 3000000;
	pthread_create(&th, NULL, adder, t);
	memset(&ref, 0, sizeof(ref));
	for (;;) {
		int last = __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);

		memset(&iv, 0, sizeof(iv));
		sum += lat_take(&iv, &t->seen, &t->live);
		if (iv.max_ns > imax)
			imax = iv.max_ns;
		lat_merge(&ref, &iv);
		takes++;
		if (last)
			break;
	}
	pthread_join(th, NULL);
	ok(sum == t->n && lat_count(&ref) == t->n,
	   "concurrent takes (%d): the intervals' counts sum to the adds", takes);
	ok(!memcmp(ref.bucket, t->live.bucket, sizeof(ref.bucket)),
	   "concurrent takes: the intervals' buckets sum to the live histogram");
	is_int(imax, t->max, "concurrent takes: the largest interval maximum is the true one");
	free(t);
}

int main(void)
{
	test_bounds();
	test_quantiles();
	test_merge();
	test_take();
	return tap_done();
}
