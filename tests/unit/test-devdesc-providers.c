// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-devdesc-providers.c - the device description's providers on canned
 * answers (tests/data/NAME.hex): what the SCSI, NVMe and block providers
 * put in the description (PI format, identity, failures in words), the
 * SCSI provider's commands through a transport that answers from fixtures,
 * and the crypto provider's description of what the depth loop does
 * otherwise for it.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/byteorder.h"
#include "device/devdesc.h"
#include "hexfile.h"
#include "tap.h"

static uint8_t a[NVME_IDENTIFY_LEN], b[NVME_IDENTIFY_LEN];

/* ---- SCSI ---- */

static void test_scsi_from(void)
{
	struct devdesc_scsi s;
	char msg[256];
	long ni, nr;

	memset(&s, 0, sizeof(s));
	ni = hexfile_load("sdebug-dif2-inquiry.hex", a, sizeof(a));
	nr = hexfile_load("sdebug-dif2-readcap16.hex", b, sizeof(b));
	devdesc_scsi_from(&s, a, ni, b, nr);
	ok(s.inq_ok && s.scsi_debug, "scsi_debug dif=2: identity says scsi_debug (%s %s)",
	   s.inq.vendor, s.inq.product);
	ok(s.rc_ok && s.has_pi, "scsi_debug dif=2: formatted with PI");
	is_int(s.pif.type, PI_TYPE2, "scsi_debug dif=2: Type 2");
	is_int(s.pif.guard, DIX_GUARD_CRC16, "scsi_debug dif=2: 16-bit CRC guard");
	is_int(s.pif.interval, 512, "scsi_debug dif=2: one interval per 512-byte block");
	ok(s.pif.ms == 8 && s.pif.interleaved && !s.pif.pi_first,
	   "scsi_debug dif=2: an 8-byte tuple after each interval, on the wire");
	is_int(pi_format_check(&s.pif), 0, "scsi_debug dif=2: a format dixload generates");
	s.asked = true;
	is_int(devdesc_scsi_rc_failure(&s, "sda", msg, sizeof(msg)), 0,
	       "scsi_debug dif=2: READ CAPACITY(16) gave a format");

	memset(&s, 0, sizeof(s));
	ni = hexfile_load("scsi-inquiry-protect.hex", a, sizeof(a));
	nr = hexfile_load("scsi-readcap16-type1-4k-pie.hex", b, sizeof(b));
	devdesc_scsi_from(&s, a, ni, b, nr);
	ok(s.inq_ok && s.inq.protect, "INQUIRY PROTECT=1 parsed");
	ok(s.has_pi && s.pif.type == PI_TYPE1, "4k P_I_EXPONENT 3: Type 1");
	is_int(s.pif.interval, 512, "4k P_I_EXPONENT 3: eight 512-byte intervals per block");
	is_int(s.rc.block_length, 4096, "4k P_I_EXPONENT 3: the block is 4096 bytes");

	memset(&s, 0, sizeof(s));
	nr = hexfile_load("scsi-readcap16-noprot.hex", b, sizeof(b));
	devdesc_scsi_from(&s, NULL, 0, b, nr);
	ok(!s.inq_ok && !s.scsi_debug, "no INQUIRY answer: no identity, not scsi_debug");
	ok(s.rc_ok && !s.has_pi, "PROT_EN 0: no PI (P_TYPE ignored)");

	memset(&s, 0, sizeof(s));
	s.asked = true;
	s.rc_ans.sent = true;
	nr = hexfile_load("scsi-readcap16-trunc12.hex", b, sizeof(b));
	devdesc_scsi_from(&s, NULL, 0, b, nr);
	ok(!s.rc_ok && s.rc_ans.malformed && s.rc_ans.res == -EBADMSG,
	   "READ CAPACITY(16) cut at 12 bytes: malformed");
	is_int(devdesc_scsi_rc_failure(&s, "sda", msg, sizeof(msg)), -EBADMSG,
	       "malformed: the failure's errno");
	is_str(msg, "sda: READ CAPACITY(16) returned malformed data",
	       "malformed: said so, naming the device");
}

/* The disk: INQUIRY and READ CAPACITY(16) from fixtures, or a failure. */
static struct {
	const char *inq, *rc;
	int send_err;		/* the transport's -errno */
	int check;		/* CHECK CONDITION, NOT READY for READ CAPACITY */
	unsigned int timeout;
	int ncmd;
} disk;

