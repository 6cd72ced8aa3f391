/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kwatch.h - snapshots of the kernel state a storage integrity experiment
 * depends on, and the difference between two snapshots.
 *
 * What is watched: the crc_t10dif library's current transform
 * (/sys/module/crc_t10dif/parameters/transform, 4.20 .. 6.14), the loaded
 * modules (/proc/modules), and /proc/crypto, from which the driver the
 * crypto API would pick for each algorithm of interest is derived the way
 * the kernel does it: the highest priority among the implementations that
 * passed their self-test and are not internal.
 *
 * Parsers work on text and snapshots take file paths, so the unit tests
 * feed canned /proc files captured from real kernels (tests/data/kwatch/).
 */
#ifndef DIX_KWATCH_H
#define DIX_KWATCH_H

#include <stddef.h>

#include "lib/event.h"

#define KW_NAME_LEN	128
#define KW_MOD_LEN	64

/**
 * struct kw_alg - one /proc/crypto entry.
 * @name: algorithm name ("xts(aes)")
 * @driver: implementation name ("xts-aes-aesni")
 * @module: module providing it ("aesni_intel", "kernel" when built in)
 * @type: "shash", "skcipher" ...
 * @priority: the crypto API's priority (higher wins)
 * @selectable: self-test passed and not internal: a lookup may return it
 * @refcnt: the kernel's reference count: 1 for a registered algorithm no
 *	one uses, +1 for each transform (TFM) or instance holding it (the
 *	sign of where open TFMs are bound)
 * @have_async: the entry has an "async" line (skcipher, aead, ahash)
 * @async: it says yes: requests may complete later, from another context
 */
struct kw_alg {
	char name[KW_NAME_LEN];
	char driver[KW_NAME_LEN];
	char module[KW_MOD_LEN];
	char type[24];
	int priority;
	int selectable;
	int refcnt;
	int have_async;
	int async;
};

/**
 * struct kw_state - one snapshot.
 * @have_transform: @transform holds the crc_t10dif parameter
 * @transform: the crc_t10dif transform driver ("crct10dif-pclmul")
 * @have_modules: /proc/modules was readable (no modules: monolithic kernel)
 * @modules: loaded module names, sorted
 * @nmodules: entries in @modules
 * @have_crypto: /proc/crypto was readable
 * @crypto: every /proc/crypto entry in file order
 * @ncrypto: entries in @crypto
 */
struct kw_state {
	int have_transform;
	char transform[KW_NAME_LEN];
	int have_modules;
	char **modules;
	int nmodules;
	int have_crypto;
	struct kw_alg *crypto;
	int ncrypto;
};

/* The algorithms whose selected driver is reported, NULL-terminated. */
extern const char *const kw_algorithms[];

enum kw_change_kind {
	KW_CHANGE_TRANSFORM,	/* crc_t10dif switched its CRC implementation */
	KW_CHANGE_DRIVER,	/* the selected driver of an algorithm changed */
};

/**
 * struct kw_change - one observed change of a selection.
 * @kind: enum kw_change_kind
 * @text: "crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul",
 *	"xts(aes): (none) -> xts-aes-aesni (401)"
 * @label: short form for a plot marker ("transform: crct10dif-pclmul")
 * @data: the facts for the event: EVD_TRANSFORM (from, to) or EVD_DRIVER
 *	(the algorithm, the implementation selected before and after)
 */
struct kw_change {
	int kind;
	char *text;
	char *label;
	struct dix_evdata data;
};

/**
 * struct kw_diff - from one snapshot to the next.
 * @loaded/@nloaded: modules that appeared
 * @unloaded/@nunloaded: modules that went away
 * @added/@nadded: selectable crypto entries that appeared
 * @removed/@nremoved: selectable crypto entries that went away
 * @changes/@nchanges: transform and driver selection changes
 */
struct kw_diff {
	char **loaded;
	int nloaded;
	char **unloaded;
	int nunloaded;
	struct kw_alg *added;
	int nadded;
	struct kw_alg *removed;
	int nremoved;
	struct kw_change *changes;
	int nchanges;
};

/**
 * kw_parse_crypto() - parse the text of /proc/crypto.
 * @text: the file's contents (NUL-terminated)
 * @out: receives a malloc'ed array of entries, in file order
 * @n: receives the number of entries
 * Return: 0, or -EINVAL when a record has no name or driver.
 */
int kw_parse_crypto(const char *text, struct kw_alg **out, int *n);

/**
 * kw_parse_modules() - parse the text of /proc/modules.
 * @out: receives a malloc'ed, sorted array of malloc'ed module names, '-'
 *	turned to '_' as the kernel names modules
 * @n: receives the number of names
 * Return: 0.
 */
int kw_parse_modules(const char *text, char ***out, int *n);

/**
 * kw_snapshot_files() - take a snapshot from explicit files; a file that
 * cannot be read leaves its part absent (have_* = 0), which is normal
 * (no modules, crc_t10dif not loaded or gone since 6.14).
 * @crypto: path of /proc/crypto or a copy of it
 * @modules: path of /proc/modules or a copy
 * @transform: path of the crc_t10dif transform parameter or a copy
 * Return: 0, or -EINVAL when a file is readable but malformed.
 */
int kw_snapshot_files(struct kw_state *s, const char *crypto,
		      const char *modules, const char *transform);

/**
 * kw_snapshot() - take a snapshot of the running kernel.
 * @proc_root: where proc is mounted ("/proc")
 * @sys_root: where sysfs is mounted ("/sys")
 * Return: as kw_snapshot_files().
 */
int kw_snapshot(struct kw_state *s, const char *proc_root,
		const char *sys_root);

/** kw_free() - release a snapshot (it may then be reused). */
void kw_free(struct kw_state *s);

/**
 * kw_select() - the entry the crypto API would return for @name: highest
 * priority among the selectable ones; on a tie the first in /proc/crypto
 * order (the kernel lists the newest registration first and keeps the
 * first best match).  Return: the entry, or NULL when none is selectable.
 */
const struct kw_alg *kw_select(const struct kw_state *s, const char *name);

/**
 * kw_module_loaded() - whether module @name ('-' and '_' alike) is in
 * @s's module list.  Return: 1 yes, 0 no, -ENOENT when the list is absent.
 */
int kw_module_loaded(const struct kw_state *s, const char *name);

/** kw_diff() - compute what changed from @a to @b into @d (cleared first). */
void kw_diff(const struct kw_state *a, const struct kw_state *b,
	     struct kw_diff *d);

/** kw_diff_free() - release the contents of @d. */
void kw_diff_free(struct kw_diff *d);

/**
 * kw_registered_text() - "registered crct10dif-pclmul (crct10dif, 200)"
 * listing @d's added entries, "; removed ..." for removed ones ("removed
 * ..." alone when nothing was added), or "registered nothing".
 * Return: a malloc'ed string.
 */
char *kw_registered_text(const struct kw_diff *d);

/**
 * kw_diff_data() - @d's module and implementation lists as the facts of
 * an event of @type (EVD_MODULES, or EVD_MODULE for the module @name),
 * copied into @out (dix_evdata_clear() frees them).
 */
void kw_diff_data(const struct kw_diff *d, int type, const char *name,
		  struct dix_evdata *out);

/** kw_normalise() - copy module name @in to @out with '-' turned to '_'. */
void kw_normalise(const char *in, char *out, size_t len);

#endif
