// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-pi.c - protection information tuples: byte layouts, generation and
 * verification for every guard x type x interval x placement, reference tag
 * rules, escapes, check masks, injected corruption found as the right kind
 * at the right LBA with the right values, and the failure message.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pi/pi.h"
#include "rnd.h"
#include "tap.h"

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

/* The portable table implementation, so expected guards do not come from
 * the dispatch that pi.c itself uses. */
static const struct crc_impl *portable(enum dix_guard g)
{
	size_t n, i;
	const struct crc_impl *t = crc_impls(&n);

	for (i = 0; i < n; i++)
		if (t[i].guard == g && (!strcmp(t[i].name, "byte") ||
					!strcmp(t[i].name, "portable")))
			return &t[i];
	return NULL;
}

static uint64_t ref_mask(enum dix_guard g)
{
	unsigned int b = pi_ref_bits(g);

	return b >= 64 ? ~0ull : (1ull << b) - 1;
}

/* ---- byte layouts ---- */

static void test_layouts(void)
{
	static const unsigned char want8[8] = { 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81 };
	unsigned char want16[16], buf[16];
	struct pi_tuple t = { 0 }, u;
	int i;

	for (i = 0; i < 16; i++)
		want16[i] = i + 1;

	t.guard = 0x1a2b;
	t.app = 0x3c4d;
	t.ref = 0x5e6f7081;
	pi_tuple_pack(DIX_GUARD_CRC16, &t, buf);
	ok(!memcmp(buf, want8, 8), "8-byte tuple: be16 guard, be16 app, be32 ref");
	pi_tuple_unpack(DIX_GUARD_IP, buf, &u);
	ok(u.guard == 0x1a2b && u.app == 0x3c4d && u.ref == 0x5e6f7081 && !u.ref_hi,
	   "8-byte tuple decodes back");

	memset(&t, 0, sizeof(t));
	t.guard = 0x0102030405060708ull;
	t.app = 0x090a;
	t.ref = 0x0b0c0d0e0f10ull;
	pi_tuple_pack(DIX_GUARD_CRC64, &t, buf);
	ok(!memcmp(buf, want16, 16), "64b-guard tuple: be64 guard, be16 app, be48 ref");
	pi_tuple_unpack(DIX_GUARD_CRC64, buf, &u);
	ok(u.guard == t.guard && u.app == t.app && u.ref == t.ref, "64b-guard tuple decodes back");

	memset(&t, 0, sizeof(t));
	t.guard = 0x01020304;
	t.app = 0x0506;
	t.ref_hi = 0x0708;
	t.ref = 0x090a0b0c0d0e0f10ull;
	pi_tuple_pack(DIX_GUARD_CRC32C, &t, buf);
	ok(!memcmp(buf, want16, 16), "32b-guard tuple: be32 guard, be16 app, be80 storage+ref");
	pi_tuple_unpack(DIX_GUARD_CRC32C, buf, &u);
	ok(u.guard == t.guard && u.app == t.app && u.ref == t.ref && u.ref_hi == 0x0708,
	   "32b-guard tuple decodes back");

	is_int(pi_tuple_size(DIX_GUARD_CRC16), 8, "crc16 tuple is 8 bytes");
	is_int(pi_tuple_size(DIX_GUARD_IP), 8, "ip tuple is 8 bytes");
	is_int(pi_tuple_size(DIX_GUARD_CRC32C), 16, "crc32c tuple is 16 bytes");
	is_int(pi_tuple_size(DIX_GUARD_CRC64), 16, "crc64 tuple is 16 bytes");
}

/* ---- the matrix ---- */

#define NR 8

static const char *kind_name(int e)
{
	return e == DIX_ERR_GUARD ? "guard" : e == DIX_ERR_APP ? "app" : "ref";
}

struct bufs {
	unsigned char *data, *meta;
	size_t dlen, mlen;
};

