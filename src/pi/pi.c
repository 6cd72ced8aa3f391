// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi.c - protection information tuples: generate, verify, corrupt, report.
 * The rules (layouts, ref tags, escapes, guard coverage) are documented in
 * pi.h; this file follows them.
 */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/byteorder.h"
#include "pi/pi.h"
#include "lib/util.h"

size_t pi_tuple_size(enum dix_guard g)
{
	return (g == DIX_GUARD_CRC32C || g == DIX_GUARD_CRC64) ? 16 : 8;
}

unsigned int pi_ref_bits(enum dix_guard g)
{
	switch (g) {
	case DIX_GUARD_CRC64:
		return 48;
	case DIX_GUARD_CRC32C:
		return 80;
	default:
		return 32;
	}
}

/* Mask of the low 64 bits of the reference tag field. */
static uint64_t ref_mask(enum dix_guard g)
{
	switch (pi_ref_bits(g)) {
	case 32:
		return 0xffffffffull;
	case 48:
		return 0xffffffffffffull;
	default:
		return ~0ull;
	}
}

static uint64_t guard_mask(enum dix_guard g)
{
	unsigned int b = crc_guard_bits(g);

	return b == 64 ? ~0ull : (1ull << b) - 1;
}

int pi_format_check(const struct pi_format *f)
{
	if ((unsigned int)f->guard >= DIX_GUARD_NR)
		return -EINVAL;
	if (f->type != PI_TYPE1 && f->type != PI_TYPE2 && f->type != PI_TYPE3)
		return -EINVAL;
	if (f->interval < 512 || (f->interval & (f->interval - 1)))
		return -EINVAL;
	if (f->ms < pi_tuple_size(f->guard) || f->ms > 65535)
		return -EINVAL;
	return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long n;

	if (!*s)
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 0);
	if (errno || *end || n > UINT32_MAX)
		return -EINVAL;
	*v = n;
	return 0;
}

int pi_format_parse(const char *s, struct pi_format *f)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	bool ms_given = false;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	f->guard = DIX_GUARD_CRC16;
	f->type = PI_TYPE1;
	f->interval = 512;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		enum dix_guard g;
		uint32_t v;

		if (!crc_guard_parse(tok, &g)) {
			f->guard = g;
		} else if (!strncasecmp(tok, "type", 4) && tok[4]) {
			const char *t = tok[4] == '=' ? tok + 5 : tok + 4;

			if (parse_u32(t, &v) || v < 1 || v > 3)
				ret = -EINVAL;
			else
				f->type = v;
		} else if (!strncasecmp(tok, "ms=", 3)) {
			if (parse_u32(tok + 3, &v))
				ret = -EINVAL;
			f->ms = v;
			ms_given = true;
		} else if (!strncasecmp(tok, "interval=", 9)) {
			if (parse_u32(tok + 9, &f->interval))
				ret = -EINVAL;
		} else if (!strcasecmp(tok, "first")) {
			f->pi_first = true;
		} else if (!strcasecmp(tok, "last")) {
			f->pi_first = false;
		} else if (!strcasecmp(tok, "interleaved") || !strcasecmp(tok, "extended")) {
			f->interleaved = true;
		} else if (!strcasecmp(tok, "separate")) {
			f->interleaved = false;
		} else if (!parse_u32(tok, &v)) {
			f->interval = v;
		} else {
			ret = -EINVAL;
		}
	}
	free(copy);
	if (!ms_given)
		f->ms = pi_tuple_size(f->guard);
	return ret ? ret : pi_format_check(f);
}

int pi_format_describe(const struct pi_format *f, char *buf, size_t len)
{
	return snprintf(buf, len, "%s type%d %" PRIu32 "+%" PRIu32 " %s %s",
			crc_guard_name(f->guard), (int)f->type, f->interval, f->ms,
			f->pi_first ? "first" : "last",
			f->interleaved ? "interleaved" : "separate");
}

size_t pi_data_len(const struct pi_format *f, size_t nr)
{
	return nr * (f->interval + (f->interleaved ? f->ms : 0));
}

size_t pi_meta_len(const struct pi_format *f, size_t nr)
{
	return f->interleaved ? 0 : nr * f->ms;
}

/* Offset of the tuple within an interval's metadata. */
static size_t tuple_off(const struct pi_format *f)
{
	return f->pi_first ? 0 : f->ms - pi_tuple_size(f->guard);
}