static int fixture_sgio(int fd, struct sg_io_hdr *h)
{
	const uint8_t *c = h->cmdp;
	uint8_t buf[256];
	long n;

	(void)fd;
	disk.ncmd++;
	disk.timeout = h->timeout;
	if (disk.send_err)
		return disk.send_err;
	h->status = h->host_status = h->driver_status = 0;
	h->info = 0;
	h->resid = 0;
	h->sb_len_wr = 0;
	if (c[0] == 0x9e && c[1] == 0x10 && disk.check) {
		uint8_t *s = h->sbp;

		memset(s, 0, 18);
		s[0] = 0x70;
		s[2] = 0x2;	/* NOT READY */
		s[7] = 10;
		s[12] = 0x04;	/* LOGICAL UNIT NOT READY */
		s[13] = 0x02;	/* INITIALIZING COMMAND REQUIRED */
		h->sb_len_wr = 18;
		h->status = 0x02;
		h->masked_status = 0x01;
		h->driver_status = 0x08;
		h->info |= SG_INFO_CHECK;
		return 0;
	}
	n = hexfile_load(c[0] == 0x12 ? disk.inq : disk.rc, buf, sizeof(buf));
	if (n < 0)
		return -EIO;
	memcpy(h->dxferp, buf, (size_t)n < h->dxfer_len ? (size_t)n : h->dxfer_len);
	h->resid = (size_t)n < h->dxfer_len ? (int)(h->dxfer_len - n) : 0;
	return 0;
}

static struct {
	char names[4][32];
	size_t lens[4];
	int n;
} saved;

static void save_raw(void *arg, const char *name, const char *what,
		     const uint8_t *buf, size_t len)
{
	(void)arg;
	(void)what;
	(void)buf;
	if (saved.n < 4) {
		snprintf(saved.names[saved.n], sizeof(saved.names[0]), "%s", name);
		saved.lens[saved.n++] = len;
	}
}

static void test_scsi_ask(void)
{
	struct dix_devdesc t;
	char msg[256];

	memset(&disk, 0, sizeof(disk));
	disk.inq = "sdebug-dif2-inquiry.hex";
	disk.rc = "sdebug-dif2-readcap16.hex";
	memset(&t, 0, sizeof(t));
	t.fd = -1;
	t.sgio = fixture_sgio;	/* the target's transport: the fixtures' disk */
	devdesc_ask(&t, DEVDESC_ASK_SCSI, 2500);
	is_int(disk.ncmd, 2, "ask: two commands, INQUIRY and READ CAPACITY(16)");
	is_int(disk.timeout, 2500, "ask: the timeout given");
	ok(t.scsi.asked && t.scsi.rc_ok && t.scsi.has_pi &&
	   t.scsi.pif.type == PI_TYPE2 && t.scsi.scsi_debug,
	   "ask: the fixtures' disk described (Type 2, scsi_debug)");
	ok(!t.nvme.asked, "ask: the NVMe provider not asked");

	memset(&saved, 0, sizeof(saved));
	devdesc_scsi_ask(&t.scsi, -1, fixture_sgio, 0, save_raw, NULL);
	is_int(disk.timeout, SGIO_TIMEOUT_MS, "ask: timeout 0 is the provider's 60 s");
	ok(saved.n == 2 && !strcmp(saved.names[0], "inquiry") &&
	   saved.lens[0] == 96 && !strcmp(saved.names[1], "readcap16") &&
	   saved.lens[1] == 32, "ask: the raw answers handed over (%s %zu, %s %zu)",
	   saved.names[0], saved.lens[0], saved.names[1], saved.lens[1]);

	disk.send_err = -ENOTTY;
	devdesc_scsi_ask(&t.scsi, -1, fixture_sgio, 0, NULL, NULL);
	ok(!t.scsi.rc_ans.sent && !t.scsi.inq_ok, "SG_IO refused: nothing sent");
	is_int(devdesc_scsi_rc_failure(&t.scsi, "loop0", msg, sizeof(msg)),
	       -ENOTTY, "SG_IO refused: its errno");
	ok(strstr(msg, "loop0: SG_IO failed (") && strstr(msg, "not a SCSI device?"),
	   "SG_IO refused: said so (%s)", msg);

	disk.send_err = 0;
	disk.check = 1;
	devdesc_scsi_ask(&t.scsi, -1, fixture_sgio, 0, NULL, NULL);
	ok(t.scsi.inq_ok && !t.scsi.rc_ok && t.scsi.rc_ans.sent,
	   "NOT READY: INQUIRY answered, READ CAPACITY(16) failed");
	is_int(devdesc_scsi_rc_failure(&t.scsi, "sdb", msg, sizeof(msg)), -EIO,
	       "NOT READY: an io error");
	ok(strstr(msg, "sdb: READ CAPACITY(16) failed: ") &&
	   strstr(msg, "(ASC 0x04 ASCQ 0x02)"),
	   "NOT READY: the sense in words (%s)", msg);
}

