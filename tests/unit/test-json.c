// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-json.c - the JSON writer: commas at every nesting level, member and
 * array forms, escaping (controls, quotes, bytes that are not UTF-8, valid
 * UTF-8 kept), numbers (NaN/inf as null, fixed decimals, exact uint64),
 * the members mode used for event details.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "tap.h"

static char *buf;
static size_t len;
static FILE *f;
static struct jw w;

static void start(void)
{
	f = open_memstream(&buf, &len);
	jw_init(&w, f);
}

static const char *text(void)
{
	fclose(f);
	return buf;
}

static void done(void)
{
	free(buf);
	buf = NULL;
}

int main(void)
{
	start();
	jw_obj_open(&w, NULL);
	jw_str(&w, "a", "x");
	jw_arr_open(&w, "l");
	jw_int(&w, NULL, 1);
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	jw_arr_open(&w, NULL);
	jw_arr_close(&w);
	jw_null(&w, NULL);
	jw_arr_close(&w);
	jw_obj_open(&w, "o");
	jw_bool(&w, "t", true);
	jw_bool(&w, "f", false);
	jw_obj_close(&w);
	jw_uint(&w, "u", 18446744073709551615ull);
	jw_int(&w, "i", -5);
	jw_obj_close(&w);
	jw_end_line(&w);
	is_str(text(), "{\"a\":\"x\",\"l\":[1,{},[],null],\"o\":{\"t\":true,\"f\":false},"
	       "\"u\":18446744073709551615,\"i\":-5}\n",
	       "nesting: one comma between items at every level, none after open");
	done();

	/* two top-level lines: the second starts without a comma */
	start();
	jw_obj_open(&w, NULL);
	jw_int(&w, "n", 1);
	jw_obj_close(&w);
	jw_end_line(&w);
	jw_obj_open(&w, NULL);
	jw_int(&w, "n", 2);
	jw_obj_close(&w);
	jw_end_line(&w);
	is_str(text(), "{\"n\":1}\n{\"n\":2}\n", "lines are independent values");
	done();

	start();
	jw_str(&w, NULL, "q\" b\\ n\n t\t r\r c\x01 d\x7f");
	is_str(text(), "\"q\\\" b\\\\ n\\n t\\t r\\r c\\u0001 d\\u007f\"",
	       "quotes, backslash, controls and DEL escaped");
	done();

	start();
	jw_str(&w, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe");
	is_str(text(), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe\"",
	       "valid UTF-8 (2, 3 and 4 bytes) kept as it is");
	done();

	start();
	jw_str(&w, NULL, "HBA\xff\xfe \xc3 \xc0\xaf \xed\xa0\x80 \xe2\x82");
	is_str(text(), "\"HBA\\u00ff\\u00fe \\u00c3 \\u00c0\\u00af \\u00ed\\u00a0\\u0080 \\u00e2\\u0082\"",
	       "bytes that are not UTF-8 (stray, truncated, overlong, surrogate) become \\u00XX");
	done();

	start();
	jw_strn(&w, NULL, "a\0b", 3);
	is_str(text(), "\"a\\u0000b\"", "a counted string keeps its NUL, escaped");
	done();

	start();
	jw_arr_open(&w, NULL);
	jw_num(&w, NULL, NAN, 2);
	jw_num(&w, NULL, INFINITY, 2);
	jw_num(&w, NULL, 151.404, 2);
	jw_num(&w, NULL, 0.5, -1);
	jw_num(&w, NULL, 24, -1);
	jw_str(&w, NULL, NULL);
	jw_raw(&w, NULL, "{\"x\":1}");
	jw_arr_close(&w);
	is_str(text(), "[null,null,151.40,0.5,24,null,{\"x\":1}]",
	       "numbers: non-finite as null, fixed and shortest forms; NULL string; raw value");
	done();

	/* members mode: details composed apart from the line they join */
	start();
	jw_init_members(&w, f);
	jw_str(&w, "change", "transform");
	jw_arr_open(&w, "to");
	jw_str(&w, NULL, "a");
	jw_str(&w, NULL, "b");
	jw_arr_close(&w);
	is_str(text(), ",\"change\":\"transform\",\"to\":[\"a\",\"b\"]",
	       "members mode: every member with its leading comma");
	done();

	start();
	jw_obj_open(&w, NULL);
	jw_str(&w, "k\"ey", "v");
	jw_obj_close(&w);
	is_str(text(), "{\"k\\\"ey\":\"v\"}", "keys are escaped too");
	done();

	return tap_done();
}
