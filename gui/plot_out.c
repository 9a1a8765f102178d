/*
 * plot_out.c — renders a plot drawing function to PNG, SVG or PDF through the matching cairo
 * surface. Cairo writes SVG text as glyph outlines, so the SVG also gets a <title> and a <desc>
 * listing every string drawn (for screen readers, search and tests); the PDF gets a fixed
 * creation date so the same input gives the same bytes. Cairo writes into a stream, never a
 * path: the file is one outfile.c made (a temporary file created O_EXCL|O_NOFOLLOW, renamed into
 * place), so no link planted where the file goes is followed.
 */
#include "plot.h"
#include "outfile.h"

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

/* What cairo's stream writers write into: a FILE * (PNG, PDF), or a growing buffer (SVG, which
 * gets its <title> and <desc> before it is written out). */
struct sink {
	FILE *f;
	char *buf;
	size_t len, cap;
	int failed;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *k = closure;

	if (k->f) {
		if (fwrite(data, 1, len, k->f) != len)
			k->failed = 1;
	} else {
		if (k->len + len + 1 > k->cap) {
			size_t cap = k->cap ? k->cap : 65536;
			char *b;
			while (cap < k->len + len + 1)
				cap *= 2;
			if (!(b = realloc(k->buf, cap))) {
				k->failed = 1;
				return CAIRO_STATUS_WRITE_ERROR;
			}
			k->buf = b;
			k->cap = cap;
		}
		memcpy(k->buf + k->len, data, len);
		k->len += len;
		k->buf[k->len] = '\0';
	}
	return k->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* Writes the SVG in buf to f with <title> and <desc> right after the opening <svg ...> tag. */
static int svg_write_with_text(FILE *f, const char *buf, const char *title, const char *desc)
{
	const char *svg, *gt;

	if (!buf || !(svg = strstr(buf, "<svg")) || !(gt = strchr(svg, '>')))
		return -EINVAL;
	fwrite(buf, 1, (size_t)(gt + 1 - buf), f);
	fputs("\n<title>", f);
	xml_escape(f, title);
	fputs("</title>\n<desc>", f);
	xml_escape(f, desc ? desc : "");
	fputs("</desc>", f);
	fputs(gt + 1, f);
	return ferror(f) ? -EIO : 0;
}

int plot_render_stream(FILE *f, const char *label, enum plot_format fmt, int w, int h,
		       const char *title, plot_draw_fn fn, void *arg, char *err, size_t err_len)
{
	struct plot_text_sink text = { NULL, 0, 0 };
	struct sink k = { fmt == PLOT_SVG ? NULL : f, NULL, 0, 0, 0 };
	cairo_surface_t *s = NULL;
	cairo_t *cr = NULL;
	cairo_status_t st;
	int rc;

	switch (fmt) {
	case PLOT_PNG:
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
		break;
	case PLOT_SVG:
		s = cairo_svg_surface_create_for_stream(sink_write, &k, w, h);
		break;
	case PLOT_PDF:
		s = cairo_pdf_surface_create_for_stream(sink_write, &k, w, h);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "xscalegraph");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, "2000-01-01T00:00:00Z");
		break;
	}
	if (!s || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_len, "%s: error: cannot create surface: %s", label,
			 s ? cairo_status_to_string(cairo_surface_status(s)) : "bad format");
		rc = -EIO;
		goto out;
	}
	cr = cairo_create(s);
	plot_text_sink_attach(cr, &text);
	plot_background(cr, (struct plot_rect){ 0, 0, w, h });
	if ((rc = fn(cr, w, h, arg)) < 0) {
		snprintf(err, err_len, "%s: error: drawing failed (%s)", label, strerror(-rc));
		goto out;
	}
	if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_len, "%s: error: %s", label, cairo_status_to_string(st));
		rc = -EIO;
		goto out;
	}
	cairo_destroy(cr);
	cr = NULL;
	if (fmt == PLOT_PNG)
		st = cairo_surface_write_to_png_stream(s, sink_write, &k);
	cairo_surface_finish(s);
	st = fmt == PLOT_PNG ? st : cairo_surface_status(s);
	if (st != CAIRO_STATUS_SUCCESS || k.failed) {
		snprintf(err, err_len, "%s: error: %s", label, k.failed ? "writing failed" :
			 cairo_status_to_string(st));
		rc = -EIO;
		goto out;
	}
	rc = 0;
	if (fmt == PLOT_SVG && (rc = svg_write_with_text(f, k.buf, title, text.buf)) < 0)
		snprintf(err, err_len, "%s: error: adding <desc>: %s", label, strerror(-rc));
out:
	if (cr)
		cairo_destroy(cr);
	if (s)
		cairo_surface_destroy(s);
	plot_text_sink_free(&text);
	free(k.buf);
	return rc;
}

int plot_render_at(int dirfd, const char *dir, const char *name, int replace,
		   enum plot_format fmt, int w, int h, const char *title, plot_draw_fn fn,
		   void *arg, char *err, size_t err_len)
{
	struct out_file of;
	int rc;

	if ((rc = out_file_open_at(&of, dirfd, dir, name, OUT_MODE_SHARED, err, err_len)) < 0)
		return rc;
	if ((rc = plot_render_stream(of.f, of.path, fmt, w, h, title, fn, arg, err, err_len)) < 0) {
		out_file_abort(&of);
		return rc;
	}
	return out_file_commit(&of, replace, err, err_len);
}

int plot_render_path(const char *path, int replace, enum plot_format fmt, int w, int h,
		     const char *title, plot_draw_fn fn, void *arg, char *err, size_t err_len)
{
	struct out_file of;
	int rc;

	if ((rc = out_file_open(&of, path, OUT_MODE_SHARED, err, err_len)) < 0)
		return rc;
	if ((rc = plot_render_stream(of.f, of.path, fmt, w, h, title, fn, arg, err, err_len)) < 0) {
		out_file_abort(&of);
		return rc;
	}
	return out_file_commit(&of, replace, err, err_len);
}

int plot_render_file(const char *path, enum plot_format fmt, int w, int h, const char *title,
		     plot_draw_fn fn, void *arg, char *err, size_t err_len)
{
	return plot_render_path(path, 1, fmt, w, h, title, fn, arg, err, err_len);
}
