// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devdesc.c - open the device or file under load and describe it from
 * what the kernel says about it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/byteorder.h"
#include "lib/json.h"
#include "device/blkview.h"
#include "device/claim.h"
#include "conf/options.h"
#include "lib/parse.h"
#include "device/devdesc.h"
#include "device/dmmap.h"
#include "lib/util.h"
#include "proto/uring_pi.h"

/* Copy the kernel's integrity view from blkview (the one sysfs reader). */
static void integrity_from(struct dix_integrity *in, const struct blkview *bv)
{
	snprintf(in->format, sizeof(in->format), "%s",
		 bv->has_integrity && bv->format[0] ? bv->format : "none");
	in->interval = bv->protection_interval_bytes;
	in->tag_size = bv->tag_size;
	in->read_verify = bv->has_integrity ? bv->read_verify : -1;
	in->write_generate = bv->has_integrity ? bv->write_generate : -1;
	in->capable = bv->has_integrity ? bv->device_is_integrity_capable : -1;
}

int devdesc_lbmd_parse(const uint8_t *buf, size_t len, struct devdesc_lbmd *l)
{
	if (len < 16)
		return -EBADMSG;
	memset(l, 0, sizeof(*l));
	l->flags = get_le32(buf);
	l->interval = (uint16_t)(buf[4] | buf[5] << 8);
	l->size = buf[6];
	/* 7, 8: opaque (non-PI) metadata size and offset */
	l->pi_size = buf[9];
	l->pi_offset = buf[10];
	l->guard_tag_type = buf[11];
	l->app_tag_size = buf[12];
	l->ref_tag_size = buf[13];
	l->storage_tag_size = buf[14];
	return 0;
}

