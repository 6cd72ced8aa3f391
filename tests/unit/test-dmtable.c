// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-dmtable - device-mapper tables as the DM ioctl returns them (keys
 * included) read into targets: ciphers and hashes named, keys masked in
 * every kept byte, malformed lines kept unreadable, and the ioctl's
 * record walk bounded by its buffer; and the requests that carry a key
 * (the table read back, the table loaded) set DM_SECURE_DATA_FLAG, so the
 * kernel wipes its copies (the flag's value is the uapi header's, 1 << 15,
 * spelled out here so a header that moved it would show).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/sysmacros.h>

#include "proto/dmioctl.h"
#include "proto/dmtable.h"
#include "tap.h"

#define CHECK(cond, ...) ok((cond), __VA_ARGS__)

/* Neither the hex key nor any 8-digit run of it may be in @t. */
static int leaks(const struct dmt_target *t, const char *key)
{
	size_t i, n = strlen(key);
	char run[9];

	for (i = 0; i + 8 <= n; i += 4) {
		memcpy(run, key + i, 8);
		run[8] = '\0';
		if (memmem(t, sizeof(*t), run, 8))
			return 1;
	}
	return 0;
}

#define KEY64 "7f3a9c01d2e4b5a6978812ab34cd56ef7f3a9c01d2e4b5a6978812ab34cd56ef" \
	      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define KEY32 "89e6db8c1b9b75df7deb0448e3e22b0933febe45dee47dc1a5a5c3c3e1e1f0f0"

static void test_crypt(void)
{
	struct dmt_target t;
	int r;

	r = dmt_parse_target(0, 524288, "crypt",
			     "aes-xts-plain64 " KEY64 " 0 8:0 0", &t);
	CHECK(r == 0, "aes-xts-plain64 reads (%d)", r);
	CHECK(!strcmp(t.cipher, "aes-xts-plain64") && !strcmp(t.ivmode, "plain64"),
	      "cipher %s, iv %s", t.cipher, t.ivmode);
	CHECK(t.nalgs == 1 && !strcmp(t.algs[0].name, "xts(aes)") &&
	      t.algs[0].use == DMT_USE_SKCIPHER && t.algs[0].keyed,
	      "allocates the skcipher xts(aes) (%s)", t.algs[0].name);
	CHECK(t.key_bytes == 64 && !t.keyring, "key of 64 bytes (%u)", t.key_bytes);
	CHECK(!strcmp(t.dev, "8:0") && t.dev_offset == 0, "over 8:0 at 0");
	CHECK(!strcmp(t.params, "aes-xts-plain64 " DMT_KEY_MASK " 0 8:0 0"),
	      "params masked: %s", t.params);
	CHECK(!leaks(&t, KEY64), "no part of the key is kept");

	r = dmt_parse_target(0, 489512, "crypt",
			     "capi:authenc(hmac(sha256),xts(aes))-random " KEY64 KEY32
			     " 0 253:0 0 2 integrity:48:aead sector_size:4096", &t);
	CHECK(r == 0, "capi authenc over integrity reads (%d)", r);
	CHECK(t.nalgs == 1 && !strcmp(t.algs[0].name, "authenc(hmac(sha256),xts(aes))") &&
	      t.algs[0].use == DMT_USE_AEAD, "allocates the aead %s", t.algs[0].name);
	CHECK(!strcmp(t.ivmode, "random") && t.aead_tag == 48 && t.sector_size == 4096,
	      "iv %s, tag %u, sector %u", t.ivmode, t.aead_tag, t.sector_size);
	CHECK(t.key_bytes == 96, "key of 96 bytes (%u)", t.key_bytes);
	CHECK(!leaks(&t, KEY64) && !leaks(&t, KEY32), "no part of the key is kept");

	r = dmt_parse_target(0, 8, "crypt",
			     "aes-cbc-essiv:sha256 " KEY32 " 0 8:16 2048", &t);
	CHECK(r == 0 && !strcmp(t.algs[0].name, "cbc(aes)") &&
	      !strcmp(t.ivmode, "essiv:sha256") && t.dev_offset == 2048,
	      "aes-cbc-essiv:sha256: %s, %s", t.algs[0].name, t.ivmode);

	r = dmt_parse_target(0, 8, "crypt", "aes " KEY32 " 0 8:0 0", &t);
	CHECK(r == 0 && !strcmp(t.algs[0].name, "cbc(aes)") && !strcmp(t.ivmode, "plain"),
	      "old form aes is cbc(aes) with plain IVs (%s, %s)", t.algs[0].name, t.ivmode);

	r = dmt_parse_target(0, 8, "crypt", "aes:64-xts-plain64 " KEY64 " 0 8:0 0", &t);
	CHECK(r == 0 && !strcmp(t.algs[0].name, "xts(aes)"),
	      "a key count is not part of the name (%s)", t.algs[0].name);

	r = dmt_parse_target(0, 8, "crypt",
			     "aes-xts-plain64 :64:logon:cryptsetup:1234 0 8:0 0", &t);
	CHECK(r == 0 && t.keyring && t.key_bytes == 64 &&
	      strstr(t.params, ":64:logon:cryptsetup:1234"),
	      "a keyring reference is no key: kept (%s)", t.params);

	r = dmt_parse_target(0, 8, "crypt", "aes-xts-plain64 " KEY64 " 0 8:0", &t);
	CHECK(r == -EINVAL && !strcmp(t.params, "<unreadable>") && !leaks(&t, KEY64),
	      "a short line is unreadable and keeps no key (%d, %s)", r, t.params);
	r = dmt_parse_target(0, 8, "crypt", "aes-xts-plain64 " KEY64 "zz 0 8:0 0", &t);
	CHECK(r == -EINVAL && !leaks(&t, KEY64), "a key that is not hex: unreadable");
	r = dmt_parse_target(0, 8, "crypt",
			     "aes-xts-plain64 " KEY64 " 0 8:0 0 2 allow_discards", &t);
	CHECK(r == -EINVAL && !leaks(&t, KEY64), "an option count that lies: unreadable");
}

