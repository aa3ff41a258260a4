/*
 * drawlock.h — one lock, held by whoever calls Cairo, so that threads
 * draw one at a time.
 *
 * Why: Cairo 1.16 (Debian 12's) keeps its scaled fonts in a process-wide
 * cache and is not safe when threads share them. cairo_scaled_font_destroy
 * drops the last reference before it takes the cache's lock, then asserts
 * that nobody is using the font; in between, another thread may find the
 * same font in the cache, take it back and start drawing with it, and the
 * process aborts ("cairo_scaled_font_destroy: Assertion `! scaled_font->
 * cache_frozen' failed": once in ~40 two-thread site builds, and within
 * seconds in a loop of a few threads drawing text). Cairo also makes and
 * drops fonts of its own (a PDF's font subsets, its pages replayed), so
 * holding references from outside cannot cover every case; calling Cairo
 * from one thread at a time does. Later Cairo releases take the lock
 * first; this lock can go when Cairo 1.16 is no longer supported.
 *
 * The lock is process-wide because the state it guards is: two locks,
 * one per caller, would let two callers race again. It is the one piece
 * of global mutable state in render/, and only ever a mutex.
 *
 * The rule: a render/ function that makes Cairo objects holds the lock
 * while Cairo may touch its shared state — making, drawing onto, finishing
 * or destroying surfaces and contexts (plot_render, plot_measure, every
 * pdfdoc_* function) — and releases it for the work that does not
 * (encoding the PNG's pixels, rewriting the SVG, reading the status of its
 * own objects). plot_draw draws onto its caller's context and runs under
 * its caller's lock (pdfdoc_figure holds it). Not recursive: a function
 * that holds the lock never calls one that takes it.
 */
#ifndef PERFCAST_RENDER_DRAWLOCK_H
#define PERFCAST_RENDER_DRAWLOCK_H

void drawlock_enter(void);
void drawlock_leave(void);

#endif
