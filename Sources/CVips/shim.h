// libvips through fixed-argument functions: libvips takes its options as NULL-terminated
// variadic lists, which Swift cannot call. Each wrapper names the options Marquee sets.
#include <vips/vips.h>

static void marquee_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/// Starts libvips once per process; 0 on success.
static inline int marquee_vips_start(void) {
    if (VIPS_INIT("marquee")) return -1;
    // What goes wrong with an image reaches the user as the warning naming it (from libvips'
    // error buffer), not as lines libvips would print on its own.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, marquee_vips_drop_log, NULL);
    // Marquee keeps its own cache of results (.marquee-cache/images); libvips' cache of
    // operations would only hold decoded pixels in memory between images.
    vips_cache_set_max(0);
    // Marquee processes one image per core; libvips' own threads would only contend with it.
    vips_concurrency_set(1);
    // Loaders libvips marks untrusted (ImageMagick, FITS, Matlab...) are never used: the
    // formats are checked before loading, and this closes the door on the rest. SVG (marked
    // untrusted too) is let through: librsvg draws it into pixels, running no script and
    // reading no other file for an SVG given in memory.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvg", FALSE);
    return 0;
}

/// The name of the loader libvips would use for these bytes ("jpegload_buffer"), or NULL.
static inline const char *marquee_vips_loader(const void *data, size_t length) {
    return vips_foreign_find_load_buffer(data, length);
}

/// An image whose header is read and whose pixels are not decoded yet; NULL on error.
static inline VipsImage *marquee_vips_header(const void *data, size_t length) {
    return vips_image_new_from_buffer(data, length, "", NULL);
}

/// Decodes, shrinking while loading where the format allows it, and scales to fit
/// width × height (crop: fill the box and cut what is outside, from the centre). Never enlarges.
/// Fails on anything the decoder warns about: libjpeg reports a file cut short only as a warning.
/// (libvips 8.14 passes its loader only the option string, not the thumbnail's own fail_on.)
static inline int marquee_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out, int width, int height, int crop) {
    return vips_thumbnail_buffer((void *)data, length, out, width, "height", height, "size", VIPS_SIZE_DOWN,
        "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, "option_string", "fail_on=warning", NULL);
}

/// As marquee_vips_thumbnail_buffer, from an image already decoded.
static inline int marquee_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int crop) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN,
        "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL);
}

/// The image's pixels computed once and held in memory, for several renditions made from them.
static inline VipsImage *marquee_vips_copy_memory(VipsImage *in) {
    return vips_image_copy_memory(in);
}

/// 1 when the image has no alpha band or every pixel of it is opaque, 0 when some pixel shows
/// through, -1 on error.
static inline int marquee_vips_is_opaque(VipsImage *in) {
    if (!vips_image_hasalpha(in)) return 1;
    VipsImage *alpha = NULL;
    double lowest = 0;
    if (vips_extract_band(in, &alpha, vips_image_get_bands(in) - 1, NULL)) return -1;
    int failed = vips_min(alpha, &lowest, NULL);
    g_object_unref(alpha);
    if (failed) return -1;
    VipsBandFormat format = vips_image_get_format(in);
    double opaque = format == VIPS_FORMAT_UCHAR ? 255 : format == VIPS_FORMAT_USHORT ? 65535 : 1;
    return lowest >= opaque;
}

/// The image scaled to exactly width × height (for the placeholder's colour).
static inline int marquee_vips_squash(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

/// The image as 8-bit sRGB with three bands, its alpha flattened onto `grey`.
static inline int marquee_vips_srgb8(VipsImage *in, VipsImage **out, double grey) {
    VipsImage *flat = NULL, *rgb = NULL;
    if (vips_image_hasalpha(in)) {
        VipsArrayDouble *background = vips_array_double_newv(1, grey);
        int failed = vips_flatten(in, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        if (failed) return -1;
    } else {
        flat = in;
        g_object_ref(flat);
    }
    int failed = vips_colourspace(flat, &rgb, VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(flat);
    if (failed) return -1;
    failed = vips_cast(rgb, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(rgb);
    return failed;
}

static inline int marquee_vips_save_avif(VipsImage *in, void **buffer, size_t *length, int quality, int effort) {
    return vips_heifsave_buffer(in, buffer, length, "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
        "effort", effort, "strip", TRUE, NULL);
}

static inline int marquee_vips_save_webp(VipsImage *in, void **buffer, size_t *length, int quality, int effort) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "effort", effort, "strip", TRUE, NULL);
}

static inline int marquee_vips_save_jpeg(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
        "interlace", TRUE, NULL);
}

static inline int marquee_vips_save_png(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, NULL);
}
