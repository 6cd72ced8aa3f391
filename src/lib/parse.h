/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.h - pure parsers for the values users type: sizes with k/m/g/t
 * suffixes, unsigned integers, seconds and "VALUE@SECONDS" schedules.
 *
 * All of them return 0 on success and a negative errno otherwise, and never
 * print: the caller names the option or file and line in its message.
 */
#ifndef DIX_PARSE_H
#define DIX_PARSE_H

#include <stdint.h>

/**
 * parse_size() - parse "4096", "4k", "64K", "1m", "2g", "1t" (binary units;
 * an optional trailing "b"/"B"/"iB" is accepted: "4KiB").
 * @s: the text
 * @out: the value in bytes
 *
 * Return: 0; -EINVAL for malformed text; -ERANGE when it overflows 64 bits.
 */
int parse_size(const char *s, uint64_t *out);

/**
 * parse_u64() - parse a decimal (or 0x-prefixed hex) unsigned integer: digits
 * only, no sign, blanks or trailing garbage; a leading zero is still
 * decimal ("010" is ten).  Return: 0, -EINVAL or -ERANGE.
 */
int parse_u64(const char *s, uint64_t *out);

/**
 * parse_seconds() - parse a non-negative number of seconds ("10", "2.5",
 * "90s", "2m", "1h").  Return: 0, or -EINVAL for anything else, including
 * a number of seconds too large for a double.
 */
int parse_seconds(const char *s, double *out);

/**
 * parse_at() - split "SPEC@SECONDS" at its last '@'.
 * @s: the text, e.g. "crct10dif_pclmul@10" or "/sys/x=0@2.5"
 * @spec: buffer for the part before '@'
 * @len: size of @spec
 * @at: the seconds after '@'
 *
 * Return: 0; -EINVAL when there is no '@', the spec is empty or the time is
 * not a number of seconds; -ENAMETOOLONG when the spec does not fit.
 */
int parse_at(const char *s, char *spec, unsigned long len, double *at);

/** is_pow2() - true when @v is a power of two (and not zero). */
static inline int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/**
 * format_size() - the shortest exact binary-unit form of @v ("256k", "1m",
 * "4100") into @buf.  Return: @buf.
 */
char *format_size(uint64_t v, char *buf, unsigned long len);

/**
 * format_double() - @v in the fewest significant digits (1 to 17, %g) that
 * strtod() reads back as @v: 0.000139263, not 0.00013926300000000001.
 * NaN and infinities as "nan", "inf", "-inf".  Return: @buf.
 */
char *format_double(double v, char *buf, unsigned long len);

#endif
