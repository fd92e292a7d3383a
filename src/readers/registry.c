/*
** The list of readers the loader tries.  A new input format adds one line.
*/
#include "readers/reader.h"

extern const struct gp_reader gp_reader_nsys;
extern const struct gp_reader gp_reader_nvprof;
extern const struct gp_reader gp_reader_kineto;
extern const struct gp_reader gp_reader_gprec;
extern const struct gp_reader gp_reader_rocprof;
extern const struct gp_reader gp_reader_rocprof_csv;
extern const struct gp_reader gp_reader_xplane;

const struct gp_reader *const gp_readers[] = {
	&gp_reader_nsys,
	&gp_reader_nvprof,
	&gp_reader_kineto,
	&gp_reader_gprec,
	&gp_reader_rocprof,
	&gp_reader_rocprof_csv,
	&gp_reader_xplane,
	NULL,
};
