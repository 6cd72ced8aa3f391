// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal.c - --journal FILE (journal.h): the records, their batching, and
 * the per-block view a check pass needs.
 *
 * Writing: records go into one buffer under a lock; journal_flush() writes
 * the buffer and fdatasync()s the file when it holds an intent (acks alone
 * are written but not synced: losing them is harmless).  The job flushes
 * before every submit batch, so one fdatasync covers --iodepth-batch writes.
 *
 * Reading: every block the journal names gets an entry in an open-addressed
 * table: the last acknowledged sequence number and the intents after it.
 * Writes to one block never overlap in flight (the job waits), so in
 * sequence order an ack retires every earlier intent of its blocks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/journal.h"
#include "lib/util.h"

/*
 * The check pass keeps one 32-byte entry per block the journal names: at
 * most this many (256 MiB; 4 GiB of 512-byte blocks, 32 GiB of 4 KiB).
 * fuzz-journal found that a few lines of 1 GiB records otherwise make a
 * tiny file cost seconds and gigabytes.
 */
#define JOURNAL_MAX_BLOCKS	(8u << 20)
/* the largest --bs, so the largest record a run writes */
#define JOURNAL_MAX_LEN		(1ull << 30)

struct jblock {
	uint64_t blk;		/* block number + 1; 0: empty slot */
	uint32_t acked;
	uint32_t has_acked;
	uint32_t npend, cap;
	uint32_t *pend;		/* intents after the last ack */
};

struct journal {
	int fd;
	char *path;
	uint64_t seed;
	uint32_t lbs;
	/* writer */
	pthread_mutex_t lock;
	char *buf;
	size_t len, cap;
	int intents;		/* an intent is buffered: sync on flush */
	uint64_t batches, records, sync_ns;
	/* reader */
	struct jblock *tab;
	size_t tabn, used;
};

int journal_create(struct journal **jp, const char *path, uint64_t seed,
		   uint32_t lbs, char *err, size_t errlen)
{
	struct journal *j = xcalloc(1, sizeof(*j));
	int r;

	j->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (j->fd < 0) {
		r = -errno;
		snprintf(err, errlen, "--journal %s: cannot create: %s", path,
			 strerror(-r));
		free(j);
		return r;
	}
	j->path = xstrdup(path);
	j->seed = seed;
	j->lbs = lbs;
	pthread_mutex_init(&j->lock, NULL);
	j->cap = 4096;
	j->buf = xmalloc(j->cap);
	j->len = snprintf(j->buf, j->cap, "dixload-journal 1 seed=%" PRIu64
			  " lbs=%" PRIu32 "\n", seed, lbs);
	j->intents = 1;		/* the header is on disk before any write */
	r = journal_flush(j);
	if (r) {
		snprintf(err, errlen, "--journal %s: %s", path, strerror(-r));
		journal_close(j);
		return r;
	}
	*jp = j;
	return 0;
}

static void append(struct journal *j, char type, uint64_t off, uint32_t len,
		   uint32_t seq)
{
	pthread_mutex_lock(&j->lock);
	if (j->cap - j->len < 64) {
		j->cap *= 2;
		j->buf = xrealloc(j->buf, j->cap);
	}
	j->len += snprintf(j->buf + j->len, j->cap - j->len,
			   "%c %" PRIu64 " %" PRIu32 " %" PRIu32 "\n",
			   type, off, len, seq);
	j->records++;
	if (type == 'I')
		j->intents = 1;
	pthread_mutex_unlock(&j->lock);
}

void journal_intent(struct journal *j, uint64_t off, uint32_t len,
		    uint32_t seq)
{
	append(j, 'I', off, len, seq);
}

void journal_ack(struct journal *j, uint64_t off, uint32_t len, uint32_t seq)
{
	append(j, 'A', off, len, seq);
}

int journal_flush(struct journal *j)
{
	uint64_t t0;
	size_t done = 0;
	int r = 0;

	pthread_mutex_lock(&j->lock);
	if (!j->intents && !j->len)
		goto out;
	t0 = dix_now_ns();
	while (done < j->len) {
		ssize_t n = write(j->fd, j->buf + done, j->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto out;
		}
		done += n;
	}
	j->len = 0;
	if (j->intents) {
		if (fdatasync(j->fd)) {
			r = -errno;
			goto out;
		}
		j->intents = 0;
		j->batches++;
	}
	j->sync_ns += dix_now_ns() - t0;
out:
	pthread_mutex_unlock(&j->lock);
	return r;
}

