// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-crc.c - every guard implementation against the published check
 * values and against bit-at-a-time reference code written straight from the
 * polynomial definitions (no tables, nothing shared with src/crc*.c), on
 * random data of many lengths and misalignments, plus chaining and dispatch.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pi/crc.h"
#include "pi/selftest.h"
#include "rnd.h"
#include "capture.h"
#include "tap.h"

/* ---- references ---- */

static uint64_t ref_crc16(const unsigned char *p, size_t len)
{
	uint16_t crc = 0;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= (uint16_t)(p[i] << 8);
		for (b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x8bb7) :
					       (uint16_t)(crc << 1);
	}
	return crc;
}

static uint64_t ref_crc32c(const unsigned char *p, size_t len)
{
	uint32_t crc = 0xffffffff;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return ~crc;
}

static uint64_t ref_crc64(const unsigned char *p, size_t len)
{
	uint64_t crc = ~0ull;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc & 1) ? (crc >> 1) ^ 0x9a6c9329ac4bc9b5ull : crc >> 1;
	}
	return ~crc;
}

/* RFC 1071: big-endian 16-bit words, odd byte padded, end-around carry. */
static uint64_t ref_ip(const unsigned char *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += (p[i] << 8) | p[i + 1];
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len & 1) {
		sum += p[len - 1] << 8;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return ~sum & 0xffff;
}

static uint64_t ref(enum dix_guard g, const unsigned char *p, size_t len)
{
	switch (g) {
	case DIX_GUARD_CRC16:
		return ref_crc16(p, len);
	case DIX_GUARD_IP:
		return ref_ip(p, len);
	case DIX_GUARD_CRC32C:
		return ref_crc32c(p, len);
	default:
		return ref_crc64(p, len);
	}
}

static uint64_t run(const struct crc_impl *c, const void *p, size_t len)
{
	return crc_final(c->guard, c->update(crc_init(c->guard), p, len));
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static const uint64_t check[DIX_GUARD_NR] = {
	[DIX_GUARD_CRC16] = 0xd0db,
	[DIX_GUARD_IP] = 0xf62a,	/* by hand: 3132+3334+3536+3738+3900 */
	[DIX_GUARD_CRC32C] = 0xe3069283,
	[DIX_GUARD_CRC64] = 0xae8b14860a799888ull,
};

static void test_references(void)
{
	static const unsigned char s[] = "123456789";
	unsigned char buf[32];
	int g;

	for (g = 0; g < DIX_GUARD_NR; g++)
		ok(ref(g, s, 9) == check[g], "reference %s of \"123456789\" = 0x%llx",
		   crc_guard_name(g), (unsigned long long)check[g]);

	/* RFC 3720 (iSCSI) CRC-32C vectors */
	memset(buf, 0, 32);
	is_int(ref_crc32c(buf, 32), 0x8a9136aa, "reference crc32c of 32 zeros");
	memset(buf, 0xff, 32);
	is_int(ref_crc32c(buf, 32), 0x62a8ab43, "reference crc32c of 32 0xff");
	for (g = 0; g < 32; g++)
		buf[g] = g;
	is_int(ref_crc32c(buf, 32), 0x46dd794e, "reference crc32c of 0..31");
}

static void test_known_answers(const struct crc_impl *c)
{
	static const unsigned char s[] = "123456789";
	unsigned char zero[512];
	uint64_t got = run(c, s, 9);

	if (!ok(got == check[c->guard], "%s/%s: \"123456789\" = 0x%llx",
		crc_guard_name(c->guard), c->name, (unsigned long long)check[c->guard]))
		printf("#   got 0x%llx\n", (unsigned long long)got);

	/* an all-zero sector: 0 for the CRC16, 0xffff (not 0) for IP */
	memset(zero, 0, sizeof(zero));
	got = run(c, zero, sizeof(zero));
	if (!ok(got == ref(c->guard, zero, sizeof(zero)),
		"%s/%s: 512 zero bytes = 0x%llx", crc_guard_name(c->guard),
		c->name, (unsigned long long)ref(c->guard, zero, sizeof(zero))))
		printf("#   got 0x%llx\n", (unsigned long long)got);
}

/*
 * Every length 0..600 at every misalignment 0..15 would be 9600 runs per
 * implementation; lengths 0..600 at a rotating misalignment plus the
 * interesting sizes at all 16 misalignments cover the same code paths.
 */
static void test_random(const struct crc_impl *c, const unsigned char *buf)
{
	static const size_t big[] = { 1023, 1024, 1025, 2047, 4095, 4096, 4097,
				      4104, 4160, 8192 + 24, 65536, 65536 + 13,
				      200003 };
	unsigned int fails = 0, runs = 0;
	size_t len, off, i;

	for (len = 0; len <= 600; len++) {
		off = len % 16;
		runs++;
		if (run(c, buf + off, len) != ref(c->guard, buf + off, len)) {
			if (!fails++)
				printf("# %s/%s: len %zu off %zu: got 0x%llx want 0x%llx\n",
				       crc_guard_name(c->guard), c->name, len, off,
				       (unsigned long long)run(c, buf + off, len),
				       (unsigned long long)ref(c->guard, buf + off, len));
		}
	}
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		for (off = 0; off < 16; off += (big[i] > 10000 ? 5 : 1)) {
			runs++;
			if (run(c, buf + off, big[i]) != ref(c->guard, buf + off, big[i])) {
				if (!fails++)
					printf("# %s/%s: len %zu off %zu mismatch\n",
					       crc_guard_name(c->guard), c->name,
					       big[i], off);
			}
		}
	}
	ok(fails == 0, "%s/%s: matches the reference on %u random buffers (%u mismatches)",
	   crc_guard_name(c->guard), c->name, runs, fails);
}

