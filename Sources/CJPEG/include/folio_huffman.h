#ifndef FOLIO_HUFFMAN_H
#define FOLIO_HUFFMAN_H

#include <stddef.h>

/* Rewrites a sequential JPEG of one interleaved scan, written with any Huffman tables and no
   restart markers (libjpeg's baseline output), with Huffman tables optimised for its own
   symbols: the file libjpeg makes with optimize_coding, byte for byte, without its second
   pass over the coefficients. Returns a malloc'd buffer and sets *size, or NULL for a file of
   another shape (the caller then has libjpeg optimise) or when memory runs out. */
unsigned char *folio_huffman_optimise(const unsigned char *jpeg, size_t length, size_t *size);

#endif
