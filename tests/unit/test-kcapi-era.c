// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-kcapi-era.c - the kcapi engine's words for the kernel's era, fed
 * fakes of the kernel's answers: bind refused by 7.2's mask or by 7.3's
 * af_alg_restrict (and not explained where the era does not explain it),
 * the start note on what the io_submit() probe found, and the name this
 * kernel has for a generic driver it no longer has.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/kcapi/era.h"
#include "kernel/cryptoname.h"
#include "tap.h"

static struct kc_era era(const char *rel, int maj, int min, int restr,
			 int async)
{
	struct kc_era e;

	memset(&e, 0, sizeof(e));
	snprintf(e.release, sizeof(e.release), "%s", rel);
	e.major = maj;
	e.minor = min;
	e.restrict_ = restr;
	e.async = async;
	return e;
}

static void refusals(void)
{
	struct kc_era e;
	char m[600];
	int r;

	e = era("7.2.13+deb14-amd64", 7, 2, -1, 1);
	r = kc_era_refusal(&e, "cryptd(xts(ecb(aes-lib)))", -ENOENT, m, sizeof(m));
	ok(r == 1 && strstr(m, "since Linux 7.2") &&
	   strstr(m, "CRYPTO_ALG_ASYNC | CRYPTO_ALG_ALLOCATES_MEMORY | CRYPTO_ALG_KERN_DRIVER_ONLY") &&
	   strstr(m, "7.2.13+deb14-amd64") && strstr(m, "--engine kload"),
	   "7.2, an asynchronous algorithm, ENOENT: the mask, the release and kload named: %s", m);
	e = era("6.1.0-50-amd64", 6, 1, -1, 1);
	r = kc_era_refusal(&e, "cryptd(xts(ecb(aes-generic)))", -ENOENT, m, sizeof(m));
	ok(r == 0 && !m[0], "6.1: the mask is not the reason, nothing said");
	e = era("7.2.13+deb14-amd64", 7, 2, -1, 0);
	r = kc_era_refusal(&e, "xts(aes)", -ENOENT, m, sizeof(m));
	ok(r == 0 && !m[0], "7.2, a synchronous algorithm: not the mask");
	e = era("7.3.1", 7, 3, 1, 0);
	r = kc_era_refusal(&e, "xts-aes-aesni", -ENOENT, m, sizeof(m));
	ok(r == 1 && strstr(m, "/proc/sys/crypto/af_alg_restrict is 1") &&
	   strstr(m, "allowlist") && strstr(m, "--engine kload"),
	   "af_alg_restrict 1, ENOENT: the allowlist named: %s", m);
	e = era("7.3.1", 7, 3, 2, 0);
	r = kc_era_refusal(&e, "xts(aes)", -EAFNOSUPPORT, m, sizeof(m));
	ok(r == 1 && strstr(m, "socket(AF_ALG) refused") &&
	   strstr(m, "af_alg_restrict is 2"), "af_alg_restrict 2, EAFNOSUPPORT: %s", m);
	e = era("7.3.1", 7, 3, 0, 1);
	r = kc_era_refusal(&e, "cryptd(xts(ecb(aes-lib)))", -ENOENT, m, sizeof(m));
	ok(r == 1 && strstr(m, "since Linux 7.2") && !strstr(m, "restrict"),
	   "af_alg_restrict 0 on 7.3: the 7.2 mask still explains cryptd");
	e = era("7.2.13", 7, 2, -1, 1);
	r = kc_era_refusal(&e, "cryptd(x)", -EINVAL, m, sizeof(m));
	ok(r == 0, "another errno: not explained by the era");
}

