#ifndef FOLIO_CRAW_SHIM_H
#define FOLIO_CRAW_SHIM_H

/* LibRaw reads cameras' RAW files for Folio: their facts, their embedded previews, and develops
   their sensor data. The thread-safe build (libraw_r): photos are read from many tasks at once.
   Only RAWDecoder.swift imports this module. */
#include <libraw/libraw.h>

#endif
