// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crcbench.c - `dixload crcbench`: GB/s (10^9 bytes per second of real,
 * monotonic elapsed time) of every guard implementation at 512 B, 4 KiB,
 * 64 KiB and "1 MiB as 512-byte sectors" (2048 separate CRCs walking a
 * 1 MiB buffer, the per-sector work PI really does), of the PI generate /
 * verify path at 512-byte intervals, and of the kernel's current crct10dif
 * driver through AF_ALG, so the effect of loading crct10dif-pclmul can be
 * seen outside the I/O path too.
 *
 * The 512 B / 4 KiB / 64 KiB cases checksum the same buffer over and over
 * (cache-hot, the pure compute cost); the sectors case touches 1 MiB.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/if_alg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/json.h"
#include "pi/crc.h"
#include "pi/crcbench.h"
#include "pi/pi.h"
#include "pi/selftest.h"
#include "lib/util.h"

#define BENCH_BUF	(1u << 20)
#define SECTOR		512u

enum bcase_id { CASE_512, CASE_4K, CASE_64K, CASE_SECTORS, CASE_NR };

/*
 * A unit of work is always 1 MiB of CRC input, so the harness's own cost
 * (an indirect call and a clock read per batch) is the same small share in
 * every case; only the sectors case moves through the buffer.
 */
static const struct {
	const char *key;	/* JSON "case" */
	const char *title;	/* table column */
	size_t call_bytes;	/* bytes per CRC call */
	size_t stride;		/* buffer step between calls */
} cases[CASE_NR] = {
	[CASE_512] = { "512", "512 B", 512, 0 },
	[CASE_4K] = { "4k", "4 KiB", 4096, 0 },
	[CASE_64K] = { "64k", "64 KiB", 65536, 0 },
	[CASE_SECTORS] = { "1m-sectors", "1MiB/512", SECTOR, SECTOR },
};

struct bench {
	double seconds;
	bool json;
	const char *guard_filter;
	const char *impl_filter;
	unsigned char *buf;		/* BENCH_BUF bytes of data */
};

/* Results are folded into this so no computation can be optimised away. */
static volatile uint64_t sink;

/* One unit of work; returns something derived from the result. */
struct unit {
	uint64_t (*run)(struct unit *u);
	size_t bytes;			/* bytes of data per unit */
	const struct crc_impl *impl;
	const unsigned char *buf;
	size_t call_bytes, calls, stride;
	/* PI */
	struct pi_format fmt;
	struct pi_io io;
	unsigned char *data, *meta;
	size_t nr;
	/* AF_ALG */
	int opfd;
	int err;
};

/* A unit running @run over the whole buffer in calls of case @k's size. */
static struct unit case_unit(const struct bench *b, int k,
			     uint64_t (*run)(struct unit *u))
{
	struct unit u = {
		.run = run, .buf = b->buf,
		.call_bytes = cases[k].call_bytes,
		.calls = BENCH_BUF / cases[k].call_bytes,
		.stride = cases[k].stride,
	};

	u.bytes = u.call_bytes * u.calls;
	return u;
}

static uint64_t run_crc(struct unit *u)
{
	uint64_t acc = 0, init = crc_init(u->impl->guard);
	size_t i;

	for (i = 0; i < u->calls; i++)
		acc ^= u->impl->update(init, u->buf + i * u->stride, u->call_bytes);
	return acc;
}

static uint64_t run_pi_generate(struct unit *u)
{
	return pi_generate(&u->fmt, u->data, u->meta, u->nr, &u->io);
}

static uint64_t run_pi_verify(struct unit *u)
{
	return pi_verify(&u->fmt, u->data, u->meta, u->nr, &u->io, NULL);
}

static uint64_t run_pi_both(struct unit *u)
{
	pi_generate(&u->fmt, u->data, u->meta, u->nr, &u->io);
	return pi_verify(&u->fmt, u->data, u->meta, u->nr, &u->io, NULL);
}

/* One digest per call: write the bytes (final, no MSG_MORE), read 2 bytes. */
static uint64_t run_af_alg(struct unit *u)
{
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < u->calls && !u->err; i++) {
		uint16_t out = 0;

		errno = 0;
		if (send(u->opfd, u->buf + i * u->stride, u->call_bytes, 0) !=
		    (ssize_t)u->call_bytes || read(u->opfd, &out, 2) != 2)
			u->err = errno ? errno : EIO;
		acc ^= out;
	}
	return acc;
}

/*
 * Repeat the unit in batches, doubling the batch while a batch is short, so
 * the clock is read rarely; stop once @seconds of real time have passed.
 * Return: GB/s (10^9 bytes/s).
 */
