/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dev.h - the targets of a run (--dev A,B or --dev A --dev B): each one
 * with its own region, preconditioning, workers, meter and transitions.
 *
 * Every device is checked as if it were the only one (safety, integrity
 * format, --pi-format), gets --jobs workers of its own and counts its own
 * errors; the run's meter line and summary add them up and, with several
 * devices, name each one.
 */
#ifndef DIX_DEV_H
#define DIX_DEV_H

#include <stddef.h>

#include "engines/engine.h"
#include "report/meter.h"
#include "conf/options.h"
#include "core/precond.h"
#include "device/devdesc.h"

struct dix_worker;
struct dmbind;
struct dix_transition;

/* More would be a list of devices nobody can read in one meter line. */
#define DIX_DEVS_MAX	64

/**
 * struct dix_dev - one target of the run.
 * @idx: 0 .. ndevs-1, in the order given
 * @path: the path (after %r / %h expansion); owned
 * @t: the opened target
 * @opened: @t is open
 * @size: bytes of its region (--size fitted to this target)
 * @grow_from: a regular file's size when opened, with @grow_to
 * @grow_to: the size devs_size() gives the file (0: left as it is)
 * @pre: its preconditioning decision
 * @pres: what its preconditioning did
 * @workers: its --jobs workers, a slice of the run's array
 * @nworkers: entries in @workers
 * @m: its meter (--per-device and the per-device transitions)
 * @samples: its intervals
 * @lat_iv: its share of dix_run.lat_iv (several devices only)
 * @transitions: transitions found in its own throughput
 * @ntransitions: entries in @transitions
 * @dm: the run's watch of its device-mapper mappings (kernel/dmbind.h),
 *	one for the whole set of devices (devs_open() makes it, devs_close()
 *	frees it): the run's, not the process's
 */
struct dix_dev {
	int idx;
	char *path;
	struct dix_devdesc t;
	int opened;
	uint64_t size;
	uint64_t grow_from;
	uint64_t grow_to;
	struct precond_plan pre;
	struct precond_result pres;
	struct dix_worker *workers;
	int nworkers;
	struct meter m;
	struct sample_log samples;
	struct lat_hist lat_iv[DIX_DIR_NR];
	struct dix_transition *transitions;
	int ntransitions;
	struct dmbind *dm;
};

/**
 * dev_expand() - the first @len characters of @s, the value @spec of the
 * per-rank file option @opt ("--dev", "--output"), with %r the rank, %h
 * the host and %% a % when @rank >= 0 (under MPI); copied as they are
 * otherwise.
 * Return: a string to free(), or NULL with @err set for another %.
 */
char *dev_expand(const char *opt, const char *s, size_t len, int rank,
		 const char *host, const char *spec, char *err, size_t errlen);

/**
 * dev_split() - the paths of a --dev value.
 * @spec: "A", "A,B" ...
 * @rank: the MPI rank that %r stands for; < 0: no MPI, '%' is literal
 * @host: the host name %h stands for (used only when @rank >= 0)
 * @paths: set to a malloc()ed array of malloc()ed paths
 * @n: set to the number of paths
 * @err: the reason on failure (names the value and what is allowed)
 *
 * An empty element, a repeated path, more than DIX_DEVS_MAX paths and, under
 * MPI, a '%' followed by anything but r, h or % are errors.
 *
 * Return: 0, or -EINVAL with @err set (then nothing is allocated).
 */
int dev_split(const char *spec, int rank, const char *host, char ***paths,
	      int *n, char *err, size_t errlen);

/**
 * devs_open() - check and open every target of @o->dev.
 * @o: the options; with one device, @o->size becomes its fitted size (as
 *	the settings report it); with several, each device keeps its own
 * @eng: the engine (--pi off and --pi-format checks)
 * @precond_profile: the profile that set --precondition, or NULL
 * @rank: MPI rank for %r (< 0: none); @host: for %h
 * @devs: set to the devices (free with devs_close())
 * @ndevs: set to their number
 *
 * Each target is claimed and locked as it is opened (device/claim.h), and
 * stays so until devs_close().  No target's size changes here (devs_size()).
 * Prints the reason of a failure (naming the path).
 * Return: 0, or -1 (nothing is left open, no file left created).
 */
int devs_open(struct dix_opts *o, const struct dix_engine *eng,
	      const char *precond_profile, int rank, const char *host,
	      struct dix_dev **devs, int *ndevs);

/**
 * devs_size() - give each regular file the size devs_open() decided: a file
 * it created gets --offset + --size, an existing one with --grow is
 * extended to it (and says so on stderr).  Called when every setup check
 * of the run has passed, just before the first I/O: a run refused before
 * it leaves every target as it was.
 * Return: 0, or -1 (printed, naming the file and both sizes).
 */
int devs_size(struct dix_dev *devs, int ndevs);

/**
 * devs_close() - close and free what devs_open() opened: the claims and
 * locks end, and a file devs_open() created that devs_size() never sized
 * is removed.
 */
void devs_close(struct dix_dev *devs, int ndevs);

#endif