void journal_stats(const struct journal *j, uint64_t *batches,
		   uint64_t *records, uint64_t *sync_ns)
{
	*batches = j->batches;
	*records = j->records;
	*sync_ns = j->sync_ns;
}

/* ---- reading ---- */

static struct jblock *slot(struct journal *j, uint64_t blk, int add)
{
	size_t i, mask;

	if (add && (j->used + 1) * 2 > j->tabn) {
		struct jblock *old = j->tab;
		size_t n = j->tabn, k;

		j->tabn = n ? n * 2 : 1024;
		j->tab = xcalloc(j->tabn, sizeof(*j->tab));
		for (k = 0; k < n; k++) {
			if (!old[k].blk)
				continue;
			mask = j->tabn - 1;
			for (i = (old[k].blk * 0x9e3779b97f4a7c15ull) >> 20 & mask;
			     j->tab[i].blk; i = (i + 1) & mask)
				;
			j->tab[i] = old[k];
		}
		free(old);
	}
	if (!j->tabn)
		return NULL;
	mask = j->tabn - 1;
	for (i = ((blk + 1) * 0x9e3779b97f4a7c15ull) >> 20 & mask; j->tab[i].blk;
	     i = (i + 1) & mask)
		if (j->tab[i].blk == blk + 1)
			return &j->tab[i];
	if (!add)
		return NULL;
	j->tab[i].blk = blk + 1;
	j->used++;
	return &j->tab[i];
}

/*
 * Return: 0, -E2BIG when the table would pass JOURNAL_MAX_BLOCKS, or
 * -EILSEQ when the record goes back in a block's sequence: block *@bad was
 * acknowledged at *@prev already.  A run's versions of one block only
 * ascend (one worker writes it, one write at a time, its sequence numbers
 * counting up across preconditioning and the load), and the checks below
 * rely on it: an older ack ignored and its intent left in flight would
 * let the check accept a stale version.
 */
static int apply(struct journal *j, char type, uint64_t off, uint32_t len,
		 uint32_t seq, uint64_t *bad, uint32_t *prev)
{
	uint64_t b;
	uint32_t k, n;

	for (b = off / j->lbs; b < (off + len) / j->lbs; b++) {
		struct jblock *e = slot(j, b, j->used < JOURNAL_MAX_BLOCKS);

		if (!e)
			return -E2BIG;
		if (e->has_acked && (seq < e->acked ||
				     (type == 'I' && seq == e->acked))) {
			*bad = b;
			*prev = e->acked;
			return -EILSEQ;
		}
		if (type == 'I') {
			if (e->npend == e->cap) {
				e->cap = e->cap ? e->cap * 2 : 2;
				e->pend = xrealloc(e->pend, e->cap * sizeof(*e->pend));
			}
			e->pend[e->npend++] = seq;
			continue;
		}
		e->acked = seq;
		e->has_acked = 1;
		/* an ack retires its own intent and every earlier one */
		for (k = 0, n = 0; k < e->npend; k++)
			if (e->pend[k] > seq)
				e->pend[n++] = e->pend[k];
		e->npend = n;
	}
	return 0;
}

/* One unsigned decimal field of at most @max at *@p; advances *@p. */
static int field(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (max - (*s - '0')) / 10)
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = x;
	*p = s;
	return 0;
}

/* "I|A OFFSET LEN SEQ\n" with every number in range; 0 or -1. */
static int parse_record(const char *line, uint32_t lbs, char *type,
			uint64_t *off, uint32_t *len, uint32_t *seq)
{
	const char *p = line + 2;
	uint64_t l, q;

	if ((line[0] != 'I' && line[0] != 'A') || line[1] != ' ' ||
	    field(&p, UINT64_MAX - JOURNAL_MAX_LEN, off) || *p++ != ' ' ||
	    field(&p, JOURNAL_MAX_LEN, &l) || *p++ != ' ' ||
	    field(&p, UINT32_MAX, &q) || strcmp(p, "\n") ||
	    *off % lbs || !l || l % lbs)
		return -1;
	*type = line[0];
	*len = l;
	*seq = q;
	return 0;
}

