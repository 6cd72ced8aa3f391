// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-cryptouser.c - crypto_user requests as built byte by byte, and the
 * reply parser on canned replies (tests/data/cru/, one .hex file each): reports, errors,
 * acknowledgements, and truncated or malformed messages, which must be
 * refused rather than read past.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "kernel/cryptouser.h"
#include "tap.h"
#include "hexfile.h"

static uint8_t buf[8192] __attribute__((aligned(4)));

static long load(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "cru/%s", name);
	return hexfile_load(path, buf, sizeof(buf));
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static void test_build(void)
{
	uint8_t m[512] __attribute__((aligned(4)));
	int n;

	memset(m, 0xee, sizeof(m));
	n = cru_build(m, sizeof(m), CRU_UPDATE, "xts(ecb(aes-generic))", 1,
		      1000, 77);
	/* header 16, struct crypto_user_alg 208, one u32 attribute 8 */
	is_int(n, 232, "update: 232 bytes");
	is_int(le32(m), 232, "update: nlmsg_len");
	is_int(le16(m + 4), 0x12, "update: CRYPTO_MSG_UPDATEALG");
	is_int(le16(m + 6), 0x5, "update: NLM_F_REQUEST|NLM_F_ACK");
	is_int(le32(m + 8), 77, "update: sequence");
	is_int(m[16], 0, "update: cru_name empty (only the driver may match)");
	is_str((char *)m + 16 + 64, "xts(ecb(aes-generic))",
	       "update: cru_driver_name");
	is_int(le32(m + 16 + 192 + 12), 0, "update: cru_flags zero");
	is_int(le16(m + 224), 8, "update: attribute length 8");
	is_int(le16(m + 226), 1, "update: CRYPTOCFGA_PRIORITY_VAL");
	is_int(le32(m + 228), 1000, "update: priority 1000");

	n = cru_build(m, sizeof(m), CRU_GET, "aes-generic", 0, 0, 5);
	is_int(n, 224, "get: no attribute, 224 bytes");
	is_int(le16(m + 4), 0x13, "get: CRYPTO_MSG_GETALG");
	is_int(le16(m + 6), 0x1, "get: no acknowledgement asked");
	n = cru_build(m, sizeof(m), CRU_DELETE, "x", 0, 0, 5);
	is_int(le16(m + 4), 0x11, "delete: CRYPTO_MSG_DELALG");
	n = cru_build(m, sizeof(m), CRU_NEW, "x", 1, 9, 5);
	is_int(le16(m + 4), 0x10, "new: CRYPTO_MSG_NEWALG");
	is_int(n, 232, "new: with priority");

	is_int(cru_build(m, sizeof(m), CRU_GET, "", 0, 0, 1), -EINVAL,
	       "empty driver refused");
	is_int(cru_build(m, sizeof(m), CRU_GET,
			 "0123456789012345678901234567890123456789012345678901234567890123",
			 0, 0, 1), -EINVAL, "64-character driver refused (no room for NUL)");
	is_int(cru_build(m, sizeof(m), CRU_DELETE, "x", 1, 5, 1), -EINVAL,
	       "priority on delete refused");
	is_int(cru_build(m, sizeof(m), CRU_GET, "x", 1, 5, 1), -EINVAL,
	       "priority on get refused");
	is_int(cru_build(m, 231, CRU_UPDATE, "x", 1, 5, 1), -ENOSPC,
	       "a buffer one byte short refused");
	is_int(cru_build(m, sizeof(m), 9, "x", 0, 0, 1), -EINVAL,
	       "unknown op refused");
}