static unsigned char *meta_ptr(const struct pi_format *f, const void *data,
			       const void *meta, size_t i)
{
	if (f->interleaved)
		return (unsigned char *)data + i * (f->interval + f->ms) + f->interval;
	return (unsigned char *)meta + i * f->ms;
}

void *pi_tuple_ptr(const struct pi_format *f, void *data, void *meta, size_t i)
{
	return meta_ptr(f, data, meta, i) + tuple_off(f);
}

void pi_interleave(void *dst, const void *data, const void *meta,
		   size_t interval, size_t ms, size_t nr)
{
	unsigned char *b = dst;
	const unsigned char *d = data, *m = meta;
	size_t i;

	for (i = 0; i < nr; i++, d += interval, m += ms) {
		memcpy(b, d, interval);
		memcpy(b + interval, m, ms);
		b += interval + ms;
	}
}

void pi_deinterleave(const void *src, void *data, void *meta,
		     size_t interval, size_t ms, size_t nr)
{
	const unsigned char *b = src;
	unsigned char *d = data, *m = meta;
	size_t i;

	for (i = 0; i < nr; i++, d += interval, b += interval + ms) {
		memcpy(d, b, interval);
		if (m) {
			memcpy(m, b + interval, ms);
			m += ms;
		}
	}
}

static inline __attribute__((always_inline)) void pack(enum dix_guard g,
		const struct pi_tuple *t, unsigned char *p)
{

	switch (g) {
	case DIX_GUARD_CRC64:
		put_be64(p, t->guard);
		put_be16(p + 8, t->app);
		put_be16(p + 10, (uint16_t)(t->ref >> 32));	/* 48-bit ref */
		put_be32(p + 12, (uint32_t)t->ref);
		break;
	case DIX_GUARD_CRC32C:
		put_be32(p, (uint32_t)t->guard);
		put_be16(p + 4, t->app);
		put_be16(p + 6, t->ref_hi);			/* 80-bit ref */
		put_be64(p + 8, t->ref);
		break;
	default:
		put_be16(p, (uint16_t)t->guard);
		put_be16(p + 2, t->app);
		put_be32(p + 4, (uint32_t)t->ref);
		break;
	}
}

static inline __attribute__((always_inline)) void unpack(enum dix_guard g,
		const unsigned char *p, struct pi_tuple *t)
{

	switch (g) {
	case DIX_GUARD_CRC64:
		t->guard = get_be64(p);
		t->app = get_be16(p + 8);
		t->ref = ((uint64_t)get_be16(p + 10) << 32) | get_be32(p + 12);
		t->ref_hi = 0;
		break;
	case DIX_GUARD_CRC32C:
		t->guard = get_be32(p);
		t->app = get_be16(p + 4);
		t->ref_hi = get_be16(p + 6);
		t->ref = get_be64(p + 8);
		break;
	default:
		t->guard = get_be16(p);
		t->app = get_be16(p + 2);
		t->ref = get_be32(p + 4);
		t->ref_hi = 0;
		break;
	}
}

void pi_tuple_pack(enum dix_guard g, const struct pi_tuple *t, void *out)
{
	pack(g, t, out);
}

void pi_tuple_unpack(enum dix_guard g, const void *in, struct pi_tuple *t)
{
	unpack(g, in, t);
}

void pi_io_init(struct pi_io *io, const struct pi_format *f, uint64_t lba)
{
	io->lba = lba;
	io->ref = lba & ref_mask(f->guard);
	io->app = 0;
	io->app_mask = 0xffff;
	io->checks = PI_CHECK_ALL;
}

uint64_t pi_ref_expected(const struct pi_format *f, const struct pi_io *io, size_t i)
{
	if (f->type == PI_TYPE3)
		return io->ref & ref_mask(f->guard);
	return (io->ref + i) & ref_mask(f->guard);
}

/* Does the tuple switch off all checking of its interval? */
static bool escaped(const struct pi_format *f, const struct pi_tuple *t)
{
	if (t->app != PI_APP_ESCAPE)
		return false;
	if (f->type != PI_TYPE3)
		return true;
	if (f->guard == DIX_GUARD_CRC32C)
		return t->ref == ~0ull && t->ref_hi == 0xffff;
	return t->ref == ref_mask(f->guard);
}

static int check_args(const struct pi_format *f, const void *meta)
{
	if (pi_format_check(f))
		return -EINVAL;
	if (!f->interleaved && !meta)
		return -EINVAL;
	return 0;
}