static void bufs_alloc(struct bufs *b, const struct pi_format *f)
{
	b->dlen = pi_data_len(f, NR);
	b->mlen = pi_meta_len(f, NR);
	b->data = malloc(b->dlen);
	b->meta = b->mlen ? malloc(b->mlen) : NULL;
	rnd_fill(&rnd_state, b->data, b->dlen);
	if (b->meta)
		memset(b->meta, 0x5a, b->mlen);
	if (f->interleaved) {
		size_t i;

		for (i = 0; i < NR; i++)
			memset(b->data + i * (f->interval + f->ms) + f->interval, 0x5a, f->ms);
	}
}

static unsigned char *meta_of(const struct pi_format *f, struct bufs *b, size_t i)
{
	if (f->interleaved)
		return b->data + i * (f->interval + f->ms) + f->interval;
	return b->meta + i * f->ms;
}

static unsigned char *data_of(const struct pi_format *f, struct bufs *b, size_t i)
{
	return b->data + i * (f->interval + (f->interleaved ? f->ms : 0));
}

/* Expected guard computed the slow, obvious way: concatenate what it covers. */
static uint64_t expect_guard(const struct pi_format *f, struct bufs *b, size_t i)
{
	const struct crc_impl *c = portable(f->guard);
	size_t tsz = pi_tuple_size(f->guard), pre = f->pi_first ? 0 : f->ms - tsz;
	unsigned char *tmp = malloc(f->interval + pre);
	uint64_t g;

	memcpy(tmp, data_of(f, b, i), f->interval);
	memcpy(tmp + f->interval, meta_of(f, b, i), pre);
	g = crc_final(f->guard, c->update(crc_init(f->guard), tmp, f->interval + pre));
	free(tmp);
	return g;
}

static int same_fail(const struct pi_fail *a, const struct pi_fail *b)
{
	return a->kind == b->kind && a->index == b->index && a->lba == b->lba &&
	       a->expected == b->expected && a->found == b->found &&
	       a->expected_hi == b->expected_hi && a->found_hi == b->found_hi &&
	       a->bits == b->bits;
}

