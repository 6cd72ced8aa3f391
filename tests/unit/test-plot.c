// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-plot.c - the SVG plot is well-formed XML (checked by xmlcheck.h,
 * which is itself checked against broken documents first), names the
 * module at its marker, escapes hostile labels, and draws what it is given.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csvlog.h"
#include "report/plot.h"
#include "tap.h"
#include "xmlcheck.h"

#define MB 1e6

static char *render(const struct plot_data *d, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = plot_svg(f, d);
	fclose(f);
	return buf;
}

static void test_checker(void)
{
	static const char *const bad[] = {
		"<a><b></a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>",
		"<a>&foo;</a>", "<a>x &amp y</a>", "<a/><b/>", "<a>", "text<a/>",
		"<a x=\"<\"/>", "<a>\x01</a>", "<a>\xff</a>", "<a x=\"1\"y=\"2\"/>",
	};
	char err[200];
	unsigned int i;
	int rejected = 0;

	ok(xml_wellformed("<?xml version=\"1.0\"?>\n<a x='1'><b>&lt;&#233;&#x41;</b><!-- c --><c/></a>\n",
			  err, sizeof(err)), "checker accepts a good document (%s)",
	   "ok");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!xml_wellformed(bad[i], err, sizeof(err)))
			rejected++;
		else
			printf("# accepted bad document: %s\n", bad[i]);
	}
	is_int(rejected, (int)(sizeof(bad) / sizeof(bad[0])),
	       "checker rejects every broken document");
}

static void test_plot(void)
{
	struct meter_sample s[24];
	struct plot_marker m[] = {
		{ 10.0, "modprobe crct10dif_pclmul", PLOT_ACTION },
		{ 10.6, "transform: crct10dif-pclmul", PLOT_CHANGE },
		{ 15.0, "exec 'a<b && \"c\"' \xff\x01", PLOT_FAILED },
	};
	struct plot_level lv[] = {
		{ 2, 10, 30 * MB, "before 30.0 MB/s" },
		{ 12, 24, 48 * MB, "after 48.0 MB/s (\u00d71.60)" },
	};
	struct plot_data d;
	char err[200], *svg, *p;
	int i, ret, events = 0;

	memset(s, 0, sizeof(s));
	for (i = 0; i < 24; i++) {
		s[i].t = i + 1;
		s[i].dt = 1;
		s[i].read_bps = (i < 10 ? 15 : 24) * MB;
		s[i].write_bps = (i < 10 ? 15 : 24) * MB;
	}
	d = (struct plot_data){ "dixload /dev/sda: randrw 256k <dif1> & co",
				s, 24, m, 3, lv, 2 };
	svg = render(&d, &ret);
	is_int(ret, 0, "plot written");
	ok(xml_wellformed(svg, err, sizeof(err)), "SVG is well-formed (%s)",
	   xml_wellformed(svg, err, sizeof(err)) ? "yes" : err);
	ok(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL,
	   "SVG namespace");
	p = strstr(svg, "<g class=\"event\" data-t=\"10.000\">");
	ok(p && strstr(p, ">modprobe crct10dif_pclmul</text>") &&
	   strstr(p, ">modprobe crct10dif_pclmul</text>") < strstr(p, "</g>"),
	   "the module is named at its marker (t = 10 s)");
	ok(strstr(svg, "exec &apos;a&lt;b &amp;&amp; &quot;c&quot;&apos; ??") != NULL,
	   "hostile label escaped, bad bytes replaced");
	ok(strstr(svg, "randrw 256k &lt;dif1&gt; &amp; co") != NULL, "title escaped");
	for (p = svg; (p = strstr(p, "class=\"event\"")); p++)
		events++;
	is_int(events, 3, "three markers");
	ok(strstr(svg, ">before 30.0 MB/s</text>") &&
	   strstr(svg, ">after 48.0 MB/s (\u00d71.60)</text>"), "levels labelled");
	ok(strstr(svg, "throughput (MB/s, 1 MB = 10^6 bytes)") &&
	   strstr(svg, "time since start (s)"), "axes labelled with units");
	/* total series: 24 steps = 48 points; the first step spans 0..1 s
	 * at 30 MB/s: x from 78 to 78 + 898 * 1/25 (axis to 25 s) */
	p = strstr(svg, "class=\"total\"");
	ok(p && strstr(p, "points=\"78.0,") != NULL, "total starts at t = 0");
	{
		const char *q = p ? strstr(p, "points=\"") : NULL;
		int pts = 0;

		for (; q && *q && *q != '/'; q++)
			if (*q == ',')
				pts++;
		is_int(pts, 48, "total: two points per interval");
	}
	free(svg);

	/* nothing measured: still a valid document that says so */
	d = (struct plot_data){ NULL, NULL, 0, NULL, 0, NULL, 0 };
	svg = render(&d, &ret);
	ok(ret == 0 && xml_wellformed(svg, err, sizeof(err)) &&
	   strstr(svg, "no intervals were measured"), "empty plot well-formed");
	free(svg);
}

