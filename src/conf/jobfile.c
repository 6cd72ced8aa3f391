// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobfile.c - read fio job files (see jobfile.h).
 *
 * The syntax follows fio 3.33 as measured with `fio --parse-only`, not as
 * guessed: a value holding a reserved keyword is evaluated as arithmetic
 * whether or not it is in parentheses ("8*$mb_memory" and "($mb_memory/2)"
 * both become a number of bytes); "$((...))" is not fio's (fio refuses it);
 * an expression of plain numbers must be in parentheses, as fio(1) says.
 * The one difference on purpose: fio turns an undefined ${VAR} into an
 * empty string, which turns "size=${SIZE}" into a job with no size, so a
 * typo runs a different workload; dixload refuses it, naming the variable.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/jobfile.h"
#include "lib/util.h"

static const char *host_getenv(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

void jf_sys_host(struct jf_sys *sys)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	sys->getenv = host_getenv;
	sys->arg = NULL;
	sys->pagesize = psz > 0 ? psz : 4096;
	sys->mb_memory = pages > 0 ? (long long)pages * sys->pagesize >> 20 : 0;
	sys->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
}

/* --- arithmetic and numbers ------------------------------------------- */

struct ex {
	const char *p;
	unsigned int kb;
	char *err;
	size_t len;
	int bad;
};

static void ex_fail(struct ex *e, const char *what)
{
	if (!e->bad)
		snprintf(e->err, e->len, "%s at '%s'", what, *e->p ? e->p : "(end)");
	e->bad = 1;
}