static void test_integrity(void)
{
	struct dmt_target t;
	int r;

	r = dmt_parse_target(0, 489512, "integrity",
			     "8:0 0 32 B 8 journal_sectors:4048 interleave_sectors:32768 "
			     "buffer_sectors:128 sectors_per_bit:32768 bitmap_flush_interval:10000 "
			     "fix_padding fix_hmac internal_hash:hmac(sha256):" KEY32, &t);
	CHECK(r == 0, "dm-integrity hmac(sha256), bitmap mode, reads (%d)", r);
	CHECK(t.mode == 'B' && t.tag_size == 32 && !strcmp(t.dev, "8:0"),
	      "mode %c, tag %u, over %s", t.mode, t.tag_size, t.dev);
	CHECK(t.nalgs == 1 && !strcmp(t.algs[0].name, "hmac(sha256)") &&
	      t.algs[0].use == DMT_USE_INTERNAL_HASH && t.algs[0].keyed,
	      "internal hash %s, keyed", t.algs[0].name);
	CHECK(strstr(t.params, "internal_hash:hmac(sha256):" DMT_KEY_MASK) &&
	      strstr(t.params, "interleave_sectors:32768"), "params masked: %s", t.params);
	CHECK(!leaks(&t, KEY32), "no part of the key is kept");

	r = dmt_parse_target(0, 100, "integrity",
			     "8:0 0 4 J 6 journal_sectors:4048 interleave_sectors:32768 "
			     "buffer_sectors:128 journal_watermark:50 commit_time:10000 "
			     "internal_hash:crc32c", &t);
	CHECK(r == 0 && t.mode == 'J' && t.tag_size == 4 && t.nalgs == 1 &&
	      !strcmp(t.algs[0].name, "crc32c") && !t.algs[0].keyed,
	      "crc32c journal mode, unkeyed (%d, %s)", r, t.algs[0].name);

	r = dmt_parse_target(0, 100, "integrity",
			     "8:0 0 4 J 3 internal_hash:crc32c journal_crypt:ctr(aes):" KEY32
			     " journal_mac:hmac(sha256):" KEY64, &t);
	CHECK(r == 0 && t.nalgs == 3 && t.algs[1].use == DMT_USE_JOURNAL_CRYPT &&
	      !strcmp(t.algs[1].name, "ctr(aes)") && !strcmp(t.algs[2].name, "hmac(sha256)"),
	      "journal crypt and mac algorithms (%d, %d)", r, t.nalgs);
	CHECK(!leaks(&t, KEY32) && !leaks(&t, KEY64), "journal keys are masked: %s", t.params);

	r = dmt_parse_target(0, 8, "integrity", "8:0 0 48 J 0", &t);
	CHECK(r == 0 && t.nalgs == 0 && t.tag_size == 48,
	      "no internal hash: the tags come from above (%d)", r);
	r = dmt_parse_target(0, 8, "integrity", "8:0 0 4 X 0", &t);
	CHECK(r == -EINVAL, "an unknown mode is unreadable");
}

