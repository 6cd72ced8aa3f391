// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modules.c - loading and unloading kernel modules for --hotload/--unload,
 * and loading those a load needs before it starts (mod_need: the kcapi
 * engine's AF_ALG type and crypto_user).
 *
 * Modules go through libkmod when it was found at build time: its results
 * are errno values and module states, so "not found", "already loaded",
 * "built in" and "in use" are told apart precisely.  Without it dixload
 * runs modprobe and reports modprobe's own first line of stderr.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_KMOD
#include <libkmod.h>
#endif

#include "kernel/kwatch.h"
#include "kernel/modules.h"
#include "kernel/child.h"

/* Kernel release "6.14.0-1-amd64" >= @maj.@min?  Unknown: assume yes. */
static int kernel_at_least(int maj, int min)
{
	struct utsname u;
	int a, b;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return 1;
	return a > maj || (a == maj && b >= min);
}

int mod_is_qat(const char *name)
{
	char n[KW_MOD_LEN];

	kw_normalise(name, n, sizeof(n));
	return !strncmp(n, "qat_", 4) || !strcmp(n, "intel_qat");
}

int mod_era_note(const char *name, char *msg, size_t len)
{
	if (!mod_is_qat(name))
		return 0;
	if (kernel_at_least(6, 17))
		snprintf(msg, len,
			 "since Linux 6.17 QAT registers its ciphers at priority 100 (4001 before), below AES-NI's 300-401: loading %s does not change which driver the kernel selects for xts/cbc/ctr/gcm(aes) while aesni_intel is loaded",
			 name);
	else
		snprintf(msg, len,
			 "on this kernel QAT registers its ciphers at priority 4001, above AES-NI's 300-401: with a QAT device present, loading %s moves new xts/cbc/ctr/gcm(aes) TFMs to QAT (6.17 lowered it to 100)",
			 name);
	return 1;
}

static const char *release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "?";
	return u.release;
}

/*
 * The message for a module that does not exist.  For the CRC-T10DIF
 * modules on a kernel that no longer has them, say why and what to do
 * instead; for the CRC32C ones (dm-integrity's hash), why there is
 * nothing to hot-load; for sha256_ssse3 (the kcapi seed's hot-load) the
 * same (measured on 7.2.13: no such module, /proc/crypto's sha256 is
 * sha256-lib over the kernel's SHA-256 library).
 */
static void not_found(const struct mod_env *env, const char *name, char *msg,
		      size_t len)
{
	char n[KW_MOD_LEN];
	const char *dev = env->dev ? env->dev : "DEV";

	kw_normalise(name, n, sizeof(n));
	if ((!strncmp(n, "crct10dif", 9) || !strcmp(n, "crc_t10dif")) &&
	    !env->kw->have_transform && kernel_at_least(6, 14))
		snprintf(msg, len, "module %s not found in /lib/modules/%s: since Linux 6.14 the accelerated CRC-T10DIF is built into the kernel's CRC library and chosen at boot (no module to load, no crc_t10dif transform to switch); the A/B that works here toggles PI in the block layer: --sysfs /sys/block/%s/integrity/write_generate=0@SEC or --sysfs /sys/block/%s/integrity/read_verify=0@SEC",
			 name, release(), dev, dev);
	else if ((!strcmp(n, "crc32c_intel") || !strcmp(n, "crc32_pclmul")) &&
		 kernel_at_least(6, 14))
		snprintf(msg, len, "module %s not found in /lib/modules/%s: since Linux 6.14 the accelerated CRC32/CRC32C is built into the kernel's CRC library and chosen at boot (no module to load); the crypto API's crc32c (crc32c-cryptoapi) calls that library, so a dm-integrity crc32c mapping runs on it from its table load and a reload changes nothing",
			 name, release());
	else if (!strcmp(n, "sha256_ssse3") && kernel_at_least(6, 16))
		snprintf(msg, len, "module %s not found in /lib/modules/%s: since Linux 6.16 the x86 SHA-256 code is part of the kernel's SHA-256 library and chosen at boot (no module to load); the crypto API's sha256 is sha256-lib over it",
			 name, release());
	else
		snprintf(msg, len, "module %s not found in /lib/modules/%s",
			 name, release());
}

#ifdef HAVE_KMOD
static const char *insert_hint(int err)
{
	switch (err) {
	case -ENODEV:
		return " (the module's init found no device or CPU feature it needs; see dmesg)";
	case -ENOEXEC:
	case -EINVAL:
		return " (not a module for this kernel, unknown symbol or bad parameter; see dmesg)";
	case -EPERM:
		return " (needs CAP_SYS_MODULE; or module loading is disabled: /proc/sys/kernel/modules_disabled)";
	case -EKEYREJECTED:
	case -ENOKEY:
		return " (module signature rejected)";
	}
	return "";
}

/* A quiet library context: its messages would garble the meter lines. */
static void kmod_quiet(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	(void)format, (void)args;
}

static struct kmod_ctx *kctx(char *msg, size_t len)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		snprintf(msg, len, "libkmod cannot open /lib/modules/%s",
			 release());
		return NULL;
	}
	kmod_set_log_fn(ctx, kmod_quiet, NULL);
	return ctx;
}

