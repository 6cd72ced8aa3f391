// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-hotload.c - scheduled actions: the checks done before the load, and
 * the control thread for real (--sysfs on a scratch file, --exec with a
 * failing and a never-ending command, a module that does not exist, an
 * action after the end), with its timing and prompt stop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kernel/actions.h"
#include "kernel/hotload.h"
#include "kernel/sysfsact.h"
#include "kernel/dmreload.h"
#include "conf/options.h"
#include "core/run.h"
#include "device/devdesc.h"
#include "lib/util.h"
#include "tap.h"

/*
 * How late an action may start after its second and still count as on time.
 * 0.1 s failed once with the load average at 14 on two cores (the exec at
 * 0 s was recorded at 0.1x s); the actions here are 0.1-0.3 s apart, so a
 * quarter second still tells which one ran when.
 */
#define SLACK	0.25

/*
 * A scratch directory stands in for /sys (each run's o.sysfs_root): @sysroot inside
 * it, the sysfs-like file @scratch in @sysroot, and @outside next to it.
 */
static char scratchdir[64] = "/tmp/dixload-hotload-XXXXXX";
static char sysroot[128], scratch[160], outside[160];

/* actions_check() on one option; 0 or -EINVAL, the message in @err. */
static int check1(const char *opt, const char *val, double runtime,
		  char *err, size_t len)
{
	struct dix_opts o;
	char e2[256], rt[32];
	int r;

	opts_init(&o);
	o.sysfs_root = sysroot;
	snprintf(rt, sizeof(rt), "%g", runtime);
	opt_set(&o, "runtime", rt, e2, sizeof(e2));
	if (opt_set(&o, opt, val, e2, sizeof(e2))) {
		printf("# opt_set %s %s: %s\n", opt, val, e2);
		opts_free(&o);
		return -100;
	}
	err[0] = '\0';
	r = actions_check(&o, err, len);
	opts_free(&o);
	return r;
}

static void test_check(void)
{
	char err[1024], path[256];

	is_int(check1("hotload", "crct10dif_pclmul@10", 24, err, sizeof(err)), 0,
	       "hotload MODULE@SEC accepted");
	is_int(check1("hotload", "crct10dif-pclmul@0", 0, err, sizeof(err)), 0,
	       "dashes and @0 accepted");
	is_int(check1("hotload", "crct10dif_pclmul", 24, err, sizeof(err)), -EINVAL,
	       "no @SEC rejected");
	is_str(err, "--hotload 'crct10dif_pclmul': no '@SEC' giving the second of the run (allowed: MODULE@SEC)",
	       "no @SEC: message names option, value and the allowed form");
	is_int(check1("hotload", "x@ten", 24, err, sizeof(err)), -EINVAL,
	       "bad time rejected");
	ok(strstr(err, "not a number of seconds") != NULL, "bad time: says so");
	is_int(check1("hotload", "../evil@1", 24, err, sizeof(err)), -EINVAL,
	       "path as a module name rejected");
	ok(strstr(err, "is not a module name") && strstr(err, "(allowed: MODULE@SEC)"),
	   "bad name: says so (%s)", err);
	is_int(check1("unload", "x@30", 24, err, sizeof(err)), -EINVAL,
	       "time after --runtime rejected");
	is_str(err, "--unload 'x@30': 30 s is after the end of the run (--runtime 24) (allowed: MODULE@SEC with SEC <= runtime)",
	       "after runtime: message");
	is_int(check1("unload", "x@24", 24, err, sizeof(err)), 0,
	       "time equal to --runtime accepted");
	is_int(check1("hotload", "x@1000", 0, err, sizeof(err)), 0,
	       "no --runtime: any time accepted");

	snprintf(path, sizeof(path), "%s=0@1", scratch);
	is_int(check1("sysfs", path, 24, err, sizeof(err)), 0, "sysfs existing file");
	is_int(check1("sysfs", "/nonexistent/x=1@1", 24, err, sizeof(err)), -EINVAL,
	       "sysfs missing file rejected");
	ok(strstr(err, "/nonexistent/x: No such file or directory") != NULL,
	   "missing file: strerror (%s)", err);
	snprintf(path, sizeof(path), "%s=x@1", outside);
	is_int(check1("sysfs", path, 24, err, sizeof(err)), -EINVAL,
	       "sysfs file outside the sysfs root rejected");
	ok(strstr(err, outside) && strstr(err, "is not under") &&
	   strstr(err, "(for anything else use --exec)"),
	   "outside: names the path and the rule (%s)", err);
	is_int(check1("sysfs", "/tmp@1", 24, err, sizeof(err)), -EINVAL,
	       "sysfs without =VALUE rejected");
	ok(strstr(err, "no '=VALUE' (allowed: PATH=VALUE@SEC)") != NULL,
	   "no value: message");
	is_int(check1("sysfs", "/tmp=1@1", 24, err, sizeof(err)), -EINVAL,
	       "sysfs directory rejected");
	is_int(check1("sysfs", "rel/x=1@1", 24, err, sizeof(err)), -EINVAL,
	       "relative path rejected");
	snprintf(path, sizeof(path), "%s=a=b@2", scratch);
	is_int(check1("sysfs", path, 24, err, sizeof(err)), 0,
	       "value containing '=' accepted");
	is_int(check1("exec", "echo a@b@3", 24, err, sizeof(err)), 0,
	       "command containing '@' accepted (split at the last)");
	is_int(check1("exec", "@3", 24, err, sizeof(err)), -EINVAL,
	       "empty command rejected");
}

