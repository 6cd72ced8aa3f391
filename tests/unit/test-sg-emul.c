// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sg-emul.c - the sg engine against an emulated DIF-formatted disk.
 *
 * scsi_debug never checks PI that arrives interleaved in a pass-through
 * buffer, so the interleaved path is checked here: the target's transport
 * (struct dix_devdesc.sgio) is an SG_IO handler that behaves like a Type 1/2 DIF disk.  It
 * answers READ CAPACITY(16), checks every tuple of WRITE(16)/WRITE(32)
 * with WRPROTECT=1 (guard with its own bitwise CRC, app tag, ref tag),
 * stores data and tuples, returns them on READ with RDPROTECT=1 after
 * checking them, and rejects a bad tuple with CHECK CONDITION, ABORTED
 * COMMAND, ASC 0x10 ASCQ 1/2/3.  The test drives the engine only through
 * its ops, as the job loop does, on each of its paths: inline SG_IO
 * (--iodepth 1), the sg driver's asynchronous interface (the test bed's,
 * struct dix_sg_bed, emulated here: completions come back in reverse order of submission),
 * and the thread pool (when no sg node can be opened).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/devdesc.h"
#include "engines/engine.h"
#include "engines/passthru.h"
#include "engines/sg.h"
#include "conf/options.h"
#include "pi/pi.h"
#include "rnd.h"
#include "tap.h"

extern const struct dix_engine engine_sg;

#define LBS	512
#define NBLK	256
#define TUPLE	8

/* ---- the emulated disk ---- */

static struct emu {
	pthread_mutex_t lock;
	unsigned int type;	/* 0: not formatted with PI */
	uint8_t data[NBLK][LBS];
	uint8_t pi[NBLK][TUPLE];
	int check_app;		/* WRITE(16)/READ(16): expect app tag 0 (ATO) */
	int recover_next;	/* next command: RECOVERED ERROR after the data */
	int medium_next;	/* next command: MEDIUM ERROR */
	int delay_us;
	int inflight, max_inflight;
	uint8_t cdb[32];
	unsigned int cdb_len, dxfer_len;
	unsigned int timeout;	/* of the last command, ms */
	int ncmd;
	char product[17];	/* INQUIRY product identification, blank-padded */
} emu = { .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * The disk's byte order, its own: the emulator and its checks share no code
 * with src/ (lib/byteorder.h included), as test-crc.c's bit-at-a-time CRCs
 * share none with crc.c, so a byte-order slip there cannot agree with
 * itself here.  SBC: every CDB field and every PI tuple field is big-endian.
 */
static void put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, v >> 32); put32(p + 4, v); }
static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t be32(const uint8_t *p) { return (uint32_t)be16(p) << 16 | be16(p + 2); }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* CRC-16/T10-DIF bit by bit: an oracle independent of crc.c */
static uint16_t crc16_bitwise(const uint8_t *p, size_t n)
{
	uint16_t crc = 0;
	int b;

	while (n--) {
		crc ^= (uint16_t)*p++ << 8;
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (crc << 1) ^ 0x8bb7 : crc << 1;
	}
	return crc;
}

static void emu_sense(struct sg_io_hdr *h, int key, int asc, int ascq,
		      uint64_t info)
{
	uint8_t *s = h->sbp;

	memset(s, 0, 18);
	s[0] = 0xf0;		/* fixed format, current, INFORMATION valid */
	s[2] = key;
	put32(s + 3, (uint32_t)info);
	s[7] = 10;
	s[12] = asc;
	s[13] = ascq;
	h->sb_len_wr = 18;
	h->status = 0x02;	/* CHECK CONDITION */
	h->masked_status = 0x01;
	h->driver_status = 0x08;	/* DRIVER_SENSE */
	h->info |= SG_INFO_CHECK;
}

/*
 * ref_tuple - the 8-byte tuple a DIF disk expects for block @d, written out
 * byte by byte from SBC's layout: guard (CRC-16/T10-DIF of the block, most
 * significant byte first) in bytes 0-1, application tag in 2-3, reference
 * tag in 4-7 (the LBA's low 32 bits for Type 1, the CDB's expected initial
 * reference tag plus the block's index for Type 2).
 */
static void ref_tuple(uint8_t t[TUPLE], const uint8_t *d, uint16_t app,
		      uint32_t ref)
{
	uint16_t g = crc16_bitwise(d, LBS);

	t[0] = g >> 8;
	t[1] = g & 0xff;
	t[2] = app >> 8;
	t[3] = app & 0xff;
	t[4] = ref >> 24;
	t[5] = (ref >> 16) & 0xff;
	t[6] = (ref >> 8) & 0xff;
	t[7] = ref & 0xff;
}

/*
 * The check a DIF disk makes of one tuple.  Return: 0, or the ASCQ of the
 * failed check (1 guard, 2 app, 3 ref).
 */
