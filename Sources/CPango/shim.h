#ifndef HOMEFEED_CPANGO_SHIM_H
#define HOMEFEED_CPANGO_SHIM_H
/* Pango over FreeType and fontconfig (pangoft2): text layout without cairo or a display.
   None of these headers pulls in ICU (harfbuzz's hb-icu.h is not included), so there is no
   clash with Foundation's _FoundationICU (swift-on-linux.md §1.3); check with a clean build
   when adding a header. */
#include <fontconfig/fontconfig.h>
#include <pango/pangoft2.h>
#include <pango/pangofc-fontmap.h>

/* GObject's cast macros (PANGO_FC_FONT_MAP, PANGO_FT2_FONT_MAP) do not import into Swift:
   one wrapper per cast this module needs. */

/* A PangoFT2 font map over `config` (the font map takes its own reference) that lays text
   out at `dpi`: at 72, one Pango point is one pixel, so font sizes are in layout points. */
static inline PangoFontMap *cpango_ft2_font_map_new(FcConfig *config, double dpi) {
    PangoFontMap *map = pango_ft2_font_map_new();
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    pango_ft2_font_map_set_resolution(PANGO_FT2_FONT_MAP(map), dpi, dpi);
    return map;
}

/* The fontconfig pattern a font Pango loaded was matched to (owned by the font), whose
   FC_FAMILY values are every name of its family (NanumGothic and 나눔고딕 are one family). */
static inline FcPattern *cpango_font_pattern(PangoFont *font) {
    return pango_fc_font_get_pattern(PANGO_FC_FONT(font));
}

/* The number of fonts `config` knows (0 when fontconfig found no configuration or no fonts). */
static inline int cpango_font_count(FcConfig *config) {
    FcFontSet *set = FcConfigGetFonts(config, FcSetSystem);
    return set ? set->nfont : 0;
}

#endif