static void skipws(struct ex *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

/*
 * A size suffix at @p: k m g t p (e, z refused: they overflow), an optional
 * "i" that swaps the base (fio: with kb_base=1024 "ki" is 1000), an
 * optional "b".  Return the multiplier, @*used the characters taken.
 */
static unsigned long long suffix_mult(const char *p, unsigned int kb,
				      size_t *used)
{
	static const char units[] = "kmgtp";
	const char *u = *p ? strchr(units, tolower((unsigned char)*p)) : NULL;
	unsigned long long m = 1, base = kb;
	size_t n = 0;
	int i;

	*used = 0;
	if (u) {
		n = 1;
		if (tolower((unsigned char)p[1]) == 'i') {
			base = kb == 1024 ? 1000 : 1024;
			n = 2;
		}
		for (i = 0; i <= u - units; i++)
			m *= base;
	}
	if (tolower((unsigned char)p[n]) == 'b')
		n++;
	*used = n;
	return m;
}

static long long ex_sum(struct ex *e);

static long long ex_atom(struct ex *e)
{
	unsigned long long v, m;
	char *end;
	size_t used;

	skipws(e);
	if (*e->p == '(') {
		long long r;

		e->p++;
		r = ex_sum(e);
		skipws(e);
		if (*e->p != ')')
			ex_fail(e, "expected ')'");
		else
			e->p++;
		return r;
	}
	if (*e->p == '-') {
		e->p++;
		return -ex_atom(e);
	}
	if (!isdigit((unsigned char)*e->p)) {
		ex_fail(e, "expected a number");
		return 0;
	}
	errno = 0;
	v = strtoull(e->p, &end, 0);
	if (errno) {
		ex_fail(e, "number out of range");
		return 0;
	}
	e->p = end;
	m = suffix_mult(e->p, e->kb, &used);
	e->p += used;
	if (m > 1 && v > ~0ull / m) {
		ex_fail(e, "number out of range");
		return 0;
	}
	return (long long)(v * m);
}

static long long ex_pow(struct ex *e)
{
	long long b = ex_atom(e), x, r = 1;

	skipws(e);
	if (*e->p != '^')
		return b;
	e->p++;
	x = ex_pow(e);
	if (x < 0 || x > 63) {
		ex_fail(e, "exponent outside 0..63");
		return 0;
	}
	while (x-- > 0)
		r *= b;
	return r;
}

static long long ex_prod(struct ex *e)
{
	long long a = ex_pow(e), b;

	for (;;) {
		char op;

		skipws(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return a;
		e->p++;
		b = ex_pow(e);
		if (op == '*') {
			a *= b;
		} else if (!b) {
			ex_fail(e, "division by zero");
			return 0;
		} else {
			a = op == '/' ? a / b : a % b;
		}
	}
}

static long long ex_sum(struct ex *e)
{
	long long a = ex_prod(e);

	for (;;) {
		char op;

		skipws(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return a;
		e->p++;
		a = op == '+' ? a + ex_prod(e) : a - ex_prod(e);
	}
}

int jf_expr(const char *s, unsigned int kb_base, long long *out, char *err,
	    size_t errlen)
{
	struct ex e = { .p = s, .kb = kb_base, .err = err, .len = errlen };
	long long v = ex_sum(&e);

	skipws(&e);
	if (!e.bad && *e.p)
		ex_fail(&e, "unexpected text");
	if (e.bad)
		return -EINVAL;
	*out = v;
	return 0;
}

int jf_size(const char *v, unsigned int kb_base, uint64_t *out, char *err,
	    size_t errlen)
{
	char why[160];
	long long r;

	if (!v || !*v) {
		snprintf(err, errlen,
			 "no value (allowed: a size such as 4096, 4k, 1m, 1g, 0x1000, or (expression))");
		return -EINVAL;
	}
	/* a plain number is an expression of one atom */
	if (jf_expr(v, kb_base, &r, why, sizeof(why)) ||
	    (v[0] != '(' && strpbrk(v, "+*/%^()"))) {
		snprintf(err, errlen,
			 "'%s' is not a size (%s; allowed: 4096, 4k, 1m, 1g, 1mi (10^6 with kb_base=1024), 0x1000, or arithmetic in parentheses)",
			 v, strpbrk(v, "+*/%^()") && !strchr(v, '(') ?
			 "arithmetic must be in parentheses" : why);
		return -EINVAL;
	}
	if (r < 0) {
		snprintf(err, errlen, "'%s' is negative (allowed: a size >= 0)", v);
		return -EINVAL;
	}
	*out = (uint64_t)r;
	return 0;
}

int jf_time(const char *v, double *sec, char *err, size_t errlen)
{
	static const struct {
		const char *s;
		double mult;
	} units[] = {
		{ "usec", 1e-6 }, { "us", 1e-6 }, { "msec", 1e-3 }, { "ms", 1e-3 },
		{ "sec", 1 }, { "s", 1 }, { "min", 60 }, { "m", 60 },
		{ "h", 3600 }, { "d", 86400 }, { "", 1 },
	};
	char *end;
	double x;
	unsigned int i;

	if (v && v[0] == '(') {
		long long r;
		char why[160];

		/* fio: a time in an expression is in microseconds */
		if (jf_expr(v, 1024, &r, why, sizeof(why))) {
			snprintf(err, errlen, "'%s' is not a time (%s)", v, why);
			return -EINVAL;
		}
		*sec = r / 1e6;
		return r < 0 ? -EINVAL : 0;
	}
	errno = 0;
	x = v ? strtod(v, &end) : 0;
	if (!v || end == v || errno || x < 0)
		goto bad;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].s)) {
			*sec = x * units[i].mult;
			return 0;
		}
bad:
	snprintf(err, errlen,
		 "'%s' is not a time (allowed: a number of seconds, or with a unit: us, ms, s, m (minutes), h, d; (expression) in microseconds)",
		 v ? v : "");
	return -EINVAL;
}

int jf_bool(const char *v, int *b, char *err, size_t errlen)
{
	if (!v || !strcmp(v, "1") || !strcasecmp(v, "true") ||
	    !strcasecmp(v, "on") || !strcasecmp(v, "yes")) {
		*b = 1;
		return 0;
	}
	if (!strcmp(v, "0") || !strcasecmp(v, "false") ||
	    !strcasecmp(v, "off") || !strcasecmp(v, "no")) {
		*b = 0;
		return 0;
	}
	snprintf(err, errlen, "'%s' is not a boolean (allowed: 1 or 0)", v);
	return -EINVAL;
}

