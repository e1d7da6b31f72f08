// libvips, loaded when the first image is processed rather than linked: libvips and the
// ninety libraries it needs take longer to load than the rest of Marquee's start, and most
// builds have no image to process. So vips.c declares the part of libvips' C API that Marquee
// calls (its stable ABI, libvips.so.42, from libvips 8's headers) and looks each function up
// once the library is opened; this header declares what Swift calls.
//
// Each wrapper names the options Marquee sets: libvips takes its options as NULL-terminated
// variadic lists, which Swift cannot call.
#include <stddef.h>

typedef struct _VipsImage VipsImage;

/// Loads and starts libvips, once per process: 0 on success, -1 when libvips could not start
/// (its error buffer says why), -2 when the library or a function is missing (`missing` then
/// says which).
int marquee_vips_start(const char **missing);

/// libvips' error buffer: what failed since it was last cleared.
const char *marquee_vips_error_buffer(void);

/// Empties the error buffer.
void marquee_vips_error_clear(void);

/// Releases an image (or any libvips object).
void marquee_vips_unref(VipsImage *image);

/// Frees memory libvips handed over (an encoded buffer, pixels written to memory).
void marquee_vips_free(void *memory);

/// The image's header: width, height, bands, whether one is alpha, pages.
int marquee_vips_width(VipsImage *image);
int marquee_vips_height(VipsImage *image);
int marquee_vips_bands(VipsImage *image);
int marquee_vips_has_alpha(VipsImage *image);
int marquee_vips_pages(VipsImage *image);

/// Nonzero when the orientation tag turns the image on its side.
int marquee_vips_orientation_swap(VipsImage *image);

/// The image's pixels, band-interleaved, in memory the caller frees with marquee_vips_free.
void *marquee_vips_write_to_memory(VipsImage *image, size_t *length);

/// The name of the loader libvips would use for these bytes ("jpegload_buffer"), or NULL.
const char *marquee_vips_loader(const void *data, size_t length);

/// An image whose header is read and whose pixels are not decoded yet; NULL on error.
VipsImage *marquee_vips_header(const void *data, size_t length);

/// Decodes, shrinking while loading where the format allows it, and scales to fit
/// width × height (crop: fill the box and cut what is outside, from the centre). Never enlarges.
/// Fails on anything the decoder warns about: libjpeg reports a file cut short only as a warning.
/// (libvips 8.14 passes its loader only the option string, not the thumbnail's own fail_on.)
int marquee_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out, int width, int height, int crop);

/// As marquee_vips_thumbnail_buffer, from an image already decoded.
int marquee_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int crop);

/// The image's pixels computed once and held in memory, for several renditions made from them.
VipsImage *marquee_vips_copy_memory(VipsImage *in);

/// 1 when the image has no alpha band or every pixel of it is opaque, 0 when some pixel shows
/// through, -1 on error.
int marquee_vips_is_opaque(VipsImage *in);

/// The image scaled to exactly width × height (for the placeholder's colour).
int marquee_vips_squash(VipsImage *in, VipsImage **out, int width, int height);

/// The image as 8-bit sRGB with three bands, its alpha flattened onto `grey`.
int marquee_vips_srgb8(VipsImage *in, VipsImage **out, double grey);

/// The image encoded, metadata stripped, in a buffer the caller frees with marquee_vips_free.
int marquee_vips_save_avif(VipsImage *in, void **buffer, size_t *length, int quality, int effort);
int marquee_vips_save_webp(VipsImage *in, void **buffer, size_t *length, int quality, int effort);
int marquee_vips_save_jpeg(VipsImage *in, void **buffer, size_t *length, int quality);
int marquee_vips_save_png(VipsImage *in, void **buffer, size_t *length);
