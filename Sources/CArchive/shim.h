#ifndef FOLIO_CARCHIVE_SHIM_H
#define FOLIO_CARCHIVE_SHIM_H

/* libarchive reads the .zip and .tgz parts of a Google Takeout export for Folio.
   Only ArchiveReader.swift imports this module. */
#include <archive.h>
#include <archive_entry.h>

#endif
