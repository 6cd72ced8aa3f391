// SPDX-License-Identifier: GPL-2.0
/*
 * dixkload_ctl.c - dixkload's control interface: /dev/dixkload, mode 0600
 * and CAP_SYS_ADMIN, one load per open file (file->private_data), the ioctls
 * of dixkload_uapi.h (START, STATS, REOPEN, STOP), and the module's one
 * parameter.  The load itself is dixkload_main.c.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/capability.h>

#include "dixkload.h"

static bool allow_corrupt;
module_param(allow_corrupt, bool, 0600);
MODULE_PARM_DESC(allow_corrupt,
		 "test only: let a load corrupt every Nth result (DIXKLOAD_F_CORRUPT), to prove the check counts exactly");

/* ---------------------------------------------------------------- */
/* the control interface */

static int dk_cfg_ok(const struct dixkload_cfg *c)
{
	if (c->abi != DIXKLOAD_ABI)
		return -EPROTO;
	if (strnlen(c->alg, sizeof(c->alg)) == sizeof(c->alg) || !c->alg[0])
		return -EINVAL;
	if (c->kind == DIXKLOAD_AEAD)
		return -EOPNOTSUPP;
	if (c->kind != DIXKLOAD_SKCIPHER && c->kind != DIXKLOAD_AHASH)
		return -EINVAL;
	if ((c->kind == DIXKLOAD_AHASH) != (c->dir == DIXKLOAD_DIGEST))
		return -EINVAL;
	if (c->dir > DIXKLOAD_MIXED || c->submit > DIXKLOAD_ASYNC)
		return -EINVAL;
	if (!c->tfms || c->tfms > DIXKLOAD_MAX_TFMS || !c->inflight ||
	    c->inflight > DIXKLOAD_MAX_INFLIGHT ||
	    c->tfms * c->inflight > DK_MAX_SLOTS)
		return -EINVAL;
	if (c->req_size < 16 || c->req_size > DIXKLOAD_MAX_REQ ||
	    (c->kind == DIXKLOAD_SKCIPHER && c->req_size % 16))
		return -EINVAL;
	if (c->keylen > sizeof(c->key))
		return -EINVAL;
	if (c->flags & ~(u64)(DIXKLOAD_F_BACKLOG | DIXKLOAD_F_CORRUPT))
		return -EINVAL;
	if ((c->flags & DIXKLOAD_F_CORRUPT) && !allow_corrupt)
		return -EPERM;
	return 0;
}

/* Allocate the load and start it; on failure nothing is left of it. */
static int dk_setup(struct dk_load *ld)
{
	int err = dk_alloc(ld);

	if (!err)
		err = dk_go(ld);
	if (err) {
		dk_halt(ld);
		dk_free(ld);
	}
	return err;
}

static long dk_start(struct dk_load *ld, void __user *arg)
{
	int err;

	if (ld->started)
		return -EBUSY;
	if (copy_from_user(&ld->cfg, arg, sizeof(ld->cfg)))
		return -EFAULT;
	err = dk_cfg_ok(&ld->cfg);
	if (err) {
		/* the engine prints why: the two refusals a user meets */
		if (err == -EOPNOTSUPP)
			strscpy(ld->st.why,
				"kind AEAD: not built in dixkload yet (skcipher and ahash are)",
				sizeof(ld->st.why));
		else if (err == -EPERM)
			strscpy(ld->st.why,
				"DIXKLOAD_F_CORRUPT: test only, refused unless dixkload is loaded with allow_corrupt=1",
				sizeof(ld->st.why));
		return err;
	}
	memset(&ld->st, 0, sizeof(ld->st));
	ld->st.abi = DIXKLOAD_ABI;
	ld->t_last = ktime_get_ns();
	err = dk_setup(ld);
	if (err) {
		ld->st.state = DIXKLOAD_FAILED;
		if (!ld->st.why[0])
			snprintf(ld->st.why, sizeof(ld->st.why),
				 "%s: cannot start (%d)", ld->cfg.alg, err);
		return err;
	}
	ld->started = true;
	ld->st.state = DIXKLOAD_RUNNING;
	return 0;
}