static void test_one(const struct pi_format *f)
{
	char name[96];
	struct bufs b;
	struct pi_io io;
	struct pi_fail fl, what;
	struct pi_tuple t;
	size_t tsz = pi_tuple_size(f->guard), i, j;
	uint64_t lba = 0x10000000ull + (rnd_next(&rnd_state) & 0xffffff);
	unsigned int bad_tuple = 0, bad_other = 0;
	long r;
	int e;

	pi_format_describe(f, name, sizeof(name));
	bufs_alloc(&b, f);
	pi_io_init(&io, f, lba);
	io.app = 0x1234;
	if (f->type == PI_TYPE2)
		io.ref = 0xabc00000ull + (rnd_next(&rnd_state) & 0xfff);	/* not the LBA */

	is_int(pi_generate(f, b.data, b.meta, NR, &io), 0, "generate");
	for (i = 0; i < NR; i++) {
		uint64_t want_ref = f->type == PI_TYPE3 ? io.ref : (io.ref + i) & ref_mask(f->guard);
		unsigned char *m = meta_of(f, &b, i);
		size_t toff = f->pi_first ? 0 : f->ms - tsz;

		pi_tuple_unpack(f->guard, m + toff, &t);
		if (t.guard != expect_guard(f, &b, i) || t.app != 0x1234 ||
		    t.ref != want_ref || t.ref_hi)
			bad_tuple++;
		for (j = 0; j < f->ms; j++)
			if ((j < toff || j >= toff + tsz) && m[j] != 0x5a)
				bad_other++;
	}
	ok(!bad_tuple && !bad_other,
	   "%s: tuples hold the guard, app and ref the rules say; other metadata untouched", name);
	is_int(pi_verify(f, b.data, b.meta, NR, &io, &fl), 0, "  verify finds no failure");

	/* every injected kind is found as that kind, with the right values */
	for (e = DIX_ERR_GUARD; e <= DIX_ERR_REF; e++) {
		int rc = pi_corrupt(f, b.data, b.meta, NR, 3, e, &io, &what);

		if (e == DIX_ERR_REF && f->type == PI_TYPE3) {
			is_int(rc, -EOPNOTSUPP, "  type 3: ref corruption refused (never checked)");
			continue;
		}
		memset(&fl, 0, sizeof(fl));
		r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
		if (!ok(rc == 0 && r == 1 && fl.kind == (enum dix_errkind)e &&
			fl.index == 3 && fl.lba == lba + 3 && same_fail(&fl, &what),
			"  injected %s at interval 3 caught as %s, LBA %llu",
			kind_name(e), kind_name(e),
			(unsigned long long)(lba + 3)))
			printf("#   rc %d r %ld kind %d index %zu lba %llu exp 0x%llx found 0x%llx\n",
			       rc, r, fl.kind, fl.index, (unsigned long long)fl.lba,
			       (unsigned long long)fl.expected, (unsigned long long)fl.found);
		pi_generate(f, b.data, b.meta, NR, &io);
	}

	/*
	 * Each interval checked on its own (what the job does to name every
	 * failing interval, not only the first): the LBA and the reference
	 * tag of interval i (pi_ref_expected) make it agree with the
	 * whole-buffer check.
	 */
	if (!pi_corrupt(f, b.data, b.meta, NR, 2, DIX_ERR_GUARD, &io, NULL) &&
	    !pi_corrupt(f, b.data, b.meta, NR, 6, DIX_ERR_APP, &io, NULL)) {
		unsigned int wrong = 0, failed = 0;

		for (i = 0; i < NR; i++) {
			struct pi_io one = io;

			one.lba = io.lba + i;
			one.ref = pi_ref_expected(f, &io, i);
			memset(&fl, 0, sizeof(fl));
			r = pi_verify(f, data_of(f, &b, i), meta_of(f, &b, i),
				      1, &one, &fl);
			if (r > 0)
				failed |= 1u << i;
			if (r > 0 && fl.lba != lba + i)
				wrong++;
			if ((i == 2 && fl.kind != DIX_ERR_GUARD) ||
			    (i == 6 && fl.kind != DIX_ERR_APP))
				wrong++;
		}
		ok(failed == ((1u << 2) | (1u << 6)) && !wrong,
		   "  intervals checked one by one: exactly 2 (guard) and 6 (app) fail, at their LBAs (mask 0x%x)",
		   failed);
	} else {
		ok(0, "  corrupting intervals 2 and 6");
	}
	pi_generate(f, b.data, b.meta, NR, &io);

	/* changed data: a guard failure whose "found" is the stored guard */
	pi_tuple_unpack(f->guard, pi_tuple_ptr(f, b.data, b.meta, 5), &t);
	data_of(f, &b, 5)[100] ^= 0x40;
	r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
	ok(r == 1 && fl.kind == DIX_ERR_GUARD && fl.index == 5 && fl.found == t.guard &&
	   fl.expected == expect_guard(f, &b, 5),
	   "  a flipped data bit is a guard mismatch at interval 5");

	/* escape on the damaged interval */
	t.app = PI_APP_ESCAPE;
	pi_tuple_pack(f->guard, &t, pi_tuple_ptr(f, b.data, b.meta, 5));
	r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
	if (f->type == PI_TYPE3) {
		ok(r == 1 && fl.kind == DIX_ERR_GUARD,
		   "  type 3: app 0xffff alone does not escape");
		t.ref = ref_mask(f->guard);
		t.ref_hi = f->guard == DIX_GUARD_CRC32C ? 0xffff : 0;
		pi_tuple_pack(f->guard, &t, pi_tuple_ptr(f, b.data, b.meta, 5));
		is_int(pi_verify(f, b.data, b.meta, NR, &io, &fl), 0,
		       "  type 3: app 0xffff + all-ones ref escapes");
	} else {
		is_int(r, 0, "  app tag 0xffff escapes all checks");
	}
	data_of(f, &b, 5)[100] ^= 0x40;
	pi_generate(f, b.data, b.meta, NR, &io);

	/* guard coverage of metadata in front of / behind the tuple */
	if (f->ms > tsz) {
		unsigned char *m = meta_of(f, &b, 6);

		if (f->pi_first) {
			m[f->ms - 1] ^= 1;
			is_int(pi_verify(f, b.data, b.meta, NR, &io, &fl), 0,
			       "  PI first: metadata after the tuple is not guarded");
			m[f->ms - 1] ^= 1;
		} else {
			m[0] ^= 1;
			r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
			ok(r == 1 && fl.kind == DIX_ERR_GUARD && fl.index == 6,
			   "  PI last: metadata before the tuple is guarded");
			m[0] ^= 1;
		}
	}

	/* a different expected seed: ref mismatch from interval 0 on (not Type 3) */
	io.ref += 1;
	r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
	if (f->type == PI_TYPE3)
		is_int(r, 0, "  type 3: ref tag not checked");
	else
		ok(r == NR && fl.kind == DIX_ERR_REF && fl.index == 0 &&
		   fl.expected == (io.ref & ref_mask(f->guard)) &&
		   fl.found == ((io.ref - 1) & ref_mask(f->guard)),
		   "  wrong initial ref: %d ref mismatches, first at interval 0", NR);
	io.checks = PI_CHECK_GUARD | PI_CHECK_APP;
	is_int(pi_verify(f, b.data, b.meta, NR, &io, &fl), 0,
	       "  ...and none with the ref check off");
	io.ref -= 1;
	io.checks = PI_CHECK_ALL;

	/* app tag mask */
	io.app = 0x12ff;
	io.app_mask = 0xff00;
	is_int(pi_verify(f, b.data, b.meta, NR, &io, &fl), 0,
	       "  app mask 0xff00 ignores the low byte");
	io.app_mask = 0xffff;
	r = pi_verify(f, b.data, b.meta, NR, &io, &fl);
	ok(r == NR && fl.kind == DIX_ERR_APP && fl.expected == 0x12ff && fl.found == 0x1234,
	   "  full app mask: app mismatch expected 0x12ff found 0x1234");

	free(b.data);
	free(b.meta);
}

