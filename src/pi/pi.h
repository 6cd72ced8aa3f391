/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pi.h - T10 DIF/DIX and NVMe end-to-end protection information in user
 * space: tuple layouts, generation, verification with the failing tag named,
 * and deliberate corruption for fault injection.  Pure functions over
 * buffers; no I/O here.
 *
 * Tuple layouts (all fields big-endian), chosen by the guard:
 *   crc16, ip  8 bytes: guard 16 | app 16 | ref 32            (T10 DIF, NVMe 16b)
 *   crc64     16 bytes: guard 64 | app 16 | ref 48            (NVMe 64b guard)
 *   crc32c    16 bytes: guard 32 | app 16 | storage+ref 80    (NVMe 32b guard)
 * NVMe lets a namespace carve a storage tag (STS bits) out of the top of the
 * storage+ref field.  dixload supports storage tag size 0 only: the whole
 * field is the reference tag (48 bits; 80 bits, of which dixload writes and
 * expects the top 16 as zero since LBAs and ref seeds are 64-bit).
 *
 * The guard covers the interval's data and, when the tuple is the *last*
 * bytes of a metadata area larger than the tuple, the metadata bytes in
 * front of it (NVMe rule; with PI first only the data is covered).
 *
 * Reference tag rules per interval i of a buffer (see struct pi_io):
 *   Type 1: ref = io->ref + i, io->ref being the low bits of the LBA;
 *   Type 2: ref = io->ref + i, io->ref the command's expected initial ref;
 *   Type 3: ref = io->ref in every interval, never checked (owned by the
 *           application).
 * Escapes (the device skips all checks of the interval): app tag 0xffff
 * for Types 1 and 2; app tag 0xffff together with an all-ones ref tag for
 * Type 3.
 */
#ifndef DIX_PI_H
#define DIX_PI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pi/crc.h"
#include "lib/stats.h"

enum pi_type {
	PI_TYPE1 = 1,
	PI_TYPE2 = 2,
	PI_TYPE3 = 3,
};

/* Which tags pi_verify() checks; same bit values as Linux's IO_INTEGRITY_CHK_*. */
#define PI_CHECK_GUARD	(1u << 0)
#define PI_CHECK_REF	(1u << 1)
#define PI_CHECK_APP	(1u << 2)
#define PI_CHECK_ALL	(PI_CHECK_GUARD | PI_CHECK_REF | PI_CHECK_APP)

#define PI_APP_ESCAPE	0xffffu

/**
 * struct pi_format - how protection information is laid out on a device.
 * @guard: guard algorithm; also selects the tuple layout (8 or 16 bytes)
 * @type: protection type 1, 2 or 3
 * @interval: data bytes per protection interval: a power of two >= 512
 *            (usually the logical block size)
 * @ms: metadata bytes per interval, >= pi_tuple_size(@guard) (NVMe "ms";
 *      8 for a T10 DIF disk)
 * @pi_first: the tuple is the first bytes of the metadata (NVMe PIL=1);
 *            false: the last bytes (T10, NVMe PIL=0)
 * @interleaved: each interval's metadata directly follows its data in one
 *            buffer (a DIF-formatted SCSI disk over SG_IO, NVMe extended
 *            LBAs); false: metadata in a separate buffer, @ms bytes per
 *            interval (DIX, NVMe separate metadata)
 */
struct pi_format {
	enum dix_guard guard;
	enum pi_type type;
	uint32_t interval;
	uint32_t ms;
	bool pi_first;
	bool interleaved;
};

/**
 * struct pi_tuple - one decoded tuple.
 * @guard: guard tag (16, 32 or 64 bits)
 * @app: application tag
 * @ref: reference tag (32 or 48 bits; the low 64 bits of the 80-bit field)
 * @ref_hi: bits 64..79 of the 80-bit field of the crc32c layout; else 0
 */
struct pi_tuple {
	uint64_t guard;
	uint16_t app;
	uint64_t ref;
	uint16_t ref_hi;
};

/**
 * struct pi_io - the per-command values of one buffer.
 * @lba: address of the buffer's first interval, counted in intervals; only
 *       used to name the LBA in failures
 * @ref: reference tag of the first interval (Type 1: the LBA's low bits, or
 *       a seed some layer remaps, as io_uring's; Type 2: the command's
 *       expected initial reference tag; Type 3: the value stored)
 * @app: application tag written, and expected (under @app_mask)
 * @app_mask: application tag bits checked (NVMe ELBATM); 0xffff = all
 * @checks: PI_CHECK_* bits: which tags pi_verify() compares (NVMe PRCHK)
 */
