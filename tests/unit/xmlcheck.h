/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xmlcheck.h - a small XML 1.0 well-formedness checker for the tests:
 * UTF-8, one root element, properly nested and matching tags, quoted
 * attributes without '<' and without duplicates, valid entity and character
 * references, comments, an optional declaration, no control characters.
 * No DTDs, CDATA or processing instructions besides the declaration (the
 * SVG writer uses none of them, so meeting one is an error too).
 */
#ifndef DIX_XMLCHECK_H
#define DIX_XMLCHECK_H

#include <stdio.h>
#include <string.h>

static int xc_utf8_ok(const unsigned char *p)
{
	while (*p) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 2 :
			(*p & 0xf0) == 0xe0 ? 3 :
			(*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 4 : 0;
		int i;

		if (!n)
			return 0;
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return 0;
		for (i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return 0;
		p += n;
	}
	return 1;
}

static int xc_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == ':' || c >= 0x80;
}

static int xc_name_char(int c)
{
	return xc_name_start(c) || (c >= '0' && c <= '9') || c == '-' ||
	       c == '.';
}

static const char *xc_name(const char *p)
{
	if (!xc_name_start((unsigned char)*p))
		return NULL;
	while (xc_name_char((unsigned char)*p))
		p++;
	return p;
}

/* A reference at '&': return the character after ';' or NULL. */
static const char *xc_ref(const char *p)
{
	static const char *const ent[] = { "amp;", "lt;", "gt;", "quot;",
					   "apos;" };
	unsigned int i;

	p++;
	if (*p == '#') {
		p++;
		if (*p == 'x') {
			const char *q = ++p;

			while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
			       (*p >= 'A' && *p <= 'F'))
				p++;
			return p > q && *p == ';' ? p + 1 : NULL;
		}
		{
			const char *q = p;

			while (*p >= '0' && *p <= '9')
				p++;
			return p > q && *p == ';' ? p + 1 : NULL;
		}
	}
	for (i = 0; i < sizeof(ent) / sizeof(ent[0]); i++)
		if (!strncmp(p, ent[i], strlen(ent[i])))
			return p + strlen(ent[i]);
	return NULL;
}

#define XC_FAIL(...) do { snprintf(err, len, __VA_ARGS__); return 0; } while (0)

/**
 * xml_wellformed() - check @doc; on failure write the reason and the
 * offset to @err.  Return: 1 well-formed, 0 not.
 */
static int xml_wellformed(const char *doc, char *err, size_t len)
{
	const char *stack[256];
	size_t stlen[256];
	const char *p = doc;
	int depth = 0, roots = 0;

	if (!xc_utf8_ok((const unsigned char *)doc))
		XC_FAIL("not UTF-8 or a control character");
	if (!strncmp(p, "<?xml", 5)) {
		p = strstr(p, "?>");
		if (!p)
			XC_FAIL("unterminated declaration");
		p += 2;
	}
	while (*p) {
		if (*p != '<') {
			if (*p == '&') {
				const char *q = xc_ref(p);

				if (!q)
					XC_FAIL("bad reference at %ld", (long)(p - doc));
				p = q;
				continue;
			}
			if (!depth && *p != ' ' && *p != '\n' && *p != '\t' &&
			    *p != '\r')
				XC_FAIL("text outside the root at %ld", (long)(p - doc));
			p++;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			const char *q = strstr(p + 4, "--");

			if (!q || q[2] != '>')
				XC_FAIL("bad comment at %ld", (long)(p - doc));
			p = q + 3;
			continue;
		}
		if (p[1] == '/') {
			const char *n = p + 2, *e = xc_name(n);

			if (!e)
				XC_FAIL("bad end tag at %ld", (long)(p - doc));
			if (!depth || (size_t)(e - n) != stlen[depth - 1] ||
			    strncmp(n, stack[depth - 1], e - n))
				XC_FAIL("end tag '%.*s' does not match at %ld",
					(int)(e - n), n, (long)(p - doc));
			while (*e == ' ' || *e == '\n' || *e == '\t')
				e++;
			if (*e != '>')
				XC_FAIL("junk in end tag at %ld", (long)(e - doc));
			depth--;
			p = e + 1;
			continue;
		}
		{
			const char *n = p + 1, *e = xc_name(n), *attrs[64];
			size_t alen[64];
			int na = 0, i;

			if (!e)
				XC_FAIL("bad start tag at %ld", (long)(p - doc));
			if (!depth && roots++)
				XC_FAIL("second root element at %ld", (long)(p - doc));
			p = e;
			for (;;) {
				const char *a, *ae;
				char q;

				while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
					p++;
				if (*p == '>' || (p[0] == '/' && p[1] == '>'))
					break;
				if (p == e || (p[-1] != ' ' && p[-1] != '\n' &&
					       p[-1] != '\t' && p[-1] != '\r'))
					XC_FAIL("attribute without a space before it at %ld",
						(long)(p - doc));
				a = p;
				ae = xc_name(a);
				if (!ae)
					XC_FAIL("bad attribute name at %ld", (long)(p - doc));
				for (i = 0; i < na; i++)
					if (alen[i] == (size_t)(ae - a) &&
					    !strncmp(attrs[i], a, ae - a))
						XC_FAIL("duplicate attribute '%.*s' at %ld",
							(int)(ae - a), a, (long)(a - doc));
				if (na < 64) {
					attrs[na] = a;
					alen[na++] = ae - a;
				}
				p = ae;
				while (*p == ' ')
					p++;
				if (*p++ != '=')
					XC_FAIL("attribute without '=' at %ld", (long)(p - doc));
				while (*p == ' ')
					p++;
				q = *p++;
				if (q != '"' && q != '\'')
					XC_FAIL("unquoted attribute at %ld", (long)(p - doc));
				while (*p && *p != q) {
					if (*p == '<')
						XC_FAIL("'<' in an attribute at %ld",
							(long)(p - doc));
					if (*p == '&') {
						const char *r = xc_ref(p);

						if (!r)
							XC_FAIL("bad reference at %ld",
								(long)(p - doc));
						p = r;
						continue;
					}
					p++;
				}
				if (!*p)
					XC_FAIL("unterminated attribute");
				p++;
			}
			if (*p == '/') {
				p += 2;
				continue;
			}
			if (depth == 256)
				XC_FAIL("too deep");
			stack[depth] = n;
			stlen[depth++] = e - n;
			p++;
		}
	}
	if (depth)
		XC_FAIL("'%.*s' not closed", (int)stlen[depth - 1], stack[depth - 1]);
	if (!roots)
		XC_FAIL("no root element");
	return 1;
}

#endif
