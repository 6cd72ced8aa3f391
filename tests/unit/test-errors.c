// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-errors.c - error text on I/O paths: EILSEQ is a failed integrity
 * check, never glibc's "Invalid or incomplete multibyte or wide
 * character"; errno names; the PI checks named in words.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/util.h"
#include "tap.h"

int main(void)
{
	char buf[32];

	is_str(dix_io_strerror(EILSEQ), "integrity check failed (EILSEQ)",
	       "EILSEQ on an I/O path: a failed integrity check");
	ok(!strstr(dix_io_strerror(EILSEQ), "multibyte"),
	   "never the character-encoding text");
	is_str(dix_io_strerror(EIO), strerror(EIO), "other errnos: strerror's words");
	/* the 6.1 kernel's answer to a read over scsi_debug's medium error */
	is_str(dix_io_strerror(ENODATA), "medium error (ENODATA)",
	       "ENODATA on an I/O path: BLK_STS_MEDIUM, not 'No data available'");
	is_str(dix_io_strerror(ETIMEDOUT), "command timed out (ETIMEDOUT)",
	       "ETIMEDOUT: a command timeout, not a connection's");
	is_str(dix_io_strerror(ENOLINK), "transport error (ENOLINK)",
	       "ENOLINK: BLK_STS_TRANSPORT");
	/* the kcapi engine: the kernel's AEAD decrypt rejected the tag */
	is_str(dix_io_strerror(EBADMSG), "authentication tag check failed (EBADMSG)",
	       "EBADMSG: a failed tag check named, not 'Bad message'");
	is_str(dix_errno_name(EINVAL, buf, sizeof(buf)), "EINVAL", "EINVAL by name");
	is_str(dix_errno_name(EILSEQ, buf, sizeof(buf)), "EILSEQ", "EILSEQ by name");
	is_str(dix_errno_name(4095, buf, sizeof(buf)), "errno 4095",
	       "an errno without a name: its number");

	is_str(dix_errkind_check(DIX_ERR_GUARD), "guard check failed", "guard in words");
	is_str(dix_errkind_check(DIX_ERR_APP), "app tag check failed", "app tag in words");
	is_str(dix_errkind_check(DIX_ERR_REF), "ref tag check failed", "ref tag in words");
	is_str(dix_errkind_check(DIX_ERR_UNKNOWN), "integrity check failed",
	       "tag not known: integrity check");
	ok(dix_errkind_check(DIX_ERR_IO) == NULL && dix_errkind_check(DIX_ERR_VERIFY) == NULL,
	   "io and verify are no PI checks");
	return tap_done();
}
