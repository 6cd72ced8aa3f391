// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plot.c - the --plot SVG.
 *
 * Hand-written SVG 1.1 with no scripts, fonts or external references, so
 * the file renders the same in any browser or viewer and can be attached to
 * a mail.  Every interval is drawn as a horizontal step over the span it was
 * measured on (a rate is an average over its interval, not a value at a
 * point), so a marker at 10.0 s lines up with the step it caused.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/plot.h"

#define MB 1e6

/* Layout in SVG user units (pixels at 100 %). */
#define W	1000
#define H	560
#define X0	78
#define X1	(W - 24)
#define Y0	64
#define Y1	(H - 58)

#define C_READ	"#1f77b4"
#define C_WRITE	"#e8811a"
#define C_TOTAL	"#222222"
#define C_LEVEL	"#2a9d3a"
#define C_ACT	"#5a3ec8"
#define C_FAIL	"#d62728"
#define C_CHG	"#8c6d1f"

/* A white outline under label glyphs keeps them legible where they cross
 * the curves (paint-order: the stroke is painted first). */
#define HALO " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""

/* Length of a valid UTF-8 sequence at @p, or 0. */
static int utf8_len(const unsigned char *p)
{
	int n, i;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0 && p[0] >= 0xc2)
		n = 2;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((p[0] & 0xf8) == 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void xml_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n;

		switch (*p) {
		case '&': fputs("&amp;", f); p++; continue;
		case '<': fputs("&lt;", f); p++; continue;
		case '>': fputs("&gt;", f); p++; continue;
		case '"': fputs("&quot;", f); p++; continue;
		case '\'': fputs("&apos;", f); p++; continue;
		}
		/* XML 1.0 forbids most control characters even as references,
		 * and a stray byte that is not UTF-8 makes the file unreadable */
		if (*p < 0x20 && *p != '\t') {
			fputc('?', f);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			fputc('?', f);
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
}

double plot_nice_step(double range, int max_ticks)
{
	double raw, mag, m;

	if (!(range > 0) || max_ticks < 1)
		return 1;
	raw = range / max_ticks;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	if (m <= 1)
		return mag;
	if (m <= 2)
		return 2 * mag;
	if (m <= 5)
		return 5 * mag;
	return 10 * mag;
}

void plot_svg_head(FILE *f, int w, int h, int x0, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
		w, h, w, h);
	fputs("<title>", f);
	xml_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", x0);
	xml_escape(f, title);
	fputs("</text>\n", f);
}

struct scale {
	double tmax, ymax;
};

static double px(const struct scale *sc, double t)
{
	return X0 + (X1 - X0) * t / sc->tmax;
}

static double py(const struct scale *sc, double bps)
{
	double v = Y1 - (Y1 - Y0) * (bps / MB) / sc->ymax;

	return v < Y0 - 4 ? Y0 - 4 : v;	/* clip: keep outliers on the page */
}

/* Text of a number without a useless ".0". */
static void tick_text(char *buf, size_t len, double v, double step)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	snprintf(buf, len, "%.*f", dec, v);
}

static void axes(FILE *f, const struct scale *sc)
{
	double st = plot_nice_step(sc->tmax, 12), sy = plot_nice_step(sc->ymax, 8);
	char buf[32];
	double v;

	fputs("<g class=\"axes\" font-size=\"12\" fill=\"#333\">\n", f);
	for (v = 0; v <= sc->ymax + sy * 1e-6; v += sy) {
		tick_text(buf, sizeof(buf), v, sy);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			X0, py(sc, v * MB), X1, py(sc, v * MB));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			X0 - 6, py(sc, v * MB) + 4, buf);
	}
	for (v = 0; v <= sc->tmax + st * 1e-6; v += st) {
		tick_text(buf, sizeof(buf), v, st);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
			px(sc, v), Y1, px(sc, v), Y1 + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			px(sc, v), Y1 + 19, buf);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n",
		X0, Y0, X1 - X0, Y1 - Y0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">time since start (s)</text>\n",
		(X0 + X1) / 2, H - 18);
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 18 %d)\">throughput (MB/s, 1 MB = 10^6 bytes)</text>\n",
		(Y0 + Y1) / 2, (Y0 + Y1) / 2);
	fputs("</g>\n", f);
}

/* One series as steps: each interval a flat segment over [t - dt, t]. */
static void series(FILE *f, const struct scale *sc, const struct plot_data *d,
		   int which, const char *color, double width, const char *name)
{
	size_t i;

	fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-linejoin=\"round\" points=\"",
		name, color, width);
	for (i = 0; i < d->n; i++) {
		const struct meter_sample *s = &d->s[i];
		double v = which == 0 ? s->read_bps : which == 1 ? s->write_bps :
			   s->read_bps + s->write_bps;

		fprintf(f, "%s%.1f,%.1f %.1f,%.1f", i ? " " : "",
			px(sc, s->t - s->dt), py(sc, v), px(sc, s->t), py(sc, v));
	}
	fputs("\"/>\n", f);
}

