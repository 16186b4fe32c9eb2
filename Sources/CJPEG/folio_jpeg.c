#include "folio_jpeg.h"
#include "folio_huffman.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* libjpeg reports a fatal error by calling error_exit, which by default ends the process.
   This one jumps back into folio_jpeg_encode instead, keeping the message. */
struct folio_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf back;
    char *message;
    size_t message_size;
};

static void folio_error_exit(j_common_ptr info) {
    struct folio_error_manager *manager = (struct folio_error_manager *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    if (manager->message_size > 0) {
        snprintf(manager->message, manager->message_size, "%s", text);
    }
    longjmp(manager->back, 1);
}

/* Warnings (corrupt-data notes) only matter when decoding; an encoder has none worth a word. */
static void folio_output_message(j_common_ptr info) {
    (void)info;
}

/* A growing malloc'd buffer as the destination. libjpeg's own jpeg_mem_dest cannot be cleaned
   up after an error (it frees the first buffer while the caller still points at it). */
struct folio_destination {
    struct jpeg_destination_mgr base;
    unsigned char *buffer;
    size_t capacity;
};

static int folio_destination_grow(struct folio_destination *destination, size_t capacity) {
    unsigned char *grown = realloc(destination->buffer, capacity);
    if (grown == NULL) {
        return 0;
    }
    size_t used = destination->capacity - destination->base.free_in_buffer;
    destination->buffer = grown;
    destination->capacity = capacity;
    destination->base.next_output_byte = grown + used;
    destination->base.free_in_buffer = capacity - used;
    return 1;
}

static void folio_init_destination(j_compress_ptr info) {
    (void)info;
}

static boolean folio_empty_output_buffer(j_compress_ptr info) {
    struct folio_destination *destination = (struct folio_destination *)info->dest;
    /* libjpeg calls this when the whole buffer is full, and next_output_byte and free_in_buffer
       may be stale: the Huffman encoder writes through its own copies of them and hands them
       back only after this returns (libjpeg.txt: "ignore the current state"). Reading them put
       the rest of a large JPEG at the wrong offset: blocks of wrong colour in quality-100
       renditions and in detailed photos past a quarter byte per pixel. */
    destination->base.free_in_buffer = 0;
    if (!folio_destination_grow(destination, destination->capacity * 2)) {
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 10);
    }
    return TRUE;
}

static void folio_term_destination(j_compress_ptr info) {
    (void)info;
}

static const jpeg_scan_info dc_first_scans[] = {
    {3, {0, 1, 2}, 0, 0, 0, 0},   /* DC of Y, Cb and Cr, interleaved */
    {1, {0}, 1, 63, 0, 0},        /* AC of Y */
    {1, {1}, 1, 63, 0, 0},        /* AC of Cb */
    {1, {2}, 1, 63, 0, 0},        /* AC of Cr */
};

/* Everything one encode owns, kept out of the frame that calls setjmp: values changed after a
   setjmp in that frame are indeterminate once longjmp returns to it. */
struct folio_encode {
    struct jpeg_compress_struct info;
    struct folio_error_manager errors;
    struct folio_destination destination;
};

static int folio_encode_run(struct folio_encode *encode, const unsigned char *pixels, int width, int height,
                            int quality, folio_jpeg_layout layout, const unsigned char *icc, unsigned int icc_size) {
    struct jpeg_compress_struct *info = &encode->info;
    struct folio_destination *destination = &encode->destination;

    info->err = jpeg_std_error(&encode->errors.base);
    encode->errors.base.error_exit = folio_error_exit;
    encode->errors.base.output_message = folio_output_message;
    if (setjmp(encode->errors.back)) {
        jpeg_destroy_compress(info);
        return -1;
    }
    jpeg_create_compress(info);

    /* A start near the final size of a photo rendition: few reallocations. */
    destination->capacity = (size_t)width * (size_t)height / 4 + 4096;
    destination->buffer = malloc(destination->capacity);
    if (destination->buffer == NULL) {
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 10);
    }
    destination->base.next_output_byte = destination->buffer;
    destination->base.free_in_buffer = destination->capacity;
    destination->base.init_destination = folio_init_destination;
    destination->base.empty_output_buffer = folio_empty_output_buffer;
    destination->base.term_destination = folio_term_destination;
    info->dest = &destination->base;

    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    info->input_components = 4;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    info->in_color_space = JCS_EXT_BGRX;
#else
    info->in_color_space = JCS_EXT_XRGB;
#endif
    jpeg_set_defaults(info); /* YCbCr, 4:2:0 */
    jpeg_set_quality(info, quality, TRUE);
    info->dct_method = JDCT_IFAST; /* what TurboJPEG compresses with: no visible difference */
    if (layout == FOLIO_JPEG_DC_FIRST) {
        info->optimize_coding = TRUE;
        info->scan_info = dc_first_scans;
        info->num_scans = (int)(sizeof dc_first_scans / sizeof dc_first_scans[0]);
    } else if (layout == FOLIO_JPEG_ONE_SCAN_BY_LIBJPEG) {
        info->optimize_coding = TRUE;
    }

    jpeg_start_compress(info, TRUE);
    if (icc != NULL && icc_size > 0) {
        jpeg_write_icc_profile(info, icc, icc_size);
    }
    const size_t stride = (size_t)width * 4;
    JSAMPROW rows[16];
    while (info->next_scanline < info->image_height) {
        JDIMENSION count = 0;
        while (count < 16 && info->next_scanline + count < info->image_height) {
            rows[count] = (JSAMPROW)(pixels + (size_t)(info->next_scanline + count) * stride);
            count++;
        }
        jpeg_write_scanlines(info, rows, count);
    }
    jpeg_finish_compress(info);
    jpeg_destroy_compress(info);
    return 0;
}

int folio_jpeg_encode(const unsigned char *pixels, int width, int height, int quality,
                      folio_jpeg_layout layout, const unsigned char *icc, unsigned int icc_size,
                      unsigned char **output, unsigned long *size, char *message, size_t message_size) {
    struct folio_encode encode;
    memset(&encode, 0, sizeof encode);
    encode.errors.message = message;
    encode.errors.message_size = message_size;
    *output = NULL;
    *size = 0;
    /* One scan is written with the standard tables first, then with its own. */
    folio_jpeg_layout first = layout == FOLIO_JPEG_ONE_SCAN ? FOLIO_JPEG_BASELINE : layout;
    if (folio_encode_run(&encode, pixels, width, height, quality, first, icc, icc_size) != 0) {
        free(encode.destination.buffer);
        return -1;
    }
    unsigned char *written = encode.destination.buffer;
    size_t written_size = encode.destination.capacity - encode.destination.base.free_in_buffer;
    if (layout == FOLIO_JPEG_ONE_SCAN) {
        size_t optimised_size = 0;
        unsigned char *optimised = folio_huffman_optimise(written, written_size, &optimised_size);
        free(written);
        if (optimised == NULL) {
            /* Not a file it reads back (or no memory): libjpeg optimises it, the long way. */
            return folio_jpeg_encode(pixels, width, height, quality, FOLIO_JPEG_ONE_SCAN_BY_LIBJPEG, icc, icc_size,
                                     output, size, message, message_size);
        }
        written = optimised;
        written_size = optimised_size;
    }
    *output = written;
    *size = (unsigned long)written_size;
    return 0;
}

void folio_jpeg_free(unsigned char *output) {
    free(output);
}