/* update(update(init, a), b) == update(init, a || b) */
static void test_chaining(const struct crc_impl *c, const unsigned char *buf)
{
	static const size_t splits[] = { 0, 2, 8, 16, 64, 128, 256, 510, 512, 4096 };
	size_t total = 4096 + 24, i;
	uint64_t want = run(c, buf, total);
	unsigned int fails = 0;

	for (i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		size_t a = splits[i];
		uint64_t st = c->update(crc_init(c->guard), buf, a);

		st = c->update(st, buf + a, total - a);
		if (crc_final(c->guard, st) != want) {
			if (!fails++)
				printf("#   split at %zu: got 0x%llx want 0x%llx\n", a,
				       (unsigned long long)crc_final(c->guard, st),
				       (unsigned long long)want);
		}
	}
	ok(fails == 0, "%s/%s: chained updates equal one update",
	   crc_guard_name(c->guard), c->name);
}

/*
 * crc_update_many() (the many-buffer variants where they exist) equals one
 * update() per buffer, for every length class and buffer count, from a
 * non-trivial start state, with unaligned buffers.
 */
static void test_many(const struct crc_impl *c, const unsigned char *buf)
{
	static const size_t lens[] = { 0, 1, 15, 16, 63, 64, 127, 128, 129, 200,
				       255, 256, 257, 511, 512, 520, 528, 544,
				       600, 4096, 4104 };
	static const size_t counts[] = { 1, 3, 4, 5, 8, 9, 12, 13, 16 };
	uint64_t out[16], init = c->update(crc_init(c->guard), buf, 5);
	unsigned int fails = 0;
	size_t i, k, j;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			size_t stride = lens[i] + 24, n = counts[k];
			const unsigned char *base = buf + 3;

			crc_update_many(c, init, base, stride, lens[i], n, out);
			for (j = 0; j < n; j++) {
				uint64_t want = c->update(init, base + j * stride, lens[i]);

				if (out[j] != want && !fails++)
					printf("#   len %zu n %zu buffer %zu: got 0x%llx want 0x%llx\n",
					       lens[i], n, j, (unsigned long long)out[j],
					       (unsigned long long)want);
			}
		}
	}
	ok(fails == 0, "%s/%s: many-buffer updates (%s) equal single updates",
	   crc_guard_name(c->guard), c->name, c->multi ? "own variant" : "loop");
}