static double measure(struct unit *u, double seconds)
{
	uint64_t units = 0, batch = 1, i;
	double t0, t;

	sink ^= u->run(u);		/* warm caches and lazy init */
	t0 = dix_now();
	for (;;) {
		for (i = 0; i < batch; i++)
			sink ^= u->run(u);
		units += batch;
		t = dix_now() - t0;
		if (t >= seconds || u->err)
			break;
		if (t < seconds / 20)
			batch *= 2;
	}
	return (double)units * u->bytes / t / 1e9;
}

static bool pass_filters(const struct bench *b, const struct crc_impl *c)
{
	if (b->guard_filter && strcmp(b->guard_filter, crc_guard_name(c->guard)))
		return false;
	if (b->impl_filter && strcmp(b->impl_filter, c->name))
		return false;
	return true;
}

/* Start one JSON line of crcbench: {"type":@type,"guard":@guard,"impl":@impl */
static void row_open(struct jw *w, const char *type, const char *guard,
		     const char *impl)
{
	jw_init(w, stdout);
	jw_obj_open(w, NULL);
	jw_str(w, "type", type);
	if (guard)
		jw_str(w, "guard", guard);
	if (impl)
		jw_str(w, "impl", impl);
}

/* End the line row_open() started, with the measured rate. */
static void row_close(struct jw *w, double gbps)
{
	if (gbps >= 0)
		jw_num(w, "gbps", gbps, 3);
	jw_obj_close(w);
	jw_end_line(w);
}

static void bench_impls(const struct bench *b)
{
	size_t n, i;
	const struct crc_impl *t = crc_impls(&n);
	char why[160];
	int k;

	for (i = 0; i < n && !pass_filters(b, &t[i]); i++)
		;
	if (i == n)
		return;
	if (!b->json) {
		printf("%-7s %-9s", "guard", "impl");
		for (k = 0; k < CASE_NR; k++)
			printf(" %9s", cases[k].title);
		printf("\n");
	}
	for (i = 0; i < n; i++) {
		const struct crc_impl *c = &t[i];
		bool disp = crc_best(c->guard) == c;

		if (!pass_filters(b, c))
			continue;
		if (!crc_impl_ok(c)) {
			if (b->json) {
				struct jw w;

				row_open(&w, "crc", crc_guard_name(c->guard), c->name);
				jw_str(&w, "skipped", "CPU lacks the instructions");
				jw_str(&w, "needs", c->needs);
				row_close(&w, -1);
			} else {
				printf("%-7s %-9s skipped: CPU lacks the instructions (needs %s)\n",
				       crc_guard_name(c->guard), c->name, c->needs);
			}
			continue;
		}
		/* a wrong implementation's speed means nothing: say why instead */
		if (crc_impl_selftest(c, why, sizeof(why))) {
			if (b->json) {
				struct jw w;

				row_open(&w, "crc", crc_guard_name(c->guard), c->name);
				jw_bool(&w, "selftest", false);
				jw_str(&w, "skipped", why);
				row_close(&w, -1);
			} else {
				printf("%-7s %-9s skipped: failed its self-test: %s\n",
				       crc_guard_name(c->guard), c->name, why);
			}
			continue;
		}
		if (!b->json)
			printf("%-7s %-9s", crc_guard_name(c->guard), c->name);
		for (k = 0; k < CASE_NR; k++) {
			struct unit u = case_unit(b, k, run_crc);
			double gbps;

			u.impl = c;
			gbps = measure(&u, b->seconds);
			if (b->json) {
				struct jw w;

				row_open(&w, "crc", crc_guard_name(c->guard), c->name);
				jw_bool(&w, "dispatch", disp);
				jw_bool(&w, "selftest", true);
				if (c->needs)
					jw_str(&w, "needs", c->needs);
				jw_str(&w, "case", cases[k].key);
				jw_uint(&w, "call_bytes", u.call_bytes);
				jw_uint(&w, "calls", u.calls);
				row_close(&w, gbps);
			} else
				printf(" %9.2f", gbps);
			fflush(stdout);
		}
		if (!b->json)
			printf("%s\n", disp ? "  <- dispatch" : "");
	}
}

/*
 * PI generate / verify for one guard with implementation @c forced, so the
 * automatic choice for intervals and the single-buffer best can be compared.
 */
