// The functions of CVips.h: libvips opened with dlopen, its functions found with dlsym, and
// called with the options Marquee sets. One file, so that the table of functions exists once.
#include <dlfcn.h>
#include "CVips.h"

/// A libvips reference-counted array (VipsArrayDouble is one).
typedef struct _VipsArea VipsArea;

// Enumeration values of libvips 8 and GLib that Marquee passes.
enum {
    MARQUEE_VIPS_SIZE_DOWN = 2,              // VipsSize
    MARQUEE_VIPS_SIZE_FORCE = 3,
    MARQUEE_VIPS_INTERESTING_NONE = 0,       // VipsInteresting
    MARQUEE_VIPS_INTERESTING_CENTRE = 1,
    MARQUEE_VIPS_FORMAT_UCHAR = 0,           // VipsBandFormat
    MARQUEE_VIPS_FORMAT_USHORT = 2,
    MARQUEE_VIPS_INTERPRETATION_SRGB = 22,   // VipsInterpretation
    MARQUEE_VIPS_HEIF_COMPRESSION_AV1 = 4,   // VipsForeignHeifCompression
    MARQUEE_G_LOG_LEVEL_WARNING = 1 << 4,    // GLogLevelFlags
};

/// The functions Marquee calls: return type, name, parameters (gboolean is an int).
#define MARQUEE_VIPS_FUNCTIONS(F) \
    F(int, vips_init, (const char *argv0)) \
    F(const char *, vips_error_buffer, (void)) \
    F(void, vips_error_clear, (void)) \
    F(void, vips_cache_set_max, (int max)) \
    F(void, vips_concurrency_set, (int concurrency)) \
    F(void, vips_block_untrusted_set, (int state)) \
    F(void, vips_operation_block_set, (const char *name, int state)) \
    F(unsigned, g_log_set_handler, (const char *domain, int levels, void (*handler)(const char *, int, const char *, void *), void *data)) \
    F(void, g_object_ref, (void *object)) \
    F(void, g_object_unref, (void *object)) \
    F(void, g_free, (void *memory)) \
    F(const char *, vips_foreign_find_load_buffer, (const void *data, size_t length)) \
    F(VipsImage *, vips_image_new_from_buffer, (const void *data, size_t length, const char *options, ...)) \
    F(VipsImage *, vips_image_copy_memory, (VipsImage *image)) \
    F(void *, vips_image_write_to_memory, (VipsImage *image, size_t *length)) \
    F(int, vips_image_get_width, (const VipsImage *image)) \
    F(int, vips_image_get_height, (const VipsImage *image)) \
    F(int, vips_image_get_bands, (const VipsImage *image)) \
    F(int, vips_image_get_format, (const VipsImage *image)) \
    F(int, vips_image_get_n_pages, (VipsImage *image)) \
    F(int, vips_image_get_orientation_swap, (VipsImage *image)) \
    F(int, vips_image_hasalpha, (VipsImage *image)) \
    F(int, vips_thumbnail_buffer, (void *data, size_t length, VipsImage **out, int width, ...)) \
    F(int, vips_thumbnail_image, (VipsImage *in, VipsImage **out, int width, ...)) \
    F(int, vips_extract_band, (VipsImage *in, VipsImage **out, int band, ...)) \
    F(int, vips_min, (VipsImage *in, double *out, ...)) \
    F(VipsArea *, vips_array_double_newv, (int count, ...)) \
    F(void, vips_area_unref, (VipsArea *area)) \
    F(int, vips_flatten, (VipsImage *in, VipsImage **out, ...)) \
    F(int, vips_colourspace, (VipsImage *in, VipsImage **out, int space, ...)) \
    F(int, vips_cast, (VipsImage *in, VipsImage **out, int format, ...)) \
    F(int, vips_heifsave_buffer, (VipsImage *in, void **buffer, size_t *length, ...)) \
    F(int, vips_webpsave_buffer, (VipsImage *in, void **buffer, size_t *length, ...)) \
    F(int, vips_jpegsave_buffer, (VipsImage *in, void **buffer, size_t *length, ...)) \
    F(int, vips_pngsave_buffer, (VipsImage *in, void **buffer, size_t *length, ...))

#define MARQUEE_VIPS_POINTER(result, name, parameters) result (*name) parameters;
/// The functions, found by marquee_vips_start.
static struct { MARQUEE_VIPS_FUNCTIONS(MARQUEE_VIPS_POINTER) } marquee_vips;

static void marquee_vips_drop_log(const char *domain, int level, const char *message, void *data) {}

int marquee_vips_start(const char **missing) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *missing = dlerror();
        return -2;
    }
    // dlsym finds the GLib functions too: they are in libraries libvips depends on.
