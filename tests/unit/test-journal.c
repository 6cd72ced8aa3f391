// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-journal.c - the --journal reader: which version of a block each
 * sequence of records allows, records cut short by a crash, and damaged
 * files refused with their line (tests/data/fuzz/journal: every input the
 * fuzz target found a bug with).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/journal.h"
#include "datafile.h"
#include "tap.h"

static char dir[] = "/tmp/dixload-journal.XXXXXX";

/* A journal file holding @text; its path. */
static const char *jfile(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(99);
	return path;
}

int main(void)
{
	/* empty: a load that succeeds leaves them as they were */
	char err[512] = "", why[200] = "", path[512];
	struct journal *j;

	if (!mkdtemp(dir))
		return 99;

	/* 16 KiB at 0: seq 1 acked, seq 3 in flight; 16 KiB at 16384: seq 2
	 * in flight, never acked; the last line cut short */
	ok(!journal_load(&j, jfile("a.jr", "dixload-journal 1 seed=11 lbs=512\n"
				   "I 0 16384 1\nI 16384 16384 2\nA 0 16384 1\n"
				   "I 0 16384 3\nA 16384 16"), err, sizeof(err)),
	   "a journal with a last line cut short loads: %s", err);
	ok(!journal_check(j, 512, 1, 11, 1, why, sizeof(why)),
	   "the last acknowledged version is allowed");
	ok(!journal_check(j, 512, 1, 11, 3, why, sizeof(why)),
	   "the version in flight is allowed");
	ok(journal_check(j, 512, 1, 11, 0, why, sizeof(why)),
	   "an older version is not");
	is_str(why, "holds seq 0; the journal has acknowledged seq 1 or in flight seq 3",
	       "and says what was found and what is allowed");
	ok(journal_check(j, 512, 1, 12, 1, why, sizeof(why)) &&
	   strstr(why, "another run (seed 12)"), "another run's block is not");
	ok(journal_check(j, 512, 0, 0, 0, why, sizeof(why)) &&
	   !strncmp(why, "no header", 9), "no header where a write was acknowledged is not");
	ok(!journal_check(j, 16384 + 512, 1, 99, 7, why, sizeof(why)) &&
	   !journal_check(j, 16384, 0, 0, 0, why, sizeof(why)),
	   "without an ack (the A line was cut) the earlier content is allowed");
	ok(!journal_check(j, 1 << 20, 1, 5, 5, why, sizeof(why)),
	   "a block the journal does not name is allowed");
	journal_close(j);

	/* acks lost: a later ack retires the earlier intents */
	ok(!journal_load(&j, jfile("b.jr", "dixload-journal 1 seed=1 lbs=4096\n"
				   "I 0 4096 1\nI 0 4096 2\nI 0 4096 3\nA 0 4096 2\n"),
			 err, sizeof(err)), "loads: %s", err);
	ok(journal_check(j, 0, 1, 1, 1, why, sizeof(why)) &&
	   !journal_check(j, 0, 1, 1, 2, why, sizeof(why)) &&
	   !journal_check(j, 0, 1, 1, 3, why, sizeof(why)),
	   "ack 2 retires intent 1, keeps 3 in flight");
	journal_close(j);

	err[0] = '\0';
	ok(journal_load(&j, jfile("c.jr", "dixload-journal 1 seed=1 lbs=512\nI 1 512 1\n"),
			err, sizeof(err)) && strstr(err, "line 2: \"I 1 512 1\"") &&
	   strstr(err, "multiples of 512"), "an unaligned offset is refused with its line: %s", err);
	ok(journal_load(&j, jfile("d.jr", "hello\n"), err, sizeof(err)) &&
	   strstr(err, "line 1: not a dixload journal"), "a foreign file is refused: %s", err);
	ok(journal_load(&j, jfile("e.jr", ""), err, sizeof(err)) &&
	   strstr(err, "no whole header line"), "an empty file is refused: %s", err);
	/* the input fuzz-journal found: a header cut short, lbs 0 */
	ok(journal_load(&j, datafile_path("fuzz/journal/header-cut.jr", path,
					  sizeof(path)), err, sizeof(err)) &&
	   strstr(err, "no whole header line"), "a header cut short is refused: %s", err);

	/* the input fuzz-journal found: lbs 128 and a LEN past 32 bits */
	ok(journal_load(&j, datafile_path("fuzz/journal/len-overflow.jr", path,
					  sizeof(path)), err, sizeof(err)) &&
	   strstr(err, "line 1: not a dixload journal"), "lbs 128 is refused: %s", err);
	ok(journal_load(&j, jfile("f.jr", "dixload-journal 1 seed=1 lbs=512\nI 0 16384163840 1\n"),
			err, sizeof(err)) && strstr(err, "line 2") && strstr(err, "at most 1 GiB"),
	   "a LEN past 1 GiB is refused, not wrapped: %s", err);
	ok(journal_load(&j, jfile("g.jr", "dixload-journal 1 seed=1 lbs=512\nI 0 512 4294967296\n"),
			err, sizeof(err)) && strstr(err, "line 2"),
	   "a SEQ past 32 bits is refused: %s", err);

	/* a block's versions only ascend in one run's journal */
	ok(journal_load(&j, jfile("h.jr", "dixload-journal 1 seed=1 lbs=512\n"
				   "I 0 1024 7\nA 0 1024 7\nI 512 512 3\n"),
			err, sizeof(err)) &&
	   strstr(err, "h.jr: line 4: an intent of seq 3 for block 1 (offset 512), acknowledged at seq 7 already"),
	   "an intent older than the block's ack is refused: %s", err);
	ok(journal_load(&j, jfile("i.jr", "dixload-journal 1 seed=1 lbs=512\n"
				   "I 0 512 7\nA 0 512 7\nI 0 512 7\n"),
			err, sizeof(err)) && strstr(err, "line 4: an intent of seq 7"),
	   "an intent again at the acknowledged seq is refused: %s", err);
	err[0] = '\0';
	ok(!journal_load(&j, jfile("k.jr", "dixload-journal 1 seed=1 lbs=512\n"
				    "I 0 512 7\nA 0 512 7\nA 0 512 7\nI 0 512 8\n"),
			 err, sizeof(err)), "an ack repeated at its seq loads: %s", err);
	journal_close(j);
	/*
	 * the input fuzz-journal found: an ack of seq 0 after block 16's ack
	 * of seq 1 was ignored, so that ack's version was refused
	 */
	ok(journal_load(&j, datafile_path("fuzz/journal/ack-backwards.jr", path,
					  sizeof(path)), err, sizeof(err)) &&
	   strstr(err, "line 6: an ack of seq 0 for block 16 (offset 8192), acknowledged at seq 1 already"),
	   "an ack going back is refused: %s", err);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		return 99;
	return tap_done();
}
