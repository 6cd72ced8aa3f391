// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mountinfo.c - /proc/self/mountinfo, a line at a time (mountinfo.h).
 *
 * A line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE
 * SOURCE SUPEROPTS".  The optional fields vary in number, so the " - "
 * separator, not a column, says where FSTYPE and SOURCE are.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "device/mountinfo.h"

void mountinfo_unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

int mountinfo_next(FILE *f, char **line, size_t *cap, struct mountinfo_ent *e)
{
	while (getline(line, cap, f) > 0) {
		char *fld[64], *save, *tok;
		unsigned int ma, mi;
		int n = 0, sep = -1;
		struct stat st;

		for (tok = strtok_r(*line, " \n", &save); tok && n < 64;
		     tok = strtok_r(NULL, " \n", &save)) {
			if (sep < 0 && n >= 6 && !strcmp(tok, "-"))
				sep = n;
			fld[n++] = tok;
		}
		if (n < 5 || sscanf(fld[2], "%u:%u", &ma, &mi) != 2)
			continue;
		e->dev = makedev(ma, mi);
		e->src_dev = 0;
		e->fstype = sep > 0 && sep + 1 < n ? fld[sep + 1] : NULL;
		if (sep > 0 && sep + 2 < n && fld[sep + 2][0] == '/') {
			mountinfo_unescape(fld[sep + 2]);
			if (!stat(fld[sep + 2], &st) && S_ISBLK(st.st_mode))
				e->src_dev = st.st_rdev;
		}
		mountinfo_unescape(fld[4]);
		e->mountpoint = fld[4];
		return 1;
	}
	return 0;
}