static void test_matrix(void)
{
	static const uint32_t intervals[] = { 512, 4096 };
	int g, type, iv, first, inter, extra;

	for (g = 0; g < DIX_GUARD_NR; g++)
		for (type = 1; type <= 3; type++)
			for (iv = 0; iv < 2; iv++)
				for (inter = 0; inter < 2; inter++)
					for (first = 0; first < 2; first++)
						for (extra = 0; extra <= 8; extra += 8) {
							struct pi_format f = {
								.guard = g,
								.type = type,
								.interval = intervals[iv],
								.ms = pi_tuple_size(g) + extra,
								.pi_first = first,
								.interleaved = inter,
							};

							if (extra == 0 && first)
								continue;	/* same as last */
							test_one(&f);
						}
}

/* ---- ref tag arithmetic ---- */

static void test_ref_rules(void)
{
	struct pi_format f = { DIX_GUARD_CRC16, PI_TYPE1, 512, 8, false, false };
	struct pi_io io;

	pi_io_init(&io, &f, 0x100000005ull);
	is_int(io.ref, 5, "type 1, 8-byte tuple: ref = low 32 bits of the LBA");
	pi_io_init(&io, &f, 0xfffffffeull);
	is_int(pi_ref_expected(&f, &io, 1), 0xffffffffull, "ref increments per interval");
	is_int(pi_ref_expected(&f, &io, 2), 0, "32-bit ref wraps to 0");
	f.guard = DIX_GUARD_CRC64;
	f.ms = 16;
	pi_io_init(&io, &f, 0x123456789abcdef0ull);
	is_int(io.ref, 0x56789abcdef0ull, "64b guard: ref = low 48 bits of the LBA");
	f.guard = DIX_GUARD_CRC32C;
	pi_io_init(&io, &f, 0x123456789abcdef0ull);
	is_int(io.ref, 0x123456789abcdef0ull, "32b guard: the whole LBA fits the 80-bit ref");
	f.type = PI_TYPE3;
	pi_io_init(&io, &f, 77);
	is_int(pi_ref_expected(&f, &io, 5), 77, "type 3: ref constant across intervals");
}