/*
 * Walking state shared by generate and verify.  The guard of an interval
 * covers its data plus the metadata bytes in front of a last-placed tuple;
 * interleaved, the two are contiguous and take one update call.
 */
struct walk {
	enum dix_guard g;
	const struct crc_impl *c;
	crc_update_fn update;
	uint64_t init;
	size_t stride;		/* data pointer step */
	size_t mstride;		/* metadata pointer step */
	size_t glen;		/* bytes guarded from the data pointer */
	size_t pre;		/* separate: metadata bytes guarded, else 0 */
	size_t toff;		/* tuple offset in the metadata */
	uint64_t rmask;
};

static void walk_init(struct walk *w, const struct pi_format *f, const void *data,
		      const void *meta, const unsigned char **m0)
{
	w->g = f->guard;
	w->c = crc_best_intervals(f->guard);
	w->update = w->c->update;
	w->init = crc_init(f->guard);
	w->toff = tuple_off(f);
	w->rmask = ref_mask(f->guard);
	if (f->interleaved) {
		w->stride = w->mstride = f->interval + f->ms;
		w->glen = f->interval + w->toff;
		w->pre = 0;
		*m0 = (const unsigned char *)data + f->interval;
	} else {
		w->stride = f->interval;
		w->mstride = f->ms;
		w->glen = f->interval;
		w->pre = w->toff;
		*m0 = meta;
	}
}

/*
 * Intervals are handled in batches so the CRC code can overlap several
 * (crc_update_many()).  The per-tuple loops are instantiated once per guard
 * (always_inline with a constant @g) so packing, unpacking and finishing
 * compile to straight-line code instead of a switch per interval: at
 * 10 ns per 512-byte CRC, a few ns per tuple would show.
 */
#define BATCH 32
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Guard of interval j of a batch: the many-buffer state plus the guarded
 * metadata in front of a last tuple (separate layout only). */
ALWAYS_INLINE uint64_t batch_guard(enum dix_guard g, const struct walk *w,
				   uint64_t st, const unsigned char *m)
{
	if (w->pre)
		st = w->update(st, m, w->pre);
	return crc_final(g, st);
}

ALWAYS_INLINE void generate_g(enum dix_guard g, const struct walk *w,
			      const unsigned char *d, const unsigned char *m,
			      size_t nr, struct pi_tuple t, uint64_t step)
{
	size_t i, j, k;

	for (i = 0; i < nr; i += k) {
		uint64_t st[BATCH];

		k = nr - i < BATCH ? nr - i : BATCH;
		crc_update_many(w->c, w->init, d, w->stride, w->glen, k, st);
		for (j = 0; j < k; j++, d += w->stride, m += w->mstride) {
			t.guard = batch_guard(g, w, st[j], m);
			pack(g, &t, (unsigned char *)m + w->toff);
			t.ref = (t.ref + step) & w->rmask;
		}
	}
}

int pi_generate(const struct pi_format *f, void *data, void *meta, size_t nr,
		const struct pi_io *io)
{
	struct walk w;
	const unsigned char *m;
	struct pi_tuple t = { .app = io->app, .ref_hi = 0 };
	uint64_t step = f->type == PI_TYPE3 ? 0 : 1;

	if (check_args(f, meta))
		return -EINVAL;
	walk_init(&w, f, data, meta, &m);
	t.ref = io->ref & w.rmask;
	switch (f->guard) {
	case DIX_GUARD_CRC16:
		generate_g(DIX_GUARD_CRC16, &w, data, m, nr, t, step);
		break;
	case DIX_GUARD_IP:
		generate_g(DIX_GUARD_IP, &w, data, m, nr, t, step);
		break;
	case DIX_GUARD_CRC32C:
		generate_g(DIX_GUARD_CRC32C, &w, data, m, nr, t, step);
		break;
	default:
		generate_g(DIX_GUARD_CRC64, &w, data, m, nr, t, step);
		break;
	}
	return 0;
}

static void set_fail(struct pi_fail *fl, enum dix_errkind kind, size_t i,
		     const struct pi_io *io, uint64_t exp, uint64_t found,
		     uint16_t found_hi, unsigned int bits)
{
	fl->kind = kind;
	fl->index = i;
	fl->lba = io->lba + i;
	fl->expected = exp;
	fl->found = found;
	fl->expected_hi = 0;
	fl->found_hi = found_hi;
	fl->bits = bits;
}