static void bench_pi_impl(const struct bench *b, enum dix_guard g,
			  const struct crc_impl *c, bool disp)
{
	static const struct {
		const char *key;
		uint64_t (*run)(struct unit *u);
	} ops[] = {
		{ "generate", run_pi_generate },
		{ "verify", run_pi_verify },
		{ "generate+verify", run_pi_both },
	};
	struct unit u = { .nr = BENCH_BUF / SECTOR, .bytes = BENCH_BUF };
	size_t k;

	crc_force(g, c->name);
	u.fmt = (struct pi_format){ .guard = g, .type = PI_TYPE1, .interval = SECTOR,
				    .ms = pi_tuple_size(g) };
	u.data = b->buf;
	u.meta = xcalloc(u.nr, u.fmt.ms);
	pi_io_init(&u.io, &u.fmt, 1000);
	pi_generate(&u.fmt, u.data, u.meta, u.nr, &u.io);
	if (pi_verify(&u.fmt, u.data, u.meta, u.nr, &u.io, NULL) != 0)
		dix_warn("crcbench: PI self-check failed for %s/%s", crc_guard_name(g),
			 c->name);
	if (!b->json)
		printf("%-7s %-9s", crc_guard_name(g), c->name);
	for (k = 0; k < ARRAY_SIZE(ops); k++) {
		double gbps;

		u.run = ops[k].run;
		gbps = measure(&u, b->seconds);
		if (b->json) {
			struct jw w;

			row_open(&w, "pi", crc_guard_name(g), c->name);
			jw_bool(&w, "dispatch", disp);
			jw_bool(&w, "multi", c->multi);
			jw_uint(&w, "interval", SECTOR);
			jw_str(&w, "op", ops[k].key);
			jw_uint(&w, "intervals", u.nr);
			row_close(&w, gbps);
		} else
			printf(" %9.2f", gbps);
		fflush(stdout);
	}
	if (!b->json)
		printf("  %s%s\n", c->multi ? "4 intervals at a time" : "one at a time",
		       disp ? " <- dispatch" : "");
	crc_force(g, NULL);
	free(u.meta);
}

static void bench_pi(const struct bench *b)
{
	bool header = false;
	int g, k;

	for (g = 0; g < DIX_GUARD_NR; g++) {
		const struct crc_impl *c[2] = { crc_best_intervals(g), crc_best(g) };

		if (b->guard_filter && strcmp(b->guard_filter, crc_guard_name(g)))
			continue;
		for (k = 0; k < 2; k++) {
			if ((k && c[1] == c[0]) ||
			    (b->impl_filter && strcmp(b->impl_filter, c[k]->name)))
				continue;
			if (!header && !b->json)
				printf("\nPI at 512-byte intervals, 1 MiB per call (2048 "
				       "tuples), separate metadata, PI last, Type 1; GB/s "
				       "of data:\n%-7s %-9s %9s %9s %9s\n", "guard", "impl",
				       "generate", "verify", "gen+ver");
			header = true;
			bench_pi_impl(b, g, c[k], !k);
		}
	}
}

/*
 * The crct10dif driver AF_ALG binds to: the highest-priority /proc/crypto
 * entry named crct10dif.  Return: 0 with @driver/@prio set, or -ENOENT.
 */
static int crct10dif_driver(char *driver, size_t len, int *prio)
{
	FILE *f = fopen("/proc/crypto", "re");
	char line[256], name[128] = "", drv[128] = "";
	int best = -1, p = -1;

	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (line[0] == '\n') {
			name[0] = drv[0] = '\0';
			p = -1;
			continue;
		}
		if (!v)
			continue;
		v++;
		v += strspn(v, " ");
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "name", 4))
			snprintf(name, sizeof(name), "%s", v);
		else if (!strncmp(line, "driver", 6))
			snprintf(drv, sizeof(drv), "%s", v);
		else if (!strncmp(line, "priority", 8))
			p = atoi(v);
		if (!strcmp(name, "crct10dif") && drv[0] && p > best) {
			best = p;
			snprintf(driver, len, "%s", drv);
		}
	}
	fclose(f);
	*prio = best;
	return best < 0 ? -ENOENT : 0;
}

static void af_alg_skip(const struct bench *b, const char *why, int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s (%s)", why, strerror(err));
	if (b->json) {
		struct jw w;

		row_open(&w, "af_alg", NULL, NULL);
		jw_str(&w, "alg", "crct10dif");
		jw_str(&w, "skipped", msg);
		row_close(&w, -1);
	} else {
		printf("kernel crct10dif via AF_ALG: skipped: %s\n", msg);
	}
}