/*
 * --priority's syntax (the kernel is asked only once the syntax holds, so
 * these need no crypto_user), and its place in the schedule.
 */
static void test_priority_syntax(void)
{
	struct dix_opts o;
	struct action *v;
	char err[1024], e2[256];
	int n;

	is_int(check1("priority", "xts(ecb(aes-generic))@1", 24, err, sizeof(err)),
	       -EINVAL, "priority without =N rejected");
	is_str(err, "--priority 'xts(ecb(aes-generic))@1': no '=N' giving the priority (allowed: DRIVER=N@SEC)",
	       "no =N: message");
	is_int(check1("priority", "xts-aes-aesni=-1@1", 24, err, sizeof(err)),
	       -EINVAL, "negative priority rejected");
	ok(strstr(err, "'-1' is not a priority (a whole number 0-2147483647)") != NULL,
	   "negative: says so (%s)", err);
	is_int(check1("priority", "xts-aes-aesni=2147483648@1", 24, err, sizeof(err)),
	       -EINVAL, "priority beyond an int rejected");
	is_int(check1("priority", "xts-aes-aesni=1e3@1", 24, err, sizeof(err)),
	       -EINVAL, "priority not a whole number rejected");
	is_int(check1("priority", "../x=1@1", 24, err, sizeof(err)), -EINVAL,
	       "a path as a driver rejected");
	ok(strstr(err, "is not a crypto driver name") != NULL, "bad driver: says so (%s)", err);
	is_int(check1("priority", "=5@1", 24, err, sizeof(err)), -EINVAL,
	       "empty driver rejected");
	is_int(check1("priority", "x=5@30", 24, err, sizeof(err)), -EINVAL,
	       "priority after --runtime rejected");
	ok(act_instantiable("xts(ecb(aes-generic))") && !act_instantiable("xts-aes-aesni") &&
	   !act_instantiable("(x)") && !act_instantiable("xts(aes"),
	   "a template instance is told from a driver name");

	/* at equal times a --hotload runs first: it may bring the driver */
	opts_init(&o);
	o.sysfs_root = sysroot;
	opt_set(&o, "priority", "xts(ecb(aes-generic))=1000@5", e2, sizeof(e2));
	opt_set(&o, "priority", "xts(ecb(aes-generic))=100@2", e2, sizeof(e2));
	opt_set(&o, "hotload", "aesni_intel@5", e2, sizeof(e2));
	is_int(actions_parse(&o, &v, &n, err, sizeof(err)), 0, "priority parses");
	is_int(n, 3, "three actions");
	if (n == 3) {
		is_int(v[0].type, ACT_PRIORITY, "the 2 s priority first");
		is_int(v[0].prio, 100, "its priority 100");
		is_str(v[0].arg, "xts(ecb(aes-generic))", "its driver");
		is_int(v[1].type, ACT_LOAD, "at 5 s the hot-load first");
		is_int(v[2].type, ACT_PRIORITY, "then the priority");
		is_int(v[2].prio, 1000, "priority 1000");
		actions_free(v, n);
	}
	opts_free(&o);
}

