/*
** Replays fuzz inputs through a LLVMFuzzerTestOneInput target without
** libFuzzer: each argument is a file or a directory of files.  Used by
** `make check` so every fuzz target runs over its corpus (and under the
** sanitizer build) on machines without clang's fuzzer runtime.  A path
** that cannot be read is a failure, not a silently smaller corpus.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs the target on one file's bytes; false (with a message) if the file
** cannot be read. */
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		perror(path);
		return 0;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "%s: cannot read\n", path);
		fclose(f);
		free(buf);
		return 0;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 1;
}

int main(int argc, char **argv)
{
	int count = 0, unread = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d = NULL;
		if (stat(argv[i], &st) != 0 || (S_ISDIR(st.st_mode) && !(d = opendir(argv[i])))) {
			perror(argv[i]);
			unread++;
			continue;
		}
		if (!d) {
			if (replay_file(argv[i]))
				count++;
			else
				unread++;
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			char p[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			if (replay_file(p))
				count++;
			else
				unread++;
		}
		closedir(d);
	}
	printf("replayed %d inputs, %d unreadable\n", count, unread);
	return count > 0 && unread == 0 ? 0 : 1;
}