static void bench_af_alg(const struct bench *b)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	char driver[128] = "unknown", transform[128] = "";
	int sfd, opfd, prio = -1, k;
	uint16_t out = 0;

	if (b->guard_filter && strcmp(b->guard_filter, "crc16"))
		return;
	if (b->impl_filter && strcmp(b->impl_filter, "kernel"))
		return;
	if (!b->json && !b->impl_filter)
		printf("\n");
	sfd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (sfd < 0) {
		af_alg_skip(b, "AF_ALG not available: socket(AF_ALG)", errno);
		return;
	}
	strcpy((char *)sa.salg_type, "hash");
	strcpy((char *)sa.salg_name, "crct10dif");
	if (bind(sfd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		af_alg_skip(b, "the kernel offers no crct10dif hash: bind", errno);
		close(sfd);
		return;
	}
	opfd = accept4(sfd, NULL, NULL, SOCK_CLOEXEC);
	if (opfd < 0) {
		af_alg_skip(b, "accept on the AF_ALG socket", errno);
		close(sfd);
		return;
	}
	/* the kernel hands back the CRC in CPU byte order */
	if (send(opfd, "123456789", 9, 0) != 9 || read(opfd, &out, 2) != 2 ||
	    out != 0xd0db) {
		af_alg_skip(b, "kernel crct10dif gave a wrong check value", errno ? errno : EIO);
		close(opfd);
		close(sfd);
		return;
	}
	crct10dif_driver(driver, sizeof(driver), &prio);
	read_sysfs_str("/sys/module/crc_t10dif/parameters/transform", transform,
		       sizeof(transform));
	if (!b->json)
		printf("kernel crct10dif via AF_ALG: driver %s (priority %d)%s%s\n"
		       "%-7s %-9s", driver, prio, transform[0] ? ", crc_t10dif transform " : "",
		       transform, "crc16", "kernel");
	for (k = 0; k < CASE_NR; k++) {
		struct unit u = case_unit(b, k, run_af_alg);
		double gbps;

		u.opfd = opfd;
		gbps = measure(&u, b->seconds);
		if (u.err) {
			af_alg_skip(b, "AF_ALG digest failed", u.err);
			break;
		}
		if (b->json) {
			struct jw w;

			row_open(&w, "af_alg", "crc16", "kernel");
			jw_str(&w, "driver", driver);
			jw_int(&w, "priority", prio);
			jw_str(&w, "case", cases[k].key);
			jw_uint(&w, "call_bytes", u.call_bytes);
			jw_uint(&w, "calls", u.calls);
			row_close(&w, gbps);
		} else {
			printf(" %9.2f", gbps);
		}
		fflush(stdout);
	}
	if (!b->json)
		printf("\n");
	close(opfd);
	close(sfd);
}

/* The "model name" of /proc/cpuinfo's first CPU, or "unknown". */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

/*
 * Which paths of this build the CPU cannot run, so cannot have measured
 * or self-tested here: what a CI log must show beside its figures (CI's
 * runners need not have AVX-512), grouped by what they need; and the
 * builds refused by their self-test.
 */
static void bench_paths(const struct bench *b)
{
	const struct selftest_refusal *r;
	size_t n, i, j, nr_ref = selftest_refusals(&r), shown = 0;
	const struct crc_impl *t = crc_impls(&n);
	char model[128];
	struct jw w;

	cpu_model(model, sizeof(model));
	if (b->json) {
		row_open(&w, "paths", NULL, NULL);
		jw_str(&w, "cpu", model);
		jw_arr_open(&w, "not_run");
		for (i = 0; i < n; i++) {
			if (crc_impl_ok(&t[i]))
				continue;
			jw_obj_open(&w, NULL);
			jw_str(&w, "guard", crc_guard_name(t[i].guard));
			jw_str(&w, "impl", t[i].name);
			jw_str(&w, "needs", t[i].needs);
			jw_obj_close(&w);
		}
		jw_arr_close(&w);
		jw_arr_open(&w, "refused");
		for (i = 0; i < nr_ref; i++) {
			jw_obj_open(&w, NULL);
			jw_str(&w, "path", r[i].path);
			jw_str(&w, "impl", r[i].impl);
			jw_str(&w, "fallback", r[i].fallback);
			jw_str(&w, "why", r[i].why);
			jw_obj_close(&w);
		}
		jw_arr_close(&w);
		row_close(&w, -1);
		return;
	}
	printf("\ncpu: %s\nnot run on this CPU:", model);
	for (i = 0; i < n; i++) {
		if (crc_impl_ok(&t[i]))
			continue;
		/* each group once, at its first member */
		for (j = 0; j < i && (crc_impl_ok(&t[j]) || strcmp(t[j].needs, t[i].needs)); j++)
			;
		if (j < i)
			continue;
		printf("%s", shown++ ? ";" : "");
		for (j = i; j < n; j++)
			if (!crc_impl_ok(&t[j]) && !strcmp(t[j].needs, t[i].needs))
				printf("%s %s/%s", j == i ? "" : ",",
				       crc_guard_name(t[j].guard), t[j].name);
		printf(" (needs %s)", t[i].needs);
	}
	printf("%s\n", shown ? "" : " none: this CPU runs every path of this build");
	printf("refused by their self-test:%s\n", nr_ref ? "" : " none");
	for (i = 0; i < nr_ref; i++)
		printf("  %s %s (%s; %s used)\n", r[i].path, r[i].impl, r[i].why,
		       r[i].fallback);
}

