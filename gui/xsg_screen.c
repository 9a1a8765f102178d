/*
 * xsg_screen.c — window sizes that fit the screen (issue 15: every window usable at 800x600,
 * laid out well at 1366x768 and 1920x1080). A window asks for its drawing's default size (made
 * for a 1366x768 laptop); on a larger screen a plot window grows with the screen, up to a
 * maximum past which charts only get emptier; on a smaller one it gets at most 90 % of the
 * screen, less the controls around the drawing (toggle rows, the timeline's buttons, the main
 * window's menu, run list and status line), so nothing opens beyond the screen's edge (where
 * the user cannot reach it and the X server keeps no pixels to screenshot).
 */
#include "xsg.h"

/* The screen the default sizes were made for, and the largest default drawing. */
#define BASE_W 1366
#define BASE_H 768
#define MAX_W 1600
#define MAX_H 1000

/* Height of the controls around the drawing of window `id`, at most (toggle rows wrap onto
 * more rows in a narrow window). */
static int controls_h(enum view_id id)
{
	switch (id) {
	case VIEW_BROWSER: return 330;      /* menu bar, run list and its header, details, status */
	case VIEW_SOURCES: return 150;      /* methods and 14 sources: up to four rows */
	case VIEW_TIMELINE: return 70;      /* buttons and scrollbar */
	case VIEW_TIME: case VIEW_LATENCY: case VIEW_PARALLELISM: case VIEW_PATTERNS:
		return 70;                  /* method toggles */
	default: return 0;
	}
}

void xsg_fit_screen(struct xsg_app *app, enum view_id id, int *w, int *h)
{
	Screen *scr = XtScreen(app->top);
	int sw = WidthOfScreen(scr), sh = HeightOfScreen(scr);
	int max_w = sw * 9 / 10;
	int max_h = sh * 9 / 10 - controls_h(id);

	/* a larger screen: the plot windows grow by the smaller of its two ratios (1.41 at
	 * 1920x1080), so their charts use the room; the main window stays the size the user
	 * arranges the others around, the teaching window sizes itself */
	if (id != VIEW_BROWSER && id != VIEW_TEACH && sw > BASE_W && sh > BASE_H) {
		long f_num = sw, f_den = BASE_W;
		if ((long)sh * BASE_W < (long)sw * BASE_H) {
			f_num = sh;
			f_den = BASE_H;
		}
		*w = (int)(*w * f_num / f_den);
		*h = (int)(*h * f_num / f_den);
		if (*w > MAX_W)
			*w = MAX_W;
		if (*h > MAX_H)
			*h = MAX_H;
	}
	if (*w > max_w)
		*w = max_w;
	if (*h > max_h)
		*h = max_h > 200 ? max_h : 200;
}
