/*
** The MPI build (make MPI=1; compiled only then): the files of a command
** of many files are spread over the MPI processes, each reads its share
** (file i goes to process i mod size) with its own threads, and sends its
** results to process 0, which writes the output.  A file that fails is
** sent as an error record, so every process always reaches the exchange
** and none waits forever.  The record encoding (docs/ranks.md, "MPI
** records"), version 1, little-endian:
**   "GPMR" u32 version u32 count, then per result:
**   u32 index, u32 status, i32 rank, i32 world, u32 source,
**   blob error, rows rows, rows record
** where blob = u64 length + bytes, and rows = u32 ncols, u64 nrows, blob
** (the kept rows' bytes, util/rows.h).
*/
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"

#define MAGIC "GPMR"
#define VERSION 2u
#define TAG 4242

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = gp_xrealloc(b->p, b->cap);
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_u64(struct buf *b, uint64_t v)
{
	unsigned char x[8];

	for (int i = 0; i < 8; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	put(b, x, 8);
}

static void put_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4];

	for (int i = 0; i < 4; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	put(b, x, 4);
}

static void put_blob(struct buf *b, const void *p, size_t n)
{
	put_u64(b, n);
	put(b, p, n);
}

static void put_rows(struct buf *b, const struct gp_rowbuf *rb)
{
	put_u32(b, (uint32_t)rb->ncols);
	put_u64(b, rb->nrows);
	put_blob(b, rb->data, rb->len);
}

/* A reader over received bytes; any read past the end sets bad. */
struct cursor {
	const unsigned char *p;
	size_t len, at;
	int bad;
};

static uint64_t get_u(struct cursor *c, int bytes)
{
	uint64_t v = 0;

	if (c->bad || c->len - c->at < (size_t)bytes) {
		c->bad = 1;
		return 0;
	}
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)c->p[c->at + (size_t)i] << (8 * i);
	c->at += (size_t)bytes;
	return v;
}

/* A blob as a malloc'd copy with a terminating NUL (*n its length). */
static char *get_blob(struct cursor *c, size_t *n)
{
	uint64_t len = get_u(c, 8);
	char *s;

	if (c->bad || len > c->len - c->at) {
		c->bad = 1;
		return NULL;
	}
	s = gp_xmalloc((size_t)len + 1);
	memcpy(s, c->p + c->at, (size_t)len);
	s[len] = '\0';
	c->at += (size_t)len;
	*n = (size_t)len;
	return s;
}

static void get_rows(struct cursor *c, struct gp_rowbuf *rb)
{
	gp_rowbuf_free(rb);
	rb->ncols = (int)get_u(c, 4);
	rb->nrows = get_u(c, 8);
	rb->data = get_blob(c, &rb->len);
	rb->cap = rb->len;
}

/* This process's results (files i with i % size == rank) as bytes. */
static void encode(const struct gp_cli_result *res, size_t n, int rank, int size, struct buf *b)
{
	uint32_t count = 0;

	for (size_t i = (size_t)rank; i < n; i += (size_t)size)
		count++;
	put(b, MAGIC, 4);
	put_u32(b, VERSION);
	put_u32(b, count);
	for (size_t i = (size_t)rank; i < n; i += (size_t)size) {
		const struct gp_cli_result *r = &res[i];
		put_u32(b, (uint32_t)i);
		put_u32(b, (uint32_t)r->status);
		put_u32(b, (uint32_t)r->id.rank);
		put_u32(b, (uint32_t)r->id.world);
		put_u32(b, r->id.source);
		put(b, r->id.gpu, sizeof(r->id.gpu));
		put(b, r->id.backend, sizeof(r->id.backend));
		put_u64(b, (uint64_t)r->id.start);
		put_blob(b, r->error, r->error ? strlen(r->error) : 0);
		put_rows(b, &r->rows);
		put_rows(b, &r->record);
	}
}

/* Fills res[] from process from's bytes; GP_ERR_FORMAT when they are not
** a version-1 record of files that process was given. */
static int decode(const unsigned char *p, size_t len, struct gp_cli_result *res, size_t n, int from,
		  int size, gp_error *err)
{
	struct cursor c = {p, len, 0, 0};
	uint32_t count;

	if (len < 12 || memcmp(p, MAGIC, 4) != 0)
		return gp_err(err, GP_ERR_FORMAT, "MPI process %d: not a gpuprof record", from);
	c.at = 4;
	if (get_u(&c, 4) != VERSION)
		return gp_err(err, GP_ERR_FORMAT, "MPI process %d: record version is not %u", from, VERSION);
	count = (uint32_t)get_u(&c, 4);
	for (uint32_t k = 0; k < count && !c.bad; k++) {
		size_t i = (size_t)get_u(&c, 4), elen = 0;
		struct gp_cli_result *r;
		if (i >= n || (int)(i % (size_t)size) != from) {
			c.bad = 1;
			break;
		}
		r = &res[i];
		r->status = (int)get_u(&c, 4);
		r->id.rank = (int32_t)get_u(&c, 4);
		r->id.world = (int32_t)get_u(&c, 4);
		r->id.source = (uint8_t)get_u(&c, 4);
		for (size_t k = 0; k < sizeof(r->id.gpu); k++)
			r->id.gpu[k] = (char)get_u(&c, 1);
		for (size_t k = 0; k < sizeof(r->id.backend); k++)
			r->id.backend[k] = (char)get_u(&c, 1);
		r->id.gpu[sizeof(r->id.gpu) - 1] = r->id.backend[sizeof(r->id.backend) - 1] = '\0';
		r->id.start = (gp_ns)get_u(&c, 8);
		free(r->error);
		r->error = get_blob(&c, &elen);
		if (r->error && !elen) {
			free(r->error);
			r->error = NULL;
		}
		get_rows(&c, &r->rows);
		get_rows(&c, &r->record);
		if (r->status != GP_OK && !r->error)
			r->error = gp_xstrdup("failed on another MPI process (no message)");
	}
	if (c.bad || c.at != len)
		return gp_err(err, GP_ERR_FORMAT, "MPI process %d: record damaged at byte %zu of %zu", from, c.at,
			      len);
	return GP_OK;
}

void gp_mpi_begin(int *rank, int *size)
{
	int up = 0;

	MPI_Initialized(&up);
	if (!up)
		MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
}

int gp_mpi_gather(struct gp_cli_result *res, size_t n, int rank, int size, gp_error *err)
{
	struct buf b = {0};
	int rc = GP_OK;

	if (rank != 0) {
		encode(res, n, rank, size, &b);
		/* one message per process: a share of files' rows stays far below 2 GiB */
		MPI_Send(b.p, (int)b.len, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
		free(b.p);
		return GP_OK;
	}
	for (int from = 1; from < size; from++) {
		MPI_Status st;
		int count = 0;
		MPI_Probe(from, TAG, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &count);
		unsigned char *p = gp_xmalloc(count > 0 ? (size_t)count : 1);
		MPI_Recv(p, count, MPI_BYTE, from, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (rc == GP_OK)
			rc = decode(p, (size_t)count, res, n, from, size, err);
		free(p);
	}
	return rc;
}

int gp_mpi_end(int rc)
{
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return rc;
}