int devdesc_lbmd_pif(const struct devdesc_lbmd *l, struct pi_format *f,
		     char *why, size_t whylen)
{
	memset(f, 0, sizeof(*f));
	if (!(l->flags & LBMD_PI_CAP_INTEGRITY) || !l->pi_size) {
		snprintf(why, whylen,
			 "the device carries no protection information (integrity metadata %u bytes, PI %u bytes)",
			 l->size, l->pi_size);
		return -EOPNOTSUPP;
	}
	switch (l->guard_tag_type) {
	case LBMD_PI_CSUM_IP:
		f->guard = DIX_GUARD_IP;
		break;
	case LBMD_PI_CSUM_CRC16_T10DIF:
		f->guard = DIX_GUARD_CRC16;
		break;
	case LBMD_PI_CSUM_CRC64_NVME:
		f->guard = DIX_GUARD_CRC64;
		break;
	default:
		snprintf(why, whylen, "unknown guard tag type %u",
			 l->guard_tag_type);
		return -EOPNOTSUPP;
	}
	/* the kernel shows Types 1 and 2 alike: the ref tag is checked */
	f->type = l->flags & LBMD_PI_CAP_REFTAG ? PI_TYPE1 : PI_TYPE3;
	f->interval = l->interval;
	f->ms = l->size;
	f->pi_first = l->pi_offset == 0 && l->size > l->pi_size;
	f->interleaved = false;
	if (pi_format_check(f) ||
	    (!f->pi_first && l->pi_offset + l->pi_size != l->size) ||
	    l->pi_size != pi_tuple_size(f->guard)) {
		snprintf(why, whylen,
			 "unsupported PI layout: protection interval %u bytes, metadata %u bytes, PI %u bytes at byte %u of the metadata",
			 l->interval, l->size, l->pi_size, l->pi_offset);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The block layer's integrity capability of the open block device @fd. */
static void lbmd_read(int fd, struct devdesc_lbmd *l)
{
	struct logical_block_metadata_cap cap;

	memset(&cap, 0, sizeof(cap));
	if (ioctl(fd, FS_IOC_GETLBMD_CAP, &cap)) {
		memset(l, 0, sizeof(*l));
		l->err = errno;
		return;
	}
	/* the kernel's struct is the 16 bytes the parser reads */
	devdesc_lbmd_parse((const uint8_t *)&cap, sizeof(cap), l);
}

int devdesc_open(struct dix_devdesc *t, const char *path, unsigned int how,
		 char *err, size_t errlen)
{
	int write = !!(how & DEVDESC_WRITE);
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC |
		    (how & DEVDESC_BUFFERED ? 0 : O_DIRECT);
	struct blkview bv;
	struct stat st;
	const char *base;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->fd = -1;
	t->lbmd.err = ENOTBLK;
	strcpy(t->integrity.format, "none");
	t->integrity.read_verify = t->integrity.write_generate = -1;
	t->integrity.capable = -1;
	base = strrchr(path, '/');
	snprintf(t->name, sizeof(t->name), "%s", base ? base + 1 : path);

	if (stat(path, &st)) {
		if (errno != ENOENT || !(how & DEVDESC_CREATE) || !write) {
			int e = errno;

			snprintf(err, errlen, "%s: %s%s", path, strerror(e),
				 e == ENOENT && write ?
				 " (give --size to create a file)" : "");
			return -e;
		}
		flags |= O_CREAT;
		t->created = 1;
	} else if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: not a block device or regular file", path);
		return -EINVAL;
	}

	/* the run's one descriptor, claimed and locked (claim.h) */
	t->fd = claim_open(path, flags, !!(how & DEVDESC_FORCE), &t->claim,
			   err, errlen);
	if (t->fd == -EEXIST && (flags & O_CREAT)) {
		/* made since the stat() (another rank, another run): not ours */
		t->created = 0;
		t->fd = claim_open(path, flags & ~O_CREAT,
				   !!(how & DEVDESC_FORCE), &t->claim, err,
				   errlen);
	}
	if (t->fd < 0) {
		int e = t->fd;

		t->fd = -1;
		t->created = 0;
		return e;
	}
	if (fstat(t->fd, &st)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		devdesc_close(t);
		return -e;
	}
	if (S_ISBLK(st.st_mode)) {
		uint64_t sz;
		int lbs;

		t->is_blk = 1;
		if (ioctl(t->fd, BLKGETSIZE64, &sz) ||
		    ioctl(t->fd, BLKSSZGET, &lbs)) {
			int e = errno;

			snprintf(err, errlen, "%s: cannot read size: %s", path,
				 strerror(e));
			devdesc_close(t);
			return -e;
		}
		t->size = sz;
		t->lbs = lbs;
		lbmd_read(t->fd, &t->lbmd);
		if (!blkview_read_dev("/sys", major(st.st_rdev),
				      minor(st.st_rdev), &bv)) {
			integrity_from(&t->integrity, &bv);
			t->max_sectors_kb = bv.max_sectors_kb;
			t->max_hw_sectors_kb = bv.max_hw_sectors_kb;
			t->max_segments = bv.max_segments;
		}
		/* the dm layer over the block provider: a mapping's table */
		if (dmmap_read("/sys", major(st.st_rdev), minor(st.st_rdev),
			       &t->dm, t->dm_err, sizeof(t->dm_err)) < 0)
			t->dm = NULL;
	} else {
		/*
		 * O_DIRECT on a file needs the alignment of the device the
		 * filesystem lives on: its logical block size, 512 when
		 * the kernel does not say (tmpfs, overlay).
		 */
		t->lbs = 512;
		if (!blkview_read("/sys", path, &bv)) {
			if (bv.logical_block_size >= 512 &&
			    is_pow2(bv.logical_block_size))
				t->lbs = bv.logical_block_size;
			t->max_sectors_kb = bv.max_sectors_kb;
			t->max_hw_sectors_kb = bv.max_hw_sectors_kb;
		}
		/* never resized here: the caller decides (core/dev.c) */
		t->size = st.st_size;
	}
	return 0;
}

void devdesc_ask(struct dix_devdesc *t, unsigned int what,
		 unsigned int timeout_ms)
{
	if (what & DEVDESC_ASK_SCSI)
		devdesc_scsi_ask(&t->scsi, t->fd, t->sgio, timeout_ms, NULL,
				 NULL);
	if (what & DEVDESC_ASK_NVME)
		devdesc_nvme_ask(&t->nvme, t->fd, NULL, NULL);
}

int devdesc_fit_region(const struct dix_devdesc *t, struct dix_opts *o,
		      char *err, size_t errlen, char *warn, size_t warnlen)
{
	unsigned long long off = o->offset, tsize = t->size;
	char a[32];

	warn[0] = '\0';
	if (o->bs % t->lbs) {
		snprintf(err, errlen,
			 "--bs %s is not a multiple of %s's logical block size (%u bytes)",
			 format_size(o->bs, a, sizeof(a)), t->path, t->lbs);
		return -EINVAL;
	}
	if (o->offset % t->lbs) {
		snprintf(err, errlen,
			 "--offset %llu is not a multiple of %s's logical block size (%u bytes)",
			 off, t->path, t->lbs);
		return -EINVAL;
	}
	if (o->offset >= t->size) {
		snprintf(err, errlen,
			 "--offset %llu is at or past the end of %s: its size is %llu bytes",
			 off, t->path, tsize);
		return -EINVAL;
	}
	if (!o->size || o->offset + o->size > t->size) {
		if (o->size)
			snprintf(warn, warnlen,
				 "--size %llu from --offset %llu passes the end of %s (its size is %llu bytes); using the %llu bytes from the offset to the end",
				 (unsigned long long)o->size, off, t->path,
				 tsize, tsize - off);
		o->size = t->size - o->offset;
	}
	if (o->size < o->bs * o->jobs) {
		snprintf(err, errlen,
			 "the region of %s (%llu bytes from --offset %llu) is smaller than --bs x --jobs (%llu x %llu bytes)",
			 t->path, (unsigned long long)o->size, off,
			 (unsigned long long)o->bs,
			 (unsigned long long)o->jobs);
		return -EINVAL;
	}
	o->size -= o->size % (o->bs * o->jobs);
	return 0;
}

int devdesc_resize(struct dix_devdesc *t, uint64_t size, char *err,
		   size_t errlen)
{
	struct stat st;

	if (fstat(t->fd, &st)) {
		snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
		return -errno;
	}
	if ((uint64_t)st.st_size < size && ftruncate(t->fd, size)) {
		int e = errno;

		snprintf(err, errlen,
			 "%s: cannot extend it from its size of %llu bytes to %llu bytes: %s",
			 t->path, (unsigned long long)st.st_size,
			 (unsigned long long)size, strerror(e));
		return -e;
	}
	t->size = size;
	t->created = 0;
	return 0;
}

void devdesc_close(struct dix_devdesc *t)
{
	/* made by this open and never sized: a setup error left it empty */
	if (t->created && t->fd >= 0)
		unlink(t->path);
	t->created = 0;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	dmmap_free(t->dm);
	t->dm = NULL;
}

void integrity_json(struct jw *w, const char *key, const struct dix_devdesc *t)
{
	const struct dix_integrity *in = &t->integrity;

	jw_obj_open(w, key);
	jw_str(w, "format", in->format);
	jw_uint(w, "protection_interval_bytes", in->interval);
	jw_uint(w, "tag_size", in->tag_size);
	jw_int(w, "read_verify", in->read_verify);
	jw_int(w, "write_generate", in->write_generate);
	jw_int(w, "device_is_integrity_capable", in->capable);
	jw_obj_close(w);
}

void integrity_print(FILE *f, const struct dix_devdesc *t)
{
	const struct dix_integrity *in = &t->integrity;

	if (t->crypto) {
		fprintf(f, "target: %s, the kernel crypto API: no device; requests of %u bytes, %llu bytes of them\n",
			t->name, t->lbs, (unsigned long long)t->size);
		return;
	}
	fprintf(f, "integrity: %s format=%s", t->name, in->format);
	if (in->interval)
		fprintf(f, " interval=%u", in->interval);
	if (in->read_verify >= 0)
		fprintf(f, " tag_size=%u read_verify=%d write_generate=%d",
			in->tag_size, in->read_verify, in->write_generate);
	fprintf(f, " lbs=%u size=%llu%s\n", t->lbs,
		(unsigned long long)t->size, t->is_blk ? "" : " (regular file)");
}