#define MARQUEE_VIPS_LOOK_UP(result, name, parameters) \
    if (!(*(void **)&marquee_vips.name = dlsym(library, #name))) { *missing = #name; return -2; }
    MARQUEE_VIPS_FUNCTIONS(MARQUEE_VIPS_LOOK_UP)
#undef MARQUEE_VIPS_LOOK_UP
    if (marquee_vips.vips_init("marquee")) return -1;
    // What goes wrong with an image reaches the user as the warning naming it (from libvips'
    // error buffer), not as lines libvips would print on its own.
    marquee_vips.g_log_set_handler("VIPS", MARQUEE_G_LOG_LEVEL_WARNING, marquee_vips_drop_log, NULL);
    // Marquee keeps its own cache of results (.marquee-cache/images); libvips' cache of
    // operations would only hold decoded pixels in memory between images.
    marquee_vips.vips_cache_set_max(0);
    // Marquee processes one image per core; libvips' own threads would only contend with it.
    marquee_vips.vips_concurrency_set(1);
    // Loaders libvips marks untrusted (ImageMagick, FITS, Matlab...) are never used: the
    // formats are checked before loading, and this closes the door on the rest. SVG (marked
    // untrusted too) is let through: librsvg draws it into pixels, running no script and
    // reading no other file for an SVG given in memory.
    marquee_vips.vips_block_untrusted_set(1);
    marquee_vips.vips_operation_block_set("VipsForeignLoadSvg", 0);
    return 0;
}

const char *marquee_vips_error_buffer(void) { return marquee_vips.vips_error_buffer(); }
void marquee_vips_error_clear(void) { marquee_vips.vips_error_clear(); }

void marquee_vips_unref(VipsImage *image) { marquee_vips.g_object_unref(image); }
void marquee_vips_free(void *memory) { marquee_vips.g_free(memory); }

int marquee_vips_width(VipsImage *image) { return marquee_vips.vips_image_get_width(image); }
int marquee_vips_height(VipsImage *image) { return marquee_vips.vips_image_get_height(image); }
int marquee_vips_bands(VipsImage *image) { return marquee_vips.vips_image_get_bands(image); }
int marquee_vips_has_alpha(VipsImage *image) { return marquee_vips.vips_image_hasalpha(image); }
int marquee_vips_pages(VipsImage *image) { return marquee_vips.vips_image_get_n_pages(image); }
int marquee_vips_orientation_swap(VipsImage *image) { return marquee_vips.vips_image_get_orientation_swap(image); }

void *marquee_vips_write_to_memory(VipsImage *image, size_t *length) {
    return marquee_vips.vips_image_write_to_memory(image, length);
}

const char *marquee_vips_loader(const void *data, size_t length) {
    return marquee_vips.vips_foreign_find_load_buffer(data, length);
}

VipsImage *marquee_vips_header(const void *data, size_t length) {
    return marquee_vips.vips_image_new_from_buffer(data, length, "", NULL);
}

int marquee_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out, int width, int height, int crop) {
    return marquee_vips.vips_thumbnail_buffer((void *)data, length, out, width, "height", height, "size", MARQUEE_VIPS_SIZE_DOWN,
        "crop", crop ? MARQUEE_VIPS_INTERESTING_CENTRE : MARQUEE_VIPS_INTERESTING_NONE, "option_string", "fail_on=warning", NULL);
}

int marquee_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int crop) {
    return marquee_vips.vips_thumbnail_image(in, out, width, "height", height, "size", MARQUEE_VIPS_SIZE_DOWN,
        "crop", crop ? MARQUEE_VIPS_INTERESTING_CENTRE : MARQUEE_VIPS_INTERESTING_NONE, NULL);
}

VipsImage *marquee_vips_copy_memory(VipsImage *in) {
    return marquee_vips.vips_image_copy_memory(in);
}

int marquee_vips_is_opaque(VipsImage *in) {
    if (!marquee_vips.vips_image_hasalpha(in)) return 1;
    VipsImage *alpha = NULL;
    double lowest = 0;
    if (marquee_vips.vips_extract_band(in, &alpha, marquee_vips.vips_image_get_bands(in) - 1, NULL)) return -1;
    int failed = marquee_vips.vips_min(alpha, &lowest, NULL);
    marquee_vips.g_object_unref(alpha);
    if (failed) return -1;
    int format = marquee_vips.vips_image_get_format(in);
    double opaque = format == MARQUEE_VIPS_FORMAT_UCHAR ? 255 : format == MARQUEE_VIPS_FORMAT_USHORT ? 65535 : 1;
    return lowest >= opaque;
}

int marquee_vips_squash(VipsImage *in, VipsImage **out, int width, int height) {
    return marquee_vips.vips_thumbnail_image(in, out, width, "height", height, "size", MARQUEE_VIPS_SIZE_FORCE, NULL);
}

int marquee_vips_srgb8(VipsImage *in, VipsImage **out, double grey) {
    VipsImage *flat = NULL, *rgb = NULL;
    if (marquee_vips.vips_image_hasalpha(in)) {
        VipsArea *background = marquee_vips.vips_array_double_newv(1, grey);
        int failed = marquee_vips.vips_flatten(in, &flat, "background", background, NULL);
        marquee_vips.vips_area_unref(background);
        if (failed) return -1;
    } else {
        flat = in;
        marquee_vips.g_object_ref(flat);
    }
    int failed = marquee_vips.vips_colourspace(flat, &rgb, MARQUEE_VIPS_INTERPRETATION_SRGB, NULL);
    marquee_vips.g_object_unref(flat);
    if (failed) return -1;
    failed = marquee_vips.vips_cast(rgb, out, MARQUEE_VIPS_FORMAT_UCHAR, NULL);
    marquee_vips.g_object_unref(rgb);
    return failed;
}

int marquee_vips_save_avif(VipsImage *in, void **buffer, size_t *length, int quality, int effort) {
    return marquee_vips.vips_heifsave_buffer(in, buffer, length, "Q", quality, "compression", MARQUEE_VIPS_HEIF_COMPRESSION_AV1,
        "effort", effort, "strip", 1, NULL);
}

int marquee_vips_save_webp(VipsImage *in, void **buffer, size_t *length, int quality, int effort) {
    return marquee_vips.vips_webpsave_buffer(in, buffer, length, "Q", quality, "effort", effort, "strip", 1, NULL);
}

int marquee_vips_save_jpeg(VipsImage *in, void **buffer, size_t *length, int quality) {
    return marquee_vips.vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", 1, "optimize_coding", 1,
        "interlace", 1, NULL);
}

int marquee_vips_save_png(VipsImage *in, void **buffer, size_t *length) {
    return marquee_vips.vips_pngsave_buffer(in, buffer, length, "strip", 1, NULL);
}