/* ---- every CRC implementation interoperates through PI ---- */

static void test_impls_interoperate(void)
{
	size_t n, i;
	const struct crc_impl *t = crc_impls(&n);

	for (i = 0; i < n; i++) {
		struct pi_format f = { t[i].guard, PI_TYPE1, 4096, 0, false, true };
		const struct crc_impl *orig = crc_best(t[i].guard);
		struct pi_io io;
		unsigned char *buf;
		long r;

		if (!crc_impl_ok(&t[i]))
			continue;
		f.ms = pi_tuple_size(f.guard) + 8;
		buf = malloc(pi_data_len(&f, 4));
		rnd_fill(&rnd_state, buf, pi_data_len(&f, 4));
		pi_io_init(&io, &f, 42);
		crc_force(t[i].guard, t[i].name);
		pi_generate(&f, buf, NULL, 4, &io);
		crc_force(t[i].guard, portable(t[i].guard)->name);
		r = pi_verify(&f, buf, NULL, 4, &io, NULL);
		crc_force(t[i].guard, orig->name);
		ok(r == 0, "PI generated with %s/%s verifies with the portable code",
		   crc_guard_name(t[i].guard), t[i].name);
		free(buf);
	}
}

/* ---- messages, parsing, arguments ---- */

static void test_messages(void)
{
	struct pi_fail fl = { DIX_ERR_GUARD, 0, 123456, 0x1a2b, 0x0000, 0, 0, 16 };
	char buf[160];

	pi_fail_format(&fl, "sda", buf, sizeof(buf));
	is_str(buf, "sda: guard mismatch at LBA 123456: expected 0x1a2b, found 0x0000",
	       "guard failure message");
	fl.kind = DIX_ERR_REF;
	fl.bits = 48;
	fl.expected = 0x1000;
	fl.found = 0xfff;
	pi_fail_format(&fl, "nvme0n1", buf, sizeof(buf));
	is_str(buf, "nvme0n1: ref tag mismatch at LBA 123456: expected 0x000000001000, found 0x000000000fff",
	       "48-bit ref failure message");
	fl.bits = 80;
	fl.found_hi = 0x0001;
	pi_fail_format(&fl, NULL, buf, sizeof(buf));
	is_str(buf, "ref tag mismatch at LBA 123456: expected 0x00000000000000001000, found 0x00010000000000000fff",
	       "80-bit ref failure message, no device");
	fl.kind = DIX_ERR_APP;
	fl.bits = 16;
	fl.expected = 0xbeef;
	fl.found = 0xffff;
	fl.found_hi = 0;
	pi_fail_format(&fl, "sdb", buf, sizeof(buf));
	is_str(buf, "sdb: app tag mismatch at LBA 123456: expected 0xbeef, found 0xffff",
	       "app failure message");
}