/* Different implementations of one guard agree on a whole random MiB. */
static void test_cross(const struct crc_impl *t, size_t n, const unsigned char *buf,
		       size_t len)
{
	int g;

	for (g = 0; g < DIX_GUARD_NR; g++) {
		uint64_t first = 0;
		const char *first_name = NULL;
		unsigned int fails = 0, k = 0;
		size_t i;

		for (i = 0; i < n; i++) {
			uint64_t v;

			if (t[i].guard != (enum dix_guard)g || !crc_impl_ok(&t[i]))
				continue;
			k++;
			v = run(&t[i], buf + 3, len - 3);
			if (!first_name) {
				first = v;
				first_name = t[i].name;
			} else if (v != first) {
				fails++;
				printf("#   %s: %s 0x%llx != %s 0x%llx\n", crc_guard_name(g),
				       t[i].name, (unsigned long long)v, first_name,
				       (unsigned long long)first);
			}
		}
		ok(fails == 0 && k >= 1, "%s: %u implementations agree on %zu random bytes",
		   crc_guard_name(g), k, len - 3);
	}
}

static void test_dispatch(const struct crc_impl *t, size_t n)
{
	int g;

	for (g = 0; g < DIX_GUARD_NR; g++) {
		const struct crc_impl *b = crc_best(g);
		int best_rank = -1;
		size_t i;

		for (i = 0; i < n; i++)
			if (t[i].guard == (enum dix_guard)g && crc_impl_ok(&t[i]) &&
			    t[i].rank > best_rank)
				best_rank = t[i].rank;
		ok(b && b->guard == (enum dix_guard)g && b->rank == best_rank && crc_impl_ok(b),
		   "%s: dispatch picks the best supported implementation (%s)",
		   crc_guard_name(g), b ? b->name : "none");
		printf("# %s dispatch: %s - %s\n", crc_guard_name(g), b->name, b->desc);
	}

	{
		const struct crc_impl *orig = crc_best(DIX_GUARD_CRC16);

		is_int(crc_force(DIX_GUARD_CRC16, "byte"), 0, "crc_force crc16 byte");
		is_str(crc_best(DIX_GUARD_CRC16)->name, "byte", "forced implementation is used");
		is_int(crc_compute(DIX_GUARD_CRC16, "123456789", 9), 0xd0db,
		       "crc_compute through the forced implementation");
		is_int(crc_force(DIX_GUARD_CRC16, "nonesuch"), -ENOENT,
		       "crc_force of an unknown name: -ENOENT");
		is_int(crc_force(DIX_GUARD_IP, "slice16"), -ENOENT,
		       "crc_force of another guard's implementation: -ENOENT");
		is_int(crc_force(DIX_GUARD_CRC16, orig->name), 0, "crc_force back");
		is_str(crc_best(DIX_GUARD_CRC16)->name, orig->name, "dispatch restored");
	}
}

static void test_names(void)
{
	enum dix_guard g = DIX_GUARD_NR;
	int i;

	for (i = 0; i < DIX_GUARD_NR; i++) {
		ok(crc_guard_parse(crc_guard_name(i), &g) == 0 && g == (enum dix_guard)i,
		   "guard name %s round-trips", crc_guard_name(i));
	}
	ok(crc_guard_parse("t10dif", &g) == 0 && g == DIX_GUARD_CRC16, "t10dif = crc16");
	is_int(crc_guard_parse("crc8", &g), -EINVAL, "unknown guard name: -EINVAL");
	is_int(crc_guard_bits(DIX_GUARD_CRC16), 16, "crc16 is 16 bits");
	is_int(crc_guard_bits(DIX_GUARD_IP), 16, "ip is 16 bits");
	is_int(crc_guard_bits(DIX_GUARD_CRC32C), 32, "crc32c is 32 bits");
	is_int(crc_guard_bits(DIX_GUARD_CRC64), 64, "crc64 is 64 bits");
}

/* ---- the self-test, proven by the damage it must catch ---- */

