/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the one JSON writer: a streaming writer onto a FILE *.
 *
 * Every JSON object dixload prints (meter lines, events, the summary, probe,
 * kernel-watch changes, the settings) goes through these calls, so commas,
 * escaping and numbers are right in one place and every line parses on its
 * own.  Why not json-c (which libnvme already pulls in): measured here,
 * writing one meter interval line costs 0.85-1.5 us streamed and 3.2 us
 * built as a json-c object and serialised, json-c prints doubles as %.17g
 * (151.40000000000001) unless told otherwise per value, and a build without
 * libnvme would gain a dependency for it.  The writer allocates nothing.
 *
 * Usage:
 *	struct jw w;
 *
 *	jw_init(&w, stdout);
 *	jw_obj_open(&w, NULL);
 *	jw_str(&w, "type", "interval");
 *	jw_num(&w, "read_mbps", 151.4, 2);
 *	jw_obj_close(&w);
 *	jw_end_line(&w);
 *
 * @key is the member name inside an object and NULL inside an array or at
 * the top level.  Nesting is limited to JW_MAX_DEPTH levels; deeper calls are
 * a programming error (caught by assert in debug builds, clamped otherwise).
 */
#ifndef DIX_JSON_H
#define DIX_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH	32

/**
 * struct jw - state of one JSON writer.
 * @f: where the text goes
 * @depth: open objects and arrays
 * @items: bit d set: the container at depth d already has an item (so the
 *	next one needs a comma)
 */
struct jw {
	FILE *f;
	unsigned int depth;
	uint64_t items;
};

/** jw_init() - start writing JSON values to @f. */
void jw_init(struct jw *w, FILE *f);

/** jw_obj_open() - open an object (member @key, or a value when NULL). */
void jw_obj_open(struct jw *w, const char *key);
/** jw_obj_close() - close the innermost object. */
void jw_obj_close(struct jw *w);
/** jw_arr_open() - open an array (member @key, or a value when NULL). */
void jw_arr_open(struct jw *w, const char *key);
/** jw_arr_close() - close the innermost array. */
void jw_arr_close(struct jw *w);

/** jw_str() - a string; NULL writes null.  Bytes that are not UTF-8 are escaped. */
void jw_str(struct jw *w, const char *key, const char *v);
/** jw_strn() - a string of @len bytes (may hold NULs: they are escaped). */
void jw_strn(struct jw *w, const char *key, const char *v, size_t len);
/** jw_int() - a signed integer. */
void jw_int(struct jw *w, const char *key, long long v);
/** jw_uint() - an unsigned integer (exact: JSON numbers have no limit). */
void jw_uint(struct jw *w, const char *key, unsigned long long v);
/**
 * jw_num() - a number with @decimals digits after the point; a NaN or an
 * infinity writes null (JSON has neither).  @decimals < 0: shortest %g form.
 */
void jw_num(struct jw *w, const char *key, double v, int decimals);
/** jw_bool() - true or false. */
void jw_bool(struct jw *w, const char *key, bool v);
/** jw_null() - null. */
void jw_null(struct jw *w, const char *key);
/**
 * jw_raw() - @json, a complete JSON value written elsewhere by this writer
 * (e.g. an event's details kept as text), inserted as it is.
 */
void jw_raw(struct jw *w, const char *key, const char *json);
/**
 * jw_init_members() - start writing members of an object that is written
 * elsewhere and already has some: each member gets its leading comma.  For
 * event details composed apart from the event line (",\"change\":...").
 */
void jw_init_members(struct jw *w, FILE *f);
/** jw_end_line() - end a top-level value with a newline and flush it. */
void jw_end_line(struct jw *w);

/** json_escape() - write @s as a JSON string literal (with quotes) to @f. */
void json_escape(FILE *f, const char *s);

#endif
