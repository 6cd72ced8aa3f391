/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmmap.h - a device-mapper mapping under the load: its table and the
 * tables of the mappings beneath it, read with the DM ioctls, as a layer
 * of the device description over the block provider (doc/devices.md).
 *
 * The description keeps no key (proto/dmtable.h masks them where they
 * are read).  dmctl_table() hands out the raw table, keys included, for
 * the one caller that must load it again (--dm-reload); that caller keeps
 * it in memory only and wipes it.
 */
#ifndef DIX_DMMAP_H
#define DIX_DMMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto/dmtable.h"

#define DMMAP_LEVELS	4
#define DMMAP_ALGS	8

/**
 * struct dmmap_level - one mapping of the stack.
 * @name: its dm name ("dixdm")
 * @major, @minor: its device number
 * @ntargets: lines of its live table, in @t
 * @t: the lines, keys masked
 * @under: per line, the name of the device it maps onto ("sda"; "" none)
 */
struct dmmap_level {
	char name[128];
	unsigned int major, minor;
	int ntargets;
	struct dmt_target t[DMT_TARGETS_MAX];
	char under[DMT_TARGETS_MAX][32];
};

/**
 * struct dmmap_alg - one crypto algorithm a mapping allocated, and what
 * the kernel would give it (filled by kernel/dmbind.c).
 * @level, @target: where: @level's line @target
 * @name, @use: the algorithm and what it does (enum dmt_alg_use)
 * @now: the driver the mapping would get if it allocated now ("" none)
 * @now_prio: its priority
 * @kernel: the driver a plain lookup selects, when that differs from
 *	@now because the mapping cannot take it ("" otherwise)
 * @kernel_why: why the mapping cannot take @kernel
 * @held: the driver the live mapping holds, inferred (no kernel interface
 *	says): the selection when dixload started
 */
struct dmmap_alg {
	int level, target;
	char name[DMT_NAME_LEN];
	int use;
	char now[DMT_NAME_LEN];
	int now_prio;
	char kernel[DMT_NAME_LEN];
	char kernel_why[192];
	char held[DMT_NAME_LEN];
};

/**
 * struct dmmap - the stack from the loaded mapping (level 0) down.
 * @nlevels: mappings read
 * @lv: the mappings
 * @nalgs: crypto algorithms of the whole stack, in @algs
 */
struct dmmap {
	int nlevels;
	struct dmmap_level lv[DMMAP_LEVELS];
	int nalgs;
	struct dmmap_alg algs[DMMAP_ALGS];
};

/**
 * dmctl_table() - the live table of mapping @major:@minor (@table 1) or
 * its status lines (@table 0), through /dev/mapper/control.
 * @buf: receives the malloc'ed data area (struct dm_target_spec records,
 *	each followed by its string); with @table 1 it holds the keys:
 *	wipe it before freeing
 * @len: its bytes; @count: the records; @name: the mapping's name (128)
 *
 * Return: 0, or -errno (-ENXIO: not a mapping).
 */
int dmctl_table(unsigned int major, unsigned int minor, int table,
		uint8_t **buf, size_t *len, uint32_t *count, char *name);

/**
 * dmctl_open_count() - how many opens of mapping @major:@minor the kernel
 * counts (DM_DEV_STATUS open_count): each open(2) of its block device, by
 * anyone, a filesystem mounted on it and a mapping stacked on it included.
 *
 * Return: 0 with *@count, or -errno (-ENXIO: not a mapping).
 */
int dmctl_open_count(unsigned int major, unsigned int minor, int *count);

/**
 * dmmap_mismatches() - the checksum mismatches dm-integrity counted on
 * mapping @major:@minor since its table was loaded (the first field of its
 * status line, summed over its integrity lines; a reload starts it at 0).
 *
 * Return: the number of integrity lines (0: the mapping has none), or
 * -errno.
 */
int dmmap_mismatches(unsigned int major, unsigned int minor, uint64_t *count);

/**
 * dmmap_read() - describe the mapping @major:@minor and the mappings
 * under it.  @sysroot: where sysfs is ("/sys").
 *
 * Return: 1 and *@out (free with dmmap_free()) for a mapping, 0 when the
 * device is no mapping (*@out NULL), -errno when its table cannot be
 * read, with @err saying why.
 */
int dmmap_read(const char *sysroot, unsigned int major, unsigned int minor,
	       struct dmmap **out, char *err, size_t errlen);

/** dmmap_free() - release @m (NULL is fine). */
void dmmap_free(struct dmmap *m);

/**
 * dmmap_print() - the start lines: one per table line ("dm: dixdm crypt
 * aes-xts-plain64 (xts(aes), IV plain64, key 64 bytes) over sda") and
 * one per algorithm with its drivers.
 */
void dmmap_print(FILE *f, const struct dmmap *m);

struct jw;

/** dmmap_json() - the same as the JSON member @key (doc/json.md). */
void dmmap_json(struct jw *w, const char *key, const struct dmmap *m);

/** dmmap_mode_name() - "journal", "bitmap", "direct", "recovery". */
const char *dmmap_mode_name(char mode);

#endif