static int emu_check(const uint8_t *d, const uint8_t *t, uint32_t ref,
		     int check_ref, int check_app, uint16_t app, uint16_t mask)
{
	if (be16(t + 2) == 0xffff && (emu.type != 3 || be32(t + 4) == 0xffffffff))
		return 0;	/* escape */
	if (be16(t) != crc16_bitwise(d, LBS))
		return 1;
	if (check_app && (be16(t + 2) & mask) != (app & mask))
		return 2;
	if (check_ref && be32(t + 4) != ref)
		return 3;
	return 0;
}

static int emu_sgio(int fd, struct sg_io_hdr *h)
{
	const uint8_t *c = h->cmdp;
	uint8_t *buf = h->dxferp;
	uint64_t lba;
	uint32_t n, i, eilbrt = 0, per, ref;
	uint16_t app = 0, mask = 0;
	int prot, wr, c32, bad = 0, check_app, n_in;

	(void)fd;
	n_in = __atomic_add_fetch(&emu.inflight, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&emu.lock);
	if (n_in > emu.max_inflight)
		emu.max_inflight = n_in;
	memcpy(emu.cdb, c, h->cmd_len);
	emu.cdb_len = h->cmd_len;
	emu.dxfer_len = h->dxfer_len;
	emu.timeout = h->timeout;
	emu.ncmd++;
	pthread_mutex_unlock(&emu.lock);
	if (emu.delay_us)
		usleep(emu.delay_us);
	h->status = h->masked_status = h->host_status = h->driver_status = 0;
	h->sb_len_wr = 0;
	h->resid = 0;
	h->info = 0;

	pthread_mutex_lock(&emu.lock);
	if (c[0] == 0x9e && c[1] == 0x10) {	/* READ CAPACITY(16) */
		uint8_t rc[32] = { 0 };

		put64(rc, NBLK - 1);
		put32(rc + 8, LBS);
		if (emu.type)
			rc[12] = (emu.type - 1) << 1 | 1;
		memcpy(buf, rc, h->dxfer_len < 32 ? h->dxfer_len : 32);
		goto out;
	}
	if (c[0] == 0x12 && !(c[1] & 1)) {	/* standard INQUIRY */
		uint8_t inq[36] = { 0 };

		inq[2] = 6;
		inq[4] = 31;
		inq[5] = emu.type ? 1 : 0;	/* PROTECT */
		memcpy(inq + 8, "Linux   ", 8);
		memcpy(inq + 16, emu.product, 16);
		memcpy(inq + 32, "0191", 4);
		memcpy(buf, inq, h->dxfer_len < 36 ? h->dxfer_len : 36);
		h->resid = h->dxfer_len > 36 ? h->dxfer_len - 36 : 0;
		goto out;
	}
	if (emu.medium_next) {
		emu.medium_next = 0;
		emu_sense(h, 0x3, 0x11, 0x00, 0);
		goto out;
	}
	c32 = c[0] == 0x7f;
	if (c32) {
		wr = be16(c + 8) == 0x000b;
		prot = c[10] >> 5;
		lba = be64(c + 12);
		eilbrt = be32(c + 20);
		app = be16(c + 24);
		mask = be16(c + 26);
		n = be32(c + 28);
	} else if (c[0] == 0x88 || c[0] == 0x8a) {
		wr = c[0] == 0x8a;
		prot = c[1] >> 5;
		lba = be64(c + 2);
		n = be32(c + 10);
		mask = 0xffff;
	} else {
		emu_sense(h, 0x5, 0x20, 0x00, 0);	/* INVALID COMMAND OPCODE */
		goto out;
	}
	/* SBC: Type 2 takes protected transfers only with 32-byte CDBs */
	if ((prot && !emu.type) || (prot && emu.type == 2 && !c32) ||
	    lba + n > NBLK) {
		emu_sense(h, 0x5, 0x24, 0x00, 0);	/* INVALID FIELD IN CDB */
		goto out;
	}
	per = LBS + (prot ? TUPLE : 0);
	if (h->dxfer_len != n * per || h->dxfer_direction !=
	    (wr ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV)) {
		emu_sense(h, 0x5, 0x24, 0x00, 0);
		goto out;
	}
	check_app = c32 || emu.check_app;
	for (i = 0; i < n && emu.type; i++) {
		const uint8_t *d = wr ? buf + i * per : emu.data[lba + i];
		const uint8_t *t = wr && prot ? buf + i * per + LBS :
				   emu.pi[lba + i];

		ref = emu.type == 2 ? eilbrt + i : (uint32_t)(lba + i);
		/*
		 * Writes without PI in the buffer are not checked (the disk
		 * generates); reads check what is stored.  The ref tag of a
		 * Type 2 medium is only known from a 32-byte CDB.
		 */
		bad = prot || !wr ?
		      emu_check(d, t, ref, emu.type == 1 || (emu.type == 2 && c32),
				prot && check_app, app, mask) : 0;
		if (bad) {
			emu_sense(h, 0xb, 0x10, bad, lba + i);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		uint8_t *b = buf + i * per;

		if (wr) {
			memcpy(emu.data[lba + i], b, LBS);
			if (prot) {
				memcpy(emu.pi[lba + i], b + LBS, TUPLE);
			} else {	/* the disk generates: app 0, ref = LBA */
				put16(emu.pi[lba + i], crc16_bitwise(b, LBS));
				put16(emu.pi[lba + i] + 2, 0);
				put32(emu.pi[lba + i] + 4, (uint32_t)(lba + i));
			}
		} else {
			memcpy(b, emu.data[lba + i], LBS);
			if (prot)
				memcpy(b + LBS, emu.pi[lba + i], TUPLE);
		}
	}
	if (emu.recover_next) {
		emu.recover_next = 0;
		emu_sense(h, 0x1, 0x18, 0x00, lba);	/* RECOVERED DATA */
	}
out:
	pthread_mutex_unlock(&emu.lock);
	__atomic_sub_fetch(&emu.inflight, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* ---- the sg driver's asynchronous interface, emulated ---- */

#define EMU_FD	1000	/* descriptors the emulated open hands out */

static struct {
	int open_ok;		/* 0: no sg node (the engine takes threads) */
	int opens, closes;
	struct sg_io_hdr q[64];	/* submitted, not yet reaped (copies) */
	int qfd[64];		/* ... and the descriptor each came on */
	int n, max_n;
	int bad_fd;		/* a call on a descriptor never opened */
	pthread_t owner;	/* every call must come from this thread */
	int other_thread;
} aemu;

static int aemu_fd_ok(int fd)
{
	if (!pthread_equal(pthread_self(), aemu.owner))
		aemu.other_thread++;
	if (fd < EMU_FD || fd >= EMU_FD + aemu.opens)
		aemu.bad_fd++;
	return 1;
}

static int aemu_open(int blkfd, char *node, size_t nlen, char *why,
		     size_t wlen)
{
	(void)blkfd;
	if (!aemu.open_ok) {
		snprintf(why, wlen, "emulated: no scsi_generic entry");
		return -ENODEV;
	}
	snprintf(node, nlen, "/dev/sg-emul");
	return EMU_FD + aemu.opens++;
}

static int aemu_submit(int fd, struct sg_io_hdr *h)
{
	aemu_fd_ok(fd);
	if (aemu.n == 64)
		return -EDOM;
	aemu.qfd[aemu.n] = fd;
	aemu.q[aemu.n++] = *h;	/* the driver copies the header on write() */
	if (aemu.n > aemu.max_n)
		aemu.max_n = aemu.n;
	return 0;
}

/* the newest of @fd's first: the engine must match completions by usr_ptr */
static int aemu_reap(int fd, struct sg_io_hdr *h)
{
	int i;

	aemu_fd_ok(fd);
	for (i = aemu.n - 1; i >= 0 && aemu.qfd[i] != fd; i--)
		;
	if (i < 0)
		return 0;
	*h = aemu.q[i];
	memmove(&aemu.q[i], &aemu.q[i + 1], (aemu.n - i - 1) * sizeof(aemu.q[0]));
	memmove(&aemu.qfd[i], &aemu.qfd[i + 1], (aemu.n - i - 1) * sizeof(aemu.qfd[0]));
	aemu.n--;
	emu_sgio(fd, h);
	return 1;
}

static int aemu_poll(struct pollfd *p, unsigned int n, int timeout)
{
	unsigned int i;
	int j, ready = 0;

	for (i = 0; i < n; i++) {
		aemu_fd_ok(p[i].fd);
		p[i].revents = 0;
		for (j = 0; j < aemu.n; j++)
			if (aemu.qfd[j] == p[i].fd)
				p[i].revents = POLLIN;
		ready += !!p[i].revents;
	}
	if (!ready && timeout < 0)
		return -EDEADLK;	/* would sleep for ever */
	return ready;
}

static void aemu_close(int fd)
{
	aemu_fd_ok(fd);
	aemu.closes++;
}

static const struct dix_sg_async_ops aemu_ops = {
	.open = aemu_open,
	.submit = aemu_submit,
	.reap = aemu_reap,
	.poll = aemu_poll,
	.close = aemu_close,
};

/* The engine's test bed: every instance here is handed the emulated driver. */
static struct dix_sg_bed sgbed = { .async = &aemu_ops };

static void emu_format(unsigned int type)
{
	memset(emu.data, 0, sizeof(emu.data));
	memset(emu.pi, 0xff, sizeof(emu.pi));	/* unwritten: escaped */
	emu.type = type;
	emu.check_app = emu.recover_next = emu.medium_next = 0;
	emu.delay_us = 0;
	emu.max_inflight = 0;
	memcpy(emu.product, "DIF EMULATOR    ", 17);
	aemu.max_n = 0;
}

/* ---- driving the engine like the job loop ---- */

struct bufs {
	struct dix_io io;
	uint8_t *data;
	uint8_t *meta;
};

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static void io_setup(struct bufs *b, unsigned int idx, uint32_t nblk)
{
	memset(b, 0, sizeof(*b));
	if (posix_memalign((void **)&b->data, 4096, nblk * LBS))
		abort();
	b->meta = calloc(nblk, TUPLE);
	b->io.buf = b->data;
	b->io.len = nblk * LBS;
	b->io.meta = b->meta;
	b->io.meta_len = nblk * TUPLE;
	b->io.idx = idx;
	b->io.injected = DIX_ERR_NR;
}

static void io_free(struct bufs *b)
{
	free(b->data);
	free(b->meta);
}

/* queue + commit + reap one I/O; returns it as event() handed it back */
static struct dix_io *run1(struct dix_eng_ctx *ctx, struct dix_io *io,
			   int dir, uint64_t lba)
{
	int n;

	io->dir = dir;
	io->offset = lba * LBS;
	io->res = 0;
	io->errkind = DIX_ERR_NR;
	io->recovered = 0;
	io->detail[0] = '\0';
	io->status[0] = '\0';
	n = engine_sg.queue(ctx, io);
	if (n == DIX_Q_COMPLETED)	/* --iodepth 1: SG_IO inline */
		return io;
	if (n != DIX_Q_QUEUED)
		return NULL;
	if (engine_sg.commit(ctx))
		return NULL;
	n = engine_sg.getevents(ctx, 1);
	if (n != 1)
		return NULL;
	return engine_sg.event(ctx, 0);
}

/* the job's view: the device's format with separate metadata */
static struct pi_format job_pif(const struct dix_eng_ctx *ctx)
{
	struct pi_format f = ctx->pif;

	f.interleaved = false;
	return f;
}

static void gen(const struct pi_format *f, struct bufs *b, uint64_t lba,
		uint64_t ref)
{
	struct pi_io p;

	pi_io_init(&p, f, lba);
	p.ref = ref;
	b->io.ref = ref;
	b->io.app = p.app;
	rnd_fill(&rnd_state, b->data, b->io.len);
	pi_generate(f, b->data, b->meta, b->io.len / LBS, &p);
}

/*
 * The emulated disk's description, as devs_open() makes it for the run:
 * the SCSI provider asks the disk through the same transport.
 */
static struct dix_devdesc desc;

static const struct dix_devdesc *describe(unsigned int timeout_ms)
{
	memset(&desc, 0, sizeof(desc));
	desc.path = "emul";
	desc.fd = -1;		/* never used: the transport is the emulator */
	desc.sgio = emu_sgio;
	desc.lbs = LBS;
	devdesc_ask(&desc, DEVDESC_ASK_SCSI, timeout_ms);
	return &desc;
}

static int ctx_init(struct dix_eng_ctx *ctx, int mode, unsigned int depth)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->bed = &sgbed;
	ctx->fd = -1;		/* never used: the transport is the emulator */
	ctx->depth = depth;
	ctx->lbs = LBS;
	ctx->path = "emul";
	ctx->pi_mode = mode;
	ctx->desc = describe(0);
	return engine_sg.init(ctx);
}

/* the path init chose, from its note */
static const char *path_of(const struct dix_eng_ctx *ctx)
{
	static const char *const p[] = { "inline", "async", "threads" };
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!strncmp(ctx->note, "sg path: ", 9) &&
		    !strncmp(ctx->note + 9, p[i], strlen(p[i])))
			return p[i];
	return "?";
}

static const char *want_path(unsigned int depth)
{
	return depth == 1 ? "inline" : aemu.open_ok ? "async" : "threads";
}

static void test_type1(unsigned int depth)
{
	struct dix_eng_ctx ctx;
	struct pi_format f;
	struct bufs w, r;
	struct pi_io p;
	struct pi_fail fail;
	struct dix_io *io;
	int i;

	emu_format(1);
	printf("# type 1 at --iodepth %u\n", depth);
	is_int(ctx_init(&ctx, PI_APP, depth), 0, "type 1: init");
	is_str(path_of(&ctx), want_path(depth), "type 1: the path init chose, in its note");
	ok(emu.ncmd >= 1, "init talks to the disk through the transport");
	ok(ctx.pif.guard == DIX_GUARD_CRC16 && ctx.pif.type == PI_TYPE1 &&
	   ctx.pif.interval == LBS && ctx.pif.ms == 8 && ctx.pif.interleaved,
	   "type 1: format crc16 type1 512+8 interleaved");
	f = job_pif(&ctx);

	io_setup(&w, 0, 8);
	io_setup(&r, depth > 1, 8);	/* slot indexes below --iodepth */
	gen(&f, &w, 16, 16);
	io = run1(&ctx, &w.io, DIX_WRITE, 16);
	ok(io == &w.io, "write completes through the ops");
	is_int(w.io.res, 8 * LBS, "protected write: all bytes");
	is_int(w.io.errkind, DIX_ERR_NR, "protected write: no error kind");
	is_str(w.io.detail, "", "protected write: no failure detail");
	ok(emu.cdb_len == 16 && emu.cdb[0] == 0x8a && emu.cdb[1] >> 5 == 1,
	   "WRITE(16) with WRPROTECT=1");
	is_int(be64(emu.cdb + 2), 16, "WRITE(16) LBA");
	is_int(be32(emu.cdb + 10), 8, "WRITE(16) transfer length in blocks");
	is_int(emu.dxfer_len, 8 * (LBS + TUPLE), "data-out carries 520 bytes per block");
	ok(!memcmp(emu.data[16], w.data, 8 * LBS), "disk stored the data");
	for (i = 0; i < 8; i++)
		if (memcmp(emu.pi[16 + i], w.meta + i * TUPLE, TUPLE))
			break;
	is_int(i, 8, "disk stored the tuples dixload generated, block by block");
	for (i = 0; i < 8; i++) {
		uint8_t want[TUPLE];

		ref_tuple(want, w.data + i * LBS, 0, 16 + i);
		if (memcmp(emu.pi[16 + i], want, TUPLE))
			break;
	}
	is_int(i, 8, "type 1: each stored tuple is guard, app 0, ref = LBA, big-endian, by the reference");

	r.io.ref = 16;
	io = run1(&ctx, &r.io, DIX_READ, 16);
	ok(io == &r.io && r.io.res == 8 * LBS, "protected read: all bytes");
	ok(emu.cdb[0] == 0x88 && emu.cdb[1] >> 5 == 1, "READ(16) with RDPROTECT=1");
	ok(!memcmp(r.data, w.data, 8 * LBS), "read: data round-trips");
	ok(!memcmp(r.meta, w.meta, 8 * TUPLE), "read: tuples de-interleaved into the metadata buffer");
	pi_io_init(&p, &f, 16);
	is_int(pi_verify(&f, r.data, r.meta, 8, &p, &fail), 0, "read: tuples verify");

	/* each kind of bad tuple is refused with its ASCQ, nothing stored */
	gen(&f, &w, 32, 32);
	pi_io_init(&p, &f, 32);
	is_int(pi_corrupt(&f, w.data, w.meta, 8, 3, DIX_ERR_GUARD, &p, NULL), 0,
	       "corrupt the guard of interval 3");
	w.io.injected = DIX_ERR_GUARD;
	io = run1(&ctx, &w.io, DIX_WRITE, 32);
	ok(io && w.io.res == -EILSEQ, "bad guard: write fails with EILSEQ");
	is_int(w.io.errkind, DIX_ERR_GUARD, "bad guard -> errkind guard (sense 0x10/1)");
	ok(!strncmp(w.io.detail, "SCSI status Check Condition, Aborted Command: ", 46) &&
	   strstr(w.io.detail, " (ASC 0x10 ASCQ 0x01) at LBA 35"),
	   "bad guard: the sense decoded in the detail (%s)", w.io.detail);
	is_str(w.io.status, "ASC 10/01", "bad guard: the status in short, for the check's name");
	ok(emu.pi[32][0] == 0xff && emu.pi[35][0] == 0xff, "bad guard: nothing written");

	gen(&f, &w, 32, 32);
	pi_corrupt(&f, w.data, w.meta, 8, 5, DIX_ERR_REF, &p, NULL);
	run1(&ctx, &w.io, DIX_WRITE, 32);
	ok(w.io.res == -EILSEQ && w.io.errkind == DIX_ERR_REF,
	   "bad ref tag -> errkind ref (sense 0x10/3)");
	is_str(w.io.status, "ASC 10/03", "bad ref tag: status ASC 10/03");

	emu.check_app = 1;
	gen(&f, &w, 32, 32);
	pi_corrupt(&f, w.data, w.meta, 8, 0, DIX_ERR_APP, &p, NULL);
	run1(&ctx, &w.io, DIX_WRITE, 32);
	ok(w.io.res == -EILSEQ && w.io.errkind == DIX_ERR_APP,
	   "bad app tag -> errkind app (sense 0x10/2)");
	emu.check_app = 0;
	w.io.injected = DIX_ERR_NR;

	/* the disk checks on reads too: a tuple that went bad on the medium */
	emu.pi[18][1] ^= 0x01;
	run1(&ctx, &r.io, DIX_READ, 16);
	ok(r.io.res == -EILSEQ && r.io.errkind == DIX_ERR_GUARD,
	   "stored guard damaged: read fails as guard");
	emu.pi[18][1] ^= 0x01;

	emu.recover_next = 1;
	memset(r.data, 0, 8 * LBS);
	run1(&ctx, &r.io, DIX_READ, 16);
	ok(r.io.res == 8 * LBS && r.io.recovered == 1,
	   "RECOVERED ERROR sense: success with recovered set");
	is_int(r.io.errkind, DIX_ERR_NR, "recovered: no error kind");
	is_str(r.io.detail, "", "recovered: no failure detail");
	is_str(r.io.status, "", "recovered: no failure status");
	ok(!memcmp(r.data, emu.data[16], 8 * LBS), "recovered read: data delivered");

	emu.medium_next = 1;
	run1(&ctx, &r.io, DIX_READ, 16);
	ok(r.io.res == -EIO && r.io.errkind == DIX_ERR_NR,
	   "MEDIUM ERROR sense: io error, no PI kind");
	ok(!strncmp(r.io.detail, "SCSI status Check Condition, Medium Error: ", 43) &&
	   strstr(r.io.detail, " (ASC 0x11 ASCQ 0x00)"),
	   "MEDIUM ERROR: the sense decoded in the detail (%s)", r.io.detail);

	io_free(&w);
	io_free(&r);
	engine_sg.cleanup(&ctx);
	ok(ctx.priv == NULL, "cleanup");
}

/* --iodepth 4: four SG_IO calls are in the disk at once */
static void test_overlap(void)
{
	struct dix_eng_ctx ctx;
	struct pi_format f;
	struct bufs b[4];
	int i, got = 0, good = 0;

	emu_format(1);
	is_int(ctx_init(&ctx, PI_APP, 4), 0, "overlap: init depth 4");
	is_str(path_of(&ctx), want_path(4), "overlap: the path");
	f = job_pif(&ctx);
	for (i = 0; i < 4; i++) {
		io_setup(&b[i], i, 4);
		gen(&f, &b[i], 64 + 4 * i, 64 + 4 * i);
		b[i].io.dir = DIX_WRITE;
		b[i].io.offset = (64 + 4 * i) * LBS;
		b[i].io.errkind = DIX_ERR_NR;
	}
	emu.delay_us = 100000;
	for (i = 0; i < 4; i++)
		engine_sg.queue(&ctx, &b[i].io);
	engine_sg.commit(&ctx);
	while (got < 4) {
		int n = engine_sg.getevents(&ctx, 1);

		for (i = 0; i < n; i++)
			good += engine_sg.event(&ctx, i)->res == 4 * LBS;
		got += n > 0 ? n : 4;
	}
	is_int(good, 4, "overlap: four writes succeed");
	if (aemu.open_ok)	/* one thread: the driver holds all four */
		is_int(aemu.max_n, 4, "overlap (async): four commands were in the driver at once");
	else
		is_int(emu.max_inflight, 4, "overlap (threads): four commands were in the disk at once");
	emu.delay_us = 0;
	for (i = 0; i < 4; i++)
		io_free(&b[i]);
	engine_sg.cleanup(&ctx);
}

static void test_type2(void)
{
	struct dix_eng_ctx ctx;
	struct pi_format f;
	struct bufs w, r;
	int i;

	emu_format(2);
	is_int(ctx_init(&ctx, PI_APP, 1), 0, "type 2: init");
	is_int(ctx.pif.type, PI_TYPE2, "type 2: format type 2");
	f = job_pif(&ctx);
	io_setup(&w, 0, 4);
	io_setup(&r, 0, 4);
	gen(&f, &w, 100, 5000);	/* Type 2: the ref seed is the command's */
	run1(&ctx, &w.io, DIX_WRITE, 100);
	is_int(w.io.res, 4 * LBS, "type 2: protected write succeeds");
	ok(emu.cdb_len == 32 && emu.cdb[0] == 0x7f && be16(emu.cdb + 8) == 0x000b &&
	   emu.cdb[10] >> 5 == 1, "type 2: WRITE(32) with WRPROTECT=1");
	is_int(be32(emu.cdb + 20), 5000, "type 2: expected initial ref tag = io->ref");
	is_int(be64(emu.cdb + 12), 100, "type 2: WRITE(32) LBA");
	/* SBC's 32-byte CDB: variable length (0x7f), 0x18 more bytes */
	ok(emu.cdb[7] == 0x18 && be32(emu.cdb + 28) == 4,
	   "type 2: WRITE(32) additional CDB length 0x18, transfer length 4 blocks");
	for (i = 0; i < 4; i++) {
		uint8_t want[TUPLE];

		ref_tuple(want, w.data + i * LBS, be16(emu.cdb + 24), 5000 + i);
		if (memcmp(emu.pi[100 + i], want, TUPLE))
			break;
	}
	is_int(i, 4, "type 2: each stored tuple is guard, the CDB's app tag, ref = expected initial ref + index, by the reference");
	r.io.ref = 5000;
	run1(&ctx, &r.io, DIX_READ, 100);
	ok(emu.cdb[10] >> 5 == 1, "type 2: READ(32) with RDPROTECT=1");
	ok(r.io.res == 4 * LBS && be16(emu.cdb + 8) == 0x0009 &&
	   !memcmp(r.data, w.data, 4 * LBS) && !memcmp(r.meta, w.meta, 4 * TUPLE),
	   "type 2: READ(32) round-trips data and tuples");
	r.io.ref = 5001;
	run1(&ctx, &r.io, DIX_READ, 100);
	ok(r.io.res == -EILSEQ && r.io.errkind == DIX_ERR_REF,
	   "type 2: wrong expected ref tag -> ref");
	io_free(&w);
	io_free(&r);
	engine_sg.cleanup(&ctx);
}

static void test_off(void)
{
	struct dix_eng_ctx ctx;
	struct bufs w, r;

	emu_format(1);
	is_int(ctx_init(&ctx, PI_OFF, 2), 0, "--pi off: init");
	is_str(path_of(&ctx), want_path(2), "--pi off: the path");
	io_setup(&w, 0, 8);
	io_setup(&r, 1, 8);
	rnd_fill(&rnd_state, w.data, 8 * LBS);
	run1(&ctx, &w.io, DIX_WRITE, 200);
	ok(w.io.res == 8 * LBS && emu.cdb[1] >> 5 == 0 && emu.dxfer_len == 8 * LBS,
	   "--pi off: WRPROTECT=0, plain 512-byte blocks");
	is_int(be16(emu.pi[203]), crc16_bitwise(w.data + 3 * LBS, LBS),
	       "--pi off: the disk generated its own guard");
	run1(&ctx, &r.io, DIX_READ, 200);
	ok(r.io.res == 8 * LBS && !memcmp(r.data, w.data, 8 * LBS),
	   "--pi off: plain read round-trips");
	emu.data[201][7] ^= 0x40;	/* the medium flips a bit */
	run1(&ctx, &r.io, DIX_READ, 200);
	ok(r.io.res == -EILSEQ && r.io.errkind == DIX_ERR_GUARD,
	   "--pi off: the disk's own guard check is reported as guard");
	io_free(&w);
	io_free(&r);
	engine_sg.cleanup(&ctx);

	emu_format(0);
	ok(ctx_init(&ctx, PI_APP, 1) < 0 && strstr(ctx.errmsg, "PROT_EN=0"),
	   "--pi app on an unformatted disk: init fails, says why");
	ok(ctx.priv == NULL, "failed init leaves no state");

	emu_format(1);
	memcpy(emu.product, "scsi_debug      ", 17);
	ok(ctx_init(&ctx, PI_APP, 1) < 0 && strstr(ctx.errmsg, "scsi_debug"),
	   "--pi app on scsi_debug: refused (it stores interleaved PI as data)");
	is_int(ctx_init(&ctx, PI_OFF, 1), 0, "--pi off on scsi_debug: accepted");
	engine_sg.cleanup(&ctx);
}

/*
 * One open file per slot (each has one reserved buffer), but no more than
 * 256: then up to 16 slots share one (the driver's limit per file).
 */
static void test_async_files(void)
{
	static const struct { unsigned int depth, files; } c[] = {
		{ 40, 40 }, { 600, 200 }, { 4096, 256 },
	};
	struct dix_eng_ctx ctx;
	char want[32];
	unsigned int i;

	emu_format(1);
	for (i = 0; i < 3; i++) {
		int opens = aemu.opens, closes = aemu.closes;

		is_int(ctx_init(&ctx, PI_OFF, c[i].depth), 0, "depth N: init");
		snprintf(want, sizeof(want), "%u open files", c[i].files);
		ok(strstr(ctx.note, want) != NULL, "depth %u: %s (%s)",
		   c[i].depth, want, ctx.note);
		is_int(aemu.opens - opens, c[i].files, "depth N: the node opened once per file");
		engine_sg.cleanup(&ctx);
		is_int(aemu.closes - closes, c[i].files, "depth N: cleanup closes them all");
	}
}

/* 16 slots on one open file (depth 4096): completions come from the right one */
static void test_shared_file(void)
{
	struct dix_eng_ctx ctx;
	struct bufs b[40];
	int i, n, got = 0, good = 0;

	emu_format(1);
	is_int(ctx_init(&ctx, PI_OFF, 4096), 0, "shared: init depth 4096");
	for (i = 0; i < 40; i++) {
		io_setup(&b[i], i * 7, 1);	/* slots on files 0 .. 17 */
		b[i].io.dir = DIX_WRITE;
		b[i].io.offset = (uint64_t)i * LBS;
		is_int(engine_sg.queue(&ctx, &b[i].io), DIX_Q_QUEUED, "shared: queued");
	}
	engine_sg.commit(&ctx);
	while (got < 40 && (n = engine_sg.getevents(&ctx, 1)) > 0)
		for (i = 0; i < n; i++, got++)
			good += engine_sg.event(&ctx, i)->res == LBS;
	is_int(good, 40, "shared: forty commands on shared files all complete");
	is_int(aemu.n, 0, "shared: nothing left in the driver");
	for (i = 0; i < 40; i++)
		io_free(&b[i]);
	engine_sg.cleanup(&ctx);
}

/* cleanup with commands still in the driver reads them back first */
static void test_cleanup_drains(void)
{
	struct dix_eng_ctx ctx;
	struct bufs b[3];
	int i;

	emu_format(1);
	is_int(ctx_init(&ctx, PI_OFF, 4), 0, "drain: init depth 4");
	for (i = 0; i < 3; i++) {
		io_setup(&b[i], i, 1);
		b[i].io.dir = DIX_READ;
		b[i].io.offset = (uint64_t)i * LBS;
		engine_sg.queue(&ctx, &b[i].io);
	}
	is_int(aemu.n, 3, "drain: three commands in the driver");
	engine_sg.cleanup(&ctx);
	is_int(aemu.n, 0, "drain: cleanup read all three back before closing");
	for (i = 0; i < 3; i++)
		io_free(&b[i]);
}

/*
 * Commands over 8 KiB take the threads even with an sg node (the node
 * copies, SG_IO maps), without the no-node warning; --pi app counts the
 * tuples on the wire.
 */
static void test_size_policy(void)
{
	static const struct { uint64_t io; int mode; const char *path; } c[] = {
		{ 4096, PI_OFF, "async" }, { 8192, PI_OFF, "async" },
		{ 16384, PI_OFF, "threads" }, { 8192, PI_APP, "threads" },
		{ 4096, PI_APP, "async" },
	};
	struct dix_eng_ctx ctx;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		emu_format(1);
		memset(&ctx, 0, sizeof(ctx));
		ctx.bed = &sgbed;
		ctx.fd = -1;
		ctx.depth = 4;
		ctx.lbs = LBS;
		ctx.path = "emul";
		ctx.pi_mode = c[i].mode;
		ctx.io_size = c[i].io;
		ctx.desc = describe(0);
		is_int(engine_sg.init(&ctx), 0, "size policy: init");
		ok(!strcmp(path_of(&ctx), c[i].path), "%llu-byte I/Os, --pi %s: path %s (%s)",
		   (unsigned long long)c[i].io, c[i].mode == PI_APP ? "app" : "off",
		   c[i].path, ctx.note);
		engine_sg.cleanup(&ctx);
	}
}