/*
 * Deliberately wrong CRC16 implementations, each correct but for one
 * kind of input, registered above every real one: the dispatch must
 * refuse each, say so naming it, and fall back to what it used before.
 */
static crc_update_fn good16;	/* the dispatch's own choice, before */

static uint64_t bad_length(uint64_t st, const void *p, size_t len)
{
	/* wrong for one length only past the 8-lane fold: 513 bytes */
	return good16(st, p, len) ^ (len == 513);
}

static uint64_t bad_align(uint64_t st, const void *p, size_t len)
{
	/* wrong only where an unaligned load would be: odd start addresses */
	return good16(st, p, len) ^ (len >= 64 && ((uintptr_t)p & 1) ? 0x100 : 0);
}

static uint64_t bad_chain(uint64_t st, const void *p, size_t len)
{
	/* drops the incoming state of a long segment: only splits show it */
	return good16(len > 4096 - 1024 && len < 4096 ? 0 : st, p, len);
}

static uint64_t good_copy(uint64_t st, const void *p, size_t len)
{
	return good16(st, p, len);
}

static void bad_lanes(uint64_t init, const void *base, size_t stride,
		      size_t len, size_t n, uint64_t *out)
{
	const unsigned char *b = base;
	size_t i;

	/* one lane's result lands in its neighbour's slot: buffers 4 and 5 */
	for (i = 0; i < n; i++)
		out[i] = good16(init, b + (i == 4 && n > 5 ? 5 : i) * stride, len);
}

static void first_dispatch(void *arg)
{
	(void)arg;
	crc_best(DIX_GUARD_CRC16);
}

static unsigned int count_lines(const char *s, const char *needle)
{
	unsigned int n = 0;

	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

static void test_refused(const char *what, const struct crc_impl *bad,
			 const struct crc_impl *orig, const struct crc_impl *orig_multi)
{
	const struct selftest_refusal *r;
	const char *err;
	size_t nr;
	char why[160];

	selftest_forget();
	crc_test_register(bad);
	err = capture_stderr(first_dispatch, NULL);
	ok(crc_best(DIX_GUARD_CRC16) == orig,
	   "%s: refused at rank %d, the dispatch keeps %s", what, bad->rank,
	   crc_best(DIX_GUARD_CRC16)->name);
	ok(crc_best_intervals(DIX_GUARD_CRC16) == orig_multi,
	   "%s: PI intervals keep %s", what, crc_best_intervals(DIX_GUARD_CRC16)->name);
	nr = selftest_refusals(&r);
	ok(nr == 1 && !strcmp(r[0].impl, bad->name) && !strncmp(r[0].path, "crc16", 5) &&
	   r[0].why[0], "%s: one refusal recorded: %s '%s': %s", what,
	   nr ? r[0].path : "-", nr ? r[0].impl : "-", nr ? r[0].why : "-");
	ok(count_lines(err, "warning: self-test") == 1 && strstr(err, bad->name) &&
	   strstr(err, orig->name), "%s: one warning names it and the fallback", what);
	printf("#   stderr: %s", err);
	is_int(crc_compute(DIX_GUARD_CRC16, "123456789", 9), 0xd0db,
	       "results stay right through the fallback");
	is_int(crc_force(DIX_GUARD_CRC16, bad->name), -EILSEQ,
	       "crc_force of the refused implementation: -EILSEQ");
	ok(crc_impl_selftest(bad, why, sizeof(why)) == -1 && why[0],
	   "crc_impl_selftest says why: %s", why);
}

struct race {
	const struct crc_impl *got[8];
};

static void *racer(void *arg)
{
	const struct crc_impl **got = arg;

	*got = crc_best_intervals(DIX_GUARD_CRC16);
	return NULL;
}

/* eight workers reach the first dispatch together: one test, one line */
static void race_dispatch(void *arg)
{
	struct race *rc = arg;
	pthread_t t[8];
	int i;

	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, racer, &rc->got[i]);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
}