/*
 * Look up @name (a module or an alias, which may name several modules) in
 * a quiet library context.  Return: 0 with *@ctx and a non-empty *@list
 * that the caller releases, or -errno (-ENOENT: no such module) with @msg
 * saying why.
 */
static int module_lookup(const struct mod_env *env, const char *name,
			 struct kmod_ctx **ctx, struct kmod_list **list,
			 char *msg, size_t len)
{
	int r;

	*list = NULL;
	*ctx = kctx(msg, len);
	if (!*ctx)
		return -ENOMEM;
	r = kmod_module_new_from_lookup(*ctx, name, list);
	if (r < 0) {
		snprintf(msg, len, "looking up module %s: %s", name, strerror(-r));
	} else if (!*list) {
		not_found(env, name, msg, len);
		r = -ENOENT;
	}
	if (r < 0) {
		kmod_module_unref_list(*list);
		kmod_unref(*ctx);
	}
	return r;
}

int mod_state(const struct mod_env *env, const char *name, char *msg, size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list, *l;
	int r = module_lookup(env, name, &ctx, &list, msg, len);

	if (r < 0)
		return r;
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int st = kmod_module_get_initstate(m);

		if (st == KMOD_MODULE_BUILTIN) {
			snprintf(msg, len, "module %s is built into the kernel",
				 kmod_module_get_name(m));
			r = 2;
		} else if (st == KMOD_MODULE_LIVE ||
			   st == KMOD_MODULE_COMING) {
			snprintf(msg, len, "module %s is already loaded",
				 kmod_module_get_name(m));
			r = 1;
		}
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r;
}

/*
 * Insert @m with its dependencies (kmod @flags) and say in @msg why not:
 * already loaded (with KMOD_PROBE_FAIL_ON_LOADED), an insert error, or a
 * blacklist.  Return: 0, or -errno (-EPERM for a blacklisted module).
 */
static int insert_module(struct kmod_module *m, unsigned int flags,
			 char *msg, size_t len)
{
	int e = kmod_module_probe_insert_module(m, flags, NULL, NULL, NULL,
						NULL);

	if (e == -EEXIST && (flags & KMOD_PROBE_FAIL_ON_LOADED))
		snprintf(msg, len, "module %s is already loaded: nothing changes",
			 kmod_module_get_name(m));
	else if (e < 0)
		snprintf(msg, len, "could not insert '%s': %s%s",
			 kmod_module_get_name(m), strerror(-e), insert_hint(e));
	else if (e > 0) {
		snprintf(msg, len, "module %s is blacklisted",
			 kmod_module_get_name(m));
		e = -EPERM;
	}
	return e;
}

int mod_load(const struct mod_env *env, const char *name, char *msg, size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list, *l;
	int r = module_lookup(env, name, &ctx, &list, msg, len);

	if (r < 0)
		return r;
	/* load every module an alias names, like modprobe */
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int st = kmod_module_get_initstate(m), e;

		if (st == KMOD_MODULE_BUILTIN) {
			snprintf(msg, len, "module %s is built into the kernel: nothing to load",
				 kmod_module_get_name(m));
			e = -EEXIST;
		} else {
			/* an already loaded module is not "ok": the
			 * transition this action was meant to cause cannot
			 * happen */
			e = insert_module(m, KMOD_PROBE_FAIL_ON_LOADED, msg, len);
		}
		kmod_module_unref(m);
		if (e < 0) {
			r = e;
			break;
		}
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r;
}

int mod_need(const char *name, char *msg, size_t len)
{
	struct kmod_ctx *ctx = kctx(msg, len);
	struct kmod_list *list = NULL, *l;
	int r;

	if (!ctx)
		return -ENOMEM;
	r = kmod_module_new_from_lookup(ctx, name, &list);
	if (r < 0) {
		snprintf(msg, len, "looking up module %s: %s", name, strerror(-r));
	} else if (!list) {
		snprintf(msg, len, "module %s not found in /lib/modules/%s",
			 name, release());
		r = -ENOENT;
	}
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int st = kmod_module_get_initstate(m), e = 0;

		if (st != KMOD_MODULE_BUILTIN && st != KMOD_MODULE_LIVE &&
		    st != KMOD_MODULE_COMING) {
			e = insert_module(m, 0, msg, len);
			if (!e)
				r = 1;
		}
		kmod_module_unref(m);
		if (e < 0) {
			r = e;
			break;
		}
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r;
}

/* Remove @m's dependencies nothing uses any more, as modprobe -r does. */
static void remove_unused_deps(struct kmod_module *m, FILE *also, int *n,
			       int depth)
{
	struct kmod_list *deps = kmod_module_get_dependencies(m), *l;

	if (depth > 16)
		return;
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);
		struct kmod_list *h = kmod_module_get_holders(d);

		if (kmod_module_get_initstate(d) == KMOD_MODULE_LIVE &&
		    kmod_module_get_refcnt(d) == 0 && !h &&
		    kmod_module_remove_module(d, 0) == 0) {
			fprintf(also, "%s%s", (*n)++ ? ", " : "",
				kmod_module_get_name(d));
			remove_unused_deps(d, also, n, depth + 1);
		}
		kmod_module_unref_list(h);
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
}

