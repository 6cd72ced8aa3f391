/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - a self-contained SVG of throughput per interval with event
 * markers and before/after levels (--plot FILE.svg).
 */
#ifndef DIX_PLOT_H
#define DIX_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "report/meter.h"

/**
 * struct plot_marker - a vertical line with a label at an event.
 * @t: seconds since the start
 * @label: text next to the line (escaped by the plot)
 * @style: PLOT_ACTION, PLOT_FAILED or PLOT_CHANGE
 */
struct plot_marker {
	double t;
	const char *label;
	int style;
};

enum { PLOT_ACTION, PLOT_FAILED, PLOT_CHANGE };

/**
 * struct plot_level - a mean drawn as a dashed horizontal level.
 * @t0/@t1: the span it was measured over
 * @y: bytes/s
 * @label: text above it ("before 29.5 MB/s")
 */
struct plot_level {
	double t0, t1;
	double y;
	const char *label;
};

/**
 * struct plot_data - what to draw.
 * @title: first line of the plot (escaped)
 * @s/@n: the intervals
 * @m/@nm: markers
 * @lv/@nlv: levels
 */
struct plot_data {
	const char *title;
	const struct meter_sample *s;
	size_t n;
	const struct plot_marker *m;
	int nm;
	const struct plot_level *lv;
	int nlv;
};

/**
 * plot_svg() - write @d as an SVG document to @f: read, write and total
 * MB/s (10^6 B/s) per interval as steps over each interval's span, axes in
 * seconds and MB/s, markers, levels, a legend.
 * Return: 0, or -EIO when writing failed.
 */
int plot_svg(FILE *f, const struct plot_data *d);

/** xml_escape() - write @s to @f with &, <, >, " and ' escaped. */
void xml_escape(FILE *f, const char *s);

/**
 * plot_nice_step() - a 1, 2 or 5 times a power of ten step that cuts
 * @range into at most @max_ticks parts.  Return: the step (> 0).
 */
double plot_nice_step(double range, int max_ticks);

/**
 * plot_svg_head() - open an SVG document of @w x @h pixels on @f: the XML
 * declaration, the <svg> element, a white background, and @title (escaped)
 * both as the document's <title> and in bold at the top left, @x0 from the
 * left edge.  The caller draws the rest and closes it with </svg>.
 */
void plot_svg_head(FILE *f, int w, int h, int x0, const char *title);

#endif