static void test_selftest(void)
{
	const struct crc_impl *orig = (crc_force(DIX_GUARD_CRC16, NULL),
				       crc_best(DIX_GUARD_CRC16));
	const struct crc_impl *orig_multi = crc_best_intervals(DIX_GUARD_CRC16);
	struct crc_impl bad = { .name = "test-broken", .guard = DIX_GUARD_CRC16,
				.rank = 99, .desc = "deliberately wrong" };
	const struct selftest_refusal *r;
	struct race rc = { { NULL } };
	const char *err;
	char why[160];
	int i, same = 1;

	good16 = orig->update;
	is_int(selftest_refusals(&r), 0, "no real implementation was refused on this machine");
	for (i = 0; i < DIX_GUARD_NR; i++)
		ok(crc_impl_selftest(crc_best(i), why, sizeof(why)) == 0,
		   "%s: the dispatch's %s passed its self-test", crc_guard_name(i),
		   crc_best(i)->name);

	/* positive control: a right implementation at the top is taken */
	bad.update = good_copy;
	bad.name = "test-right";
	crc_test_register(&bad);
	ok(crc_best(DIX_GUARD_CRC16) == &bad && !selftest_refusals(&r),
	   "a right implementation at rank 99 passes and is dispatched");

	bad.name = "test-broken";
	bad.update = bad_length;
	test_refused("wrong at 513 bytes", &bad, orig, orig_multi);
	bad.update = bad_align;
	test_refused("wrong at odd addresses", &bad, orig, orig_multi);
	bad.update = bad_chain;
	test_refused("drops the state of a split", &bad, orig, orig_multi);

	/* a right single update with a wrong many-buffer variant */
	bad.update = good_copy;
	bad.multi = bad_lanes;
	selftest_forget();
	crc_test_register(&bad);
	err = capture_stderr(race_dispatch, &rc);
	for (i = 0; i < 8; i++)
		same &= rc.got[i] == orig_multi;
	ok(same, "lanes swapped: eight racing workers all get %s for intervals",
	   orig_multi->name);
	ok(selftest_refusals(&r) == 1 && strstr(r[0].why, "many-buffer"),
	   "lanes swapped: refused once: %s", selftest_refusals(&r) ? r[0].why : "-");
	is_int(count_lines(err, "warning: self-test"), 1, "lanes swapped: one warning line");
	printf("#   stderr: %s", err);

	/* one neither the table nor the hook holds: tested, not remembered */
	{
		struct crc_impl other = bad;

		other.multi = NULL;
		other.update = bad_length;
		ok(crc_impl_selftest(&other, why, sizeof(why)) == -1 && strstr(why, "513"),
		   "an implementation outside the table is tested too: %s", why);
	}

	crc_test_register(NULL);
	selftest_forget();
	ok(crc_best(DIX_GUARD_CRC16) == orig && crc_best_intervals(DIX_GUARD_CRC16) == orig_multi,
	   "dispatch back to %s / %s", orig->name, orig_multi->name);
}

int main(void)
{
	size_t n, i, len = (1 << 20) + 64;
	struct timespec t0, t1;
	const struct crc_impl *t;
	unsigned char *buf = malloc(len);

	if (!buf)
		return 99;
	/* the cost crc-selftest.c states: a process's first dispatch */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	crc_best(DIX_GUARD_CRC16);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# selftest: first dispatch, four guards' self-tests: %.0f us\n",
	       (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3);
	t = crc_impls(&n);
	rnd_fill(&rnd_state, buf, len);

	test_references();
	for (i = 0; i < n; i++) {
		if (!crc_impl_ok(&t[i])) {
			skip_cpu("%s/%s: this CPU lacks the instructions",
			   crc_guard_name(t[i].guard), t[i].name);
			continue;
		}
		test_known_answers(&t[i]);
		test_random(&t[i], buf);
		test_chaining(&t[i], buf);
		test_many(&t[i], buf);
	}
	test_cross(t, n, buf, len);
	test_dispatch(t, n);
	test_selftest();
	test_names();
	free(buf);
	return tap_done();
}