/* The first failing tag of interval @i, if any: guard, then app, then ref. */
static bool check_tuple(const struct pi_format *f, const struct pi_io *io,
			const struct pi_tuple *t, size_t i, bool check_guard,
			uint64_t guard, bool check_app, bool check_ref,
			uint64_t want_ref, struct pi_fail *fl)
{
	if (check_guard && guard != t->guard) {
		set_fail(fl, DIX_ERR_GUARD, i, io, guard, t->guard, 0,
			 crc_guard_bits(f->guard));
		return true;
	}
	if (check_app && ((t->app ^ io->app) & io->app_mask)) {
		set_fail(fl, DIX_ERR_APP, i, io, io->app, t->app, 0, 16);
		return true;
	}
	if (check_ref && (t->ref != want_ref || t->ref_hi)) {
		set_fail(fl, DIX_ERR_REF, i, io, want_ref, t->ref, t->ref_hi,
			 pi_ref_bits(f->guard));
		return true;
	}
	return false;
}

/*
 * The careful per-interval pass over one batch: escapes, the first failing
 * tag per interval, the first failure of the buffer.  Only run when the
 * fast pass saw a difference somewhere in the batch.
 */
static long verify_batch_slow(const struct pi_format *f, const struct walk *w,
			      const unsigned char *m, size_t i0, size_t k,
			      const uint64_t *st, uint64_t want_ref,
			      const struct pi_io *io, long bad, struct pi_fail *fail)
{
	bool check_guard = io->checks & PI_CHECK_GUARD;
	bool check_ref = (io->checks & PI_CHECK_REF) && f->type != PI_TYPE3;
	bool check_app = (io->checks & PI_CHECK_APP) && io->app_mask;
	long nbad = 0;
	size_t j;

	for (j = 0; j < k; j++, m += w->mstride, want_ref = (want_ref + 1) & w->rmask) {
		struct pi_fail fl;
		struct pi_tuple t;
		uint64_t guard = 0;

		unpack(w->g, m + w->toff, &t);
		if (t.app == PI_APP_ESCAPE && escaped(f, &t))
			continue;
		if (check_guard)
			guard = batch_guard(w->g, w, st[j], m);
		if (!check_tuple(f, io, &t, i0 + j, check_guard, guard, check_app,
				 check_ref, want_ref, &fl))
			continue;
		if (!bad && !nbad && fail)
			*fail = fl;
		nbad++;
	}
	return nbad;
}

/*
 * Fast pass: OR together every difference of a batch, without branches;
 * a batch with none (the normal case) is done.
 */
ALWAYS_INLINE long verify_g(enum dix_guard g, const struct pi_format *f,
			    const struct walk *w, const unsigned char *d,
			    const unsigned char *m, size_t nr,
			    const struct pi_io *io, struct pi_fail *fail)
{
	bool check_guard = io->checks & PI_CHECK_GUARD;
	uint64_t gmask = check_guard ? ~0ull : 0;
	uint64_t amask = (io->checks & PI_CHECK_APP) ? io->app_mask : 0;
	uint64_t rmask = ((io->checks & PI_CHECK_REF) && f->type != PI_TYPE3) ? ~0ull : 0;
	uint64_t want_ref = io->ref & w->rmask;
	long bad = 0;
	size_t i, j, k;

	for (i = 0; i < nr; i += k) {
		uint64_t st[BATCH], diff = 0, wr = want_ref;
		const unsigned char *mm = m;

		k = nr - i < BATCH ? nr - i : BATCH;
		if (check_guard)
			crc_update_many(w->c, w->init, d, w->stride, w->glen, k, st);
		for (j = 0; j < k; j++, mm += w->mstride, wr = (wr + 1) & w->rmask) {
			struct pi_tuple t;
			uint64_t guard = check_guard ? batch_guard(g, w, st[j], mm) : 0;

			unpack(g, mm + w->toff, &t);
			diff |= ((guard ^ t.guard) & gmask) |
				((uint64_t)(t.app ^ io->app) & amask) |
				(((t.ref ^ wr) | t.ref_hi) & rmask);
		}
		if (diff)
			bad += verify_batch_slow(f, w, m, i, k, st, want_ref, io, bad, fail);
		d += k * w->stride;
		m = mm;
		want_ref = wr;
	}
	return bad;
}

