/*
 * xsg_screen.c — window sizes that fit the screen (issue 15: every window usable at 800x600,
 * laid out well at 1366x768 and 1920x1080). A window asks for its drawing's default size; on a
 * smaller screen it gets at most 90 % of the screen, less the controls around the drawing
 * (toggle rows, the timeline's buttons, the main window's menu, run list and status line), so
 * nothing opens beyond the screen's edge (where the user cannot reach it and the X server
 * keeps no pixels to screenshot).
 */
#include "xsg.h"

/* Height of the controls around the drawing of window `id`, at most (toggle rows wrap onto
 * more rows in a narrow window). */
static int controls_h(enum view_id id)
{
	switch (id) {
	case VIEW_BROWSER: return 240;      /* menu bar, run list, status line */
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
	int max_w = WidthOfScreen(scr) * 9 / 10;
	int max_h = HeightOfScreen(scr) * 9 / 10 - controls_h(id);

	if (*w > max_w)
		*w = max_w;
	if (*h > max_h)
		*h = max_h > 200 ? max_h : 200;
}