static void test_parse(void)
{
	struct pi_format f;
	char d[96];

	is_int(pi_format_parse("crc16", &f), 0, "parse crc16");
	pi_format_describe(&f, d, sizeof(d));
	is_str(d, "crc16 type1 512+8 last separate", "defaults");
	is_int(pi_format_parse("crc64,type3,4096,ms=64,first,extended", &f), 0, "parse full");
	pi_format_describe(&f, d, sizeof(d));
	is_str(d, "crc64 type3 4096+64 first interleaved", "full description");
	is_int(pi_format_parse("crc32c,type=2,interval=8192", &f), 0, "parse type= interval=");
	ok(f.type == PI_TYPE2 && f.interval == 8192 && f.ms == 16, "  type 2, 8192, ms 16");
	is_int(pi_format_parse("crc16,1000", &f), -EINVAL, "interval 1000 rejected");
	is_int(pi_format_parse("crc16,256", &f), -EINVAL, "interval 256 rejected");
	is_int(pi_format_parse("crc64,ms=8", &f), -EINVAL, "ms smaller than the tuple rejected");
	is_int(pi_format_parse("crc16,type4", &f), -EINVAL, "type 4 rejected");
	is_int(pi_format_parse("crc16,bogus", &f), -EINVAL, "unknown token rejected");
}

static void test_args(void)
{
	struct pi_format f = { DIX_GUARD_CRC16, PI_TYPE1, 512, 8, false, false };
	unsigned char data[1024], meta[16];
	struct pi_io io;

	pi_io_init(&io, &f, 0);
	rnd_fill(&rnd_state, data, sizeof(data));
	is_int(pi_generate(&f, data, NULL, 2, &io), -EINVAL, "separate layout needs a metadata buffer");
	is_int(pi_verify(&f, data, NULL, 2, &io, NULL), -EINVAL, "...for verify too");
	is_int(pi_generate(&f, data, meta, 2, &io), 0, "generate 2 intervals");
	is_int(pi_corrupt(&f, data, meta, 2, 2, DIX_ERR_GUARD, &io, NULL), -EINVAL,
	       "corrupt past the end: -EINVAL");
	is_int(pi_corrupt(&f, data, meta, 2, 0, DIX_ERR_IO, &io, NULL), -EINVAL,
	       "corrupt of a non-PI kind: -EINVAL");
	io.checks = PI_CHECK_REF | PI_CHECK_APP;
	is_int(pi_corrupt(&f, data, meta, 2, 0, DIX_ERR_GUARD, &io, NULL), -EOPNOTSUPP,
	       "guard corruption refused when the guard is not checked");
	io.checks = PI_CHECK_ALL;
	io.app_mask = 0;
	is_int(pi_corrupt(&f, data, meta, 2, 0, DIX_ERR_APP, &io, NULL), -EOPNOTSUPP,
	       "app corruption refused when every app bit is masked");
	io.app_mask = 0xffff;
	is_int(pi_verify(&f, data, meta, 2, &io, NULL), 0, "refused corruptions left the buffer intact");

	/* app 0xfffe: flipping bit 0 would make the 0xffff escape */
	io.app = 0xfffe;
	pi_generate(&f, data, meta, 2, &io);
	{
		struct pi_fail what, fl;

		is_int(pi_corrupt(&f, data, meta, 2, 1, DIX_ERR_APP, &io, &what), 0,
		       "corrupt app 0xfffe");
		ok(what.found != 0xffff && pi_verify(&f, data, meta, 2, &io, &fl) == 1 &&
		   fl.kind == DIX_ERR_APP, "  without creating the escape (found 0x%llx)",
		   (unsigned long long)what.found);
	}
	/* two bad intervals: the count, and the first one reported */
	pi_generate(&f, data, meta, 2, &io);
	data[10] ^= 1;
	data[600] ^= 1;
	{
		struct pi_fail fl;

		ok(pi_verify(&f, data, meta, 2, &io, &fl) == 2 && fl.index == 0,
		   "two bad intervals counted, the first reported");
	}
}

