#ifndef FOLIO_JPEG_H
#define FOLIO_JPEG_H

#include <stddef.h>

/* How the scans of a JPEG are laid out. */
typedef enum {
    /* One interleaved scan with libjpeg's standard Huffman tables: the cheapest to write. */
    FOLIO_JPEG_BASELINE = 0,
    /* The DC of all three components first (a blurred whole picture at once), then each
       component's AC in one scan, with Huffman tables optimised per scan. Files as small as
       libjpeg's ten-scan progressive script, at about half its encoding time. */
    FOLIO_JPEG_DC_FIRST = 1,
    /* One interleaved scan with Huffman tables optimised for it: for a small image, which
       arrives whole at once, smaller and quicker to write than DC first. Written with the
       standard tables, then again with tables optimised from its symbols (folio_huffman.c). */
    FOLIO_JPEG_ONE_SCAN = 2,
    /* The same file as FOLIO_JPEG_ONE_SCAN, by libjpeg's own optimisation (a second pass over
       every block's coefficients): two to four times slower. What ONE_SCAN falls back to for a
       file it cannot read back, and what the tests hold it to. */
    FOLIO_JPEG_ONE_SCAN_BY_LIBJPEG = 3,
} folio_jpeg_layout;

/* Encodes 4:2:0 JPEG from packed 32-bit pixels 0x??RRGGBB in native byte order (the X byte is
   ignored), with the ICC profile `icc` in APP2 markers when icc_size is not 0. On success returns
   0 and sets *output (free it with folio_jpeg_free) and *size. On failure returns -1 and writes
   libjpeg's message into `message`. Never exits the process. */
int folio_jpeg_encode(const unsigned char *pixels, int width, int height, int quality,
                      folio_jpeg_layout layout, const unsigned char *icc, unsigned int icc_size,
                      unsigned char **output, unsigned long *size, char *message, size_t message_size);

void folio_jpeg_free(unsigned char *output);

#endif
