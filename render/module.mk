# render/module.mk — the site's extra build pieces (included by the top Makefile).
#
# Charts call FcFini (render/plot.c) so a build exits without the font
# caches leak checkers would report; fontconfig's development files come
# with libcairo2-dev.
PKGS += fontconfig

# make screenshots: a headless Chromium picture of the index and of one
# campaign page of the embedded site, each checked to be a non-blank image.
# Not part of make check (Chromium is large and slow to start); installs the
# Debian package chromium when it is missing and we are root.
SHOT_DIR   := $(B)/screenshots
SHOT_CHECK := $(B)/tests/site_screenshot_check

$(SHOT_CHECK): $(call obj,tests/site_screenshot_check.c) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

.PHONY: screenshots
screenshots: $(PERFCAST) $(SHOT_CHECK)
	@tests/site_screenshots.sh $(PERFCAST) $(SHOT_CHECK) $(SHOT_DIR)