static void test_other(void)
{
	struct dmt_target t;
	int r;

	r = dmt_parse_target(0, 8, "linear", "8:0 2048", &t);
	CHECK(r == 0 && !strcmp(t.dev, "8:0") && t.dev_offset == 2048 && !t.nalgs,
	      "linear over 8:0 at 2048");
	r = dmt_parse_target(0, 8, "future", "8:0 0 " KEY64, &t);
	CHECK(r == 0 && !leaks(&t, KEY64), "an unknown target's key-like token is masked (%s)",
	      t.params);
}

/* Append one struct dm_target_spec and its string to @buf at *@off. */
static void put_spec(uint8_t *buf, size_t *off, uint64_t start, uint64_t len,
		     const char *type, const char *params, int last)
{
	uint8_t *p = buf + *off;
	uint32_t next;
	size_t n = strlen(params) + 1;

	memset(p, 0, 40);
	memcpy(p, &start, 8);
	memcpy(p + 8, &len, 8);
	strncpy((char *)p + 24, type, 16);
	memcpy(p + 40, params, n);
	*off += 40 + n;
	*off = (*off + 7) & ~(size_t)7;
	next = last ? 0 : (uint32_t)*off;
	memcpy(p + 20, &next, 4);
}

static void test_specs(void)
{
	uint8_t buf[2048];
	struct dmt_target t[DMT_TARGETS_MAX];
	size_t off = 0;
	int r;

	memset(buf, 0, sizeof(buf));
	put_spec(buf, &off, 0, 1000, "crypt", "aes-xts-plain64 " KEY64 " 0 8:0 0", 0);
	put_spec(buf, &off, 1000, 500, "linear", "8:16 0", 1);
	r = dmt_parse_specs(buf, off, 2, t, DMT_TARGETS_MAX);
	CHECK(r == 2 && !strcmp(t[0].type, "crypt") && t[1].start == 1000 &&
	      t[1].len == 500 && !strcmp(t[1].dev, "8:16"), "two records walked (%d)", r);
	CHECK(!leaks(&t[0], KEY64), "the walked crypt line keeps no key");
	r = dmt_parse_specs(buf, 60, 2, t, DMT_TARGETS_MAX);
	CHECK(r == -EBADMSG, "a string past the buffer is refused (%d)", r);
	r = dmt_parse_specs(buf, off, 9, t, DMT_TARGETS_MAX);
	CHECK(r == -E2BIG, "more records than room is refused (%d)", r);
	memset(buf + 20, 0, 4);
	r = dmt_parse_specs(buf, off, 2, t, DMT_TARGETS_MAX);
	CHECK(r == -EBADMSG, "a next that does not advance is refused (%d)", r);
}

/* dm-integrity's status lines: the mismatch counter, added up */
static void test_mismatches(void)
{
	uint8_t buf[2048];
	uint64_t sum = 7;
	size_t off = 0;
	int r;

	memset(buf, 0, sizeof(buf));
	put_spec(buf, &off, 0, 1000, "integrity", "4 65536 -", 0);
	put_spec(buf, &off, 1000, 500, "linear", "", 0);
	put_spec(buf, &off, 1500, 500, "integrity", "18446744073709551615 8 0", 1);
	r = dmt_integrity_mismatches(buf, off, 2, &sum);
	CHECK(r == 1 && sum == 4, "one integrity line of two: 4 mismatches (%d, %llu)", r,
	      (unsigned long long)sum);
	r = dmt_integrity_mismatches(buf, off, 3, &sum);
	CHECK(r == 2 && sum == 3, "two integrity lines added up, u64 wrap included (%d, %llu)",
	      r, (unsigned long long)sum);
	off = 0;
	put_spec(buf, &off, 0, 8, "crypt", "", 1);
	r = dmt_integrity_mismatches(buf, off, 1, &sum);
	CHECK(r == 0 && sum == 0, "no integrity line: 0 lines (%d)", r);
	off = 0;
	put_spec(buf, &off, 0, 8, "integrity", "-1 8 -", 1);
	CHECK(dmt_integrity_mismatches(buf, off, 1, &sum) == -EBADMSG,
	      "a negative counter is refused");
	off = 0;
	put_spec(buf, &off, 0, 8, "integrity", "x 8 -", 1);
	CHECK(dmt_integrity_mismatches(buf, off, 1, &sum) == -EBADMSG,
	      "a line that does not start with a count is refused");
	CHECK(dmt_integrity_mismatches(buf, 30, 1, &sum) == -EBADMSG,
	      "a record past the buffer is refused");
}