/* --timeout reaches every command, inline and through the sg node; 0
 * leaves the engine's 60 s */
static void test_timeout(void)
{
	struct dix_eng_ctx ctx;
	struct dix_opts o;
	struct bufs w;
	unsigned int depth;

	memset(&o, 0, sizeof(o));
	for (depth = 1; depth <= 4; depth += 3) {
		emu_format(1);
		o.timeout = 2.5;
		memset(&ctx, 0, sizeof(ctx));
		ctx.bed = &sgbed;
		ctx.fd = -1;
		ctx.depth = depth;
		ctx.lbs = LBS;
		ctx.path = "emul";
		ctx.pi_mode = PI_OFF;
		ctx.o = &o;
		emu.timeout = 0;
		/* devs_open() asks with the run's --timeout */
		ctx.desc = describe(passthru_timeout_ms(&o, 0));
		is_int(emu.timeout, 2500, "  the description's READ CAPACITY(16) carries 2500 ms");
		ok(engine_sg.init(&ctx) == 0, "--timeout 2.5, depth %u: init", depth);
		io_setup(&w, 0, 8);
		emu.timeout = 0;
		run1(&ctx, &w.io, DIX_WRITE, 40);
		ok(w.io.res == 8 * LBS && emu.timeout == 2500,
		   "  a write (%s) carries 2500 ms", path_of(&ctx));
		io_free(&w);
		engine_sg.cleanup(&ctx);
	}
	o.timeout = 0;
	emu.timeout = 0;
	ctx.desc = describe(passthru_timeout_ms(&o, 0));
	is_int(emu.timeout, 60000, "--timeout 0: the description's READ CAPACITY(16) carries the provider's own 60 s");
	is_int(engine_sg.init(&ctx), 0, "--timeout 0: init");
	io_setup(&w, 0, 8);
	emu.timeout = 0;
	run1(&ctx, &w.io, DIX_WRITE, 40);
	ok(w.io.res == 8 * LBS && emu.timeout == 60000,
	   "  a write carries the engine's own 60 s");
	io_free(&w);
	engine_sg.cleanup(&ctx);
}

int main(void)
{
	/* the emulator's guard oracle on the catalogue's check value */
	is_int(crc16_bitwise((const uint8_t *)"123456789", 9), 0xd0db,
	       "reference CRC-16/T10-DIF of \"123456789\" is 0xd0db");
	aemu.owner = pthread_self();

	printf("# paths: inline and async\n");
	aemu.open_ok = 1;
	test_type1(1);
	test_type1(4);
	test_overlap();
	test_type2();
	test_off();
	test_async_files();
	test_shared_file();
	test_size_policy();
	test_cleanup_drains();
	test_timeout();
	is_int(aemu.n, 0, "async: nothing left in the driver");
	is_int(aemu.bad_fd, 0, "async: every call on a descriptor the engine opened");
	is_int(aemu.other_thread, 0, "async: every call from the worker's thread");
	is_int(aemu.opens, aemu.closes, "async: every descriptor closed");

	printf("# paths: no sg node, so threads at depth > 1\n");
	aemu.open_ok = 0;
	test_type1(4);
	test_overlap();
	test_off();
	return tap_done();
}