static void notes(void)
{
	struct kc_era e = era("6.1.0-57-amd64", 6, 1, -1, 1);
	struct kc_probe p = { .n = 1, .done = 1 };
	char m[768];
	int r;

	snprintf(e.version, sizeof(e.version), "6.1.192-3");
	r = kc_era_async_note(&e, &p, "cryptd(xts(ecb(aes-generic)))", 16, 16,
			      m, sizeof(m));
	ok(r == 1 && strstr(m, "completes synchronously") &&
	   strstr(m, "Linux 6.1.0-57-amd64 (6.1.192-3)") &&
	   strstr(m, "no AIO path") && strstr(m, "at most 16 in all") &&
	   strstr(m, "--engine kload"),
	   "all done inside io_submit, asynchronous driver: the kernel's AIO path gone: %s", m);
	e.async = 0;
	p.n = p.done = 16;
	r = kc_era_async_note(&e, &p, "xts(aes)", 16, 2, m, sizeof(m));
	ok(r == 1 && strstr(m, "completes synchronously") &&
	   strstr(m, "the driver is synchronous") && strstr(m, "at most 2 in all") &&
	   !strstr(m, "no AIO path"),
	   "all done, synchronous driver: the driver's doing, not the kernel's: %s", m);
	p.n = 1;
	p.done = 0;
	r = kc_era_async_note(&e, &p, "cryptd(x)", 16, 16, m, sizeof(m));
	ok(r == 0 && strstr(m, "1 of 1 probe requests") && strstr(m, "AIO works"),
	   "a request still in the kernel after io_submit: AIO works: %s", m);
	p.err = -EBUSY;
	snprintf(p.why, sizeof(p.why), "a probe request: Device or resource busy");
	r = kc_era_async_note(&e, &p, "x", 16, 1, m, sizeof(m));
	ok(r == 1 && strstr(m, "could not run") && strstr(m, "busy") &&
	   strstr(m, "1 request in flight"),
	   "a failed probe: said, and the least is counted: %s", m);
}

static void names(void)
{
	struct kw_alg v[4];
	char out[128];
	int r;

	memset(v, 0, sizeof(v));
	snprintf(v[0].name, sizeof(v[0].name), "aes");
	snprintf(v[0].driver, sizeof(v[0].driver), "aes-lib");
	v[0].priority = 100;
	snprintf(v[1].name, sizeof(v[1].name), "aes");
	snprintf(v[1].driver, sizeof(v[1].driver), "aes-aesni");
	v[1].priority = 300;
	snprintf(v[2].name, sizeof(v[2].name), "xts(aes)");
	snprintf(v[2].driver, sizeof(v[2].driver), "xts(ecb(aes-lib))");
	v[2].priority = 100;
	snprintf(v[3].name, sizeof(v[3].name), "crc32c");
	snprintf(v[3].driver, sizeof(v[3].driver), "crc32c-lib");
	v[3].priority = 100;

	r = crypto_name_now(v, 4, "xts(ecb(aes-generic))", out, sizeof(out));
	ok(r == 0 && !strcmp(out, "xts(ecb(aes-lib))"),
	   "xts(ecb(aes-generic)) on 7.x: %s", out);
	r = crypto_name_now(v, 4, "aes-generic", out, sizeof(out));
	ok(r == 0 && !strcmp(out, "aes-lib"),
	   "the lowest priority driver of the algorithm, not aesni: %s", out);
	r = crypto_name_now(v, 4, "crc32c-generic", out, sizeof(out));
	ok(r == 0 && !strcmp(out, "crc32c-lib"), "crc32c-generic: %s", out);
	r = crypto_name_now(v, 4, "xts(ecb(aes-lib))", out, sizeof(out));
	ok(r == -ENOENT, "a name the kernel has: no hint");
	r = crypto_name_now(v, 1, "xts(ecb(aes-aesni))", out, sizeof(out));
	ok(r == -ENOENT, "a missing driver that is not a generic one: no hint (a module not loaded)");
	r = crypto_name_now(v, 4, "sha256-generic", out, sizeof(out));
	ok(r == -ENOENT, "an algorithm with no driver listed: no hint");
	r = crypto_name_now(v, 2, "xts(ecb(aes-generic))", out, sizeof(out));
	ok(r == 0 && !strcmp(out, "xts(ecb(aes-lib))"),
	   "templates are kept as given, leaves replaced: %s", out);
}

int main(void)
{
	refusals();
	notes();
	names();
	return tap_done();
}
