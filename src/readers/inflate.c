/*
** Chunked reading of gzip (or plain) files, optionally inflated on a
** second thread.  See inflate.h.
*/
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/alloc.h"
#include "readers/inflate.h"

#define RING 4   /* chunk buffers between the inflating and the parsing thread */

struct gp_inflate {
	gzFile z;
	size_t chunk;
	bool threaded;

	/* on the caller's thread: one buffer */
	char *own_buf;

	/* threaded: a ring of RING chunk buffers filled by the inflating
	** thread and drained by the caller */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, drained;
	char *buf[RING];
	long len[RING];           /* bytes in the slot; 0 = end, -1 = error */
	char errmsg[RING][160];
	uint64_t slot_pos[RING];  /* compressed bytes consumed after the slot's chunk */
	unsigned head, count;     /* next slot to fill; slots filled */
	unsigned tail;            /* next slot to hand to the caller */
	bool held;                /* the caller still reads slot tail */
	bool stop;                /* the caller is done: the inflating thread exits */
	uint64_t pos;             /* compressed bytes consumed after the chunk handed out */
};

/* gzread into buf (size bytes); -1 with *why (owned by z) on error. */
static long gz_chunk(gzFile z, char *buf, size_t size, const char **why)
{
	int n = gzread(z, buf, (unsigned)size);
	int code;

	if (n < 0) {
		*why = gzerror(z, &code);
		return -1;
	}
	if (n == 0) {
		const char *m = gzerror(z, &code);
		if (code != Z_OK && code != Z_STREAM_END) {
			*why = m;
			return -1;
		}
	}
	return n;
}

/* The inflating thread: fills free slots until the end of the data, an
** error, or the caller says stop. */
static void *inflate_thread(void *arg)
{
	struct gp_inflate *g = arg;

	for (;;) {
		pthread_mutex_lock(&g->mu);
		while (g->count == RING && !g->stop)
			pthread_cond_wait(&g->drained, &g->mu);
		unsigned slot = g->head;
		bool stop = g->stop;
		pthread_mutex_unlock(&g->mu);
		if (stop)
			return NULL;
		const char *why = NULL;
		long n = gz_chunk(g->z, g->buf[slot], g->chunk, &why);
		z_off_t at = gzoffset(g->z);
		g->slot_pos[slot] = at > 0 ? (uint64_t)at : 0;
		if (n < 0)
			snprintf(g->errmsg[slot], sizeof(g->errmsg[slot]), "%s", why ? why : "");
		pthread_mutex_lock(&g->mu);
		g->len[slot] = n;
		g->head = (slot + 1) % RING;
		g->count++;
		pthread_cond_signal(&g->filled);
		pthread_mutex_unlock(&g->mu);
		if (n <= 0)
			return NULL;
	}
}

/* Sets up the ring and starts the inflating thread; false (with nothing
** read and nothing left allocated) if the thread cannot be started. */
static bool start_thread(struct gp_inflate *g)
{
	for (int i = 0; i < RING; i++)
		g->buf[i] = gp_xmalloc(g->chunk);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->filled, NULL);
	pthread_cond_init(&g->drained, NULL);
	if (pthread_create(&g->thread, NULL, inflate_thread, g) == 0)
		return true;
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->filled);
	pthread_cond_destroy(&g->drained);
	for (int i = 0; i < RING; i++)
		free(g->buf[i]);
	return false;
}

gp_inflate *gp_inflate_open(const char *path, size_t chunk, bool threaded, gp_error *err)
{
	gzFile z = gzopen(path, "rb");   /* not gzdopen: zlib's messages name the file */
	struct gp_inflate *g;

	if (!z) {
		gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	gzbuffer(z, (unsigned)chunk);
	g = gp_xcalloc(1, sizeof(*g));
	g->z = z;
	g->chunk = chunk;
	g->threaded = threaded && start_thread(g);
	if (!g->threaded)
		g->own_buf = gp_xmalloc(chunk);
	return g;
}

/* The next filled slot of the ring, after giving back the one the caller
** held. */
static long read_ring(struct gp_inflate *g, const char **data, const char **why)
{
	long n;

	pthread_mutex_lock(&g->mu);
	if (g->held) {   /* the caller is done with the previous chunk */
		g->tail = (g->tail + 1) % RING;
		g->count--;
		g->held = false;
		pthread_cond_signal(&g->drained);
	}
	while (g->count == 0)
		pthread_cond_wait(&g->filled, &g->mu);
	n = g->len[g->tail];
	g->pos = g->slot_pos[g->tail];
	pthread_mutex_unlock(&g->mu);
	if (n > 0) {
		*data = g->buf[g->tail];
		g->held = true;
	} else if (n < 0) {
		*why = g->errmsg[g->tail];
	}
	return n;
}

long gp_inflate_read(gp_inflate *g, const char **data, const char **why)
{
	if (g->threaded)
		return read_ring(g, data, why);
	*data = g->own_buf;
	long n = gz_chunk(g->z, g->own_buf, g->chunk, why);
	z_off_t at = gzoffset(g->z);
	g->pos = at > 0 ? (uint64_t)at : 0;
	return n;
}

const char *gp_inflate_cause(const char *why, const char *path)
{
	size_t pl = strlen(path);

	if (!why)
		return "read error";
	if (strncmp(why, path, pl) == 0 && strncmp(why + pl, ": ", 2) == 0)
		return why + pl + 2;
	return why;
}

uint64_t gp_inflate_position(const gp_inflate *g)
{
	return g->pos;
}

void gp_inflate_close(gp_inflate *g)
{
	if (!g)
		return;
	if (g->threaded) {
		pthread_mutex_lock(&g->mu);   /* stop the thread, also after errors */
		g->stop = true;
		pthread_cond_signal(&g->drained);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->thread, NULL);
		pthread_mutex_destroy(&g->mu);
		pthread_cond_destroy(&g->filled);
		pthread_cond_destroy(&g->drained);
		for (int i = 0; i < RING; i++)
			free(g->buf[i]);
	}
	free(g->own_buf);
	gzclose(g->z);
	free(g);
}
