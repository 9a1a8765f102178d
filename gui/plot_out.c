/*
 * plot_out.c — renders a plot drawing function to PNG, SVG or PDF through the matching cairo
 * surface. Cairo writes SVG text as glyph outlines, so the SVG also gets a <title> and a <desc>
 * listing every string drawn (for screen readers, search and tests); the PDF gets a fixed
 * creation date so the same input gives the same bytes.
 */
#include "plot.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plot_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot)
		return -EINVAL;
	if (strcmp(dot, ".png") == 0)
		return PLOT_PNG;
	if (strcmp(dot, ".svg") == 0)
		return PLOT_SVG;
	if (strcmp(dot, ".pdf") == 0)
		return PLOT_PDF;
	return -EINVAL;
}

static void xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Rewrites the SVG at path with <title> and <desc> right after the opening <svg ...> tag. */
static int svg_add_text(const char *path, const char *title, const char *desc)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *svg, *gt, tmp[4096];
	long len;
	int rc = 0;

	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) < 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0) {
		rc = -errno;
		goto out;
	}
	if (!(buf = malloc((size_t)len + 1))) {
		rc = -ENOMEM;
		goto out;
	}
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		rc = -EIO;
		goto out;
	}
	buf[len] = '\0';
	fclose(f);
	f = NULL;
	if (!(svg = strstr(buf, "<svg")) || !(gt = strchr(svg, '>'))) {
		rc = -EINVAL;
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(f = fopen(tmp, "wb"))) {
		rc = -errno;
		goto out;
	}
	fwrite(buf, 1, (size_t)(gt + 1 - buf), f);
	fputs("\n<title>", f);
	xml_escape(f, title);
	fputs("</title>\n<desc>", f);
	xml_escape(f, desc ? desc : "");
	fputs("</desc>", f);
	fputs(gt + 1, f);
	if (fclose(f) != 0) {
		f = NULL;
		rc = -errno;
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) < 0)
		rc = -errno;
out:
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

int plot_render_file(const char *path, enum plot_format fmt, int w, int h, const char *title,
		     plot_draw_fn fn, void *arg, char *err, size_t err_len)
{
	struct plot_text_sink sink = { NULL, 0, 0 };
	cairo_surface_t *s = NULL;
	cairo_t *cr = NULL;
	cairo_status_t st;
	int rc;

	switch (fmt) {
	case PLOT_PNG:
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
		break;
	case PLOT_SVG:
		s = cairo_svg_surface_create(path, w, h);
		break;
	case PLOT_PDF:
		s = cairo_pdf_surface_create(path, w, h);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "xscalegraph");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, "2000-01-01T00:00:00Z");
		break;
	}
	if (!s || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_len, "%s: error: cannot create surface: %s", path,
			 s ? cairo_status_to_string(cairo_surface_status(s)) : "bad format");
		rc = -EIO;
		goto out;
	}
	cr = cairo_create(s);
	plot_text_sink_attach(cr, &sink);
	plot_background(cr, (struct plot_rect){ 0, 0, w, h });
	if ((rc = fn(cr, w, h, arg)) < 0) {
		snprintf(err, err_len, "%s: error: drawing failed (%s)", path, strerror(-rc));
		goto out;
	}
	if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_len, "%s: error: %s", path, cairo_status_to_string(st));
		rc = -EIO;
		goto out;
	}
	cairo_destroy(cr);
	cr = NULL;
	if (fmt == PLOT_PNG)
		st = cairo_surface_write_to_png(s, path);
	cairo_surface_finish(s);
	st = fmt == PLOT_PNG ? st : cairo_surface_status(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_len, "%s: error: %s", path, cairo_status_to_string(st));
		rc = -EIO;
		goto out;
	}
	rc = 0;
	if (fmt == PLOT_SVG && (rc = svg_add_text(path, title, sink.buf)) < 0)
		snprintf(err, err_len, "%s: error: adding <desc>: %s", path, strerror(-rc));
out:
	if (cr)
		cairo_destroy(cr);
	if (s)
		cairo_surface_destroy(s);
	plot_text_sink_free(&sink);
	return rc;
}
