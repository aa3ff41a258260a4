# render/module.mk — the site's extra build pieces (included by the top Makefile).
#
# Charts call FcFini (render/plot.c) so a build exits without the font
# caches leak checkers would report; fontconfig's development files come
# with libcairo2-dev.
PKGS += fontconfig

# make screenshots: headless Chromium pictures of the index, a campaign, a
# cluster, the advice and the alerts page at 1280 and 390 px, light and
# dark, each checked to be a non-blank image of the right scheme; then every
# page of the site measured at both widths: no table cell clipped by its
# box or the viewport, no page overflowing, scopred-ep at most 10,000 px
# tall (see tests/site_screenshots.sh). Not part of make check (Chromium is large and
# slow to start); installs the Debian package chromium when it is missing
# and we are root.
SHOT_DIR   := $(B)/screenshots
SHOT_CHECK := $(B)/tests/site_screenshot_check

$(SHOT_CHECK): $(call obj,tests/site_screenshot_check.c) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

.PHONY: screenshots
screenshots: $(PERFCAST) $(SHOT_CHECK)
	@tests/site_screenshots.sh $(PERFCAST) $(SHOT_CHECK) $(SHOT_DIR)

# The independent site verifier (tests/verify_site.h): libxml2's HTML
# parser reads every page of a built site. verify_site_test runs in make
# check (on hand-made broken sites and on the embedded site);
# `make verify-site` checks site/ after `make site`.
XML_CFLAGS = $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
XML_LIBS   = $(shell pkg-config --libs libxml-2.0 2>/dev/null)
VERIFY_OBJ := $(call obj,tests/verify_site.c)
VERIFY_BIN := $(B)/tests/verify_site
VERIFY_TEST := $(B)/tests/verify_site_test

$(VERIFY_OBJ) $(call obj,tests/verify_site_main.c tests/verify_site_test.c): PKG_CFLAGS += $(XML_CFLAGS)

$(VERIFY_BIN): $(call obj,tests/verify_site_main.c) $(VERIFY_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(XML_LIBS)

$(VERIFY_TEST): $(call obj,tests/verify_site_test.c) $(VERIFY_OBJ) $(call obj,$(TESTLIB_SRC)) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CUNIT_LIBS) $(XML_LIBS)

.PHONY: verify-site
verify-site: $(VERIFY_BIN)
	$(VERIFY_BIN) site

EXTRA_TEST_BINS += $(VERIFY_TEST)
CHECK_EXTRA     += $(VERIFY_BIN) $(VERIFY_TEST)

# tests/test_charts.c reads the charts with libxml2 too (not with the writer).
$(call obj,tests/test_charts.c): PKG_CFLAGS += $(XML_CFLAGS)
$(B)/tests/test_charts: PKG_LIBS += $(XML_LIBS)