int jf_range(const char *v, unsigned int kb_base, uint64_t *lo, uint64_t *hi,
	     char *err, size_t errlen)
{
	char buf[128], *sep;

	if (!v || snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		goto bad;
	sep = strpbrk(buf, "-:");
	if (!sep)
		goto bad;
	*sep = '\0';
	if (jf_size(buf, kb_base, lo, err, errlen) ||
	    jf_size(sep + 1, kb_base, hi, err, errlen))
		goto bad;
	if (*lo > *hi) {
		snprintf(err, errlen, "'%s': the low end is above the high end", v);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a range (allowed: LO-HI or LO:HI, e.g. 1k-4k)",
		 v ? v : "");
	return -EINVAL;
}

/* an entry written "BS/": its share is what the others leave */
#define JF_SHARE_REST	1000u

int jf_bssplit(const char *v, unsigned int kb_base, struct jf_split *out,
	       int max, int *n, char *err, size_t errlen)
{
	char *copy, *dir, *ent, *s1 = NULL, *s2 = NULL, why[256];
	int nd = 0, ret = 0;

	*n = 0;
	if (!v || !*v) {
		snprintf(err, errlen, "no value (allowed: BS/PCT:BS/PCT..., e.g. 4k/10:64k/90)");
		return -EINVAL;
	}
	copy = xstrdup(v);
	for (dir = strtok_r(copy, ",", &s1); dir && !ret;
	     dir = strtok_r(NULL, ",", &s1), nd++) {
		unsigned int sum = 0, empty = 0;
		int k = 0;

		for (ent = strtok_r(dir, ":", &s2); ent && !ret;
		     ent = strtok_r(NULL, ":", &s2), k++) {
			char *slash = strchr(ent, '/'), *end;
			struct jf_split sp = { 0, 0 };
			unsigned long pct = 0;

			if (!slash) {
				snprintf(err, errlen,
					 "'%s': entry '%s' has no '/PCT' (allowed: BS/PCT:BS/PCT..., e.g. 4k/10:64k/90)",
					 v, ent);
				ret = -EINVAL;
				break;
			}
			*slash = '\0';
			if (jf_size(ent, kb_base, &sp.bs, why, sizeof(why)) ||
			    !sp.bs) {
				snprintf(err, errlen, "'%s': block size: %s", v,
					 sp.bs ? why : "0 is not a block size");
				ret = -EINVAL;
				break;
			}
			if (slash[1]) {
				errno = 0;
				pct = strtoul(slash + 1, &end, 10);
				if (*end || errno || pct > 100) {
					snprintf(err, errlen,
						 "'%s': share '%s' is not a percentage 0..100",
						 v, slash + 1);
					ret = -EINVAL;
					break;
				}
			} else {
				empty++;
			}
			sp.pct = slash[1] ? pct : JF_SHARE_REST;
			sum += pct;
			if (!nd) {
				if (*n == max) {
					snprintf(err, errlen, "'%s': more than %d entries",
						 v, max);
					ret = -EINVAL;
					break;
				}
				out[(*n)++] = sp;
			}
		}
		if (!ret && (sum > 100 || (!empty && sum != 100))) {
			snprintf(err, errlen,
				 "'%s': the shares add up to %u %%, not 100 (an entry with an empty share takes the rest)",
				 v, sum);
			ret = -EINVAL;
		}
		if (!ret && !nd && empty) {
			unsigned int left = 100 - sum, each = left / empty;
			int i;

			/* fio spreads the rest evenly over the empty shares */
			for (i = 0; i < *n; i++)
				if (out[i].pct == JF_SHARE_REST) {
					out[i].pct = --empty ? each : left;
					left -= out[i].pct;
				}
		}
	}
	free(copy);
	return ret;
}

int jf_rate(const char *v, unsigned int kb_base, uint64_t out[2], char *err,
	    size_t errlen)
{
	char buf[128], *comma;
	int i;

	out[0] = out[1] = 0;
	if (!v || !*v || snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "no rate (allowed: bytes per second, R,W, e.g. 10m or 1m,500k)");
		return -EINVAL;
	}
	comma = strchr(buf, ',');
	if (comma) {
		*comma = '\0';
		if (strchr(comma + 1, ',')) {
			snprintf(err, errlen,
				 "'%s': a third (trim) rate: dixload does not trim (allowed: R,W)", v);
			return -EINVAL;
		}
	}
	for (i = 0; i < 2; i++) {
		const char *s = i ? (comma ? comma + 1 : buf) : buf;

		if (!*s)
			continue;
		if (jf_size(s, kb_base, &out[i], err, errlen))
			return -EINVAL;
	}
	return 0;
}

/* --- the reader --------------------------------------------------------- */

struct rd {
	struct jf_doc *d;
	const struct jf_sys *sys;
	char *err;
	size_t len;
	int depth;
};

static const char *sect_name(const struct rd *r)
{
	return r->d->ns ? r->d->s[r->d->ns - 1].name : "(no section)";
}

/* A growing string. */
struct sb {
	char *s;
	size_t n, cap;
};

