/*
** CUPTI callback ids (nvprof RUNTIME/DRIVER `cbid`) -> API names, without
** the "_vNNNN" suffix.  The tables are generated (scripts/gen-cbid.sh:
** cupti_cbid_runtime.c, cupti_cbid_driver.c).
**
** Ownership: returned strings are static.
*/
#ifndef GP_CUPTI_CBID_H
#define GP_CUPTI_CBID_H

/* "cudaLaunchKernel" for 211; NULL for an id the tables do not know. */
const char *gp_cupti_runtime_name(int cbid);
/* "cuLaunchKernel" for 307; NULL for an unknown id. */
const char *gp_cupti_driver_name(int cbid);

#endif