static void legend(FILE *f)
{
	static const struct { const char *color, *name; double w; } l[] = {
		{ C_TOTAL, "total", 2.2 }, { C_READ, "read", 1.4 },
		{ C_WRITE, "write", 1.4 },
	};
	unsigned int i;
	int x = X1 - 270;

	fputs("<g class=\"legend\" font-size=\"12\">\n", f);
	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++, x += 70) {
		fprintf(f, "<line x1=\"%d\" y1=\"44\" x2=\"%d\" y2=\"44\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			x, x + 22, l[i].color, l[i].w);
		fprintf(f, "<text x=\"%d\" y=\"48\">%s</text>\n", x + 27, l[i].name);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"44\" x2=\"%d\" y2=\"44\" stroke=\"%s\" stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>",
		x, x + 22, C_LEVEL);
	fprintf(f, "<text x=\"%d\" y=\"48\">mean</text>\n", x + 27);
	fputs("</g>\n", f);
}

static void levels(FILE *f, const struct scale *sc, const struct plot_data *d)
{
	int i;

	for (i = 0; i < d->nlv; i++) {
		const struct plot_level *l = &d->lv[i];
		double t1 = l->t1 > sc->tmax ? sc->tmax : l->t1;

		if (!(t1 > l->t0))
			continue;
		fprintf(f, "<g class=\"level\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>",
			px(sc, l->t0), py(sc, l->y), px(sc, t1), py(sc, l->y),
			C_LEVEL);
		if (l->label) {
			/* about 6.7 units per character at this size: a label
			 * that would run off the plot ends at the level's end */
			int right = px(sc, l->t0) + 3 + 6.7 * strlen(l->label) > X1;

			/* below the level then, away from the marker labels
			 * that hang from the top */
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\"%s" HALO ">",
				right ? px(sc, t1) - 3 : px(sc, l->t0) + 3,
				py(sc, l->y) + (right ? 16 : -5), C_LEVEL,
				right ? " text-anchor=\"end\"" : "");
			xml_escape(f, l->label);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
}

/*
 * Markers: a line at the event's time and its label written upwards along
 * it from the top of the plot.  Labels never overlap: one that would touch
 * the previous label moves right (13 units per label) and a short leader at
 * the top joins it to its line, so a module load that changes six crypto
 * selections at once stays legible.
 */
static void markers(FILE *f, const struct scale *sc, const struct plot_data *d)
{
	double next_free = -1e9;
	int i;

	for (i = 0; i < d->nm; i++) {
		const struct plot_marker *m = &d->m[i];
		const char *color = m->style == PLOT_FAILED ? C_FAIL :
				    m->style == PLOT_CHANGE ? C_CHG : C_ACT;
		double x = px(sc, m->t > sc->tmax ? sc->tmax : m->t);
		double lx = x + 2 > next_free ? x + 2 : next_free;
		char lab[72];
		size_t n;

		next_free = lx + 13;
		/* long labels: cut at a character boundary */
		n = strlen(m->label);
		if (n >= sizeof(lab) - 4) {
			n = sizeof(lab) - 4;
			while (n && ((unsigned char)m->label[n] & 0xc0) == 0x80)
				n--;
			memcpy(lab, m->label, n);
			strcpy(lab + n, "...");
		} else {
			memcpy(lab, m->label, n + 1);
		}
		fprintf(f, "<g class=\"event\" data-t=\"%.3f\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.2\"%s/>",
			m->t, x, Y0, x, Y1, color,
			m->style == PLOT_CHANGE ? " stroke-dasharray=\"3 3\"" : "");
		if (lx - x > 4)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"0.8\"/>",
				x, Y0 + 10, lx + 5, Y0 + 2, color);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\" text-anchor=\"end\" transform=\"rotate(-90 %.1f %d)\"" HALO ">",
			lx + 9, Y0 + 6, color, lx + 9, Y0 + 6);
		xml_escape(f, lab);
		fputs("</text></g>\n", f);
	}
}

int plot_svg(FILE *f, const struct plot_data *d)
{
	struct scale sc = { 1, 1 };
	size_t i;
	int k;

	for (i = 0; i < d->n; i++) {
		double tot = (d->s[i].read_bps + d->s[i].write_bps) / MB;

		if (d->s[i].t > sc.tmax)
			sc.tmax = d->s[i].t;
		if (tot > sc.ymax)
			sc.ymax = tot;
	}
	for (k = 0; k < d->nm; k++)
		if (d->m[k].t > sc.tmax)
			sc.tmax = d->m[k].t;
	/* round the axes up to a whole tick, with headroom for the labels */
	sc.ymax *= 1.12;
	sc.ymax = ceil(sc.ymax / plot_nice_step(sc.ymax, 8)) *
		  plot_nice_step(sc.ymax, 8);
	sc.tmax = ceil(sc.tmax / plot_nice_step(sc.tmax, 12)) *
		  plot_nice_step(sc.tmax, 12);

	plot_svg_head(f, W, H, X0, d->title ? d->title : "dixload");
	legend(f);
	axes(f, &sc);
	if (!d->n)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\" fill=\"#888\">no intervals were measured</text>\n",
			(X0 + X1) / 2, (Y0 + Y1) / 2);
	series(f, &sc, d, 0, C_READ, 1.4, "read");
	series(f, &sc, d, 1, C_WRITE, 1.4, "write");
	series(f, &sc, d, 2, C_TOTAL, 2.2, "total");
	levels(f, &sc, d);
	markers(f, &sc, d);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
