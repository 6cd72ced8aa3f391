// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweepplot.c - the SVG of dixload sweep --plot.
 *
 * The x axis is categorical: the swept values, evenly spaced in the order
 * given.  The seed's values (iodepth 1, 8, 32, 112; bs 4k ... 1m) span
 * decades, so a linear axis would crowd the small ones into one corner,
 * and values such as "4k" or "async" have no position of their own.  Each
 * result is a point (a rate is a whole run's average, not a curve between
 * runs); the line through a series' points only guides the eye.  A ring
 * marks each series' knee, which sweep.c computes (core/sweepknee.c): the
 * plot draws what it is given.  The same
 * conventions as plot.c: SVG 1.1, no scripts, fonts or references; labels
 * through xml_escape(); ticks from plot_nice_step().
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/plot.h"
#include "report/sweepplot.h"

/* Layout in SVG user units; the legend sits right of the plot area. */
#define W	1000
#define H	560
#define X0	78
#define X1	(W - 250)
#define Y0	56
#define Y1	(H - 58)
#define LEG_X	(X1 + 18)
#define LEG_ROWS	((Y1 - Y0) / 18)

static const char *const colors[] = {
	"#1f77b4", "#e8811a", "#2a9d3a", "#d62728", "#5a3ec8",
	"#8c6d1f", "#e377c2", "#555555", "#17becf", "#9aa021",
};
#define NCOLORS	(sizeof(colors) / sizeof(colors[0]))

/* Past ten series the colours repeat, with a dash pattern of their own. */
static const char *dash(int i)
{
	static const char *const d[] = { "", " stroke-dasharray=\"6 3\"",
					 " stroke-dasharray=\"2 3\"" };

	return d[(i / NCOLORS) % 3];
}

static double xpos(const struct sweep_plot *d, int i)
{
	return X0 + (X1 - X0) * (i + 0.5) / d->nx;
}

static double ypos(double ymax, double v)
{
	return Y1 - (Y1 - Y0) * v / ymax;
}

static void axes(FILE *f, const struct sweep_plot *d, double ymax)
{
	double sy = plot_nice_step(ymax, 8), v;
	int dec = sy >= 1 ? 0 : (int)ceil(-log10(sy) - 1e-9), i;

	fputs("<g class=\"axes\" font-size=\"12\" fill=\"#333\">\n", f);
	for (v = 0; v <= ymax + sy * 1e-6; v += sy) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			X0, ypos(ymax, v), X1, ypos(ymax, v));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n",
			X0 - 6, ypos(ymax, v) + 4, dec, v);
	}
	for (i = 0; i < d->nx; i++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
			xpos(d, i), Y1, xpos(d, i), Y1 + 5);
		fprintf(f, "<text class=\"xval\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			xpos(d, i), Y1 + 19);
		xml_escape(f, d->xval[i]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n",
		X0, Y0, X1 - X0, Y1 - Y0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
		(X0 + X1) / 2, H - 18);
	xml_escape(f, d->xname ? d->xname : "point");
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 18 %d)\">throughput (MB/s, 1 MB = 10^6 bytes)</text>\n",
		(Y0 + Y1) / 2, (Y0 + Y1) / 2);
	fputs("</g>\n", f);
}

static void one_series(FILE *f, const struct sweep_plot *d, int k,
		       double ymax)
{
	const struct sweep_series *s = &d->s[k];
	const char *c = colors[k % NCOLORS];
	int i, n = 0;
	char nf[32];

	fprintf(f, "<g class=\"series\" data-label=\"");
	xml_escape(f, s->label ? s->label : "");
	fputs("\">\n", f);
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"",
		c, dash(k));
	for (i = 0; i < d->nx; i++)
		if (!isnan(s->y[i]))
			fprintf(f, "%s%.1f,%.1f", n++ ? " " : "", xpos(d, i),
				ypos(ymax, s->y[i]));
	fputs("\"/>\n", f);
	for (i = 0; i < d->nx; i++) {
		if (isnan(s->y[i]))
			continue;
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" data-x=\"",
			xpos(d, i), ypos(ymax, s->y[i]), c);
		xml_escape(f, d->xval[i]);
		fprintf(f, "\" data-mbps=\"%.2f\"><title>", s->y[i]);
		xml_escape(f, d->xname ? d->xname : "");
		fputc('=', f);
		xml_escape(f, d->xval[i]);
		if (s->label && *s->label) {
			fputc(' ', f);
			xml_escape(f, s->label);
		}
		fprintf(f, ": %.2f MB/s</title></circle>\n", s->y[i]);
	}
	/* the knee: the least in flight near the series' best; a measured
	 * mean keeps two decimals, a whole count none */
	snprintf(nf, sizeof(nf), fabs(s->knee_inflight - rint(s->knee_inflight)) < 0.005 ?
		 "%.0f" : "%.2f", s->knee_inflight);
	if (s->has_knee && s->knee >= 0 && s->knee < d->nx &&
	    !isnan(s->y[s->knee])) {
		fprintf(f, "<circle class=\"knee\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" data-x=\"",
			xpos(d, s->knee), ypos(ymax, s->y[s->knee]), c);
		xml_escape(f, d->xval[s->knee]);
		fprintf(f, "\" data-inflight=\"%s\"><title>knee", nf);
		if (s->label && *s->label) {
			fputc(' ', f);
			xml_escape(f, s->label);
		}
		fprintf(f, ": %s in flight reach %.0f %% of the best MB/s</title></circle>\n",
			nf, d->knee_frac * 100);
	}
	fputs("</g>\n", f);
}

static void legend(FILE *f, const struct sweep_plot *d)
{
	int k, rows = d->ns <= LEG_ROWS ? d->ns : LEG_ROWS - 1;

	fputs("<g class=\"legend\" font-size=\"12\">\n", f);
	for (k = 0; k < rows; k++) {
		int y = Y0 + 10 + 18 * k;

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
			LEG_X, y, LEG_X + 22, y, colors[k % NCOLORS], dash(k));
		fprintf(f, "<text x=\"%d\" y=\"%d\">", LEG_X + 27, y + 4);
		xml_escape(f, d->s[k].label && *d->s[k].label ?
			   d->s[k].label : "MB/s");
		fputs("</text>\n", f);
	}
	if (rows < d->ns)
		fprintf(f, "<text x=\"%d\" y=\"%d\">(%d more series)</text>\n",
			LEG_X, Y0 + 14 + 18 * rows, d->ns - rows);
	fputs("</g>\n", f);
}

int sweep_plot_svg(FILE *f, const struct sweep_plot *d)
{
	double ymax = 0, step;
	int i, k, have = 0;

	for (k = 0; k < d->ns; k++)
		for (i = 0; i < d->nx; i++)
			if (!isnan(d->s[k].y[i])) {
				have = 1;
				if (d->s[k].y[i] > ymax)
					ymax = d->s[k].y[i];
			}
	/* headroom above the highest point, rounded up to a whole tick */
	ymax = ymax > 0 ? ymax * 1.1 : 1;
	step = plot_nice_step(ymax, 8);
	ymax = ceil(ymax / step) * step;

	plot_svg_head(f, W, H, X0, d->title ? d->title : "dixload sweep");
	axes(f, d, ymax);
	if (!have)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\" fill=\"#888\">no point has a result</text>\n",
			(X0 + X1) / 2, (Y0 + Y1) / 2);
	for (k = 0; k < d->ns; k++)
		one_series(f, d, k, ymax);
	legend(f, d);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
