// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-selftest.c - the self-tests of the verify builds (src/verify/
 * vselftest.c), proven by the damage they must catch: a deliberately wrong
 * build is put in front of the dispatch, which must refuse it, say so once
 * naming it, use the portable build, and give the right results.  The
 * guards' self-test has the same proof in test-crc.c.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pi/selftest.h"
#include "verify/fmt3.h"
#include "verify/pattern.h"
#include "verify/pool.h"
#include "verify/verify.h"
#include "verify/vhash.h"
#include "capture.h"
#include "tap.h"

static unsigned int count(const char *s, const char *needle)
{
	unsigned int n = 0;

	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* the one refusal recorded, and one warning line naming @impl and @fallback */
static void refused_once(const char *what, const char *err, const char *path,
			 const char *impl, const char *fallback)
{
	const struct selftest_refusal *r;
	size_t n = selftest_refusals(&r);

	ok(n == 1 && !strcmp(r[0].path, path) && !strcmp(r[0].impl, impl) &&
	   !strcmp(r[0].fallback, fallback) && r[0].why[0],
	   "%s: refused once: %s '%s' -> '%s': %s", what, n ? r[0].path : "-",
	   n ? r[0].impl : "-", n ? r[0].fallback : "-", n ? r[0].why : "-");
	ok(count(err, "warning: self-test") == 1 && strstr(err, impl) &&
	   strstr(err, fallback), "%s: one warning line names it and '%s'", what, fallback);
	printf("#   stderr: %s", err);
	selftest_forget();
}

/* ---- DIXLOAD3 ---- */

static unsigned int bad_calls;	/* calls into a wrong build after its refusal */

static void fill_wrong_4k(void *buf, uint32_t len, uint32_t bsize, uint64_t offset,
			  uint64_t seed, uint32_t seq, const unsigned char *pool)
{
	bad_calls++;
	fmt3_generic.fill(buf, len, bsize, offset, seed, seq, pool);
	if (bsize == 4096 && len >= 8192)	/* one body byte, 4 KiB blocks only */
		((unsigned char *)buf)[4096 + 100] ^= 1;
}

static uint32_t run_misses_last(const void *buf, uint32_t n, uint32_t bsize,
				uint64_t offset)
{
	uint32_t r = fmt3_generic.run(buf, n, bsize, offset);

	bad_calls++;
	/* a loop bound off by one: damage in the last block goes unseen */
	return r == n - 1 && n > 1 ? n : r;
}

static void fill_io(void *arg)
{
	unsigned char *buf = arg;

	verify_fill(buf, 16384, 4096, 1 << 20, 77, 3);
}

struct racer_arg {
	unsigned char *buf;
	uint32_t got;
};

static void *racer(void *arg)
{
	struct racer_arg *a = arg;

	a->got = verify_run(a->buf, 8192, 512, 0);
	return NULL;
}

/* eight workers reach the first check together, block 11 damaged */
static void race(void *arg)
{
	struct racer_arg *a = arg;
	pthread_t t[8];
	int i;

	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, racer, &a[i]);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
}

static void test_fmt3(void)
{
	static const struct fmt3_impl wrong_fill = {
		.name = "test-wrong-fill", .run = NULL, .fill = fill_wrong_4k,
	};
	static const struct fmt3_impl misses_last = {
		.name = "test-misses-last", .run = run_misses_last, .fill = NULL,
	};
	struct fmt3_impl wf = wrong_fill, ml = misses_last;
	unsigned char *want = malloc(16384), *got = malloc(16384), *rd = malloc(8192);
	struct racer_arg ra[8];
	const char *err;
	char why[192];
	double t0;
	int i, same = 1;

	/* the real builds pass; the first fill and check are timed */
	t0 = now_us();
	pool_get(77);		/* what the write builds anyway */
	printf("# selftest: the pool of the write's seed: %.0f us\n", now_us() - t0);
	t0 = now_us();
	verify_fill(want, 16384, 4096, 1 << 20, 77, 3);
	printf("# selftest: first DIXLOAD3 fill, self-test included: %.0f us\n",
	       now_us() - t0);
	ok(fmt3_selftest(&fmt3_generic, 77, why, sizeof(why)) == 0,
	   "DIXLOAD3: the portable build passes its self-test");
	if (fmt3_avx2())
		ok(fmt3_selftest(fmt3_avx2(), 77, why, sizeof(why)) == 0,
		   "DIXLOAD3: the AVX2 build passes its self-test on this machine");

	/* a wrong fill: refused, and the write still has the format's bytes */
	wf.run = fmt3_generic.run;
	fmt3_test_candidate(&wf);
	err = capture_stderr(fill_io, got);
	ok(!memcmp(got, want, 16384), "wrong fill: the write is the portable build's");
	refused_once("wrong fill", err, "DIXLOAD3 check and fill", wf.name, "generic");
	bad_calls = 0;
	fill_io(got);
	is_int(bad_calls, 0, "wrong fill: never called again");

	/* a check that misses the last block: refused, the damage is found */
	ml.fill = fmt3_generic.fill;
	verify_fill(rd, 8192, 512, 0, 78, 4);	/* before: a fill would choose */
	rd[11 * 512 + 200] ^= 0x40;
	fmt3_test_candidate(&ml);
	for (i = 0; i < 8; i++)
		ra[i] = (struct racer_arg){ .buf = rd };
	bad_calls = 0;
	err = capture_stderr(race, ra);
	for (i = 0; i < 8; i++)
		same &= ra[i].got == 11 * 512;
	ok(same, "misses the last block: eight racing workers all stop at block 11");
	refused_once("misses the last block", err, "DIXLOAD3 check and fill", ml.name,
		     "generic");
	rd[11 * 512 + 200] ^= 0x40;
	rd[15 * 512 + 511] ^= 0x40;	/* the last block: what it would miss */
	bad_calls = 0;
	is_int(verify_run(rd, 8192, 512, 0), 15 * 512,
	       "misses the last block: damage in the last block is found");

	fmt3_test_candidate(NULL);
	verify_run(rd, 8192, 512, 0);
	is_int(selftest_refusals(&(const struct selftest_refusal *){ NULL }), 0,
	       "DIXLOAD3: the real build is taken again, not refused");
	free(want);
	free(got);
	free(rd);
}