/* sysfs_resolve(): realpath, then under the root; symlinks judged by target */
static void test_resolve(void)
{
	char real[PATH_MAX], why[PATH_MAX + 512], p[256], q[300];
	const char *call;
	long n;

	is_int(sysfs_resolve(scratch, sysroot, real, why, sizeof(why)), 0,
	       "file under the root accepted");
	ok(!strcmp(real + strlen(real) - 5, "/flag"), "resolved: %s", real);
	is_int(sysfs_resolve(outside, sysroot, real, why, sizeof(why)), -EPERM,
	       "file outside the root refused");
	/* a link from outside into the root: judged by where it leads */
	snprintf(p, sizeof(p), "%s/in-link", scratchdir);
	ok(!symlink(scratch, p), "symlink to the root's file");
	is_int(sysfs_resolve(p, sysroot, real, why, sizeof(why)), 0,
	       "symlink leading under the root accepted");
	/* a link inside the root that points out of it */
	snprintf(p, sizeof(p), "%s/out-link", sysroot);
	ok(!symlink(outside, p), "symlink in the root to outside");
	is_int(sysfs_resolve(p, sysroot, real, why, sizeof(why)), -EPERM,
	       "symlink in the root leading outside refused");
	snprintf(q, sizeof(q), "%s leads to ", p);
	ok(strstr(why, q) && strstr(why, "/outside, which is not under"),
	   "names the link and where it leads (%s)", why);
	/* '..' out of the root, and a sibling sharing the root's prefix */
	snprintf(p, sizeof(p), "%s/../outside", sysroot);
	is_int(sysfs_resolve(p, sysroot, real, why, sizeof(why)), -EPERM,
	       "'..' out of the root refused");
	snprintf(p, sizeof(p), "%sx", sysroot);
	ok(!mkdir(p, 0755), "sibling directory %s", p);
	snprintf(p, sizeof(p), "%sx/f", sysroot);
	close(open(p, O_WRONLY | O_CREAT, 0644));
	is_int(sysfs_resolve(p, sysroot, real, why, sizeof(why)), -EPERM,
	       "a directory sharing the root's prefix is not under it");
	is_int(sysfs_resolve(sysroot, sysroot, real, why, sizeof(why)), -EPERM,
	       "the root itself is not a file under it");
	snprintf(p, sizeof(p), "%s/dir", sysroot);
	ok(!mkdir(p, 0755), "directory in the root");
	is_int(sysfs_resolve(p, sysroot, real, why, sizeof(why)), -EINVAL,
	       "directory refused");
	ok(strstr(why, "is a directory") != NULL, "directory: says so (%s)", why);
	/* the real root: /etc/passwd is never a --sysfs file */
	is_int(sysfs_resolve("/etc/passwd", "/sys", real, why, sizeof(why)), -EPERM,
	       "/etc/passwd refused under the real /sys rule");

	/* sysfs_write(): echo VALUE > PATH, truncating */
	{
		int fd = open(outside, O_WRONLY | O_TRUNC);

		ok(fd >= 0 && write(fd, "hello", 5) == 5, "file holds hello");
		close(fd);
	}
	n = sysfs_write(outside, "J", &call);
	is_int(n, 2, "one write of the value and a newline");
	is_str(call, "write", "the write's result is returned");
	{
		char buf[16] = "";
		int fd = open(outside, O_RDONLY);

		ok(fd >= 0 && read(fd, buf, sizeof(buf)) == 2 && !memcmp(buf, "J\n", 2),
		   "the file was truncated: it holds 'J\\n', not 'Jello'");
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/missing", sysroot);
	is_int(sysfs_write(p, "1", &call), -ENOENT, "missing file: -ENOENT");
	is_str(call, "open", "from open(2)");
	snprintf(p, sizeof(p), "%s/out-link", sysroot);
	is_int(sysfs_write(p, "1", &call), -ELOOP,
	       "a symlink is never followed at write time (O_NOFOLLOW)");
}

/* The event whose what starts with @prefix and whose detail contains
 * @detail (NULL: any). */
static const struct dix_event *find2(const struct dix_run *r,
				     const char *prefix, const char *detail)
{
	int i;

	for (i = 0; i < r->nevents; i++)
		if (!strncmp(r->events[i].what, prefix, strlen(prefix)) &&
		    (!detail || (r->events[i].detail &&
				 strstr(r->events[i].detail, detail))))
			return &r->events[i];
	return NULL;
}

static const struct dix_event *find(const struct dix_run *r, const char *prefix)
{
	return find2(r, prefix, NULL);
}

/* The test's event sink: what run.c does, record and print into the run. */
static void collect(void *ctx, const struct dix_event *ev)
{
	run_event(ctx, ev);
}

static void test_control(void)
{
	struct dix_opts o;
	struct dix_devdesc t;
	struct dix_dev d;
	struct dix_run r;
	const struct dix_event *e;
	char err[256], val[256], outpath[] = "/tmp/dixload-hotload-out-XXXXXX";
	char buf[8192];
	double stop_took;
	struct dix_event_sink sink = { .emit = collect };
	struct ctl *ctl;
	int fd, saved, n, started, had_state;

	opts_init(&o);
	o.sysfs_root = sysroot;
	opt_set(&o, "interval", "100", err, sizeof(err));
	snprintf(val, sizeof(val), "%s=0@0.3", scratch);
	opt_set(&o, "sysfs", val, err, sizeof(err));
	/* a second write to the same file: the end puts back the first's "1" */
	snprintf(val, sizeof(val), "%s=5@0.5", scratch);
	opt_set(&o, "sysfs", val, err, sizeof(err));
	opt_set(&o, "exec", "echo first line >&2; echo second >&2; exit 3@0.1", err, sizeof(err));
	opt_set(&o, "exec", "sleep 30@0.2", err, sizeof(err));
	opt_set(&o, "exec", "true@0", err, sizeof(err));
	opt_set(&o, "hotload", "no_such_module_dixload@0.4", err, sizeof(err));
	opt_set(&o, "exec", "true@60", err, sizeof(err));
	/* started just before the end: gets its grace period to finish */
	opt_set(&o, "exec", "sleep 0.5@1.1", err, sizeof(err));
	is_int(actions_check(&o, err, sizeof(err)), 0, "control: actions valid");

	memset(&t, 0, sizeof(t));
	t.path = "/tmp/x";
	snprintf(t.name, sizeof(t.name), "x");
	memset(&r, 0, sizeof(r));
	r.o = &o;
	memset(&d, 0, sizeof(d));
	d.t = t;
	d.path = "/tmp/x";
	r.devs = &d;
	r.ndevs = 1;
	r.wake_fd = -1;
	pthread_mutex_init(&r.lock, NULL);
	/* the run registers its sinks at start: the human one here */
	sinks_open(&r.sinks, &o, 0, NULL);

	/* the events print on stdout: keep them out of the TAP stream */
	fflush(stdout);
	fd = mkstemp(outpath);
	saved = dup(1);
	dup2(fd, 1);
	r.t0 = dix_now();
	sink.ctx = &r;
	sink.t0 = r.t0;
	ctl = control_start(&o, NULL, NULL, &sink, &started);
	had_state = ctl != NULL;
	control_go(ctl, r.t0);
	usleep(1200 * 1000);
	stop_took = dix_now();
	if (ctl)
		control_stop(ctl);
	stop_took = dix_now() - stop_took;
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = (int)read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(outpath);

	is_int(started, 0, "control thread started (0: started, 1: nothing to do)");
	ok(n > 0, "event lines printed (%d bytes)", n);
	ok(had_state, "control_start() returned its state");
	ok(stop_took < 3.5, "stopped promptly (%.2f s, a 'sleep 30' killed)",
	   stop_took);

	e = find(&r, "sysfs ");
	ok(e && e->ok == 1 && e->kind == EV_ACTION, "sysfs write ok");
	ok(e && fabs(e->t - 0.3) < SLACK, "sysfs ran at 0.3 s (%.3f)", e ? e->t : -1);
	ok(e && e->detail && !strcmp(e->detail, "was 1, now 0; write(2) returned 2"),
	   "sysfs detail: before, after and what write(2) returned (%s)",
	   e && e->detail ? e->detail : "-");
	ok(e && e->data.type == EVD_SYSFS && e->data.call &&
	   !strcmp(e->data.call, "write") && e->data.returned == 2 &&
	   !e->data.err && e->data.resolved,
	   "sysfs data: the call and its return (%s %ld)",
	   e && e->data.call ? e->data.call : "-", e ? e->data.returned : 0);
	ok(e && e->data.from && !strcmp(e->data.from, "1") && e->data.to &&
	   !strcmp(e->data.to, "0") && !(e->data.pflags & EVS_RESTORE),
	   "sysfs data: the value before and after, not a restore");
	e = find(&r, "restore sysfs ");
	ok(e && e->ok == 1 && e->kind == EV_ACTION && e->t > 1.0 &&
	   e->data.type == EVD_SYSFS && (e->data.pflags & EVS_RESTORE),
	   "the end of the run put the file back, as an action (%.3f s)",
	   e ? e->t : -1);
	snprintf(val, sizeof(val), "restore sysfs %s=1", scratch);
	ok(e && !strcmp(e->what, val), "restore names the path and the value (%s)",
	   e ? e->what : "-");
	ok(e && e->detail && !strcmp(e->detail, "was 5, now 1 (what it held before the run's first --sysfs write); write(2) returned 2"),
	   "restore detail: from the last value written to the first one read (%s)",
	   e && e->detail ? e->detail : "-");
	ok(e && e->data.from && !strcmp(e->data.from, "5") && e->data.to &&
	   !strcmp(e->data.to, "1") && e->data.returned == 2,
	   "restore data: from 5 to 1, write(2) returned 2");
	for (started = 0, n = 0; n < r.nevents; n++)
		started += !strncmp(r.events[n].what, "restore sysfs ", 14);
	is_int(started, 1, "one restore for two writes to one file");
	read_sysfs_str(scratch, val, sizeof(val));
	is_str(val, "1", "the file holds what it held before the run");

	e = find(&r, "exec 'echo first");
	ok(e && e->ok == 0 && e->detail &&
	   !strcmp(e->detail, "exit 3: first line"),
	   "failing command: exit status and first stderr line (%s)",
	   e && e->detail ? e->detail : "-");
	ok(e && fabs(e->t - 0.1) < SLACK, "exec ran at 0.1 s (%.3f)", e ? e->t : -1);
	e = find2(&r, "exec 'true'", "exit 0");
	ok(e && e->ok == 1 && e->t < SLACK && e->duration >= 0 && e->duration < 1,
	   "exec true: ok, at 0 s (%.3f), done within a second (%.3f s)",
	   e ? e->t : -1, e ? e->duration : -1);
	e = find(&r, "exec 'sleep 30'");
	ok(e && e->ok == 0 && e->detail &&
	   strstr(e->detail, "still running when the load ended"),
	   "never-ending command terminated and failed");
	e = find(&r, "modprobe no_such_module_dixload");
	ok(e && e->ok == 0 && e->detail && strstr(e->detail, "not found"),
	   "missing module: failed, says not found (%s)",
	   e && e->detail ? e->detail : "-");
	e = find2(&r, "exec 'true'", "not run");
	ok(e && e->ok == 0 && e->t == 60 && e->detail && strstr(e->detail, "not run: the load ended"),
	   "action after the end: reported as not run (%s)",
	   e && e->detail ? e->detail : "-");
	e = find(&r, "exec 'sleep 0.5'");
	ok(e && e->ok == 1 && e->duration > 0.4,
	   "command started right before the end completed (%s)",
	   e && e->detail ? e->detail : "-");
	ok(r.action_failed, "failed actions set action_failed (exit 4)");
	ok(strstr(buf, "sysfs ") && strstr(buf, ": ok ("),
	   "human event lines printed");
	sinks_close(&r.sinks);
	for (n = 0; n < r.nevents; n++)
		dix_event_clear(&r.events[n]);
	free(r.events);
	opts_free(&o);
}

/* dm_mounts_of(): a mapping's mounts, by MAJ:MIN or by source device */
static void test_mounts(void)
{
	char path[200], where[256], blk[200];
	const char *noskip = getenv("DIXLOAD_TEST_NO_SKIP");
	struct stat st;
	int have_blk;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mountinfo", scratchdir);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "cannot write %s", path);
		return;
	}
	fputs("22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
	      "40 22 253:0 / /mnt/x rw,relatime shared:1 - ext2 /dev/mapper/dixdm rw\n"
	      "41 22 253:0 /sub /mnt/y rw - ext2 /dev/mapper/dixdm rw\n"
	      "42 22 253:10 / /mnt/z rw - ext2 /dev/dm-10 rw\n", f);
	/* btrfs: an anonymous 0:N, the device as source (a block node of
	 * our own, 7:99, made when root can) */
	snprintf(blk, sizeof(blk), "%s/blk", scratchdir);
	have_blk = !mknod(blk, S_IFBLK | 0600, makedev(7, 99));
	fprintf(f, "43 22 0:55 / /mnt/b rw - btrfs %s rw\n", blk);
	stat("/dev/null", &st);
	fprintf(f, "44 22 0:56 / /mnt/n rw - btrfs /dev/null rw\n");
	fclose(f);
	is_int(dm_mounts_of(path, makedev(253, 0), where, sizeof(where)), 2,
	       "mounts of 253:0: two, by MAJ:MIN (253:10 is another device)");
	is_str(where, "/mnt/x", "the first mount point");
	is_int(dm_mounts_of(path, makedev(253, 1), where, sizeof(where)), 0,
	       "253:1: no mount");
	is_str(where, "", "no mount point");
	/* /dev/null is no block device: a source is matched only as one */
	is_int(dm_mounts_of(path, st.st_rdev, where, sizeof(where)), 0,
	       "a source that is no block device does not match");
	is_int(dm_mounts_of("/nonexistent/mountinfo", makedev(253, 0), where,
			    sizeof(where)), 0, "no mount table: 0");
	if (have_blk) {
		is_int(dm_mounts_of(path, makedev(7, 99), where, sizeof(where)), 1,
		       "btrfs: matched by its source's device number");
		is_str(where, "/mnt/b", "btrfs: its mount point");
	} else {
		ok(!(noskip && !strcmp(noskip, "1")),
		   "# SKIP btrfs source match: no block node can be made here (not root)");
	}
	unlink(blk);
	unlink(path);
}

