#include "folio_build_identity.h"

/* A C file because a build setting can give C a string and cannot give Swift one; only this
   file is compiled again when the identity changes. */
#ifndef FOLIO_BUILD_IDENTITY
#define FOLIO_BUILD_IDENTITY "development build"
#endif

const char *folio_build_identity(void) {
    return FOLIO_BUILD_IDENTITY;
}