static long dk_stats(struct dk_load *ld, void __user *arg)
{
	struct dixkload_stats *snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
	unsigned long fl;
	long ret = 0;

	if (!snap)
		return -ENOMEM;
	spin_lock_irqsave(&ld->lock, fl);
	dk_advance(ld, ktime_get_ns());
	ld->st.abi = DIXKLOAD_ABI;
	ld->st.now_ns = ld->t_last;
	memcpy(snap, &ld->st, sizeof(*snap));
	spin_unlock_irqrestore(&ld->lock, fl);
	if (copy_to_user(arg, snap, sizeof(*snap)))
		ret = -EFAULT;
	kvfree(snap);
	return ret;
}

static long dk_reopen(struct dk_load *ld)
{
	int err;

	if (!ld->started)
		return -EINVAL;
	dk_halt(ld);
	dk_free(ld);
	err = dk_setup(ld);
	if (err) {
		ld->started = false;
		ld->st.state = DIXKLOAD_FAILED;
		snprintf(ld->st.why, sizeof(ld->st.why),
			 "%s: cannot reopen its TFMs (%d)", ld->cfg.alg, err);
	}
	return err;
}

static void dk_stop(struct dk_load *ld)
{
	if (!ld->started)
		return;
	dk_halt(ld);
	dk_free(ld);
	ld->started = false;
	ld->st.state = DIXKLOAD_STOPPED;
}

static long dk_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct dk_load *ld = f->private_data;
	long ret;

	if (cmd == DIXKLOAD_IOC_STATS)	/* never waits for a START */
		return dk_stats(ld, (void __user *)arg);
	mutex_lock(&ld->mu);
	switch (cmd) {
	case DIXKLOAD_IOC_START:
		ret = dk_start(ld, (void __user *)arg);
		break;
	case DIXKLOAD_IOC_REOPEN:
		ret = dk_reopen(ld);
		break;
	case DIXKLOAD_IOC_STOP:
		dk_stop(ld);
		ret = 0;
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&ld->mu);
	return ret;
}

static int dk_open(struct inode *inode, struct file *f)
{
	struct dk_load *ld;

	/* the node is 0600; a load takes CPUs and drivers from the machine */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ld = kvzalloc(sizeof(*ld), GFP_KERNEL);
	if (!ld)
		return -ENOMEM;
	mutex_init(&ld->mu);
	spin_lock_init(&ld->lock);
	init_waitqueue_head(&ld->idle);
	init_waitqueue_head(&ld->rwait);
	init_llist_head(&ld->ready);
	ld->st.abi = DIXKLOAD_ABI;
	f->private_data = ld;
	return nonseekable_open(inode, f);
}

static int dk_release(struct inode *inode, struct file *f)
{
	struct dk_load *ld = f->private_data;

	mutex_lock(&ld->mu);
	dk_stop(ld);
	mutex_unlock(&ld->mu);
	kvfree(ld);
	return 0;
}

static const struct file_operations dk_fops = {
	.owner = THIS_MODULE,
	.open = dk_open,
	.release = dk_release,
	.unlocked_ioctl = dk_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice dk_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = DIXKLOAD_DEVNAME,
	.fops = &dk_fops,
	.mode = 0600,
};

static int __init dk_init(void)
{
	BUILD_BUG_ON(sizeof(struct dixkload_stats) >= (1 << _IOC_SIZEBITS));
	return misc_register(&dk_dev);
}

static void __exit dk_exit(void)
{
	misc_deregister(&dk_dev);
}

module_init(dk_init);
module_exit(dk_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dixload's in-kernel crypto load (kmod/dixkload_uapi.h)");