/* sysfs_restore_value(): what to write back for the text a file read */
static void test_restore_value(void)
{
	char out[SYSFS_VALUE_MAX], why[256];

	is_int(sysfs_restore_value("128", out, why, sizeof(why)), 0, "plain value");
	is_str(out, "128", "plain value written back as read");
	is_int(sysfs_restore_value("noop [mq-deadline] none", out, why, sizeof(why)),
	       0, "choice list");
	is_str(out, "mq-deadline", "choice list: the bracketed choice");
	is_int(sysfs_restore_value("[none] mq-deadline", out, why, sizeof(why)), 0,
	       "choice list, first");
	is_str(out, "none", "choice list, first: the bracketed choice");
	is_int(sysfs_restore_value("[a] [b]", out, why, sizeof(why)), -EINVAL,
	       "two bracketed words: refused");
	is_int(sysfs_restore_value("a\nb", out, why, sizeof(why)), -EINVAL,
	       "several lines: refused");
	ok(strstr(why, "several lines") != NULL, "several lines: says so (%s)", why);
	is_int(sysfs_restore_value("", out, why, sizeof(why)), -EINVAL,
	       "empty: refused");
}

/* --sysfs-keep: the file keeps what the run wrote, a note says what it held. */
static void test_keep(void)
{
	struct dix_opts o;
	struct dix_dev d;
	struct dix_run r;
	const struct dix_event *e;
	char err[256], val[256], outpath[] = "/tmp/dixload-hotload-out-XXXXXX";
	struct dix_event_sink sink = { .emit = collect };
	struct ctl *ctl;
	int fd, saved, started, i, restores = 0;

	/* the file as the other tests found it: "1" */
	fd = open(scratch, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, "1\n", 2) != 2)
		printf("# cannot reset %s\n", scratch);
	close(fd);
	opts_init(&o);
	o.sysfs_root = sysroot;
	opt_set(&o, "interval", "100", err, sizeof(err));
	snprintf(val, sizeof(val), "%s=7@0", scratch);
	opt_set(&o, "sysfs", val, err, sizeof(err));
	opt_set(&o, "sysfs-keep", NULL, err, sizeof(err));
	is_int(actions_check(&o, err, sizeof(err)), 0, "keep: actions valid");
	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	d.path = "/tmp/x";
	r.o = &o;
	r.devs = &d;
	r.ndevs = 1;
	r.wake_fd = -1;
	pthread_mutex_init(&r.lock, NULL);
	sinks_open(&r.sinks, &o, 0, NULL);
	fflush(stdout);
	fd = mkstemp(outpath);
	saved = dup(1);
	dup2(fd, 1);
	r.t0 = dix_now();
	sink.ctx = &r;
	sink.t0 = r.t0;
	ctl = control_start(&o, NULL, NULL, &sink, &started);
	control_go(ctl, r.t0);
	usleep(300 * 1000);
	if (ctl)
		control_stop(ctl);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	unlink(outpath);

	for (i = 0; i < r.nevents; i++)
		restores += !strncmp(r.events[i].what, "restore sysfs ", 14);
	read_sysfs_str(scratch, val, sizeof(val));
	is_int(started, 0, "keep: control thread started");
	e = find(&r, "sysfs ");
	ok(e && e->ok == 1, "--sysfs-keep: the write ran");
	is_int(restores, 0, "--sysfs-keep: no restore");
	is_str(val, "7", "--sysfs-keep: the file keeps what the run wrote");
	snprintf(val, sizeof(val), "sysfs %s kept at 7 (--sysfs-keep); before the run it held 1",
		 scratch);
	e = find2(&r, val, NULL);
	ok(e && e->kind == EV_NOTE, "--sysfs-keep: a note says what it held");
	sinks_close(&r.sinks);
	for (i = 0; i < r.nevents; i++)
		dix_event_clear(&r.events[i]);
	free(r.events);
	opts_free(&o);
}