/* Buffers longer than the internal batch: failures and escapes anywhere. */
static void test_long_buffer(void)
{
	struct pi_format f = { DIX_GUARD_CRC64, PI_TYPE1, 512, 16, false, false };
	size_t nr = 100;
	unsigned char *data = malloc(nr * 512), *meta = malloc(nr * 16);
	struct pi_tuple t;
	struct pi_fail fl, what;
	struct pi_io io;

	rnd_fill(&rnd_state, data, nr * 512);
	pi_io_init(&io, &f, 5000);
	pi_generate(&f, data, meta, nr, &io);
	is_int(pi_verify(&f, data, meta, nr, &io, &fl), 0, "100 intervals verify clean");
	/* interval 50: escaped, and garbage in everything it guards */
	pi_tuple_unpack(f.guard, meta + 50 * 16, &t);
	t.app = PI_APP_ESCAPE;
	t.ref = 12345;
	pi_tuple_pack(f.guard, &t, meta + 50 * 16);
	data[50 * 512 + 7] ^= 0xff;
	is_int(pi_verify(&f, data, meta, nr, &io, &fl), 0, "an escaped interval in the middle is skipped");
	pi_corrupt(&f, data, meta, nr, 70, DIX_ERR_REF, &io, NULL);
	pi_corrupt(&f, data, meta, nr, 40, DIX_ERR_APP, &io, &what);
	ok(pi_verify(&f, data, meta, nr, &io, &fl) == 2 && fl.kind == DIX_ERR_APP &&
	   fl.index == 40 && fl.lba == 5040 && fl.found == what.found,
	   "failures at 40 (app) and 70 (ref): 2 counted, 40 reported first");
	io.checks = PI_CHECK_GUARD;
	is_int(pi_verify(&f, data, meta, nr, &io, &fl), 0, "guard-only check ignores both");
	io.checks = PI_CHECK_ALL;
	data[99 * 512] ^= 1;
	ok(pi_verify(&f, data, meta, nr, &io, &fl) == 3 && fl.index == 40,
	   "a guard failure in the last interval is counted too");
	free(data);
	free(meta);
}

/*
 * The separate <-> interleaved conversion the sg and nvme engines use: PI
 * generated in the separate layout verifies in the interleaved one after
 * pi_interleave(), and pi_deinterleave() gives back the same bytes.
 */
static void test_interleave(void)
{
	struct pi_format sep = { DIX_GUARD_CRC64, PI_TYPE1, 512, 24, true, false };
	struct pi_format ilv = sep;
	size_t nr = 5;
	unsigned char *data = malloc(nr * 512), *meta = malloc(nr * 24);
	unsigned char *buf = malloc(nr * (512 + 24));
	unsigned char *d2 = calloc(nr, 512), *m2 = calloc(nr, 24);
	struct pi_io io;

	ilv.interleaved = true;
	rnd_fill(&rnd_state, data, nr * 512);
	rnd_fill(&rnd_state, meta, nr * 24);
	pi_io_init(&io, &sep, 900);
	pi_generate(&sep, data, meta, nr, &io);
	pi_interleave(buf, data, meta, 512, 24, nr);
	is_int(pi_verify(&ilv, buf, NULL, nr, &io, NULL), 0,
	       "separate PI interleaved verifies as interleaved");
	ok(!memcmp(buf + 3 * 536, data + 3 * 512, 512) &&
	   !memcmp(buf + 3 * 536 + 512, meta + 3 * 24, 24),
	   "  interval 3: its data, then its metadata");
	pi_deinterleave(buf, d2, m2, 512, 24, nr);
	ok(!memcmp(d2, data, nr * 512) && !memcmp(m2, meta, nr * 24),
	   "deinterleave gives back data and metadata");
	memset(d2, 0, nr * 512);
	pi_deinterleave(buf, d2, NULL, 512, 24, nr);
	ok(!memcmp(d2, data, nr * 512), "deinterleave without metadata: the data");
	free(data);
	free(meta);
	free(buf);
	free(d2);
	free(m2);
}

int main(void)
{
	test_layouts();
	test_matrix();
	test_ref_rules();
	test_impls_interoperate();
	test_messages();
	test_parse();
	test_args();
	test_long_buffer();
	test_interleave();
	return tap_done();
}
