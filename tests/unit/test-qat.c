// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-qat.c - the start line's word on QAT (src/kernel/qat.c) over fake
 * /sys and /proc trees: the four states a machine can be in (card and
 * algorithms, card alone, driver alone, algorithms with no card), which
 * driver the kernel selects, and silence where there is no QAT at all.
 * The bed has no QAT device, so this is where a present one is tested;
 * the absent case also runs on a real kernel (tests/vm/qat-absent.sh).
 */
#include "config.h"

#include <string.h>

#include "kernel/qat.h"
#include "tap.h"
#include "fakesys.h"

static const char crypto_qat[] =
	"name         : xts(aes)\n"
	"driver       : xts-aes-vaes-avx512\n"
	"module       : aesni_intel\n"
	"priority     : 800\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"async        : no\n"
	"\n"
	"name         : xts(aes)\n"
	"driver       : qat_aes_xts\n"
	"module       : intel_qat\n"
	"priority     : 100\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"async        : yes\n"
	"\n"
	"name         : cbc(aes)\n"
	"driver       : qat_aes_cbc\n"
	"module       : intel_qat\n"
	"priority     : 4001\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"async        : yes\n"
	"\n";

static const char crypto_none[] =
	"name         : xts(aes)\n"
	"driver       : xts(ecb(aes-generic))\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"async        : no\n"
	"\n";

/* a machine: @dev a QAT PCI function or not, /proc/crypto @crypto, /proc/modules @mods */
static void machine(const char *root, int dev, int bound, const char *crypto,
		    const char *mods)
{
	char sys[600], proc[600];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	fs_rmtree(sys);
	fs_rmtree(proc);
	/* an unrelated Intel function first: its id is not QAT's */
	fs_write(sys, "bus/pci/devices/0000:00:1f.0/vendor", "0x8086\n");
	fs_write(sys, "bus/pci/devices/0000:00:1f.0/device", "0x7a84\n");
	if (dev) {
		fs_write(sys, "bus/pci/devices/0000:6b:00.0/vendor", "0x8086\n");
		fs_write(sys, "bus/pci/devices/0000:6b:00.0/device", "0x4940\n");
		if (bound)
			fs_link(sys, "bus/pci/devices/0000:6b:00.0/driver",
				"../../../bus/pci/drivers/4xxx");
	}
	fs_mkdirs(root, "proc");
	fs_write(proc, "crypto", crypto);
	fs_write(proc, "modules", mods);
}

static const char *sysp(const char *root)
{
	static char sys[600];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	return sys;
}

static int note(const char *root, char *out, size_t len)
{
	char sys[600], proc[600];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	out[0] = 0;
	return qat_note(sys, proc, out, len);
}

int main(void)
{
	const char *qmods = "qat_4xxx 40960 0 - Live 0x0\nintel_qat 409600 1 qat_4xxx, Live 0x0\n";
	char root[512], proc[600], out[1024];
	struct qat_seen q;
	int r;

	fs_tmpdir(root, sizeof(root), "qat");

	machine(root, 0, 0, crypto_none, "crc32c_intel 16384 0 - Live 0x0\n");
	r = note(root, out, sizeof(out));
	ok(r == 0 && !out[0], "no QAT: nothing said (got %d '%s')", r, out);

	machine(root, 1, 1, crypto_qat, qmods);
	r = note(root, out, sizeof(out));
	printf("# %s\n", out);
	ok(r == 1 && strstr(out, "QAT: 1 device (0000:6b:00.0 4xxx (4xxx)) and 2 algorithms in /proc/crypto, 1 of them selected"),
	   "card and algorithms agree: device, kind, driver, counts");
	ok(strstr(out, "xts(aes): qat_aes_xts (100), the kernel selects xts-aes-vaes-avx512 (800)") != NULL,
	   "xts(aes): QAT at 100 loses to the selected AES driver, both named with their priorities");
	ok(strstr(out, "cbc(aes): qat_aes_cbc (4001), selected") != NULL,
	   "cbc(aes): QAT at 4001 is the kernel's pick");
	snprintf(proc, sizeof(proc), "%s/proc", root);
	ok(qat_look(sysp(root), proc, &q) == 0 && q.ndev == 1 && q.nalg == 2 && q.nsel == 1 &&
	   !strcmp(q.mods, "intel_qat, qat_4xxx"),
	   "qat_look(): 1 device, 2 algorithms, 1 selected, modules '%s'", q.mods);
	ok(qat_look("/nonexistent", "/nonexistent", &q) < 0, "neither tree readable: an error, not a silent none");

	machine(root, 1, 0, crypto_none, "");
	r = note(root, out, sizeof(out));
	printf("# %s\n", out);
	ok(r == 1 && strstr(out, "1 device on the PCI bus (0000:6b:00.0 4xxx (no driver bound)), but no QAT algorithm") &&
	   strstr(out, "no QAT module is loaded"), "a card without its driver: said, and what to load");

	machine(root, 1, 1, crypto_none, qmods);
	r = note(root, out, sizeof(out));
	ok(r == 1 && strstr(out, "its driver registered none"), "a card whose driver registered nothing: said (%s)", out);

	machine(root, 0, 0, crypto_none, qmods);
	r = note(root, out, sizeof(out));
	printf("# %s\n", out);
	ok(r == 1 && strstr(out, "QAT: modules intel_qat, qat_4xxx loaded, no QAT device on the PCI bus: it registers no algorithm"),
	   "the driver without a card: registers nothing, said");

	machine(root, 0, 0, crypto_qat, qmods);
	r = note(root, out, sizeof(out));
	ok(r == 1 && strstr(out, "/sys/bus/pci disagrees"), "algorithms without a card: the two sources disagree, said (%s)", out);

	fs_rmtree(root);
	return tap_done();
}
