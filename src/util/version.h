/*
** gpuprof's version, as `gpuprof --version` prints it and outputs that
** record what wrote them (the sqlite export's facts) store it.  The build
** may set it (-DGP_VERSION=...).
**
** Ownership: a constant string.
*/
#ifndef GP_VERSION_H
#define GP_VERSION_H

#ifndef GP_VERSION
#define GP_VERSION "0.1.0"
#endif

#endif
