/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc.h - the four T10/NVMe protection-information guards and every
 * implementation of them dixload carries, with a dispatch that picks the
 * fastest one available on this CPU and build.
 *
 * Every implementation works on a raw *state* so that a guard can be
 * computed over several segments (data, then the metadata bytes in front of
 * the tuple):  result = crc_final(g, impl->update(...impl->update(
 * crc_init(g), a, la)..., b, lb)).  For the IP checksum every segment but
 * the last must have an even length (the sum is over 16-bit words).
 */
#ifndef DIX_CRC_H
#define DIX_CRC_H

#include <stddef.h>
#include <stdint.h>

/* The guard tag algorithms of T10 DIF/DIX and NVMe end-to-end protection. */
enum dix_guard {
	DIX_GUARD_CRC16,	/* CRC-16/T10-DIF: poly 0x8BB7, init 0, MSB first */
	DIX_GUARD_IP,		/* IP checksum (RFC 1071), the DIX alternative */
	DIX_GUARD_CRC32C,	/* CRC-32C (Castagnoli), NVMe 32b guard */
	DIX_GUARD_CRC64,	/* CRC-64/NVME, NVMe 64b guard */
	DIX_GUARD_NR,
};

/**
 * typedef crc_update_fn - fold @len bytes at @buf into a raw guard state.
 * @state: the state so far (crc_init() for a fresh guard)
 * @buf: the bytes; any alignment
 * @len: number of bytes; may be 0
 *
 * Return: the new raw state; crc_final() turns it into the guard value.
 */
typedef uint64_t (*crc_update_fn)(uint64_t state, const void *buf, size_t len);

/**
 * typedef crc_multi_fn - raw states of many equal-length buffers at once.
 * @init: the state every buffer starts from (crc_init())
 * @base: first buffer
 * @stride: distance in bytes from one buffer to the next
 * @len: bytes per buffer
 * @n: number of buffers
 * @out: receives the @n raw states
 *
 * Exists where working on several buffers together is faster than one by
 * one (the protection intervals of an I/O); see crc_update_many().
 */
typedef void (*crc_multi_fn)(uint64_t init, const void *base, size_t stride,
			     size_t len, size_t n, uint64_t *out);

/**
 * struct crc_impl - one implementation of one guard.
 * @name: short name shown by crcbench and accepted by crc_force(),
 *        e.g. "slice16", "pclmul", "isal"
 * @guard: the guard it computes
 * @update: the update function (raw state in, raw state out)
 * @multi: many-buffer variant, or NULL
 * @supported: returns non-zero when the CPU can run it; NULL = always
 * @rank: dispatch preference among the supported ones that pass their
 *        self-test, higher wins (crc.c says which were measured where)
 * @desc: one line saying what it is
 * @needs: the CPU flags (/proc/cpuinfo names) @supported asks for, or
 *        NULL for code any CPU runs
 */
struct crc_impl {
	const char *name;
	enum dix_guard guard;
	crc_update_fn update;
	crc_multi_fn multi;
	int (*supported)(void);
	int rank;
	const char *desc;
	const char *needs;
};

/**
 * crc_impls() - the table of every implementation built into dixload.
 * @nr: set to the number of entries
 *
 * Includes implementations this CPU cannot run; check crc_impl_ok().
 * Return: the table (static storage, never NULL).
 */
const struct crc_impl *crc_impls(size_t *nr);

/**
 * crc_impl_ok() - can @impl run on this machine?
 * @impl: an entry of crc_impls()
 *
 * Return: 1 if it can, 0 if the CPU lacks the instructions it needs.
 */
int crc_impl_ok(const struct crc_impl *impl);

/**
 * crc_best() - the implementation the dispatch uses for @g.
 * @g: the guard
 *
 * The highest-ranked supported implementation that passes its self-test
 * (crc_impl_selftest()), unless crc_force() chose another.  The first call
 * runs the self-tests, once per process, under a lock: the workers that
 * reach it together wait for one result.  An implementation that fails is
 * never used and a warning names it and what it got wrong.  Thread-safe;
 * cheap enough to call once per I/O.
 * Return: the implementation (never NULL: the portable ones always run).
 */
