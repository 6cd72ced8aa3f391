// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - the streaming JSON writer (see json.h for why streaming).
 */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "lib/json.h"

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->items = 0;
}

void jw_init_members(struct jw *w, FILE *f)
{
	jw_init(w, f);
	w->items = 1;
}

/* The comma and "key": before a value in the current container. */
static void prefix(struct jw *w, const char *key)
{
	uint64_t bit = 1ull << w->depth;

	if (w->items & bit)
		fputc(',', w->f);
	w->items |= bit;
	if (key) {
		json_escape(w->f, key);
		fputc(':', w->f);
	}
}

static void open_c(struct jw *w, const char *key, int c)
{
	prefix(w, key);
	fputc(c, w->f);
	assert(w->depth + 1 < JW_MAX_DEPTH);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->items &= ~(1ull << w->depth);
}

static void close_c(struct jw *w, int c)
{
	fputc(c, w->f);
	assert(w->depth > 0);
	if (w->depth)
		w->depth--;
}

void jw_obj_open(struct jw *w, const char *key)
{
	open_c(w, key, '{');
}

void jw_obj_close(struct jw *w)
{
	close_c(w, '}');
}

void jw_arr_open(struct jw *w, const char *key)
{
	open_c(w, key, '[');
}

void jw_arr_close(struct jw *w)
{
	close_c(w, ']');
}

/* Length of the valid UTF-8 sequence at @s (at most @left bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n > left)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * Device strings (INQUIRY vendor, NVMe model), sysfs text and file names
 * are bytes, not necessarily UTF-8: a byte that does not start a valid
 * sequence is written as the code point of the same value (\u00XX), so the
 * line stays valid JSON and the byte can still be read back.
 */
static void escape_n(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	fputc('"', f);
	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else if ((n = utf8_len(s + i, len - i))) {
				fwrite(s + i, 1, n, f);
				i += n;
				continue;
			} else {
				fprintf(f, "\\u%04x", c);
			}
		}
		i++;
	}
	fputc('"', f);
}

void json_escape(FILE *f, const char *s)
{
	escape_n(f, s, strlen(s));
}

void jw_str(struct jw *w, const char *key, const char *v)
{
	prefix(w, key);
	if (v)
		escape_n(w->f, v, strlen(v));
	else
		fputs("null", w->f);
}

void jw_strn(struct jw *w, const char *key, const char *v, size_t len)
{
	prefix(w, key);
	escape_n(w->f, v, len);
}

void jw_int(struct jw *w, const char *key, long long v)
{
	prefix(w, key);
	fprintf(w->f, "%lld", v);
}

void jw_uint(struct jw *w, const char *key, unsigned long long v)
{
	prefix(w, key);
	fprintf(w->f, "%llu", v);
}

void jw_num(struct jw *w, const char *key, double v, int decimals)
{
	prefix(w, key);
	if (!isfinite(v))
		fputs("null", w->f);
	else if (decimals < 0)
		fprintf(w->f, "%.15g", v);
	else
		fprintf(w->f, "%.*f", decimals, v);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	prefix(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	prefix(w, key);
	fputs("null", w->f);
}

void jw_raw(struct jw *w, const char *key, const char *json)
{
	prefix(w, key);
	fputs(json && *json ? json : "null", w->f);
}

void jw_end_line(struct jw *w)
{
	fputc('\n', w->f);
	fflush(w->f);
	w->items &= ~1ull;
}
