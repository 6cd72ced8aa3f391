// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-precond.c - the preconditioning decision (auto/on/off against the
 * workload, the target's integrity format and the engine) and the size of
 * its writes.
 */
#include "config.h"

#include <string.h>

#include "conf/options.h"
#include "core/precond.h"
#include "tap.h"

/* An engine that carries dixload's PI (as sg and nvme do), and one that
 * does not (as libaio); nothing here calls them. */
static const struct dix_engine eng_pi = {
	.name = "nvme", .targets = DIX_TGT_NVME, .app_pi = DIX_APP_PI_NVME,
};
static const struct dix_engine eng_blk = {
	.name = "libaio", .targets = DIX_TGT_BLOCK,
};

static void target(struct dix_devdesc *t, int blk, const char *format,
		   unsigned int max_kb)
{
	memset(t, 0, sizeof(*t));
	t->path = blk ? "/dev/sda" : "/tmp/f.img";
	strcpy(t->name, blk ? "sda" : "f.img");
	t->is_blk = blk;
	t->lbs = 512;
	t->size = 256 << 20;
	t->max_sectors_kb = max_kb;
	strcpy(t->integrity.format, format);
}

static void test_decide(void)
{
	struct dix_opts o;
	struct dix_devdesc t;
	struct precond_plan p;

	opts_init(&o);
	is_int(o.precondition, PRECOND_AUTO, "default is auto");
	o.size = 256 << 20;

	target(&t, 1, "T10-DIF-TYPE1-CRC", 512);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(p.on && !strcmp(p.reason, "auto: reads on a T10-DIF-TYPE1-CRC device"),
	   "auto, randrw on a DIF device: on (%s)", p.reason);
	is_int(p.io_size, 512 << 10, "write size capped by max_sectors_kb 512");
	is_int(p.iodepth, PRECOND_DEPTH_MIN, "depth at least 4 for QD1");

	target(&t, 0, "none", 0);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && !strcmp(p.reason, "auto: file has no PI"),
	   "auto on a file: off (%s)", p.reason);

	target(&t, 1, "none", 1280);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && strstr(p.reason, "no integrity format"),
	   "auto on a plain disk: off (%s)", p.reason);
	is_int(p.io_size, 1 << 20, "1 MiB under a 1280 KiB limit");

	target(&t, 1, "nop", 0);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && strstr(p.reason, "nop"), "auto on format nop: off (%s)",
	   p.reason);

	/* an engine carrying dixload's own PI: on even where the kernel
	 * shows no format (the namespace behind a passthrough engine) */
	o.pi = PI_APP;
	precond_decide(&o, NULL, &t, &eng_pi, &p);
	ok(p.on && strstr(p.reason, "--pi app through engine nvme"),
	   "auto, --pi app through a PI engine: on (%s)", p.reason);
	o.pi = PI_KERNEL;

	target(&t, 1, "T10-DIF-TYPE1-CRC", 0);
	o.rw = RW_RANDWRITE;
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && strstr(p.reason, "does not read"),
	   "auto, write-only: off (%s)", p.reason);
	o.rw = RW_READ;
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && strstr(p.reason, "read-only"),
	   "auto, read-only: off, the data there is what it checks (%s)",
	   p.reason);

	o.precondition = PRECOND_ON;
	target(&t, 0, "none", 0);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(p.on && !strcmp(p.reason, "precondition=on"),
	   "on: on whatever the target (%s)", p.reason);
	precond_decide(&o, "dif1", &t, &eng_blk, &p);
	ok(p.on && !strcmp(p.reason, "profile dif1: precondition=on"),
	   "on from a profile names it (%s)", p.reason);
	o.precondition = PRECOND_OFF;
	o.rw = RW_RANDRW;
	target(&t, 1, "T10-DIF-TYPE1-CRC", 0);
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	ok(!p.on && !strcmp(p.reason, "precondition=off"),
	   "off: off on a DIF device (%s)", p.reason);

	o.iodepth = 16;
	precond_decide(&o, NULL, &t, &eng_blk, &p);
	is_int(p.iodepth, 16, "a deeper --iodepth is kept");
	opts_free(&o);
}

static void test_io_size(void)
{
	is_int(precond_io_size(256 << 20, 512, 0), 1 << 20, "no limit: 1 MiB");
	is_int(precond_io_size(256 << 20, 512, 127), 127 << 10,
	       "a limit that is no power of two is kept (127 KiB)");
	is_int(precond_io_size(256 << 20, 4096, 2), 4096,
	       "a limit below the block size: one block");
	is_int(precond_io_size(192 << 10, 512, 0), 192 << 10,
	       "capped by the slice");
	is_int(precond_io_size(256 << 20, 4096, 1023), 1020 << 10,
	       "rounded down to the block size");
}

int main(void)
{
	test_decide();
	test_io_size();
	return tap_done();
}
