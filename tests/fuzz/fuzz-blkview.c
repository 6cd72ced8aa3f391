// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-blkview.c - the kernel's block and integrity view read from a sysfs
 * tree whose attribute values are the input (fakeblk.h: "KEY=VALUE" lines
 * for the disk's size, queue limits, integrity profile, partition, dm and
 * device attributes, slaves and holders).  One tree in a temporary
 * directory serves every input; its attributes are rewritten each time.
 *
 * What is read is then used as dixload uses it: the disk and its
 * partition through blkview_read_dev(), the name lookup, the controller
 * attributes, the partition and holder lists, and the probe's diagnosis
 * and reports of a SCSI disk with that view.
 *
 * Checks: the view always has a non-zero logical and physical block size
 * and a format string, terminated, as devdesc_open() and the probe assume;
 * a partition reports its disk.
 */
#include "config.h"

#include <sys/stat.h>

#include "device/blkview.h"
#include "fakeblk.h"
#include "fuzz.h"

static char root[PATH_MAX];

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "fuzz-blkview: could not remove %s\n",
				root);
	}
}

static void setup(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/dix-fuzz-blkview-XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(root) || fakeblk_init(root)) {
		fprintf(stderr, "fuzz-blkview: cannot make a tree in %s\n", root);
		abort();
	}
	atexit(remove_tree);
}

static void check_view(const struct blkview *bv, const char *what)
{
	FUZZ_CHECK(bv->logical_block_size && bv->physical_block_size,
		   "%s: block sizes %u/%u", what, bv->logical_block_size,
		   bv->physical_block_size);
	FUZZ_CHECK(memchr(bv->format, 0, sizeof(bv->format)) && bv->format[0],
		   "%s: format", what);
	FUZZ_CHECK(memchr(bv->name, 0, sizeof(bv->name)) &&
		   memchr(bv->disk, 0, sizeof(bv->disk)) &&
		   memchr(bv->slaves, 0, sizeof(bv->slaves)), "%s: names", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_result *r = fuzz_probe_scsi();
	char dir[PATH_MAX], buf[256];
	struct blkview part;
	unsigned int ma, mi;

	if (!root[0])
		setup();
	if (fakeblk_apply(root, (const char *)data, size))
		abort();

	if (!blkview_read_dev(root, 8, 0, &r->bv)) {
		check_view(&r->bv, "sda");
		if (!blkview_diskdir(root, &r->bv, dir, sizeof(dir))) {
			blkview_ctrl_attr(dir, "model", buf, sizeof(buf));
			blkview_partitions(dir, buf, sizeof(buf));
			blkview_list_dir(dir, "holders", buf, sizeof(buf));
		}
		fuzz_probe(r);
	}
	if (!blkview_read_dev(root, 8, 1, &part)) {
		check_view(&part, "sda1");
		FUZZ_CHECK(!part.is_partition || !strcmp(part.disk, "sda"),
			   "partition of '%s'", part.disk);
	}
	if (!blkview_name_dev(root, "sda", &ma, &mi))
		blkview_read_dev(root, ma, mi, &part);
	return 0;
}