/* ---- NVMe ---- */

static void test_nvme(void)
{
	struct devdesc_nvme n;
	char msg[256];
	long ln, lm;

	memset(&n, 0, sizeof(n));
	ln = hexfile_load("qemu-nvme-pi3-id-ns.hex", a, sizeof(a));
	lm = hexfile_load("qemu-nvme-pi3-nvm-id-ns.hex", b, sizeof(b));
	is_int(devdesc_nvme_from(&n, a, ln, b, lm), 0, "QEMU pi=3 ms=16 pil=1: parses");
	ok(n.stage == DEVDESC_NVME_OK && n.nvm_ok, "QEMU pi=3: both structures used");
	ok(n.has_pi && n.pif.type == PI_TYPE3 && n.pif.guard == DIX_GUARD_CRC16,
	   "QEMU pi=3: Type 3, 16-bit guard");
	ok(n.pif.interval == 512 && n.pif.ms == 16 && n.pif.pi_first &&
	   !n.pif.interleaved, "QEMU pi=3: 512 + 16, PI first, separate metadata");
	ok(n.pif_ok, "QEMU pi=3: a format dixload generates");
	n.asked = true;
	is_int(devdesc_nvme_failure(&n, "nvme0n1", msg, sizeof(msg)), 0,
	       "QEMU pi=3: no failure");

	memset(&n, 0, sizeof(n));
	lm = hexfile_load("qemu-nvme-pif2-nvm-id-ns.hex", b, sizeof(b));
	devdesc_nvme_from(&n, a, ln, b, lm);
	ok(n.nvm_ok && n.pif.guard == DIX_GUARD_CRC64 && n.n.pi_size == 16,
	   "pif=2: the 64-bit guard, a 16-byte tuple");

	memset(&n, 0, sizeof(n));
	ln = hexfile_load("nvme-id-ns-pi1-ms8-ext.hex", a, sizeof(a));
	is_int(devdesc_nvme_from(&n, a, ln, NULL, 0), 0, "512+8 extended, no NVM structure: parses");
	ok(!n.nvm_ok && n.pif.guard == DIX_GUARD_CRC16,
	   "no NVM structure: the 16-bit guard implied");
	ok(n.pif.type == PI_TYPE1 && n.pif.ms == 8 && n.pif.interleaved,
	   "extended LBA: Type 1, 8 bytes interleaved after each block");

	memset(&n, 0, sizeof(n));
	ln = hexfile_load("nvme-id-ns-pi3-ms16-first.hex", a, sizeof(a));
	lm = hexfile_load("nvme-nvm-id-ns-trunc.hex", b, sizeof(b));
	devdesc_nvme_from(&n, a, ln, b, lm);
	ok(!n.nvm_ok && n.n.guard_bits == 16 &&
	   !strcmp(n.nvm_note, "malformed extended LBA format 2"),
	   "NVM structure cut short: 16-bit guard implied, noted (%s)", n.nvm_note);

	memset(&n, 0, sizeof(n));
	lm = hexfile_load("nvme-nvm-id-ns-sts16.hex", b, sizeof(b));
	devdesc_nvme_from(&n, a, ln, b, lm);
	is_int(n.n.sts, 16, "storage tag: its 16 bits in the description");

	memset(&n, 0, sizeof(n));
	n.asked = true;
	n.nsid = 1;
	ln = hexfile_load("nvme-id-ns-trunc.hex", a, sizeof(a));
	is_int(devdesc_nvme_from(&n, a, ln, NULL, 0), -EBADMSG,
	       "Identify Namespace cut short: malformed");
	is_int(devdesc_nvme_failure(&n, "nvme0n1", msg, sizeof(msg)), -EIO,
	       "malformed: an io error");
	is_str(msg, "nvme0n1: Identify Namespace 1 failed: malformed data",
	       "malformed: said so, naming the namespace");

	memset(&n, 0, sizeof(n));
	n.asked = true;
	n.stage = DEVDESC_NVME_NSID;
	n.err = ENOTTY;
	is_int(devdesc_nvme_failure(&n, "/dev/sda", msg, sizeof(msg)), -ENODEV,
	       "no namespace id: not a namespace");
	ok(!strncmp(msg, "/dev/sda is not an NVMe namespace (NVME_IOCTL_ID: ", 50),
	   "no namespace id: said so (%s)", msg);
}

/* ---- crypto ---- */