struct pi_io {
	uint64_t lba;
	uint64_t ref;
	uint16_t app;
	uint16_t app_mask;
	unsigned int checks;
};

/**
 * struct pi_fail - one tag that did not match (or that pi_corrupt() broke).
 * @kind: DIX_ERR_GUARD, DIX_ERR_APP or DIX_ERR_REF
 * @index: interval index within the buffer
 * @lba: io->lba + @index
 * @expected: value the tag should have held (app: unmasked)
 * @found: value it held
 * @expected_hi: bits 64..79 of an expected 80-bit reference tag; else 0
 * @found_hi: bits 64..79 of a found 80-bit reference tag; else 0
 * @bits: width of the tag: 16, 32, 48, 64 or 80
 */
struct pi_fail {
	enum dix_errkind kind;
	size_t index;
	uint64_t lba;
	uint64_t expected;
	uint64_t found;
	uint16_t expected_hi;
	uint16_t found_hi;
	unsigned int bits;
};

/** pi_tuple_size() - bytes of the tuple of guard @g: 8 or 16. */
size_t pi_tuple_size(enum dix_guard g);

/** pi_ref_bits() - width of the reference tag of guard @g's layout: 32, 48 or 80. */
unsigned int pi_ref_bits(enum dix_guard g);

/**
 * pi_format_check() - validate a format.
 * @f: the format
 *
 * Return: 0, or -EINVAL (unknown guard or type, interval not a power of two
 * >= 512, ms smaller than the tuple or above 65535).
 */
int pi_format_check(const struct pi_format *f);

/**
 * pi_format_parse() - format from a comma-separated description.
 * @s: tokens in any order: a guard name (crc16 ip crc32c crc64), type1..3
 *     (or 1..3 after "type="), an interval ("512", "4096", "interval=N"),
 *     "ms=N", "first"/"last", "separate"/"interleaved" (or "extended");
 *     e.g. "crc64,type1,4096,ms=16,first"
 * @f: result; unspecified fields default to crc16, type 1, 512, ms = the
 *     tuple size, last, separate
 *
 * Return: 0, or -EINVAL for an unknown token or an invalid combination.
 */
int pi_format_parse(const char *s, struct pi_format *f);

/**
 * pi_format_describe() - "crc16 type1 512+8 last separate" style text.
 * @f: the format
 * @buf: output
 * @len: its size
 *
 * Return: what snprintf() returns.
 */
int pi_format_describe(const struct pi_format *f, char *buf, size_t len);

/** pi_data_len() - bytes of the data buffer for @nr intervals (metadata included when interleaved). */
size_t pi_data_len(const struct pi_format *f, size_t nr);

/** pi_meta_len() - bytes of the separate metadata buffer for @nr intervals; 0 when interleaved. */
size_t pi_meta_len(const struct pi_format *f, size_t nr);

/**
 * pi_interleave() - the interleaved layout of @nr intervals: each
 * @interval bytes of @data followed by its @ms bytes of @meta, into @dst.
 * @dst: nr * (@interval + @ms) bytes
 * @data: nr * @interval bytes
 * @meta: nr * @ms bytes (separate layout)
 * @interval: data bytes per interval
 * @ms: metadata bytes per interval
 * @nr: number of intervals
 *
 * For wires that want the metadata inside the data buffer (a DIF disk over
 * SG_IO, NVMe extended LBAs) while the job keeps it separate.
 */
void pi_interleave(void *dst, const void *data, const void *meta,
		   size_t interval, size_t ms, size_t nr);

/**
 * pi_deinterleave() - undo pi_interleave(): split @src into @data and @meta.
 * @src: nr * (@interval + @ms) bytes
 * @data: receives nr * @interval bytes
 * @meta: receives nr * @ms bytes, or NULL to drop the metadata
 * @interval: data bytes per interval
 * @ms: metadata bytes per interval
 * @nr: number of intervals
 */
void pi_deinterleave(const void *src, void *data, void *meta,
		     size_t interval, size_t ms, size_t nr);

/**
 * pi_tuple_ptr() - where interval @i's tuple lives.
 * @f: the format
 * @data: data buffer
 * @meta: metadata buffer (ignored when interleaved)
 * @i: interval index
 *
 * Return: pointer to the tuple's first byte.
 */
