// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * era.c - the kernel's era in the kcapi engine's words (see era.h).
 *
 * AF_ALG is closing, one kernel at a time, and each step shows up as an
 * errno that names nothing (issue 35, measured 2026-12-03):
 * - stable 6.1.178+, 6.6.145+, 6.12.97+ and 7.1.5+ (Debian 12's 6.1.0-57):
 *   algif_skcipher lost its AIO path, so an "async" request completes
 *   inside io_submit() and a TFM holds one request whatever --iodepth says;
 * - 7.2: bind() masks CRYPTO_ALG_ASYNC | CRYPTO_ALG_ALLOCATES_MEMORY |
 *   CRYPTO_ALG_KERN_DRIVER_ONLY, so cryptd(...) and every offload driver
 *   are ENOENT (sid: "registering cryptd(xts(ecb(aes-lib))): ENOENT");
 * - 7.3: /proc/sys/crypto/af_alg_restrict, default 1, an allowlist by
 *   exact name (ENOENT for the rest, driver names too), 2 refuses
 *   socket(AF_ALG) itself (EAFNOSUPPORT).
 * The messages say which, and send the user to the in-kernel load.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "engines/kcapi/era.h"
#include "kernel/cryptoname.h"
#include "kernel/cryptobind.h"
#include "kernel/kwatch.h"

#define KLOAD_HINT	"the in-kernel load (--engine kload) drives any driver with requests in flight"

static int wrapper_name(const char *name)
{
	return !strncmp(name, "cryptd(", 7) || !strncmp(name, "pcrypt(", 7);
}

void kc_era_read(struct kc_era *e, const char *name)
{
	struct utsname u;
	struct kw_state s;
	const char *deb;
	FILE *f;
	int i, prio, refcnt;

	memset(e, 0, sizeof(*e));
	e->restrict_ = -1;
	e->async = wrapper_name(name) ? 1 : -1;
	if (uname(&u) == 0) {
		snprintf(e->release, sizeof(e->release), "%s", u.release);
		sscanf(u.release, "%d.%d", &e->major, &e->minor);
		deb = strstr(u.version, "Debian ");
		if (deb)
			sscanf(deb + 7, "%79s", e->version);
	}
	f = fopen("/proc/sys/crypto/af_alg_restrict", "re");
	if (f) {
		if (fscanf(f, "%d", &e->restrict_) != 1)
			e->restrict_ = -1;
		fclose(f);
	}
	if (cryptobind_lookup(name, e->driver, sizeof(e->driver), &prio,
			      &refcnt))
		e->driver[0] = '\0';
	if (e->async >= 0 || kw_snapshot(&s, "/proc", "/sys"))
		return;
	/* the entry the name selects: its driver, else the name itself */
	for (i = 0; i < s.ncrypto; i++)
		if (s.crypto[i].have_async &&
		    !strcmp(s.crypto[i].driver, e->driver[0] ? e->driver : name))
			e->async = s.crypto[i].async;
	kw_free(&s);
}

int kc_era_refusal(const struct kc_era *e, const char *name, int err,
		   char *out, size_t len)
{
	out[0] = '\0';
	if (e->restrict_ >= 2 && err == -EAFNOSUPPORT) {
		snprintf(out, len,
			 "%s: socket(AF_ALG) refused (EAFNOSUPPORT): /proc/sys/crypto/af_alg_restrict is %d on Linux %s, which closes AF_ALG to every user (7.3; 1 allows an allowlist of names, 0 all); %s",
			 name, e->restrict_, e->release, KLOAD_HINT);
		return 1;
	}
	if (e->restrict_ >= 1 && err == -ENOENT) {
		snprintf(out, len,
			 "%s: bind refused (ENOENT): /proc/sys/crypto/af_alg_restrict is %d on Linux %s: since 7.3 AF_ALG binds only the algorithm names of its allowlist, matched exactly, so driver names and cryptd(...) are refused even for root (0 lifts it); %s",
			 name, e->restrict_, e->release, KLOAD_HINT);
		return 1;
	}
	if (err == -ENOENT && (e->major > 7 || (e->major == 7 && e->minor >= 2)) &&
	    e->async == 1) {
		snprintf(out, len,
			 "%s: bind refused (ENOENT): since Linux 7.2 (this is %s) AF_ALG's bind masks CRYPTO_ALG_ASYNC | CRYPTO_ALG_ALLOCATES_MEMORY | CRYPTO_ALG_KERN_DRIVER_ONLY, and %s is asynchronous%s%s%s: AF_ALG no longer reaches asynchronous drivers or accelerators (cryptd, QAT); %s",
			 name, e->release, name,
			 e->driver[0] ? " (selected: " : "", e->driver,
			 e->driver[0] ? ")" : "", KLOAD_HINT);
		return 1;
	}
	return 0;
}

int kc_era_async_note(const struct kc_era *e, const struct kc_probe *p,
		      const char *name, unsigned int iodepth,
		      unsigned int threads, char *out, size_t len)
{
	char ver[100] = "";

	if (e->version[0])
		snprintf(ver, sizeof(ver), " (%s)", e->version);
	if (p->err) {
		snprintf(out, len,
			 "kcapi: --submit async on Linux %s%s: the probe of io_submit could not run (%s), so each AIO call counts as 1 request in flight, the least it held",
			 e->release, ver, p->why);
		return 1;
	}
	if (p->done < p->n) {
		snprintf(out, len,
			 "kcapi: --submit async on Linux %s%s: io_submit returned with %u of %u probe requests of %s still in the kernel: AIO works here, the requests of a call are in flight together (the summary's in flight is measured)",
			 e->release, ver, p->n - p->done, p->n, name);
		return 0;
	}
	snprintf(out, len,
		 "kcapi: --submit async on Linux %s%s completes synchronously: io_submit returned with %s%u probe request%s of %s done, so %s%u submitting thread%s (a thread per op socket) holds 1 request in flight, at most %u in all, not --iodepth %u per TFM; %s",
		 e->release, ver, p->n == 1 ? "its " : "all ", p->n,
		 p->n == 1 ? "" : "s", name, threads == 1 ? "its " : "each of the ",
		 threads, threads == 1 ? "" : "s",
		 threads, iodepth,
		 e->async == 1 ?
		 "the driver is asynchronous, so this kernel's algif_skcipher has no AIO path (stable 6.1.178+, 6.6.145+, 6.12.97+, 7.1.5+; 7.2 removed AIO on sockets): --engine kload keeps requests in flight" :
		 e->async == 0 ?
		 "the driver is synchronous (/proc/crypto async: no): it completes each request inside the call on every kernel" :
		 "whether the driver is asynchronous is not known");
	return 1;
}

const char *kc_explain(const char *name, int err, char *out, size_t len)
{
	struct kc_era e;
	char hint[300];

	out[0] = '\0';
	kc_era_read(&e, name);
	if (!kc_era_refusal(&e, name, err, out, len) && err == -ENOENT)
		snprintf(out, len, "%s",
			 crypto_name_hint(name, hint, sizeof(hint)) + (hint[0] ? 2 : 0));
	return out;
}