static void sb_add(struct sb *b, const char *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/*
 * ${VAR} and the reserved keywords into @out; a value that held a keyword
 * is then evaluated as arithmetic (fio does).  Return 0 or -EINVAL.
 */
static int expand(struct rd *r, const char *file, int line, const char *key,
		  const char *raw, char **out)
{
	static const char *const kw[] = { "pagesize", "mb_memory", "ncpus" };
	struct sb b = { 0 };
	const char *p = raw;
	int keyword = 0;

	sb_add(&b, "", 0);
	while (*p) {
		unsigned int i;

		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}'), *val;
			char name[256];

			if (!end || end - p - 2 >= (long)sizeof(name) || end == p + 2) {
				snprintf(r->err, r->len,
					 "%s:%d: [%s] %s=%s: '${' without a name and '}' (allowed: ${NAME} of an environment variable)",
					 file, line, sect_name(r), key, raw);
				free(b.s);
				return -EINVAL;
			}
			snprintf(name, sizeof(name), "%.*s", (int)(end - p - 2), p + 2);
			val = r->sys->getenv ? r->sys->getenv(name, r->sys->arg) :
			      getenv(name);
			if (!val) {
				snprintf(r->err, r->len,
					 "%s:%d: [%s] %s=%s: ${%s} is not set in the environment (fio would substitute an empty string; dixload refuses: set %s, or write the value)",
					 file, line, sect_name(r), key, raw, name, name);
				free(b.s);
				return -EINVAL;
			}
			sb_add(&b, val, strlen(val));
			p = end + 1;
			continue;
		}
		if (*p == '$') {
			for (i = 0; i < ARRAY_SIZE(kw); i++) {
				size_t n = strlen(kw[i]);

				if (!strncmp(p + 1, kw[i], n) &&
				    !isalnum((unsigned char)p[1 + n]) && p[1 + n] != '_') {
					long long v = i == 0 ? r->sys->pagesize :
						      i == 1 ? r->sys->mb_memory :
						      r->sys->ncpus;
					char num[32];

					snprintf(num, sizeof(num), "%lld", v);
					sb_add(&b, num, strlen(num));
					p += 1 + n;
					keyword = 1;
					break;
				}
			}
			if (i < ARRAY_SIZE(kw))
				continue;
		}
		sb_add(&b, p, 1);
		p++;
	}
	if (keyword) {
		char why[200], num[32];
		long long v;

		if (jf_expr(b.s, 1024, &v, why, sizeof(why))) {
			snprintf(r->err, r->len,
				 "%s:%d: [%s] %s=%s: after the reserved keywords, '%s' is not arithmetic (%s; allowed: + - * / %% ^ and parentheses)",
				 file, line, sect_name(r), key, raw, b.s, why);
			free(b.s);
			return -EINVAL;
		}
		snprintf(num, sizeof(num), "%lld", v);
		free(b.s);
		*out = xstrdup(num);
		return 0;
	}
	*out = b.s;
	return 0;
}

static const char *keep_name(struct jf_doc *d, const char *name)
{
	int i;

	for (i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i], name))
			return d->files[i];
	d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof(*d->files));
	d->files[d->nfiles] = xstrdup(name);
	return d->files[d->nfiles++];
}

static int read_stream(struct rd *r, FILE *f, const char *file, int included);

/* `include NAME`: the working directory's, then the includer's neighbour. */
static int do_include(struct rd *r, const char *file, int line,
		      const char *name)
{
	char path[4096];
	const char *slash = strrchr(file, '/');
	FILE *f;
	int ret;

	if (r->depth >= JF_INCLUDE_MAX) {
		snprintf(r->err, r->len,
			 "%s:%d: [%s] include %s: nested deeper than %d files (an include loop?)",
			 file, line, sect_name(r), name, JF_INCLUDE_MAX);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "re");
	if (!f && name[0] != '/' && slash) {
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file), file,
			 name);
		f = fopen(path, "re");
	}
	if (!f) {
		snprintf(r->err, r->len,
			 "%s:%d: [%s] include %s: cannot read it (tried the working directory%s)",
			 file, line, sect_name(r), name,
			 slash ? " and the including file's directory" : "");
		return -ENOENT;
	}
	r->depth++;
	ret = read_stream(r, f, keep_name(r->d, path), 1);
	r->depth--;
	fclose(f);
	return ret;
}