/*
 * The control thread is set up before the load's clock starts and released
 * by control_go(): stopped before that (a setup failure), no action runs
 * and each says why; released late (a starved machine: t0 two seconds ago),
 * an action due at 0.5 s runs at once and a note says how late it was.
 */
static void test_go(void)
{
	struct dix_opts o;
	struct dix_dev d;
	struct dix_run r;
	const struct dix_event *e;
	char err[256], marker[300], cmd[400];
	struct dix_event_sink sink = { .emit = collect };
	struct ctl *ctl;
	int started, i, pass;

	snprintf(marker, sizeof(marker), "%s/ran", scratchdir);
	for (pass = 0; pass < 2; pass++) {
		unlink(marker);
		opts_init(&o);
		opt_set(&o, "interval", "100", err, sizeof(err));
		snprintf(cmd, sizeof(cmd), "touch %s@0.5", marker);
		opt_set(&o, "exec", cmd, err, sizeof(err));
		memset(&r, 0, sizeof(r));
		memset(&d, 0, sizeof(d));
		d.path = "/tmp/x";
		r.o = &o;
		r.devs = &d;
		r.ndevs = 1;
		r.wake_fd = -1;
		pthread_mutex_init(&r.lock, NULL);
		sink.ctx = &r;
		ctl = control_start(&o, NULL, NULL, &sink, &started);
		is_int(started, 0, "go: control thread set up");
		if (pass == 0) {
			/* never released: the run's setup failed */
			usleep(700 * 1000);
			control_stop(ctl);
			e = find2(&r, "exec 'touch", "not run");
			ok(e && e->ok == 0 && e->detail &&
			   !strcmp(e->detail, "not run: the load did not start"),
			   "stopped before the clock started: not run, said so (%s)",
			   e && e->detail ? e->detail : "-");
			ok(access(marker, F_OK) != 0,
			   "stopped before the clock started: the command never ran");
		} else {
			r.t0 = dix_now() - 2;
			control_go(ctl, r.t0);
			usleep(300 * 1000);
			control_stop(ctl);
			e = find2(&r, "exec 'touch", NULL);
			ok(e && e->t >= 2 && e->t < 2.25,
			   "released 2 s late: the action ran at once (at %.2f s, ok %d)",
			   e ? e->t : -1.0, e ? e->ok : -9);
			e = NULL;
			for (i = 0; i < r.nevents; i++)
				if (r.events[i].kind == EV_NOTE &&
				    strstr(r.events[i].what, "due at 0.5 s, starts 1.") &&
				    strstr(r.events[i].what, "s late"))
					e = &r.events[i];
			ok(e != NULL, "and a note says how late (%s)",
			   e ? e->what : "none");
			ok(access(marker, F_OK) == 0, "the late command ran");
		}
		for (i = 0; i < r.nevents; i++)
			dix_event_clear(&r.events[i]);
		free(r.events);
		pthread_mutex_destroy(&r.lock);
		opts_free(&o);
	}
	unlink(marker);
}

int main(void)
{
	char cmd[200];
	int fd;

	if (!mkdtemp(scratchdir)) {
		printf("Bail out! cannot create %s\n", scratchdir);
		return 1;
	}
	snprintf(sysroot, sizeof(sysroot), "%s/sys", scratchdir);
	snprintf(scratch, sizeof(scratch), "%s/flag", sysroot);
	snprintf(outside, sizeof(outside), "%s/outside", scratchdir);
	fd = mkdir(sysroot, 0755) ? -1 : open(scratch, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || write(fd, "1\n", 2) != 2) {
		printf("Bail out! cannot create %s\n", scratch);
		return 1;
	}
	close(fd);
	close(open(outside, O_WRONLY | O_CREAT, 0644));
	test_check();
	test_priority_syntax();
	test_resolve();
	test_control();
	test_restore_value();
	test_mounts();
	test_keep();
	test_go();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratchdir);
	return system(cmd) ? 99 : tap_done();
}
