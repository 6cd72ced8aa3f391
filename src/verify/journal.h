/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h - --journal FILE: which version of each block a crash may leave.
 *
 * As in vdbench's journal: before a write reaches the device, its byte
 * range and write sequence number are in the journal on stable storage
 * (an intent record); once it completes, an acknowledgement record follows
 * (written with the next batch, not synced on its own: a lost ack only
 * widens what is accepted to the versions in flight).  Records are batched:
 * the intents of one submit batch are written and fdatasync'd once, before
 * the batch is submitted.
 *
 * After a crash, a read pass with the journal accepts, for every block the
 * journal names, the last acknowledged version or a version still in
 * flight, and reports anything else (an older version, no header at all
 * where an acknowledged write was): blocks carry their run seed and
 * sequence number in their header (verify.h).
 *
 * The file is text, one record per line: a header line
 * "dixload-journal 1 seed=N lbs=N", then "I OFFSET LEN SEQ" and
 * "A OFFSET LEN SEQ" lines.  A last line without its newline (the crash
 * hit the append) is ignored.
 */
#ifndef DIX_JOURNAL_H
#define DIX_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

struct journal;

/**
 * journal_create() - a new journal at @path (truncated) for a run with
 * @seed and logical block size @lbs.
 * Return: 0, or -errno with @err describing it.
 */
int journal_create(struct journal **j, const char *path, uint64_t seed,
		   uint32_t lbs, char *err, size_t errlen);

/** journal_intent() - record that the write @off/@len with @seq is next. */
void journal_intent(struct journal *j, uint64_t off, uint32_t len,
		    uint32_t seq);

/** journal_ack() - record that the write @off/@len with @seq completed. */
void journal_ack(struct journal *j, uint64_t off, uint32_t len, uint32_t seq);

/**
 * journal_flush() - write the buffered records and fdatasync the file.
 * Safe from several workers.  Return: 0 or -errno.
 */
int journal_flush(struct journal *j);

/**
 * journal_stats() - batches synced, records written and the time spent
 * writing and syncing them (ns).
 */
void journal_stats(const struct journal *j, uint64_t *batches,
		   uint64_t *records, uint64_t *sync_ns);

/**
 * journal_load() - read the journal at @path for a check pass.
 * Return: 0, or -errno / -EINVAL with @err naming the file, line and
 * what is wrong.
 */
int journal_load(struct journal **j, const char *path, char *err,
		 size_t errlen);

/**
 * journal_check() - whether the intact block at @off whose header carries
 * @seed/@seq (or no header, @present 0) is a version the journal allows.
 * Return: 0 allowed (or a block the journal does not name), 1 not: @why
 * says what was found and what the journal allows.
 */
int journal_check(const struct journal *j, uint64_t off, int present,
		  uint64_t seed, uint32_t seq, char *why, size_t len);

/** journal_close() - flush (a writer), close and free; NULL is fine. */
int journal_close(struct journal *j);

#endif
