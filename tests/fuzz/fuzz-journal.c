// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-journal.c - the --journal reader (journal.h) over any bytes: a
 * crashed run leaves the file, and the check pass trusts nothing in it.
 * The bytes go to a memfd read back through /proc/self/fd, as a journal
 * file would be.
 *
 * Checks: a journal refused says why; one accepted allows, for every
 * acknowledgement that is the last record of its first block, that version.
 */
#include "config.h"

#include <sys/mman.h>
#include <inttypes.h>
#include <unistd.h>

#include "fuzz.h"
#include "verify/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512], why[200];
	char *text, *line, *save = NULL, *last_a = NULL;
	struct journal *j;
	uint64_t seed = 0, off;
	uint32_t lbs = 0, len, seq;
	int fd = memfd_create("journal", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	if (journal_load(&j, path, err, sizeof(err))) {
		FUZZ_CHECK(err[0], "journal refused without a reason");
		close(fd);
		return 0;
	}
	/* the last whole line, if it is an ack of the journal's own run */
	text = fuzz_text(data, size);
	if (sscanf(text, "dixload-journal 1 seed=%" SCNu64 " lbs=%" SCNu32,
		   &seed, &lbs) == 2 && lbs) {
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			last_a = line;
		if (last_a && size && data[size - 1] == '\n' &&
		    sscanf(last_a, "A %" SCNu64 " %" SCNu32 " %" SCNu32,
			   &off, &len, &seq) == 3 && len)
			FUZZ_CHECK(!journal_check(j, off, 1, seed, seq, why,
						  sizeof(why)),
				   "the last ack (seq %" PRIu32 " at %" PRIu64
				   ") refused: %s", seq, off, why);
	}
	/* any block, any version: never a crash, a refusal says why */
	why[0] = '\0';
	if (journal_check(j, 0, size & 1, seed, (uint32_t)size, why,
			  sizeof(why)))
		FUZZ_CHECK(why[0], "refused without a reason");
	journal_close(j);
	free(text);
	close(fd);
	return 0;
}
