#ifndef HOMEFEED_CVIPS_SHIM_H
#define HOMEFEED_CVIPS_SHIM_H
#include <vips/vips.h>
#include <webp/mux.h>

/* libvips' operations take their optional arguments as NULL-terminated name/value lists,
   which Swift cannot call (swift-on-linux.md §1.5): one wrapper per call homefeed-thumbnail
   makes, with exactly the options it wants. Only homefeed-thumbnail links this module; the
   daemon never does. */

/* The loaders, one per format the helper accepts, each reading only the first page or frame
   ("n" 1, "page" 0), streaming ("access" sequential) and failing on a truncated or corrupt
   body ("fail_on" truncated) rather than returning the grey rest of a half-decoded image.
   The buffer must outlive the image: libvips reads it lazily. */
static inline int cvips_pngload(const void *buffer, size_t length, VipsImage **out) {
    return vips_pngload_buffer((void *)buffer, length, out, "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* shrink: 1, 2, 4 or 8, libjpeg's DCT-domain downscale while decoding ("shrink-on-load"). */
static inline int cvips_jpegload(const void *buffer, size_t length, int shrink, VipsImage **out) {
    return vips_jpegload_buffer((void *)buffer, length, out, "shrink", shrink,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

static inline int cvips_gifload(const void *buffer, size_t length, VipsImage **out) {
    return vips_gifload_buffer((void *)buffer, length, out, "n", 1, "page", 0,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* scale: libwebp's scaled decode, (0, 1]. */
static inline int cvips_webpload(const void *buffer, size_t length, double scale, VipsImage **out) {
    return vips_webpload_buffer((void *)buffer, length, out, "n", 1, "page", 0, "scale", scale,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* Lanczos 3 downscale by hscale horizontally and vscale vertically. */
static inline int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/* Applies the EXIF orientation and removes the tag. */
static inline int cvips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

/* A rendition of at most width x height pixels, never enlarged ("size" down): with crop, the
   image is scaled to cover the box and its centre cut out (aspect fill); without, scaled to fit
   inside it (aspect fit). */
static inline int cvips_thumbnail(VipsImage *in, VipsImage **out, int width, int height, int crop) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN,
        "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, "no_rotate", TRUE, NULL);
}

/* From the embedded ICC profile to sRGB, when there is one. */
static inline int cvips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, NULL);
}

static inline int cvips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

static inline int cvips_cast_uchar(VipsImage *in, VipsImage **out) { return vips_cast_uchar(in, out, NULL); }

/* A copy of in without any metadata item (EXIF, XMP, IPTC, ICC profile, PNG text, …): the
   savers' "strip" alone is not enough, libvips 8.14's webpsave writes the EXIF of a JPEG
   anyway (RenditionMetadataTests). Removing a built-in header field is a no-op. */
static inline int cvips_copy_without_metadata(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i] != NULL; i++) vips_image_remove(*out, fields[i]);
    g_strfreev(fields);
    return 0;
}

/* Savers: no metadata (removed from a copy, and "strip" as well). */
static inline int cvips_pngsave(VipsImage *in, const char *path) {
    VipsImage *bare;
    if (cvips_copy_without_metadata(in, &bare)) return -1;
    int result = vips_pngsave(bare, path, "strip", TRUE, "compression", 6, NULL);
    g_object_unref(bare);
    return result;
}

/* libvips 8.14's webpsave also writes an EXIF chunk it makes up from the header (resolution,
   size), "strip" or not: the file is encoded to memory, its EXIF, XMP and ICC chunks deleted
   with libwebpmux (which rewrites the VP8X flags), and only then written. */
static inline int cvips_webpsave(VipsImage *in, const char *path, int quality) {
    VipsImage *bare;
    if (cvips_copy_without_metadata(in, &bare)) return -1;
    void *encoded = NULL;
    size_t length = 0;
    int result = vips_webpsave_buffer(bare, &encoded, &length, "strip", TRUE, "Q", quality, NULL);
    g_object_unref(bare);
    if (result) return -1;
    WebPData input = {(const uint8_t *)encoded, length};
    WebPData output = {NULL, 0};
    WebPMux *mux = WebPMuxCreate(&input, 0);
    if (mux == NULL) {
        g_free(encoded);
        vips_error("cvips", "libwebpmux cannot read the encoded WebP");
        return -1;
    }
    WebPMuxDeleteChunk(mux, "EXIF");
    WebPMuxDeleteChunk(mux, "XMP ");
    WebPMuxDeleteChunk(mux, "ICCP");
    WebPMuxError assembled = WebPMuxAssemble(mux, &output);
    WebPMuxDelete(mux);
    g_free(encoded);
    if (assembled != WEBP_MUX_OK) {
        vips_error("cvips", "libwebpmux cannot assemble the WebP (error %d)", (int)assembled);
        return -1;
    }
    GError *error = NULL;
    gboolean written = g_file_set_contents(path, (const gchar *)output.bytes, (gssize)output.size, &error);
    WebPDataClear(&output);
    if (!written) {
        vips_error("cvips", "%s", error != NULL ? error->message : "cannot write the WebP");
        g_clear_error(&error);
        return -1;
    }
    return 0;
}

static inline int cvips_has_icc_profile(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

static inline void cvips_unref(VipsImage *image) { g_object_unref(image); }
static inline void cvips_retain(VipsImage *image) { g_object_ref(image); }
static inline void cvips_free(void *memory) { g_free(memory); }

/* Every loader blocked but the four buffer loaders the helper calls, so no other libvips
   loader (svgload, magickload, pdfload, matload, …) can ever run on fetched bytes. */
static inline void cvips_allow_only_safe_loaders(void) {
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadPngBuffer", FALSE);
    vips_operation_block_set("VipsForeignLoadJpegBuffer", FALSE);
    vips_operation_block_set("VipsForeignLoadNsgifBuffer", FALSE);
    vips_operation_block_set("VipsForeignLoadWebpBuffer", FALSE);
}
#endif
