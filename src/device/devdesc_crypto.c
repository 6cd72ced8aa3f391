// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devdesc_crypto.c - the crypto provider of the device description: the
 * kernel crypto API as the device a crypto engine loads (--alg).
 *
 * The depth loop is the same for it as for a disk; what differs is data
 * here (what a read and a write are called, that the engine checks every
 * result itself, that --inject tag@N applies, how an accepted wrong tag is
 * told), so the loop reads the description and names no engine.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "device/devdesc.h"

static const char *const crypto_verbs[2] = { "decrypt", "encrypt" };

void devdesc_open_crypto(struct dix_devdesc *t, const char *path,
			 const char *alg, uint64_t size, uint32_t bs)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->fd = -1;
	t->crypto = 1;
	t->alg = alg;
	snprintf(t->name, sizeof(t->name), "%s", alg);
	t->size = size;
	t->lbs = bs;
	strcpy(t->integrity.format, "none");
	t->integrity.read_verify = t->integrity.write_generate = -1;
	t->integrity.capable = -1;
	t->lbmd.err = ENOTBLK;
	t->verbs = crypto_verbs;
	t->self_checked = true;
	t->injects = true;
	t->uncaught = "injected wrong authentication tag not caught: the kernel's decrypt accepted it";
}