/* ---- the DIXLOAD2 pattern ---- */

static void groups_stuck_state(unsigned char *p, uint32_t n, uint64_t s[4])
{
	uint64_t keep[4];

	memcpy(keep, s, sizeof(keep));
	pattern_groups_generic(p, n, s);
	if (n > 16)	/* the states not handed back past 16 groups */
		memcpy(s, keep, sizeof(keep));
}

static void pick_groups(void *arg)
{
	*(pattern_groups_fn *)arg = pattern_groups_pick();
}

static void test_pattern(void)
{
	pattern_groups_fn got = NULL;
	const char *err;
	char why[192];
	double t0;

	t0 = now_us();
	got = pattern_groups_pick();
	printf("# selftest: first pattern dispatch, self-test included: %.0f us\n",
	       now_us() - t0);
	ok(got == (pattern_groups_avx2() ? pattern_groups_avx2() : pattern_groups_generic),
	   "pattern: the CPU's build is dispatched");
	ok(!pattern_groups_selftest(pattern_groups_generic, why, sizeof(why)),
	   "pattern: the portable build passes its self-test");

	pattern_groups_test_candidate(groups_stuck_state, "test-stuck-state");
	err = capture_stderr(pick_groups, &got);
	ok(got == pattern_groups_generic, "stuck states: the portable build is used");
	refused_once("stuck states", err, "DIXLOAD2 pattern", "test-stuck-state", "generic");
	pattern_groups_test_candidate(NULL, NULL);
}

/* ---- DIXLOAD2 checksum ---- */

#ifdef HAVE_XXHASH
static uint64_t block_wrong_1k(const void *blk, uint32_t bsize)
{
	return vhash_generic.block(blk, bsize) ^ (bsize == 1024);
}

static void check2(void *arg)
{
	unsigned char *buf = arg;

	*(uint32_t *)(buf + 4096) = verify_run(buf, 4096, 1024, 8192);
}

static void test_vhash(void)
{
	struct vhash_impl bad = { .name = "test-wrong-1k", .block = block_wrong_1k,
				  .run = NULL };
	unsigned char *buf = malloc(4096 + 4);
	const char *err;
	char why[192];
	double t0;

	bad.run = vhash_generic.run;
	ok(!vhash_selftest(&vhash_generic, why, sizeof(why)),
	   "DIXLOAD2: the portable build passes its self-test");
	if (vhash_avx2())
		ok(!vhash_selftest(vhash_avx2(), why, sizeof(why)),
		   "DIXLOAD2: the AVX2 build passes its self-test on this machine");
	t0 = now_us();
	verify_fill_format(buf, 4096, 1024, 8192, 5, 9, DIX_HDR_MAGIC2);
	printf("# selftest: first DIXLOAD2 write, self-test included: %.0f us\n",
	       now_us() - t0);
	vhash_test_candidate(&bad);
	err = capture_stderr(check2, buf);
	is_int(*(uint32_t *)(buf + 4096), 4096,
	       "XXH3 wrong at 1 KiB blocks: an intact DIXLOAD2 read still passes");
	refused_once("XXH3 wrong at 1 KiB", err, "DIXLOAD2 checksum", bad.name, "generic");
	vhash_test_candidate(NULL);
	free(buf);
}
#endif

int main(void)
{
	test_fmt3();
	test_pattern();
#ifdef HAVE_XXHASH
	test_vhash();
#endif
	return tap_done();
}