long pi_verify(const struct pi_format *f, const void *data, const void *meta,
	       size_t nr, const struct pi_io *io, struct pi_fail *fail)
{
	struct walk w;
	const unsigned char *m;

	if (check_args(f, meta))
		return -EINVAL;
	walk_init(&w, f, data, meta, &m);
	switch (f->guard) {
	case DIX_GUARD_CRC16:
		return verify_g(DIX_GUARD_CRC16, f, &w, data, m, nr, io, fail);
	case DIX_GUARD_IP:
		return verify_g(DIX_GUARD_IP, f, &w, data, m, nr, io, fail);
	case DIX_GUARD_CRC32C:
		return verify_g(DIX_GUARD_CRC32C, f, &w, data, m, nr, io, fail);
	default:
		return verify_g(DIX_GUARD_CRC64, f, &w, data, m, nr, io, fail);
	}
}

int pi_corrupt(const struct pi_format *f, void *data, void *meta, size_t nr,
	       size_t index, enum dix_errkind kind, const struct pi_io *io,
	       struct pi_fail *what)
{
	struct pi_tuple t, n;
	unsigned char *tp;

	if (check_args(f, meta) || index >= nr)
		return -EINVAL;
	if (kind != DIX_ERR_GUARD && kind != DIX_ERR_APP && kind != DIX_ERR_REF)
		return -EINVAL;
	tp = pi_tuple_ptr(f, data, meta, index);
	unpack(f->guard, tp, &t);
	if (escaped(f, &t))
		return -EOPNOTSUPP;
	n = t;
	switch (kind) {
	case DIX_ERR_GUARD:
		if (!(io->checks & PI_CHECK_GUARD))
			return -EOPNOTSUPP;
		n.guard = (t.guard ^ 1) & guard_mask(f->guard);
		if (what)
			set_fail(what, kind, index, io, t.guard, n.guard, 0,
				 crc_guard_bits(f->guard));
		break;
	case DIX_ERR_APP: {
		unsigned int b;

		if (!(io->checks & PI_CHECK_APP) || !io->app_mask)
			return -EOPNOTSUPP;
		/* flip a checked bit, but never create an escape */
		for (b = 0; b < 16; b++) {
			if (!(io->app_mask & (1u << b)))
				continue;
			n.app = t.app ^ (1u << b);
			if (!escaped(f, &n))
				break;
		}
		if (b == 16)
			return -EOPNOTSUPP;
		if (what)
			set_fail(what, kind, index, io, t.app, n.app, 0, 16);
		break;
	}
	default:
		if (!(io->checks & PI_CHECK_REF) || f->type == PI_TYPE3)
			return -EOPNOTSUPP;
		n.ref = (t.ref ^ 1) & ref_mask(f->guard);
		if (what) {
			set_fail(what, kind, index, io, t.ref, n.ref, n.ref_hi,
				 pi_ref_bits(f->guard));
			what->expected_hi = t.ref_hi;
		}
		break;
	}
	pack(f->guard, &n, tp);
	return 0;
}

static const char *kind_word(enum dix_errkind k)
{
	switch (k) {
	case DIX_ERR_GUARD:
		return "guard";
	case DIX_ERR_APP:
		return "app tag";
	case DIX_ERR_REF:
		return "ref tag";
	default:
		return "PI";
	}
}

static void hex_tag(char *out, size_t len, uint64_t v, uint16_t hi, unsigned int bits)
{
	if (bits > 64)
		snprintf(out, len, "0x%04x%016" PRIx64, hi, v);
	else
		snprintf(out, len, "0x%0*" PRIx64, (int)(bits / 4), v);
}

int pi_fail_values(const struct pi_fail *fail, char *buf, size_t len)
{
	char exp[32], found[32];

	hex_tag(exp, sizeof(exp), fail->expected, fail->expected_hi, fail->bits);
	hex_tag(found, sizeof(found), fail->found, fail->found_hi, fail->bits);
	return snprintf(buf, len, "expected %s, found %s", exp, found);
}

int pi_fail_format(const struct pi_fail *fail, const char *dev, char *buf, size_t len)
{
	char values[80];

	pi_fail_values(fail, values, sizeof(values));
	return snprintf(buf, len, "%s%s%s mismatch at LBA %" PRIu64 ": %s",
			dev && *dev ? dev : "", dev && *dev ? ": " : "",
			kind_word(fail->kind), fail->lba, values);
}