const struct crc_impl *crc_best(enum dix_guard g);

/**
 * crc_best_intervals() - the implementation for many equal-length buffers.
 * @g: the guard
 *
 * What pi_generate()/pi_verify() use: the implementation crc_force() chose,
 * else the highest-ranked supported one with a many-buffer variant that
 * passes its self-test, else crc_best().
 * Return: the implementation (never NULL).
 */
const struct crc_impl *crc_best_intervals(enum dix_guard g);

/**
 * crc_update_many() - raw states of @n buffers, with @c's many-buffer
 * variant when it has one, else one update() per buffer.
 * @c: the implementation
 * @init: the state each buffer starts from
 * @base: first buffer
 * @stride: bytes from one buffer to the next
 * @len: bytes per buffer
 * @n: number of buffers
 * @out: receives the @n states
 */
void crc_update_many(const struct crc_impl *c, uint64_t init, const void *base,
		     size_t stride, size_t len, size_t n, uint64_t *out);

/**
 * crc_force() - make the dispatch use the implementation named @name.
 * @g: the guard
 * @name: an implementation name of that guard ("slice16", "isal" ...), or
 *        NULL to return to the automatic choice
 *
 * Meant for option parsing before any worker starts; not synchronised with
 * concurrent crc_best() callers.
 * Return: 0, -ENOENT if no such implementation of @g exists, -ENOTSUP if
 * this CPU cannot run it, -EILSEQ if it failed its self-test.
 */
int crc_force(enum dix_guard g, const char *name);

/**
 * crc_impl_selftest() - the self-test of @c, run once and remembered.
 * @c: an implementation this CPU can run (crc_impl_ok())
 * @why: receives what was wrong when it fails ("" when it passes)
 * @wlen: size of @why
 *
 * Known answers ("123456789"), then the bit-at-a-time reference over 50
 * lengths from 0 to 4160 bytes at varied start addresses and split
 * points, and a many-buffer variant against the single update.
 * Thread-safe.
 * Return: 0 when it passes, -1 when it fails.
 */
int crc_impl_selftest(const struct crc_impl *c, char *why, size_t wlen);

/**
 * crc_test_register() - tests only: add @c to the implementations the
 * dispatch considers (NULL: remove it again), and make the next
 * crc_best() choose anew, self-test included, as a process's first does.
 * @c: an implementation, typically a deliberately wrong one at a high rank
 *
 * Proves the self-test by the damage it must catch; nothing else calls
 * it.  Not synchronised with concurrent crc_best() callers.
 */
void crc_test_register(const struct crc_impl *c);

/** crc_init() - the raw state a fresh guard computation starts from. */
static inline uint64_t crc_init(enum dix_guard g)
{
	switch (g) {
	case DIX_GUARD_CRC32C:
		return 0xffffffffu;
	case DIX_GUARD_CRC64:
		return ~0ull;
	default:
		return 0;
	}
}

/** crc_final() - turn a raw state into the guard value stored in PI. */
static inline uint64_t crc_final(enum dix_guard g, uint64_t state)
{
	switch (g) {
	case DIX_GUARD_CRC16:
		return state & 0xffff;
	case DIX_GUARD_IP:
		return ~state & 0xffff;
	case DIX_GUARD_CRC32C:
		return ~state & 0xffffffffu;
	default:
		return ~state;
	}
}

/**
 * crc_compute() - the guard of one buffer, through the dispatch.
 * @g: the guard
 * @buf: bytes
 * @len: their number
 *
 * Return: the guard value (16, 32 or 64 significant bits).
 */
uint64_t crc_compute(enum dix_guard g, const void *buf, size_t len);

/** crc_guard_bits() - width of the guard value: 16, 32 or 64. */
unsigned int crc_guard_bits(enum dix_guard g);

/** crc_guard_name() - "crc16", "ip", "crc32c" or "crc64". */
const char *crc_guard_name(enum dix_guard g);

/**
 * crc_guard_parse() - guard from its name.
 * @s: "crc16" (also "crc", "t10dif"), "ip", "crc32c", "crc64"
 * @g: result
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int crc_guard_parse(const char *s, enum dix_guard *g);

#endif