static void test_crypto(void)
{
	struct dix_devdesc t;

	memset(&t, 0, sizeof(t));
	is_str(devdesc_verb(&t, false), "read", "a device: reads are reads");
	is_str(devdesc_verb(&t, true), "write", "a device: writes are writes");
	ok(!t.self_checked && !t.injects && !t.uncaught,
	   "a device: the job checks, --inject is --pi app's, its own words");

	devdesc_open_crypto(&t, "kcapi:gcm(aes)", "gcm(aes)", 1 << 20, 4096);
	ok(t.crypto && t.fd == -1 && t.size == 1 << 20 && t.lbs == 4096,
	   "crypto: no device; 1 MiB of 4096-byte requests as its blocks");
	ok(!strcmp(t.alg, "gcm(aes)") && !strcmp(t.name, "gcm(aes)") &&
	   !strcmp(t.path, "kcapi:gcm(aes)"),
	   "crypto: the algorithm is its name, the engine:alg its path");
	is_str(devdesc_verb(&t, false), "decrypt", "crypto: a read is a decrypt");
	is_str(devdesc_verb(&t, true), "encrypt", "crypto: a write is an encrypt");
	ok(t.self_checked, "crypto: the engine checks every result itself");
	ok(t.injects, "crypto: --inject (tag@N) without --pi app");
	ok(t.uncaught && strstr(t.uncaught, "wrong authentication tag not caught"),
	   "crypto: an accepted wrong tag in its words (%s)", t.uncaught);
	ok(!strcmp(t.integrity.format, "none") && t.lbmd.err == ENOTBLK &&
	   !t.scsi.asked && !t.nvme.asked,
	   "crypto: no integrity format, no block layer, no device to ask");
}

/* ---- block ---- */

static void test_lbmd(void)
{
	struct devdesc_lbmd l;
	struct pi_format f;
	char why[200];
	long n;

	n = hexfile_load("lbmd-t10dif-type1-crc.hex", a, sizeof(a));
	is_int(devdesc_lbmd_parse(a, n, &l), 0, "T10-DIF-TYPE1-CRC: parses");
	ok(l.interval == 512 && l.size == 8 && l.pi_size == 8 &&
	   l.ref_tag_size == 4, "T10-DIF-TYPE1-CRC: the fields at their offsets");
	is_int(devdesc_lbmd_pif(&l, &f, why, sizeof(why)), 0, "T10-DIF-TYPE1-CRC: a format");
	ok(f.guard == DIX_GUARD_CRC16 && f.type == PI_TYPE1 && f.interval == 512 &&
	   f.ms == 8 && !f.pi_first && !f.interleaved,
	   "T10-DIF-TYPE1-CRC: CRC16, Type 1, 512 + 8, separate");

	n = hexfile_load("lbmd-nvme-crc64-type3-first.hex", a, sizeof(a));
	devdesc_lbmd_parse(a, n, &l);
	is_int(devdesc_lbmd_pif(&l, &f, why, sizeof(why)), 0, "NVMe CRC64 Type 3: a format");
	ok(f.guard == DIX_GUARD_CRC64 && f.type == PI_TYPE3 && f.interval == 4096 &&
	   f.ms == 64 && f.pi_first,
	   "NVMe CRC64: no ref tag checked is Type 3; 4096 + 64, PI first");

	n = hexfile_load("lbmd-none.hex", a, sizeof(a));
	devdesc_lbmd_parse(a, n, &l);
	is_int(devdesc_lbmd_pif(&l, &f, why, sizeof(why)), -EOPNOTSUPP, "no metadata: no format");
	is_str(why, "the device carries no protection information (integrity metadata 0 bytes, PI 0 bytes)",
	       "no metadata: said so");

	n = hexfile_load("lbmd-pi-middle.hex", a, sizeof(a));
	devdesc_lbmd_parse(a, n, &l);
	is_int(devdesc_lbmd_pif(&l, &f, why, sizeof(why)), -EOPNOTSUPP, "PI in the middle: refused");
	is_str(why, "unsupported PI layout: protection interval 512 bytes, metadata 16 bytes, PI 8 bytes at byte 4 of the metadata",
	       "PI in the middle: the layout named");

	n = hexfile_load("lbmd-guard-unknown.hex", a, sizeof(a));
	devdesc_lbmd_parse(a, n, &l);
	is_int(devdesc_lbmd_pif(&l, &f, why, sizeof(why)), -EOPNOTSUPP, "guard type 3: refused");
	is_str(why, "unknown guard tag type 3", "guard type 3: named");

	n = hexfile_load("lbmd-trunc.hex", a, sizeof(a));
	is_int(n, 12, "cut to 12 bytes");
	is_int(devdesc_lbmd_parse(a, n, &l), -EBADMSG, "cut to 12 bytes: malformed");
}

int main(void)
{
	test_scsi_from();
	test_scsi_ask();
	test_nvme();
	test_lbmd();
	test_crypto();
	return tap_done();
}
