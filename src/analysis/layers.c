/*
** Layer paths: components, depth cuts and module types; see layers.h.
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/layers.h"
#include "util/alloc.h"

const char *gp_layer_next(const char *path, size_t *pos, size_t *len)
{
	size_t i = *pos, j;

	while (path[i] == GP_LAYER_SEP)
		i++;
	if (!path[i])
		return NULL;
	for (j = i; path[j] && path[j] != GP_LAYER_SEP; j++)
		;
	*pos = j;
	*len = j - i;
	return path + i;
}

size_t gp_layer_type_len(const char *name, size_t len)
{
	size_t i = len;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == len || i < 2 || (name[i - 1] != '_' && name[i - 1] != '.'))
		return len;
	return i - 1;
}

int gp_layer_pass(const char *name, size_t len, size_t *base)
{
	static const struct {
		const char *word;
		int dir;
		bool any_case;
	} passes[] = {
		{"F", GP_DIR_FPROP, false}, {"B", GP_DIR_BPROP, false}, {"W", GP_DIR_WGRAD, false},
		{"fwd", GP_DIR_FPROP, true}, {"forward", GP_DIR_FPROP, true},
		{"bwd", GP_DIR_BPROP, true}, {"backward", GP_DIR_BPROP, true},
		{"wgrad", GP_DIR_WGRAD, true},
	};
	size_t open = len;

	*base = len;
	if (len < 4 || name[len - 1] != ')')
		return GP_DIR_NA;
	while (open > 0 && name[open - 1] != '(')
		open--;
	if (open < 2)   /* no '(' or nothing before it */
		return GP_DIR_NA;
	const char *w = name + open;
	size_t wlen = len - 1 - open;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]); i++)
		if (strlen(passes[i].word) == wlen &&
		    (passes[i].any_case ? strncasecmp(w, passes[i].word, wlen) : strncmp(w, passes[i].word, wlen)) == 0) {
			*base = open - 1;
			return passes[i].dir;
		}
	return GP_DIR_NA;
}

int gp_layer_path_pass(const char *path)
{
	size_t pos = 0, len, base;
	const char *c;
	int pass = GP_DIR_NA, p;

	while (path && (c = gp_layer_next(path, &pos, &len)) != NULL)
		if ((p = gp_layer_pass(c, len, &base)) != GP_DIR_NA)
			pass = p;
	return pass;
}

bool gp_layer_view_cuts(const struct gp_layer_view *v)
{
	return v->depth > 0 || v->module_type;
}

/* Appends s[0..n) to buf (holding *used bytes) within size, cut to fit. */
static void put(char *buf, size_t size, size_t *used, const char *s, size_t n)
{
	if (*used + n + 1 > size)
		n = size - *used - 1;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = 0;
}

char *gp_layer_key(const char *path, const struct gp_layer_view *v, char *buf, size_t size)
{
	size_t pos = 0, len, used = 0, last_len = 0;
	const char *c, *last = NULL;
	char sep = GP_LAYER_SEP;
	int n = 0;

	buf[0] = 0;
	while ((v->depth <= 0 || n < v->depth) && (c = gp_layer_next(path, &pos, &len)) != NULL) {
		if (!v->module_type) {
			if (n)
				put(buf, size, &used, &sep, 1);
			put(buf, size, &used, c, len);
		}
		last = c;
		last_len = len;
		n++;
	}
	if (v->module_type && last) {
		size_t base;
		gp_layer_pass(last, last_len, &base);
		put(buf, size, &used, last, gp_layer_type_len(last, base));
	}
	return buf;
}

gp_str gp_layer_cut_str(gp_trace *t, struct gp_layer_cut *c, gp_str layer)
{
	int32_t key;

	if (!layer)
		return 0;
	key = gp_u64map_get(&c->memo, layer);
	if (key < 0) {
		const char *path = gp_s(t, layer);
		size_t need = strlen(path) + 1;
		if (need > c->cap) {
			c->cap = need;
			c->buf = gp_xrealloc(c->buf, c->cap);
		}
		gp_layer_key(path, c->v, c->buf, c->cap);
		key = *c->buf ? (int32_t)gp_intern(t, c->buf) : 0;
		gp_u64map_put(&c->memo, layer, key);
	}
	return (gp_str)key;
}

void gp_layer_cut_free(struct gp_layer_cut *c)
{
	free(c->buf);
	gp_u64map_free(&c->memo);
	memset(c, 0, sizeof(*c));
}

void gp_layers_apply(gp_trace *t, const struct gp_layer_view *v)
{
	struct gp_layer_cut c = {.v = v};

	if (!t->attrs || !gp_layer_view_cuts(v))
		return;
	for (size_t k = 0; k < t->kernels.n; k++)
		t->attrs[k].layer = gp_layer_cut_str(t, &c, t->attrs[k].layer);
	gp_layer_cut_free(&c);
}