static int read_stream(struct rd *r, FILE *f, const char *file, int included)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, ret = 0;

	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		struct jf_sect *s;
		struct jf_kv *kv;
		char *t, *eq, *key, *val;

		lineno++;
		if (n > JF_LINE_MAX) {
			snprintf(r->err, r->len,
				 "%s:%d: line of %zd bytes, longer than fio's %d",
				 file, lineno, n, JF_LINE_MAX);
			ret = -EINVAL;
			break;
		}
		if (memchr(line, '\0', n)) {
			snprintf(r->err, r->len, "%s:%d: a NUL byte: not a job file",
				 file, lineno);
			ret = -EINVAL;
			break;
		}
		/* fio: ';' or '#' as the first character of a line */
		t = dix_trim(line);
		if (!*t || *t == ';' || *t == '#')
			continue;
		/* fio (measured): a ';' or '#' later in a line ends it too */
		t[strcspn(t, ";#")] = '\0';
		t = dix_trim(t);
		if (*t == '[') {
			char *end = strchr(t, ']');

			if (included) {
				snprintf(r->err, r->len,
					 "%s:%d: %s: an included file holds no sections (its lines belong to the section that includes it)",
					 file, lineno, t);
				ret = -EINVAL;
				break;
			}
			if (!end || end == t + 1 || *dix_trim(end + 1)) {
				snprintf(r->err, r->len,
					 "%s:%d: '%s' is not a section header (allowed: [NAME] alone on its line)",
					 file, lineno, t);
				ret = -EINVAL;
				break;
			}
			*end = '\0';
			r->d->s = xrealloc(r->d->s, (r->d->ns + 1) * sizeof(*r->d->s));
			s = &r->d->s[r->d->ns++];
			memset(s, 0, sizeof(*s));
			s->name = xstrdup(dix_trim(t + 1));
			s->global = !strcmp(s->name, "global");
			s->file = file;
			s->line = lineno;
			continue;
		}
		if (!strncmp(t, "include", 7) && isspace((unsigned char)t[7])) {
			ret = do_include(r, file, lineno, dix_trim(t + 8));
			continue;
		}
		if (!r->d->ns) {
			snprintf(r->err, r->len,
				 "%s:%d: '%s' before any [section] (options belong to [global] or to a job's [NAME])",
				 file, lineno, t);
			ret = -EINVAL;
			break;
		}
		s = &r->d->s[r->d->ns - 1];
		eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		key = dix_trim(t);
		val = eq ? dix_trim(eq + 1) : NULL;
		if (!*key || strpbrk(key, " \t")) {
			snprintf(r->err, r->len,
				 "%s:%d: [%s] '%s' is not an option (allowed: KEY=VALUE, or KEY alone for an option without a value)",
				 file, lineno, s->name, key);
			ret = -EINVAL;
			break;
		}
		s->kv = xrealloc(s->kv, (s->nkv + 1) * sizeof(*s->kv));
		kv = &s->kv[s->nkv];
		memset(kv, 0, sizeof(*kv));
		kv->key = xstrdup(key);
		kv->file = file;
		kv->line = lineno;
		s->nkv++;
		if (val) {
			kv->raw = xstrdup(val);
			ret = expand(r, file, lineno, key, val, &kv->val);
		}
	}
	free(line);
	return ret;
}

int jf_read_file(struct jf_doc *d, const char *path, const struct jf_sys *sys,
		 char *err, size_t errlen)
{
	struct rd r = { .d = d, .sys = sys, .err = err, .len = errlen };
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot read the job file: %s", path,
			 strerror(errno));
		return ret;
	}
	ret = read_stream(&r, f, keep_name(d, path), 0);
	fclose(f);
	return ret;
}

int jf_read_text(struct jf_doc *d, const char *text, const char *name,
		 const struct jf_sys *sys, char *err, size_t errlen)
{
	struct rd r = { .d = d, .sys = sys, .err = err, .len = errlen };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: fmemopen: %s", name, strerror(errno));
		return -errno;
	}
	ret = read_stream(&r, f, keep_name(d, name), 0);
	fclose(f);
	return ret;
}

void jf_free(struct jf_doc *d)
{
	int i, k;

	for (i = 0; i < d->ns; i++) {
		for (k = 0; k < d->s[i].nkv; k++) {
			free(d->s[i].kv[k].key);
			free(d->s[i].kv[k].val);
			free(d->s[i].kv[k].raw);
		}
		free(d->s[i].kv);
		free(d->s[i].name);
	}
	free(d->s);
	for (i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	memset(d, 0, sizeof(*d));
}