#define SECURE_FLAG	(1u << 15)	/* include/uapi/linux/dm-ioctl.h */
#define TABLE_FLAG	(1u << 4)	/* DM_STATUS_TABLE_FLAG */

/* The requests built for the ioctls: header fields, the flag, the records. */
static void test_requests(void)
{
	uint8_t buf[2048], *load = NULL;
	union {
		struct dm_ioctl io;
		uint8_t b[16384];
	} st;
	const struct dm_ioctl *io;
	size_t off = 0, loadlen = 0;
	uint32_t next, first;
	int r;

	CHECK(DM_SECURE_DATA_FLAG == SECURE_FLAG, "the header's DM_SECURE_DATA_FLAG is 1 << 15");
	memset(&st, 0, sizeof(st));
	dmio_status_request(&st.io, sizeof(st), 253, 4, 1);
	CHECK(st.io.flags == (SECURE_FLAG | TABLE_FLAG),
	      "table status (keys): DM_SECURE_DATA_FLAG and DM_STATUS_TABLE_FLAG (0x%x)", st.io.flags);
	CHECK(st.io.version[0] == DM_VERSION_MAJOR && st.io.data_size == sizeof(st) &&
	      st.io.data_start == sizeof(struct dm_ioctl) && st.io.dev == makedev(253, 4),
	      "table status: version, sizes and device");
	memset(&st, 0, sizeof(st));
	dmio_status_request(&st.io, sizeof(st), 253, 4, 0);
	CHECK(st.io.flags == SECURE_FLAG, "status lines: DM_SECURE_DATA_FLAG alone (0x%x)",
	      st.io.flags);

	memset(buf, 0, sizeof(buf));
	put_spec(buf, &off, 0, 1000, "crypt", "aes-xts-plain64 " KEY64 " 0 8:0 0", 0);
	put_spec(buf, &off, 1000, 500, "linear", "8:16 0", 1);
	/* the reply's status field is not the request's */
	buf[16] = 0xff;
	r = dmio_load_request(buf, off, 2, 253, 4, &load, &loadlen);
	CHECK(r == 0 && load, "table load built from a two-line reply (%d)", r);
	if (!load)
		return;
	io = (const struct dm_ioctl *)load;
	CHECK(io->flags == SECURE_FLAG, "table load: DM_SECURE_DATA_FLAG (0x%x)", io->flags);
	CHECK(io->version[0] == DM_VERSION_MAJOR && io->target_count == 2 &&
	      io->dev == makedev(253, 4) && io->data_start == sizeof(struct dm_ioctl) &&
	      io->data_size <= loadlen && io->data_size > sizeof(struct dm_ioctl) + off / 2,
	      "table load: version, two targets, device, sizes (%u of %zu)",
	      io->data_size, loadlen);
	memcpy(&first, load + sizeof(*io) + 20, 4);
	memcpy(&next, load + sizeof(*io) + first + 20, 4);
	CHECK(first % 8 == 0 && first >= 40 + strlen("aes-xts-plain64 " KEY64 " 0 8:0 0") + 1 &&
	      next == 0, "table load: next relative to each record, 0 for the last (%u, %u)",
	      first, next);
	CHECK(!strcmp((const char *)load + sizeof(*io) + 40, "aes-xts-plain64 " KEY64 " 0 8:0 0") &&
	      !strcmp((const char *)load + sizeof(*io) + first + 40, "8:16 0") &&
	      !strcmp((const char *)load + sizeof(*io) + first + 24, "linear"),
	      "table load: the lines as read, keys included (the kernel needs them)");
	CHECK(load[sizeof(*io) + 16] == 0, "table load: status 0, not the reply's");
	dmio_wipe_free(load, loadlen);
	load = NULL;
	r = dmio_load_request(buf, 60, 2, 253, 4, &load, &loadlen);
	CHECK(r == -EBADMSG && !load, "a reply cut short: no request (%d)", r);
}

int main(void)
{
	test_crypt();
	test_integrity();
	test_other();
	test_specs();
	test_mismatches();
	test_requests();
	return tap_done();
}
