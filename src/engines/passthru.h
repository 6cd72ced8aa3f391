/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * passthru.h - what the pass-through engines (sg, nvme) share as options:
 * --timeout, the timeout of the commands they send themselves.  One row
 * for both tables, so the two engines cannot drift apart on its range or
 * its meaning; an engine through the block layer has none (the device's
 * own timeout applies there).
 */
#ifndef DIX_ENGINES_PASSTHRU_H
#define DIX_ENGINES_PASSTHRU_H

#include <stddef.h>

#include "conf/options.h"

/*
 * SG_IO and NVMe pass-through take whole milliseconds in 32 bits, and a
 * day is beyond any device's error recovery: 1 ms to 86400 s (the row's
 * range is in milliseconds; 0 is the engine's default).
 */
#define PASSTHRU_OPT_TIMEOUT {						\
	.name = "timeout", .type = OPT_SECONDS,				\
	.off = (long)offsetof(struct dix_opts, timeout),		\
	.def = "0", .min = 1, .max = 86400000, .metavar = "SEC",	\
	.help = "command timeout, 0.001 to 86400 s (0: sg 60 s, nvme the kernel's io_timeout); a command past it fails as an io error", \
	.refusal = "sends no commands of its own: through the block layer the command timeout is the device's (/sys/block/DEV/device/timeout, or nvme_core's io_timeout)", \
}

/**
 * passthru_timeout_ms() - a command's timeout in whole milliseconds:
 * --timeout in @o, or @dflt without it (or without @o).
 */
static inline unsigned int passthru_timeout_ms(const struct dix_opts *o,
					       unsigned int dflt)
{
	return o && o->timeout > 0 ? (unsigned int)(o->timeout * 1000 + 0.5) :
	       dflt;
}

#endif