/* Fill @buf from @path, repeating a short file.  Return: 0 or -errno. */
static int load_data(unsigned char *buf, size_t len, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t have = 0, i;

	if (fd < 0)
		return -errno;
	while (have < len) {
		ssize_t r = read(fd, buf + have, len - have);

		if (r < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		have += r;
	}
	close(fd);
	if (!have)
		return -ENODATA;
	for (i = have; i < len; i++)
		buf[i] = buf[i - have];
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dixload crcbench [--seconds S] [--json] [--guard G] [--impl NAME]\n"
		"                        [--data FILE]\n"
		"GB/s (10^9 bytes/s over real monotonic time) of every guard implementation\n"
		"at 512 B, 4 KiB, 64 KiB and 1 MiB as 2048 separate 512-byte CRCs; of PI\n"
		"generate/verify at 512-byte intervals; and of the kernel's crct10dif driver\n"
		"through AF_ALG when the kernel offers it.  Last, the paths this CPU cannot\n"
		"run (not measured or self-tested here) and any build refused by its self-test.\n"
		"  --seconds S   time per measurement (default 0.1)\n"
		"  --json        one JSON object per line\n"
		"  --guard G     only crc16, ip, crc32c or crc64\n"
		"  --impl NAME   only implementations of that name (reference, byte, slice16,\n"
		"                pclmul, vpclmul, vpclmul256, sse42, avx2, portable, isal,\n"
		"                kernel)\n"
		"  --data FILE   checksum the first MiB of FILE instead of pseudo-random bytes\n");
}

int crcbench_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "guard", required_argument, NULL, 'g' },
		{ "impl", required_argument, NULL, 'i' },
		{ "data", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench b = { .seconds = 0.1 };
	const char *data = NULL;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	enum dix_guard g;
	size_t i;
	int c;

	optind = 0;	/* glibc: full reset, main() may have parsed already */
	while ((c = getopt_long(argc, argv, "s:jg:i:d:h", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 's':
			errno = 0;
			b.seconds = strtod(optarg, &end);
			if (errno || *end || !(b.seconds >= 0.001 && b.seconds <= 3600)) {
				dix_err("crcbench: --seconds wants 0.001 to 3600, not '%s'", optarg);
				return DIX_EXIT_USAGE;
			}
			break;
		case 'j':
			b.json = true;
			break;
		case 'g':
			if (crc_guard_parse(optarg, &g)) {
				dix_err("crcbench: unknown guard '%s' (crc16, ip, crc32c, crc64)",
					optarg);
				return DIX_EXIT_USAGE;
			}
			b.guard_filter = crc_guard_name(g);
			break;
		case 'i':
			b.impl_filter = optarg;
			break;
		case 'd':
			data = optarg;
			break;
		case 'h':
			usage(stdout);
			return DIX_EXIT_OK;
		default:
			usage(stderr);
			return DIX_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		dix_err("crcbench: unexpected argument '%s'", argv[optind]);
		return DIX_EXIT_USAGE;
	}

	b.buf = aligned_alloc(64, BENCH_BUF);
	if (!b.buf) {
		dix_err("crcbench: out of memory");
		return DIX_EXIT_USAGE;
	}
	if (data) {
		int e = load_data(b.buf, BENCH_BUF, data);

		if (e) {
			dix_err("crcbench: %s: %s", data, strerror(-e));
			free(b.buf);
			return DIX_EXIT_USAGE;
		}
	} else {
		for (i = 0; i < BENCH_BUF; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			b.buf[i] = (unsigned char)(x >> 32);
		}
	}

	if (!b.json)
		printf("crcbench: GB/s (10^9 bytes/s, monotonic clock), %.3g s per cell;\n"
		       "512 B .. 64 KiB: repeated CRCs of one cache-hot buffer; 1MiB/512: "
		       "2048 separate 512-byte CRCs walking 1 MiB\n", b.seconds);
	bench_impls(&b);
	bench_pi(&b);
	bench_af_alg(&b);
	bench_paths(&b);
	free(b.buf);
	return DIX_EXIT_OK;
}
