/*
** --inject: the changes gpuprof-gen makes to its workload so that a pair of
** runs differs in known ways (the tests of `gpuprof diff`).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

int gen_inject_parse(char *spec, struct gen_inject *in, gp_error *err)
{
	char *save = NULL;

	for (char *item = strtok_r(spec, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *value = strchr(item, '=');
		if (!value || !value[1])
			return gp_err(err, GP_ERR_USAGE, "--inject: '%s' is not KEY=VALUE", item);
		*value++ = '\0';
		if (strcmp(item, "slow-op") == 0) {
			/* op names hold colons ("aten::gelu"): the factor follows the last one */
			char *colon = strrchr(value, ':'), *end;
			double f = colon ? strtod(colon + 1, &end) : NAN;
			if (!colon || colon == value || end == colon + 1 || *end || !(f > 0) || f > 1000)
				return gp_err(err, GP_ERR_USAGE, "--inject slow-op wants OP:FACTOR (e.g. aten::gelu:1.2), not '%s'",
					      value);
			*colon = '\0';
			in->slow_op = value;
			in->slow_factor = f;
		} else if (strcmp(item, "add-kernel") == 0) {
			in->add_op = value;
		} else if (strcmp(item, "no-tc") == 0) {
			in->no_tc = value;
		} else if (strcmp(item, "dataloader") == 0) {
			char *end;
			double f = strtod(value, &end);
			if (end == value || *end || !(f >= 0) || f > 1000)
				return gp_err(err, GP_ERR_USAGE, "--inject dataloader wants a factor >= 0, not '%s'", value);
			in->data_loader = true;
			in->loader_factor = f;
		} else if (strcmp(item, "copies") == 0) {
			if (strcmp(value, "pinned") != 0)
				return gp_err(err, GP_ERR_USAGE, "--inject copies wants pinned, not '%s'", value);
			in->pinned = true;
		} else if (strcmp(item, "autotune") == 0 || strcmp(item, "malloc") == 0) {
			char *end;
			double us = strtod(value, &end);
			if (end == value || *end || !(us > 0) || us > 1e7)
				return gp_err(err, GP_ERR_USAGE, "--inject %s wants microseconds > 0, not '%s'", item, value);
			*(item[0] == 'a' ? &in->autotune_us : &in->malloc_us) = us;
		} else {
			return gp_err(err, GP_ERR_USAGE,
				      "--inject: unknown change '%s' (slow-op, add-kernel, no-tc, dataloader, copies, "
				      "autotune or malloc)", item);
		}
	}
	return 0;
}