static void test_nice(void)
{
	ok(plot_nice_step(24, 12) == 2, "24 s in 12 ticks: step 2");
	ok(plot_nice_step(53, 8) == 10, "53 MB/s in 8 ticks: step 10");
	ok(fabs(plot_nice_step(0.7, 8) - 0.1) < 1e-12, "0.7 in 8: step 0.1");
	ok(plot_nice_step(0, 8) == 1, "empty range: step 1");
}

static void test_csv(void)
{
	struct meter_sample s[2];
	struct dix_event ev[2] = {
		{ .t = 1.5, .kind = EV_ACTION, .what = "exec 'echo \"a,b\"'",
		  .ok = 0, .duration = 0.25, .detail = "exit 1: line1" },
		{ .t = 0.0, .kind = EV_NOTE, .what = "note", .ok = -1,
		  .duration = -1 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(s, 0, sizeof(s));
	s[0].t = 1;
	s[0].dt = 1;
	s[0].read_bps = 1e6;
	s[0].tot.ops[0] = 10;
	s[1].t = 2;
	s[1].dt = 1;
	s[1].write_bps = 2e6;
	s[1].tot.ops[0] = 10;
	s[1].tot.ops[1] = 20;
	s[1].unwritten = 7;
	s[1].cpu.valid = 1;
	s[1].cpu.busy = 55.25;
	s[1].cpu.self_pct = 12.5;
	s[1].lat[1] = (struct lat_quant){ .n = 20, .p50 = 1000, .p99 = 2000,
					  .p999 = 3000, .max = 3100 };
	is_int(csv_write(f, s, 2, ev, 2), 0, "csv written");
	fclose(f);
	is_str(buf,
	       "type,t,dt,read_bps,write_bps,total_bps,iops,ops,errors,recovered,kind,what,ok,duration,detail,unwritten,cpu_busy_pct,cpu_self_pct,"
	       "read_lat_p50_ns,read_lat_p99_ns,read_lat_p999_ns,read_lat_max_ns,write_lat_p50_ns,write_lat_p99_ns,write_lat_p999_ns,write_lat_max_ns\n"
	       "event,0.000,,,,,,,,,note,note,,,,,,,,,,,,,,\n"
	       "interval,1.000,1.000,1000000,0,1000000,0.0,10,0,0,,,,,,0,,0.0,0,0,0,0,0,0,0,0\n"
	       "event,1.500,,,,,,,,,action,\"exec 'echo \"\"a,b\"\"'\",0,0.250,exit 1: line1,,,,,,,,,,,\n"
	       "interval,2.000,1.000,0,2000000,2000000,0.0,30,0,0,,,,,,7,55.2,12.5,0,0,0,0,1000,2000,3000,3100\n",
	       "csv: header, rows in time order, RFC 4180 quoting");
	free(buf);
}

int main(void)
{
	test_checker();
	test_plot();
	test_nice();
	test_csv();
	return tap_done();
}
