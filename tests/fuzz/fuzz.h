/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the libFuzzer targets share: the entry point's prototype,
 * text inputs as NUL-terminated copies, a sink for printed output, the
 * probe's consumers of parsed device data, and a check that aborts with a
 * message (an abort is a crash to libFuzzer: it keeps the input).
 *
 * Each target is one file, tests/fuzz/fuzz-NAME.c, built by `make fuzz`
 * with clang -fsanitize=fuzzer,address,undefined against libdixfuzz.a (the
 * same sources as libdix.a, compiled for fuzzing).  scripts/fuzz runs them.
 */
#ifndef DIX_FUZZ_H
#define DIX_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "conf/options.h"
#include "core/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A property the code under test promises was broken: print what and abort,
 * so libFuzzer saves the input like any other crash.
 */
#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz check failed: %s: ", #cond);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

/*
 * fuzz_text() - @data as a malloc'ed C string.  The parsers of text take
 * NUL-terminated strings, as they get them from read_all() and the command
 * line, so the copy ends at the first NUL byte of the input like theirs.
 */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* fuzz_sink() - a stream for output nobody reads (opened once). */
static inline FILE *fuzz_sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/*
 * fuzz_print_opts() - the settings as a run prints them: the start line and
 * the JSON "settings" object.
 */
static inline void fuzz_print_opts(const struct dix_opts *o)
{
	struct jw w;

	opts_print_effective(fuzz_sink(), o);
	jw_init(&w, fuzz_sink());
	jw_obj_open(&w, NULL);
	opts_json(&w, "settings", o);
	jw_obj_close(&w);
	jw_end_line(&w);
}

/*
 * fuzz_probe() - hand a probe result made from fuzzed device data to what
 * consumes it in dixload: the diagnosis rules, the engine lists, the
 * expected kernel format and both reports.  The parsers promise that what
 * they return is consistent; this is where an inconsistent value would
 * divide by zero, shift too far or overrun a message.
 */
static inline void fuzz_probe(struct probe_result *r)
{
	static const char *const modes[] = { "kernel", "app", "off" };
	char list[256];
	unsigned int i;

	r->path = "/dev/fuzz";
	r->engines = engine_list();
	r->uring_pi = -1;
	probe_diagnose(r);
	FUZZ_CHECK(r->ndiag >= 0 && r->ndiag <= PROBE_MAX_DIAG, "ndiag %d",
		   r->ndiag);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		probe_engines(r, modes[i], list, sizeof(list));
	probe_expected_format(r);
	probe_print_json(fuzz_sink(), r);
	probe_print_human(fuzz_sink(), r);
}

/* fuzz_probe_scsi() - a SCSI disk as the kernel shows one with PI. */
static inline struct probe_result *fuzz_probe_scsi(void)
{
	static struct probe_result r;

	memset(&r, 0, sizeof(r));
	r.kind = PROBE_SCSI;
	r.bv.exists = r.bv.is_blockdev = r.bv.has_integrity = true;
	strcpy(r.bv.name, "sda");
	strcpy(r.bv.disk, "sda");
	strcpy(r.bv.format, "T10-DIF-TYPE1-CRC");
	r.bv.protection_interval_bytes = 512;
	r.bv.tag_size = 2;
	r.bv.logical_block_size = r.bv.physical_block_size = 512;
	r.scsi.prot_caps = -1;
	r.scsi.guard_type = -1;
	return &r;
}

/* fuzz_probe_nvme() - an NVMe namespace as the kernel shows one with PI. */
static inline struct probe_result *fuzz_probe_nvme(void)
{
	static struct probe_result r;

	memset(&r, 0, sizeof(r));
	r.kind = PROBE_NVME;
	r.bv.exists = r.bv.is_blockdev = r.bv.has_integrity = true;
	strcpy(r.bv.name, "nvme0n1");
	strcpy(r.bv.disk, "nvme0n1");
	strcpy(r.bv.format, "T10-DIF-TYPE1-CRC");
	r.bv.protection_interval_bytes = 512;
	r.bv.logical_block_size = r.bv.physical_block_size = 512;
	r.nvme.nsid = 1;
	return &r;
}

#endif
