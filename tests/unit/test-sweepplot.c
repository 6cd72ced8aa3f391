// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sweepplot.c - dixload sweep's SVG is well-formed XML (xmlcheck.h,
 * itself checked in test-plot), has one point per result at its x value
 * with its MB/s, none for a point without a result, one legend entry per
 * series, hostile labels escaped, a ring around each series' knee given (none
 * for a knee without a result), and a placeholder when nothing ran.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sweepplot.h"
#include "tap.h"
#include "xmlcheck.h"

static char *render(const struct sweep_plot *d, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = sweep_plot_svg(f, d);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The cy of the point of series @label at x @x, or -1. */
static double point_y(const char *svg, const char *label, const char *x)
{
	char key[200];
	const char *g, *end, *p;

	snprintf(key, sizeof(key), "class=\"series\" data-label=\"%s\"", label);
	g = strstr(svg, key);
	if (!g)
		return -1;
	end = strstr(g, "</g>");
	snprintf(key, sizeof(key), "data-x=\"%s\"", x);
	p = strstr(g, key);
	if (!p || p > end)
		return -1;
	while (p > g && strncmp(p, "<circle", 7))
		p--;
	p = strstr(p, "cy=\"");
	return p ? atof(p + 4) : -1;
}

int main(void)
{
	static const char *const xv[] = { "1", "8", "32", "112" };
	const double a[] = { 5.5, 12.25, 20.0, 21.5 };
	const double b[] = { 4.0, NAN, 30.75, 31.0 };
	const double none[] = { NAN, NAN, NAN, NAN };
	struct sweep_series s[] = {
		{ .label = "tfms=1 submit=async", .y = a },
		{ .label = "tfms=4 <&> \"x\"", .y = b },
	};
	struct sweep_plot d = {
		.title = "sweep <iodepth> & co", .xname = "iodepth",
		.xval = xv, .nx = 4, .s = s, .ns = 2,
	};
	struct sweep_series e[] = { { .label = "", .y = none } };
	char err[200] = "";	/* printed by ok() even when the check passes */
	char *svg;
	int r;

	svg = render(&d, &r);
	is_int(r, 0, "rendered");
	ok(xml_wellformed(svg, err, sizeof(err)), "well-formed (%s)", err);
	is_int(count(svg, "<circle class=\"point\""), 7,
	       "7 points: 8 results, one missing");
	ok(strstr(svg, "data-x=\"112\" data-mbps=\"31.00\"") != NULL,
	   "the point at 112 carries its MB/s");
	ok(strstr(svg, "data-x=\"8\" data-mbps=\"12.25\"") != NULL,
	   "the point at 8 of the first series");
	ok(point_y(svg, "tfms=4 &lt;&amp;&gt; &quot;x&quot;", "8") < 0,
	   "no point where the result is missing");
	ok(point_y(svg, "tfms=1 submit=async", "32") >
	   point_y(svg, "tfms=4 &lt;&amp;&gt; &quot;x&quot;", "32"),
	   "20 MB/s drawn below 30.75 MB/s (SVG y grows downwards)");
	ok(point_y(svg, "tfms=1 submit=async", "1") >
	   point_y(svg, "tfms=1 submit=async", "112"),
	   "a series rises with its MB/s");
	is_int(count(svg, "class=\"xval\""), 4, "4 x labels");
	ok(strstr(svg, ">iodepth</text>") != NULL, "the x axis names the key");
	ok(strstr(svg, ">tfms=1 submit=async</text>") != NULL,
	   "legend names the first series");
	ok(strstr(svg, "sweep &lt;iodepth&gt; &amp; co") != NULL &&
	   !strstr(svg, "<iodepth>"), "title escaped");
	ok(!strstr(svg, "no point has a result"), "no placeholder");
	is_int(count(svg, "<circle class=\"knee\""), 0,
	       "no knee given: none marked");
	free(svg);

	/* each series' knee is ringed at its point, in its series */
	s[0].has_knee = 1;
	s[0].knee = 2;
	s[0].knee_inflight = 32;
	s[1].has_knee = 1;
	s[1].knee = 1;		/* a point without a result: not drawn */
	d.knee_frac = 0.9;
	svg = render(&d, &r);
	ok(r == 0 && xml_wellformed(svg, err, sizeof(err)),
	   "knees: well-formed (%s)", err);
	is_int(count(svg, "<circle class=\"knee\""), 1,
	       "one knee ring: the other series' knee has no result");
	{
		const char *g = strstr(svg, "data-label=\"tfms=1 submit=async\"");
		const char *k = strstr(svg, "<circle class=\"knee\"");
		const char *end = g ? strstr(g, "</g>") : NULL;

		const char *attr = k ? strstr(k, "data-x=\"32\" data-inflight=\"32\"") : NULL;

		ok(g && k && k > g && k < end && attr &&
		   attr < strstr(k, "</circle>"),
		   "the ring is in its series at x 32 with 32 in flight");
		ok(k && fabs(atof(strstr(k, "cy=\"") + 4) -
			     point_y(svg, "tfms=1 submit=async", "32")) < 0.05,
		   "the ring is centred on the knee's point");
		ok(strstr(svg, "knee tfms=1 submit=async: 32 in flight reach 90 % of the best MB/s") != NULL,
		   "the ring's tooltip names the series and its in flight");
	}
	free(svg);
	s[0].has_knee = s[1].has_knee = 0;

	d.s = e;
	d.ns = 1;
	svg = render(&d, &r);
	ok(r == 0 && xml_wellformed(svg, err, sizeof(err)),
	   "no results: still well-formed (%s)", err);
	is_int(count(svg, "<circle"), 0, "no results: no points");
	ok(strstr(svg, "no point has a result") != NULL, "placeholder text");
	free(svg);
	return tap_done();
}