int journal_load(struct journal **jp, const char *path, char *err,
		 size_t errlen)
{
	struct journal *j;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f) {
		r = -errno;
		snprintf(err, errlen, "--journal %s: cannot read: %s", path,
			 strerror(-r));
		return r;
	}
	j = xcalloc(1, sizeof(*j));
	j->fd = -1;
	j->path = xstrdup(path);
	pthread_mutex_init(&j->lock, NULL);
	while ((n = getline(&line, &cap, f)) > 0) {
		char type;
		uint64_t off, bad;
		uint32_t len, seq, prev;
		int used = 0;

		lineno++;
		if (line[n - 1] != '\n')
			break;	/* the append the crash cut short */
		if (lineno == 1) {
			if (sscanf(line, "dixload-journal 1 seed=%" SCNu64
				   " lbs=%" SCNu32 "\n%n", &j->seed, &j->lbs,
				   &used) != 2 || used != n || j->lbs < 512 ||
			    j->lbs > 65536 || (j->lbs & (j->lbs - 1))) {
				j->lbs = 0;
				snprintf(err, errlen, "--journal %s: line 1: not a dixload journal (want \"dixload-journal 1 seed=N lbs=N\")",
					 path);
				r = -EINVAL;
				break;
			}
			continue;
		}
		if (parse_record(line, j->lbs, &type, &off, &len, &seq)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(err, errlen, "--journal %s: line %lu: \"%.60s\": want \"I|A OFFSET LEN SEQ\" with OFFSET and LEN multiples of %" PRIu32 ", LEN at most 1 GiB",
				 path, lineno, line, j->lbs);
			r = -EINVAL;
			break;
		}
		r = apply(j, type, off, len, seq, &bad, &prev);
		if (r == -EILSEQ) {
			snprintf(err, errlen, "--journal %s: line %lu: %s of seq %" PRIu32 " for block %" PRIu64 " (offset %" PRIu64 "), acknowledged at seq %" PRIu32 " already: a run's versions of a block only ascend, so this is not one run's journal",
				 path, lineno, type == 'I' ? "an intent" : "an ack",
				 seq, bad, bad * j->lbs, prev);
			break;
		}
		if (r) {
			snprintf(err, errlen, "--journal %s: line %lu: more than %u blocks named; the check pass keeps one entry per block",
				 path, lineno, JOURNAL_MAX_BLOCKS);
			r = -E2BIG;
			break;
		}
	}
	/* fuzz-journal found it: a header cut short left lbs 0 (a division
	 * by zero in journal_check()) */
	if (!r && !j->lbs) {
		snprintf(err, errlen, "--journal %s: no whole header line (want \"dixload-journal 1 seed=N lbs=N\")",
			 path);
		r = -EINVAL;
	}
	free(line);
	fclose(f);
	if (r) {
		journal_close(j);
		return r;
	}
	*jp = j;
	return 0;
}

int journal_check(const struct journal *j, uint64_t off, int present,
		  uint64_t seed, uint32_t seq, char *why, size_t len)
{
	const struct jblock *e = slot((struct journal *)j, off / j->lbs, 0);
	char pend[48] = "";
	uint32_t k;

	if (!e)
		return 0;
	/*
	 * No write of the journaled run was acknowledged here: the block may
	 * still hold whatever it held before the run (unknown to the journal,
	 * possibly an earlier run's block with the same seed) or an in-flight
	 * version.  Only a checksum failure (verify) can be wrong.
	 */
	if (!e->has_acked)
		return 0;
	if (present && seed == j->seed) {
		if (seq == e->acked)
			return 0;
		for (k = 0; k < e->npend; k++)
			if (seq == e->pend[k])
				return 0;
	}
	if (e->npend)
		snprintf(pend, sizeof(pend), " or in flight seq %" PRIu32 "%s",
			 e->pend[e->npend - 1], e->npend > 1 ? " (or earlier)" : "");
	if (!present)
		snprintf(why, len, "no header; the journal has acknowledged seq %" PRIu32 "%s",
			 e->acked, pend);
	else if (seed != j->seed)
		snprintf(why, len, "written by another run (seed %" PRIu64 "); the journal has acknowledged seq %" PRIu32 "%s",
			 seed, e->acked, pend);
	else
		snprintf(why, len, "holds seq %" PRIu32 "; the journal has acknowledged seq %" PRIu32 "%s",
			 seq, e->acked, pend);
	return 1;
}

int journal_close(struct journal *j)
{
	size_t i;
	int r = 0;

	if (!j)
		return 0;
	if (j->fd >= 0) {
		r = journal_flush(j);
		if (close(j->fd) && !r)
			r = -errno;
	}
	for (i = 0; i < j->tabn; i++)
		free(j->tab[i].pend);
	free(j->tab);
	free(j->buf);
	free(j->path);
	pthread_mutex_destroy(&j->lock);
	free(j);
	return r;
}
