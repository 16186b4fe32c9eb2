#ifndef FOLIO_BUILD_IDENTITY_H
#define FOLIO_BUILD_IDENTITY_H

/* Which build of Folio this is, as `folio --version` says it after the version number:
   "git abc1234, built 2026-11-23" for a package made by scripts/package-deb.sh (which sets
   FOLIO_BUILD_IDENTITY for Package.swift to define here), "development build" otherwise. */
const char *folio_build_identity(void);

#endif
