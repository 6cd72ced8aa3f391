// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse.c - pure parsers for sizes, integers, seconds and schedules.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"

int parse_u64(const char *s, uint64_t *out)
{
	const char *digits = s;
	unsigned long long v;
	int base = 10;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = s + 2;
		base = 16;
	}
	/*
	 * Digits only, in base 16 after "0x" and 10 otherwise: strtoull()
	 * with base 0 reads a leading zero as octal (--rwmixread 050 meant
	 * 40; found by fuzz-options, tests/data/fuzz/options/rwmixread-050),
	 * and it would take blanks, a sign or a second "0x" too.
	 */
	if (!*digits ||
	    digits[strspn(digits, base == 16 ? "0123456789abcdefABCDEF" :
					     "0123456789")])
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, NULL, base);
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	case 't':
		shift = 40;
		break;
	case 'b':
		if (end[1])
			return -EINVAL;
		*out = v;
		return 0;
	default:
		return -EINVAL;
	}
	if (*end) {
		end++;
		/* accept "k", "kb", "kib" in any case */
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
		if (*end)
			return -EINVAL;
	}
	if (shift && v > (~0ull >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v, mul = 1;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	if (*end == 's' && !end[1])
		mul = 1;
	else if (*end == 'm' && !end[1])
		mul = 60;
	else if (*end == 'h' && !end[1])
		mul = 3600;
	else if (*end)
		return -EINVAL;
	/*
	 * Checked after the unit: "1e308m" is a finite number of minutes but
	 * an infinite number of seconds (found by fuzz-options,
	 * tests/data/fuzz/options/seconds-1e308m).
	 */
	v *= mul;
	if (!isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_at(const char *s, char *spec, unsigned long len, double *at)
{
	const char *p = s ? strrchr(s, '@') : NULL;
	size_t n;

	if (!p || p == s)
		return -EINVAL;
	n = p - s;
	if (n >= len)
		return -ENAMETOOLONG;
	if (parse_seconds(p + 1, at))
		return -EINVAL;
	memcpy(spec, s, n);
	spec[n] = '\0';
	return 0;
}

/*
 * The shortest of %.1g .. %.17g that reads back exactly: %.17g alone
 * prints the binary value's noise (0.00013926300000000001), which a
 * reader takes for a measured digit.  At most 17 tries, per value printed.
 */
char *format_double(double v, char *buf, unsigned long len)
{
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

char *format_size(uint64_t v, char *buf, unsigned long len)
{
	static const char units[] = "kmgt";
	int i = -1;

	while (v && !(v & 1023) && i < 3) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[i]);
	return buf;
}