static void test_reports(void)
{
	struct cru_alg a;
	char words[200];
	long n;

	n = load("get-xts-generic.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), 1, "xts generic: a report");
	is_str(a.name, "xts(aes)", "xts generic: name");
	is_str(a.driver, "xts(ecb(aes-generic))", "xts generic: driver");
	is_str(a.module, "kernel", "xts generic: module");
	is_str(a.type, "skcipher", "xts generic: type from the report attribute");
	is_int(a.have_priority, 1, "xts generic: priority present");
	is_int(a.priority, 100, "xts generic: priority 100");
	is_int(a.refcnt, 2, "xts generic: refcnt 2 as sent");
	ok((a.flags & CRU_F_INSTANCE) && !(a.flags & CRU_F_ASYNC),
	   "xts generic: instance, synchronous");
	is_str(cru_flags_text(a.flags, words, sizeof(words)), "instance",
	       "xts generic: flags in words");

	n = load("get-qat-allocmem.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), 1, "qat: a report");
	is_int(a.priority, 4001, "qat: priority 4001");
	is_int(a.refcnt, 3, "qat: refcnt 3 as sent");
	ok(a.flags & CRU_F_ALLOCATES_MEMORY, "qat: kernel-internal allocates-memory bit");
	is_str(cru_flags_text(a.flags, words, sizeof(words)),
	       "async, allocates memory (kernel-internal flag)",
	       "qat: flags in words");
	is_str(cru_flags_text(a.flags, words, 6), "async",
	       "flags text: a short buffer keeps whole words");
	is_str(cru_flags_text(0x5, words, sizeof(words)), "not tested",
	       "flags text: self-test not passed");

	n = load("get-noprio.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), 1, "no priority: a report");
	is_int(a.have_priority, 0, "no priority: absent, not 0 taken for a value");
	is_str(a.type, "cipher", "no priority: cipher report");
	is_int(a.refcnt, 3, "no priority: refcnt 3 as sent");

	n = load("get-then-ack.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), 1,
	       "report then acknowledgement: the report stands");
	is_str(a.driver, "xts(ecb(aes-generic))", "report then ack: driver");
	is_int(cru_parse(buf, n, 0x1001, NULL), 1, "report with no output asked");
}

static void test_errors(void)
{
	struct cru_alg a;
	long n;

	n = load("ack.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), 0, "ack: error 0");
	n = load("err-enoent.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -ENOENT, "error: ENOENT");
	n = load("err-eperm.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -EPERM, "error: EPERM");
	is_int(cru_parse(buf, n, 0x1002, &a), -EPROTO,
	       "an error of another sequence is not this request's");
	n = load("get-xts-generic.hex");
	is_int(cru_parse(buf, n, 0x1000, &a), -EPROTO,
	       "a stale report is refused");
	is_int(cru_parse(buf, 0, 0x1001, &a), -ENODATA, "nothing read");
	/* the error message cut inside struct nlmsgerr */
	n = load("err-enoent.hex");
	buf[0] = 16 + 2;
	is_int(cru_parse(buf, 18, 0x1001, &a), -EBADMSG,
	       "an error message too short for its errno");
}

static void test_malformed(void)
{
	struct cru_alg a;
	long n;

	n = load("get-trunc.hex");
	is_int(n, 100, "truncated: 100 bytes");
	is_int(cru_parse(buf, n, 0x1001, &a), -EBADMSG, "truncated report");
	n = load("get-short.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -EBADMSG,
	       "payload shorter than struct crypto_user_alg");
	n = load("get-nonul.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -EBADMSG,
	       "driver name without its NUL");
	n = load("get-prio-u16.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -EBADMSG,
	       "priority attribute of 2 bytes");
	n = load("get-trailing.hex");
	is_int(cru_parse(buf, n, 0x1001, &a), -EBADMSG,
	       "stray bytes after a whole report");
	/* every prefix of a good report: never read past, never accepted */
	n = load("get-xts-generic.hex");
	{
		long k, bad = 0;

		for (k = 1; k < n; k++)
			if (cru_parse(buf, k, 0x1001, &a) != -EBADMSG)
				bad++;
		is_int(bad, 0, "every strict prefix of a report is malformed");
	}
}

int main(void)
{
	test_build();
	test_reports();
	test_errors();
	test_malformed();
	return tap_done();
}