void *pi_tuple_ptr(const struct pi_format *f, void *data, void *meta, size_t i);

/** pi_tuple_pack() - encode @t in guard @g's layout at @out (8 or 16 bytes). */
void pi_tuple_pack(enum dix_guard g, const struct pi_tuple *t, void *out);

/** pi_tuple_unpack() - decode guard @g's layout at @in into @t. */
void pi_tuple_unpack(enum dix_guard g, const void *in, struct pi_tuple *t);

/**
 * pi_io_init() - the usual per-command values for a buffer starting at @lba.
 * @io: result
 * @f: the format
 * @lba: first interval's address (in intervals)
 *
 * ref = @lba (Type 1 rule; also the customary Type 2 seed and the stored
 * Type 3 value), app = 0, app_mask = 0xffff, checks = PI_CHECK_ALL.
 */
void pi_io_init(struct pi_io *io, const struct pi_format *f, uint64_t lba);

/**
 * pi_ref_expected() - reference tag interval @i must carry.
 * @f: the format
 * @io: the command's values
 * @i: interval index
 *
 * Return: the tag, truncated to the layout's width (low 64 bits of 80).
 */
uint64_t pi_ref_expected(const struct pi_format *f, const struct pi_io *io, size_t i);

/**
 * pi_generate() - compute and store the tuples of @nr intervals.
 * @f: the format
 * @data: @nr intervals of data (with their metadata when interleaved)
 * @meta: @nr * @f->ms bytes of metadata (separate layout; else ignored)
 * @nr: number of intervals
 * @io: LBA, reference seed and application tag
 *
 * Metadata bytes outside the tuple are left as they are (but are covered by
 * the guard when the tuple is last).
 * Return: 0, or -EINVAL for an invalid format or a missing metadata buffer.
 */
int pi_generate(const struct pi_format *f, void *data, void *meta, size_t nr,
		const struct pi_io *io);

/**
 * pi_verify() - check the tuples of @nr intervals like a device would.
 * @f: the format
 * @data: data (and interleaved metadata)
 * @meta: separate metadata, or ignored
 * @nr: number of intervals
 * @io: expected values and the tags to check (@io->checks)
 * @fail: if not NULL, receives the first failure (guard is checked before
 *        app before ref within an interval, as devices do)
 *
 * Escaped intervals (see the top of this file) are skipped.
 * Return: the number of intervals with a mismatch (0 = all good), or
 * -EINVAL for an invalid format or a missing metadata buffer.
 */
long pi_verify(const struct pi_format *f, const void *data, const void *meta,
	       size_t nr, const struct pi_io *io, struct pi_fail *fail);

/**
 * pi_corrupt() - deliberately break one tag of one tuple (fault injection).
 * @f: the format
 * @data: data (and interleaved metadata)
 * @meta: separate metadata, or ignored
 * @nr: number of intervals in the buffer
 * @index: interval whose tuple to break
 * @kind: DIX_ERR_GUARD, DIX_ERR_APP or DIX_ERR_REF
 * @io: the command's values (which tags get checked; the LBA)
 * @what: if not NULL, receives what was changed, in the form pi_verify()
 *        reports it (@expected = old value, @found = new value)
 *
 * One bit of the tag is flipped, chosen so the tuple does not become an
 * escape.  The change is refused when no check could notice it.
 * Return: 0; -EINVAL for a bad argument; -EOPNOTSUPP when the tag would not
 * be checked (Type 3 ref, tag not in @io->checks, app bits all masked, the
 * tuple is an escape), in which case the buffer is unchanged.
 */
int pi_corrupt(const struct pi_format *f, void *data, void *meta, size_t nr,
	       size_t index, enum dix_errkind kind, const struct pi_io *io,
	       struct pi_fail *what);

/**
 * pi_fail_format() - "sda: guard mismatch at LBA 123456: expected 0x1a2b,
 * found 0x0000".
 * @fail: the failure
 * @dev: device name for the prefix; NULL or "" for none
 * @buf: output
 * @len: its size
 *
 * Values are printed with as many hex digits as the tag has.
 * Return: what snprintf() returns.
 */
int pi_fail_format(const struct pi_fail *fail, const char *dev, char *buf, size_t len);

/**
 * pi_fail_values() - "expected 0x1a2b, found 0x0000": the tag values of
 * @fail, with as many hex digits as the tag has.
 * Return: what snprintf() returns.
 */
int pi_fail_values(const struct pi_fail *fail, char *buf, size_t len);

#endif
