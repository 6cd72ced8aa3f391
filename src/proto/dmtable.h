/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmtable.h - a device-mapper table as the DM ioctls return it
 * (DM_TABLE_STATUS with DM_STATUS_TABLE_FLAG), read into what a load on
 * the mapping depends on: the targets, dm-crypt's cipher, dm-integrity's
 * hash, tag size and journal mode, the devices underneath, and the crypto
 * algorithms the kernel allocated for them.
 *
 * The ioctl returns the keys (dmsetup masks them unless --showkeys): the
 * dm-crypt key and dm-integrity's internal_hash, journal_crypt and
 * journal_mac keys.  The parser masks every one of them in the text it
 * keeps, so no printer downstream can leak one; whoever must reload the
 * table as read keeps the raw text itself.  Pure functions over buffers,
 * tested on canned tables (tests/unit/test-dmtable.c).
 */
#ifndef DIX_DMTABLE_H
#define DIX_DMTABLE_H

#include <stddef.h>
#include <stdint.h>

#define DMT_TARGETS_MAX	8
#define DMT_ALGS_MAX	4
#define DMT_NAME_LEN	128
#define DMT_PARAMS_LEN	1024
/* what a key is replaced with in the kept text */
#define DMT_KEY_MASK	"<key>"

/* What a crypto algorithm does for the target. */
enum dmt_alg_use {
	DMT_USE_SKCIPHER,	/* dm-crypt's cipher (crypto_alloc_skcipher) */
	DMT_USE_AEAD,		/* dm-crypt's AEAD (crypto_alloc_aead) */
	DMT_USE_INTERNAL_HASH,	/* dm-integrity's tags (crypto_alloc_shash) */
	DMT_USE_JOURNAL_CRYPT,	/* dm-integrity's journal encryption */
	DMT_USE_JOURNAL_MAC,	/* dm-integrity's journal MAC (shash) */
};

/**
 * struct dmt_alg - one crypto algorithm a target allocated.
 * @name: the crypto API's algorithm name ("xts(aes)", "crc32c")
 * @use: enum dmt_alg_use
 * @keyed: the table carries a key for it (masked)
 */
struct dmt_alg {
	char name[DMT_NAME_LEN];
	int use;
	int keyed;
};

/**
 * struct dmt_target - one line of a table.
 * @start, @len: the line's sectors
 * @type: target type ("crypt", "integrity", "linear" ...)
 * @params: the parameters with every key replaced by DMT_KEY_MASK
 * @dev: the device underneath as the table names it ("8:0"; "" none)
 * @dev_offset: sectors into @dev
 * @cipher: crypt: the cipher specification ("aes-xts-plain64")
 * @ivmode: crypt: the IV generator ("plain64", "essiv:sha256"; "" none)
 * @key_bytes: crypt: key length in bytes (hex digits / 2)
 * @keyring: crypt: the key is a kernel keyring reference (":32:logon:x"),
 *	so the table as read does not hold the key
 * @sector_size: crypt: encryption sector size (512 unless given)
 * @aead_tag: crypt: "integrity:N:aead": the AEAD's tag bytes (else 0)
 * @tag_size: integrity: tag bytes per sector (0: the hash's size)
 * @mode: integrity: 'J' journal, 'B' bitmap, 'D' direct, 'R' recovery
 * @algs: crypto algorithms of the target (@nalgs of them)
 */
struct dmt_target {
	uint64_t start;
	uint64_t len;
	char type[16];
	char params[DMT_PARAMS_LEN];
	char dev[32];
	uint64_t dev_offset;
	char cipher[DMT_NAME_LEN];
	char ivmode[48];
	unsigned int key_bytes;
	int keyring;
	unsigned int sector_size;
	unsigned int aead_tag;
	unsigned int tag_size;
	char mode;
	struct dmt_alg algs[DMT_ALGS_MAX];
	int nalgs;
};

/**
 * dmt_parse_target() - read one table line (@type and its @params as the
 * kernel prints them) into @t.  @t->params never holds a key: a line
 * that cannot be read keeps only "<unreadable>" there.
 *
 * Return: 0, or -EINVAL (malformed for its type; @t->type and the
 * sectors are still set).
 */
int dmt_parse_target(uint64_t start, uint64_t len, const char *type,
		     const char *params, struct dmt_target *t);

/**
 * dmt_parse_specs() - walk the result of DM_TABLE_STATUS: @count struct
 * dm_target_spec records in @buf (@len bytes, the ioctl's data area; each
 * record's next is an offset from @buf), each followed by its parameter
 * string, into @out (at most @max).
 *
 * Return: the number of targets read, or -EBADMSG when a record or its
 * string runs past @len or next does not advance, or -E2BIG when @count
 * exceeds @max.  A target whose line is malformed is kept (see
 * dmt_parse_target()).
 */
int dmt_parse_specs(const uint8_t *buf, size_t len, uint32_t count,
		    struct dmt_target *out, int max);

/**
 * dmt_integrity_mismatches() - walk a DM_TABLE_STATUS reply of status
 * lines (not the table: no DM_STATUS_TABLE_FLAG), as dmt_parse_specs()
 * does, adding up the first field of each dm-integrity line: the checksum
 * mismatches the kernel counted since that table was loaded.
 * @sum: receives the total
 *
 * Return: the number of integrity lines (0: none), or -EBADMSG for a
 * malformed reply or an integrity line that does not start with a count.
 */
int dmt_integrity_mismatches(const uint8_t *buf, size_t len, uint32_t count,
			     uint64_t *sum);

/**
 * dmt_crypt_alg() - the crypto API name dm-crypt allocates for @cipher
 * ("aes-xts-plain64" -> "xts(aes)", "capi:xts(aes)-plain64" -> "xts(aes)",
 * "aes-cbc-essiv:sha256" -> "cbc(aes)"; an old "aes" is cbc with plain
 * IVs), with the IV mode in @iv.
 *
 * Return: 0, or -EINVAL.
 */
int dmt_crypt_alg(const char *cipher, char *alg, size_t alglen, char *iv,
		  size_t ivlen);

/** dmt_use_name() - "skcipher", "aead", "internal_hash" ... */
const char *dmt_use_name(int use);

#endif
