#include "folio_build_identity.h"

/* A C file because a build setting can give C a string and cannot give Swift one. Only the
   executable imports it, so a new identity recompiles this file and the executable's few sources. */
#ifndef FOLIO_BUILD_IDENTITY
#define FOLIO_BUILD_IDENTITY "development build"
#endif

const char *folio_build_identity(void) {
    return FOLIO_BUILD_IDENTITY;
}
