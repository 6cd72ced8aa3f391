/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepplot.h - the SVG of a sweep (dixload sweep ... --plot FILE.svg):
 * MB/s against the swept value, one series per combination of the other
 * keys.
 */
#ifndef DIX_SWEEPPLOT_H
#define DIX_SWEEPPLOT_H

#include <stdio.h>

/**
 * struct sweep_series - one line of the plot.
 * @label: the other keys' values ("tfms=4 submit=async"; escaped by the
 *	plot), or "" when the sweep has one key
 * @y: MB/s at each of the plot's x values, NAN where the point has no
 *	result (it failed before the load)
 * @has_knee: the series has a knee (core/sweepknee.h) to mark
 * @knee: its x index (a point with a result)
 * @knee_inflight: its requests in flight (the measured mean where the
 *	engine measured them), for the mark's tooltip
 */
struct sweep_series {
	const char *label;
	const double *y;
	int has_knee;
	int knee;
	double knee_inflight;
};

/**
 * struct sweep_plot - what to draw.
 * @title: first line (escaped)
 * @xname: the swept key (the x axis' title)
 * @xval/@nx: its values as given, in sweep order
 * @s/@ns: the series
 * @knee_frac: the share of a series' best its knee reaches, for the
 *	tooltips (0.9)
 */
struct sweep_plot {
	const char *title;
	const char *xname;
	const char *const *xval;
	int nx;
	const struct sweep_series *s;
	int ns;
	double knee_frac;
};

/**
 * sweep_plot_svg() - write @d as an SVG document to @f: a point per result
 * (a circle with its value as a tooltip and data-x / data-mbps attributes),
 * a ring (class "knee", data-x, data-inflight) around each series' knee,
 * the points of a series joined in x order, the x values as evenly spaced
 * categories, a legend naming every series.
 * Return: 0, or -EIO when writing failed.
 */
int sweep_plot_svg(FILE *f, const struct sweep_plot *d);

#endif