int mod_unload(const struct mod_env *env, const char *name, char *msg,
	       size_t len, char **removed_deps)
{
	struct kmod_ctx *ctx = kctx(msg, len);
	struct kmod_module *m = NULL;
	struct kmod_list *h, *l;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;
	int r, st, n = 0;

	*removed_deps = NULL;
	if (!ctx)
		return -ENOMEM;
	r = kmod_module_new_from_name(ctx, name, &m);
	if (r < 0) {
		snprintf(msg, len, "module %s: %s", name, strerror(-r));
		goto out;
	}
	st = kmod_module_get_initstate(m);
	if (st == KMOD_MODULE_BUILTIN) {
		snprintf(msg, len, "module %s is built into the kernel: it cannot be unloaded",
			 name);
		r = -EPERM;
		goto out;
	}
	if (st < 0) {
		snprintf(msg, len, "module %s is not loaded", name);
		r = -ENOENT;
		goto out;
	}
	r = kmod_module_remove_module(m, 0);
	if (r < 0) {
		int refs = kmod_module_get_refcnt(m);

		f = open_memstream(&buf, &blen);
		if (f) {
			h = kmod_module_get_holders(m);
			kmod_list_foreach(l, h) {
				struct kmod_module *x = kmod_module_get_module(l);

				fprintf(f, "%s%s", n++ ? ", " : ", used by ",
					kmod_module_get_name(x));
				kmod_module_unref(x);
			}
			kmod_module_unref_list(h);
			fclose(f);
		}
		if (r == -EAGAIN || r == -EBUSY || r == -EWOULDBLOCK)
			snprintf(msg, len, "module %s is in use (refcount %d%s): cannot be unloaded",
				 name, refs, buf ? buf : "");
		else
			snprintf(msg, len, "could not remove '%s': %s", name,
				 strerror(-r));
		free(buf);
		goto out;
	}
	f = open_memstream(&buf, &blen);
	if (f) {
		remove_unused_deps(m, f, &n, 0);
		fclose(f);
		if (n)
			*removed_deps = buf;
		else
			free(buf);
	}
out:
	kmod_module_unref(m);
	kmod_unref(ctx);
	return r;
}
#else /* !HAVE_KMOD */

/* modprobe [-r] NAME; 0, or -EIO with modprobe's first stderr line. */
static int run_modprobe(int unload, const char *name, char *msg, size_t len)
{
	char *argv[] = { "/sbin/modprobe", unload ? "-r" : "--", (char *)name,
			 NULL };
	char first[512], how[64];
	int fd = -1, st;
	pid_t pid = spawn_child(argv, &fd);

	if (pid < 0) {
		snprintf(msg, len, "cannot run /sbin/modprobe: %s",
			 strerror(-pid));
		return pid;
	}
	drain_stderr(fd, first, sizeof(first), 0, NULL, NULL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	snprintf(msg, len, "%s (modprobe %s)", first[0] ? first :
		 "no message", status_text(st, how, sizeof(how)));
	return -EIO;
}

/*
 * Without libkmod the states come from the watch's /proc/modules snapshot
 * and modprobe's own messages: less precise (no "built in"), never wrong.
 */
int mod_state(const struct mod_env *env, const char *name, char *msg, size_t len)
{
	(void)env, (void)name, (void)msg, (void)len;
	return -EOPNOTSUPP;
}

int mod_load(const struct mod_env *env, const char *name, char *msg, size_t len)
{
	char n[KW_MOD_LEN];
	int e;

	kw_normalise(name, n, sizeof(n));
	if (kw_module_loaded(env->kw, n) == 1) {
		snprintf(msg, len, "module %s is already loaded: nothing changes", name);
		return -EEXIST;
	}
	e = run_modprobe(0, name, msg, len);
	if (e && strstr(msg, "not found"))
		not_found(env, name, msg, len);
	return e;
}

/* Without libkmod: /sys/module/NAME says "there" (a built-in module without
 * parameters has none: modprobe then finds it built in and succeeds). */
int mod_need(const char *name, char *msg, size_t len)
{
	char n[KW_MOD_LEN], path[KW_MOD_LEN + 16];

	kw_normalise(name, n, sizeof(n));
	snprintf(path, sizeof(path), "/sys/module/%s", n);
	if (access(path, F_OK) == 0)
		return 0;
	return run_modprobe(0, name, msg, len) ? -EIO : 1;
}

int mod_unload(const struct mod_env *env, const char *name, char *msg,
	       size_t len, char **removed_deps)
{
	char n[KW_MOD_LEN];

	*removed_deps = NULL;
	kw_normalise(name, n, sizeof(n));
	if (kw_module_loaded(env->kw, n) == 0) {
		snprintf(msg, len, "module %s is not loaded", name);
		return -ENOENT;
	}
	return run_modprobe(1, name, msg, len);
}
#endif /* HAVE_KMOD */
