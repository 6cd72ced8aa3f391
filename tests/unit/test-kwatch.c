// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-kwatch.c - kernel state snapshots and diffs over /proc/crypto and
 * /proc/modules captured in the 6.1 VM (tests/data/kwatch/): at boot, after
 * loading crct10dif_pclmul, then qat_c62x (no QAT hardware), then
 * aesni_intel; plus synthetic records for the selection rules.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kwatch.h"
#include "datafile.h"
#include "report/sink.h"
#include "tap.h"

static char dir[1024];

static const char *data(const char *name)
{
	static char buf[4][1200];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void snap(struct kw_state *s, const char *stage, const char *transform)
{
	char c[64], m[64];

	snprintf(c, sizeof(c), "crypto-6.1-%s", stage);
	snprintf(m, sizeof(m), "modules-6.1-%s", stage);
	if (kw_snapshot_files(s, data(c), data(m),
			      transform ? data(transform) : data("absent")))
		printf("# snapshot %s failed\n", stage);
}

static int has_change(const struct kw_diff *d, const char *text)
{
	int i;

	for (i = 0; i < d->nchanges; i++)
		if (!strcmp(d->changes[i].text, text))
			return 1;
	printf("# missing change '%s'; have:\n", text);
	for (i = 0; i < d->nchanges; i++)
		printf("#   %s\n", d->changes[i].text);
	return 0;
}

static int added(const struct kw_diff *d, const char *driver)
{
	int i;

	for (i = 0; i < d->nadded; i++)
		if (!strcmp(d->added[i].driver, driver))
			return 1;
	return 0;
}

static void test_selection(void)
{
	struct kw_state s;
	const struct kw_alg *a;

	snap(&s, "boot", "transform-generic");
	ok(s.have_crypto && s.ncrypto == 24, "boot: 24 /proc/crypto entries (got %d)",
	   s.ncrypto);
	ok(s.have_modules && s.nmodules == 11, "boot: 11 modules (got %d)",
	   s.nmodules);
	ok(s.have_transform, "boot: transform read");
	is_str(s.transform, "crct10dif-generic", "boot: transform is generic");
	a = kw_select(&s, "crct10dif");
	ok(a && !strcmp(a->driver, "crct10dif-generic") && a->priority == 100 &&
	   !strcmp(a->module, "crct10dif_generic"),
	   "boot: crct10dif -> crct10dif-generic (100) from crct10dif_generic");
	a = kw_select(&s, "crc64-rocksoft");
	ok(a && !strcmp(a->driver, "crc64-rocksoft-generic") && a->priority == 200,
	   "boot: crc64-rocksoft -> crc64-rocksoft-generic (200)");
	/* two "deflate" at priority 0 (scomp and compression): the first
	 * listed wins, as in the kernel's lookup */
	a = kw_select(&s, "deflate");
	ok(a && !strcmp(a->driver, "deflate-scomp"), "boot: tie -> first listed");
	ok(!kw_select(&s, "xts(aes)"), "boot: no xts(aes) instance yet");
	is_int(kw_module_loaded(&s, "crct10dif-generic"), 1,
	       "module names: '-' and '_' alike");
	is_int(kw_module_loaded(&s, "crct10dif_pclmul"), 0, "pclmul not loaded");
	kw_free(&s);

	snap(&s, "pclmul", "transform-pclmul");
	a = kw_select(&s, "crct10dif");
	ok(a && !strcmp(a->driver, "crct10dif-pclmul") && a->priority == 200,
	   "pclmul: crct10dif -> crct10dif-pclmul (200)");
	kw_free(&s);

	snap(&s, "aesni", NULL);
	ok(!s.have_transform, "missing transform file: absent, not an error");
	a = kw_select(&s, "xts(aes)");
	ok(a && !strcmp(a->driver, "xts-aes-aesni") && a->priority == 401,
	   "aesni: xts(aes) -> xts-aes-aesni (401), not the internal "
	   "cryptd(__xts-aes-aesni) at 451");
	ok(a && a->have_async && a->async, "aesni: xts-aes-aesni says async: yes");
	a = kw_select(&s, "aes");
	ok(a && !a->have_async && !a->async,
	   "aesni: a cipher (%s) has no async line", a ? a->driver : "none");
	kw_free(&s);
}

/* The line the JSON sink writes for a change event carrying @data. */
static char *event_json(const struct dix_evdata *data)
{
	struct dix_event ev = { .kind = EV_CHANGE, .what = "x", .ok = -1,
				.duration = -1, .data = *data };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	sink_json_ops.change(f, &ev);
	fclose(f);
	return buf;
}

static void test_diffs(void)
{
	struct kw_state a, b, c, d4;
	struct kw_diff d;
	struct dix_evdata data;
	char *t, *j;

	snap(&a, "boot", "transform-generic");
	snap(&b, "pclmul", "transform-pclmul");
	snap(&c, "qat", "transform-pclmul");
	snap(&d4, "aesni", "transform-pclmul");

	kw_diff(&a, &b, &d);
	ok(d.nloaded == 1 && !strcmp(d.loaded[0], "crct10dif_pclmul") &&
	   !d.nunloaded, "pclmul: one module loaded");
	ok(d.nadded == 1 && added(&d, "crct10dif-pclmul") && !d.nremoved,
	   "pclmul: crct10dif-pclmul added, nothing removed");
	ok(has_change(&d, "crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul"),
	   "pclmul: transform change");
	ok(has_change(&d, "crct10dif: crct10dif-generic (100) -> crct10dif-pclmul (200)"),
	   "pclmul: selection change");
	is_int(d.nchanges, 2, "pclmul: exactly those two changes");
	if (d.nchanges < 2) {
		printf("Bail out! changes missing\n");
		exit(1);
	}
	is_int(d.changes[0].kind, KW_CHANGE_TRANSFORM, "transform change first");
	is_str(d.changes[0].label, "transform: crct10dif-pclmul", "its label");
	ok(d.changes[0].data.type == EVD_TRANSFORM &&
	   !strcmp(d.changes[0].data.from, "crct10dif-generic") &&
	   !strcmp(d.changes[0].data.to, "crct10dif-pclmul"),
	   "transform change data: from, to");
	ok(d.changes[1].data.type == EVD_DRIVER &&
	   !strcmp(d.changes[1].data.name, "crct10dif") &&
	   d.changes[1].data.sel[0] && d.changes[1].data.sel[0]->priority == 100 &&
	   d.changes[1].data.sel[1] &&
	   !strcmp(d.changes[1].data.sel[1]->module, "crct10dif_pclmul"),
	   "driver change data: the algorithm, before and after");
	/* the JSON sink writes those facts as doc/json.md says */
	j = event_json(&d.changes[0].data);
	ok(j && strstr(j, ",\"change\":\"transform\",\"from\":\"crct10dif-generic\",\"to\":\"crct10dif-pclmul\"}\n"),
	   "transform change JSON (%s)", j);
	free(j);
	j = event_json(&d.changes[1].data);
	ok(j && strstr(j, ",\"change\":\"driver\",\"algorithm\":\"crct10dif\",\"from\":{\"driver\":\"crct10dif-generic\",\"priority\":100,\"module\":\"crct10dif_generic\"},\"to\":{\"driver\":\"crct10dif-pclmul\",\"priority\":200,\"module\":\"crct10dif_pclmul\"}}\n"),
	   "driver change JSON (%s)", j);
	free(j);
	t = kw_registered_text(&d);
	is_str(t, "registered crct10dif-pclmul (crct10dif, 200)", "registered text");
	free(t);
	kw_diff_data(&d, EVD_MODULE, "crct10dif_pclmul", &data);
	j = event_json(&data);
	ok(j && strstr(j, ",\"module\":\"crct10dif_pclmul\",\"modules_loaded\":[\"crct10dif_pclmul\"],\"modules_unloaded\":[],"
	       "\"crypto_added\":[{\"name\":\"crct10dif\",\"driver\":\"crct10dif-pclmul\",\"priority\":200,\"module\":\"crct10dif_pclmul\"}],"
	       "\"crypto_removed\":[]}\n"), "module event JSON members (%s)", j);
	free(j);
	dix_evdata_clear(&data);
	kw_diff_free(&d);

	/* QAT without hardware: four modules, no algorithm */
	kw_diff(&b, &c, &d);
	is_int(d.nloaded, 4, "qat: authenc crc8 intel_qat qat_c62x loaded");
	ok(!d.nadded && !d.nremoved && !d.nchanges, "qat: nothing registered, "
	   "no selection changed");
	t = kw_registered_text(&d);
	is_str(t, "registered nothing", "qat: says it registered nothing");
	free(t);
	kw_diff_free(&d);

	/* aesni_intel: AES drivers replace the generic ones */
	kw_diff(&c, &d4, &d);
	is_int(d.nloaded, 3, "aesni: aesni_intel crypto_simd cryptd loaded");
	ok(added(&d, "xts-aes-aesni") && added(&d, "aes-aesni") &&
	   !added(&d, "__xts-aes-aesni") && !added(&d, "cryptd(__xts-aes-aesni)"),
	   "aesni: user-visible drivers added, internal ones not listed");
	ok(d.nremoved == 1 && !strcmp(d.removed[0].driver, "cbc(aes-generic)"),
	   "aesni: the unused cbc(aes-generic) instance went away");
	ok(has_change(&d, "aes: aes-generic (100) -> aes-aesni (300)"),
	   "aesni: aes selection");
	ok(has_change(&d, "cbc(aes): cbc(aes-generic) (100) -> cbc-aes-aesni (400)"),
	   "aesni: cbc(aes) selection");
	ok(has_change(&d, "xts(aes): (none) -> xts-aes-aesni (401)"),
	   "aesni: xts(aes) selection");
	ok(has_change(&d, "gcm(aes): (none) -> generic-gcm-aesni (400)") &&
	   has_change(&d, "ctr(aes): (none) -> ctr-aes-aesni (400)") &&
	   has_change(&d, "ecb(aes): (none) -> ecb-aes-aesni (400)"),
	   "aesni: gcm, ctr, ecb selections");
	is_int(d.nchanges, 6, "aesni: six selection changes, no transform change");
	kw_diff_free(&d);

	/* nothing changed */
	kw_diff(&c, &c, &d);
	ok(!d.nloaded && !d.nunloaded && !d.nadded && !d.nremoved && !d.nchanges,
	   "same snapshot: empty diff");
	kw_diff_free(&d);

	/* backwards: an unload */
	kw_diff(&b, &a, &d);
	ok(d.nunloaded == 1 && d.nremoved == 1 &&
	   has_change(&d, "crc_t10dif transform: crct10dif-pclmul -> crct10dif-generic"),
	   "reverse: unloaded, removed, transform back");
	t = kw_registered_text(&d);
	is_str(t, "removed crct10dif-pclmul (crct10dif, 200)", "reverse: removed text");
	free(t);
	kw_diff_free(&d);

	kw_free(&a);
	kw_free(&b);
	kw_free(&c);
	kw_free(&d4);
}

static void test_parser_rules(void)
{
	/* not tested yet, internal, tested: only the last is selectable;
	 * no trailing newline at the end */
	const char *txt =
		"name         : crc32c\n"
		"driver       : crc32c-untested\n"
		"module       : m1\n"
		"priority     : 900\n"
		"selftest     : unknown\n"
		"internal     : no\n"
		"\n"
		"name         : crc32c\n"
		"driver       : __crc32c-internal\n"
		"priority     : 800\n"
		"selftest     : passed\n"
		"internal     : yes\n"
		"\n"
		"name         : crc32c\n"
		"driver       : crc32c-intel\n"
		"module       : crc32c_intel\n"
		"priority     : 200\n"
		"selftest     : passed\n"
		"internal     : no\n"
		"type         : shash";
	struct kw_state s;
	struct kw_alg *v;
	char **m;
	int n;

	memset(&s, 0, sizeof(s));
	is_int(kw_parse_crypto(txt, &s.crypto, &s.ncrypto), 0, "synthetic parsed");
	is_int(s.ncrypto, 3, "three records, the last without a newline");
	ok(!s.crypto[0].selectable && !s.crypto[1].selectable &&
	   s.crypto[2].selectable, "untested and internal are not selectable");
	ok(kw_select(&s, "crc32c") == &s.crypto[2], "crc32c -> crc32c-intel");
	is_str(s.crypto[2].type, "shash", "type read from the last line");
	kw_free(&s);

	is_int(kw_parse_crypto("name : x\npriority : 1\n\n", &v, &n), -EINVAL,
	       "a record without a driver: -EINVAL");
	is_int(kw_parse_crypto("", &v, &n), 0, "empty text parses");
	ok(n == 0, "to nothing");
	free(v);

	/* a priority beyond int is clamped (atoi() of it was undefined) */
	kw_parse_crypto("name : a\ndriver : a-big\npriority : 99999999999\n\n"
			"name : a\ndriver : a-small\npriority : -99999999999\n",
			&v, &n);
	ok(n == 2 && v[0].priority == INT_MAX && v[1].priority == INT_MIN,
	   "priorities beyond int clamped (%d, %d)", n > 0 ? v[0].priority : 0,
	   n > 1 ? v[1].priority : 0);
	free(v);

	/* old kernels print no selftest line: usable */
	kw_parse_crypto("name : aes\ndriver : aes-generic\npriority : 100\n", &v, &n);
	ok(n == 1 && v[0].selectable, "no selftest line: selectable");
	free(v);

	kw_parse_modules("b 1 0 - Live 0x0\na 2 1 b, Live 0x0\n\n", &m, &n);
	ok(n == 2 && !strcmp(m[0], "a") && !strcmp(m[1], "b"),
	   "/proc/modules parsed and sorted");
	free(m[0]);
	free(m[1]);
	free(m);

	/* a monolithic kernel: no /proc/modules */
	kw_snapshot_files(&s, data("absent"), data("absent"), data("absent"));
	ok(!s.have_crypto && !s.have_modules && !s.have_transform,
	   "missing files: all parts absent");
	is_int(kw_module_loaded(&s, "x"), -ENOENT, "no module list: -ENOENT");
	kw_free(&s);
}

/*
 * What fuzz-proc-modules found: a listed name with '-' was not loaded by
 * its own name, since the lookup normalises the query only.  The file is
 * read by the snapshot, as a run reads /proc/modules.
 */
static void test_fuzz_found(void)
{
	char path[1024];
	struct kw_state s;

	kw_snapshot_files(&s, data("absent"),
			  datafile_path("fuzz/proc-modules/dash-in-name", path,
					sizeof(path)), data("absent"));
	ok(s.have_modules && s.nmodules == 2, "dash-in-name: 2 modules (got %d)",
	   s.nmodules);
	is_int(kw_module_loaded(&s, "scsi_co-mon"), 1,
	       "dash-in-name: 'scsi_co-mon' listed and loaded");
	is_int(kw_module_loaded(&s, "scsi_co_mon"), 1,
	       "dash-in-name: found as 'scsi_co_mon' too");
	is_int(kw_module_loaded(&s, "-"), 1, "dash-in-name: '-' loaded");
	ok(s.nmodules == 2 && !strcmp(s.modules[0], "_") &&
	   !strcmp(s.modules[1], "scsi_co_mon"),
	   "dash-in-name: listed as the kernel names modules");
	kw_free(&s);
}

int main(void)
{
	const char *src = getenv("top_srcdir");

	snprintf(dir, sizeof(dir), "%s/tests/data/kwatch", src ? src : ".");
	if (access(data("crypto-6.1-boot"), R_OK)) {
		printf("Bail out! %s not readable (is top_srcdir set?)\n",
		       data("crypto-6.1-boot"));
		return 1;
	}
	test_selection();
	test_diffs();
	test_parser_rules();
	test_fuzz_found();
	return tap_done();
}
