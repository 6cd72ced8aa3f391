// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sys.c - the dixkload module and its device, as the engine finds them:
 * loaded by dixload itself where it is installed (libkmod, as the kcapi
 * engine loads the AF_ALG types, kernel/modules.c), checked to speak this
 * build's interface (DIXKLOAD_ABI), and opened once per load.
 *
 * Why dixload loads it: the module is out of tree, so nothing else would
 * (no alias the kernel requests); a run that fails with "no such device"
 * until the user finds the module's name by hand teaches nothing.  Where
 * it is not installed the error says how to build it, in the bed and on a
 * real machine.  Every call goes through struct kl_sys, so the unit test
 * runs the engine against a fake module without a kernel.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engines/kload/kl.h"
#include "kernel/modules.h"
#include "lib/util.h"

#define KL_DEV		"/dev/" DIXKLOAD_DEVNAME
#define KL_SYSDEV	"/sys/class/misc/" DIXKLOAD_DEVNAME "/dev"

#ifdef HAVE_KMOD
#define KL_HOW		"libkmod"
#else
#define KL_HOW		"modprobe"
#endif

#define KL_BUILD \
	"build and install it: in the VM bed, scripts/dixvm --kmod (builds kmod/ for the guest kernel and installs it); on a machine, the dixload-dkms package, or make -C /lib/modules/$(uname -r)/build M=$PWD/kmod && sudo make -C /lib/modules/$(uname -r)/build M=$PWD/kmod modules_install && sudo depmod"

/*
 * Without udev (the bed's guest, a container) the misc device may be
 * registered and have no node: make it from its number in sysfs.
 */
static int sys_open(void)
{
	unsigned int maj, min;
	FILE *f;
	int fd = open(KL_DEV, O_RDWR | O_CLOEXEC), n;

	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : -errno;
	f = fopen(KL_SYSDEV, "r");
	if (!f)
		return -ENOENT;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return -ENOENT;
	if (mknod(KL_DEV, S_IFCHR | 0600, makedev(maj, min)) && errno != EEXIST)
		return -errno;
	fd = open(KL_DEV, O_RDWR | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static void sys_close(int fd)
{
	close(fd);
}

static const struct kl_sys real_sys = {
	.need = mod_need,
	.open = sys_open,
	.ioctl = sys_ioctl,
	.close = sys_close,
};

const struct kl_sys *kl_sys = &real_sys;

int kl_module_ready(char *note, size_t nlen, char *err, size_t elen)
{
	struct dixkload_stats *st;
	char msg[256], name[32];
	int r, fd;

	note[0] = '\0';
	r = kl_sys->need(DIXKLOAD_DEVNAME, msg, sizeof(msg));
	if (r == -ENOENT) {
		snprintf(err, elen,
			 "the dixkload module is not installed for this kernel (%s); %s",
			 msg, KL_BUILD);
		return r;
	}
	if (r < 0) {
		snprintf(err, elen, "loading the dixkload module failed: %s",
			 msg);
		return r;
	}
	if (r == 1)
		snprintf(note, nlen, "loaded dixkload (" KL_HOW ")");
	fd = kl_sys->open();
	if (fd < 0) {
		snprintf(err, elen,
			 "%s: %s (%s): the dixkload module is loaded but its device cannot be opened%s",
			 KL_DEV, dix_errno_name(-fd, name, sizeof(name)),
			 strerror(-fd),
			 fd == -EACCES || fd == -EPERM ?
			 " (root only: CAP_SYS_ADMIN)" : "");
		return fd;
	}
	/* a fresh file's counters say which interface the module speaks */
	st = xcalloc(1, sizeof(*st));
	r = kl_sys->ioctl(fd, DIXKLOAD_IOC_STATS, st);
	kl_sys->close(fd);
	if (r == -ENOTTY || (!r && st->abi != DIXKLOAD_ABI)) {
		if (r)
			snprintf(err, elen,
				 "the dixkload module loaded speaks another interface than this dixload's (DIXKLOAD_ABI %u): its STATS ioctl is not this build's (ENOTTY); load the module built from this source tree (kmod/)",
				 DIXKLOAD_ABI);
		else
			snprintf(err, elen,
				 "the dixkload module loaded speaks DIXKLOAD_ABI %u, this dixload DIXKLOAD_ABI %u: load the module built from this source tree (kmod/)",
				 st->abi, DIXKLOAD_ABI);
		free(st);
		return -EPROTO;
	}
	free(st);
	if (r) {
		snprintf(err, elen, "%s: reading its counters failed: %s",
			 KL_DEV, strerror(-r));
		return r;
	}
	return 0;
}
