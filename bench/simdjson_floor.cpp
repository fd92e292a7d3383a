// A floor beyond yajl (docs/PERFORMANCE.md, "A floor beyond yajl"): the
// cheapest walk of a Kineto trace with simdjson's on-demand API (Debian's
// libsimdjson-dev), every value of every event visited as the reader's
// yajl callbacks visit them (keys compared, strings unescaped, numbers as
// raw text).  Not part of gpuprof: a measurement.
//
//   whole    the file read into one padded buffer and walked (simdjson's
//            index: the whole file)
//   chunked  traceEvents cut at event boundaries (SEP, default "},\n  {",
//            the one-event-a-line layout) into pieces of about CHUNK bytes,
//            each wrapped in [ ] and walked, as a streaming reader would
//            (simdjson's index: a piece; the file is still loaded whole
//            here, so peak RSS counts it; the header is not walked)
//
// Build (bench/floors.sh does, where libsimdjson-dev is installed):
//   c++ -O2 -o simdjson_floor bench/simdjson_floor.cpp -lsimdjson
// Usage: simdjson_floor whole|chunked FILE [CHUNK [SEP]]  (prints the values)
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace simdjson;

static unsigned long long values;

static void walk(ondemand::value v);

static void walk_object(ondemand::object o)
{
	for (auto field : o) {
		std::string_view k = field.unescaped_key().value();
		values += k.size() == 2;   // a key compared, as the reader does
		walk(field.value());
	}
}

static void walk(ondemand::value v)
{
	switch (v.type().value()) {
	case ondemand::json_type::object:
		walk_object(v.get_object().value());
		break;
	case ondemand::json_type::array:
		for (auto e : v.get_array())
			walk(e.value());
		break;
	case ondemand::json_type::string:
		values += v.get_string().value().size() > 0;
		break;
	case ondemand::json_type::number:
		values += v.raw_json_token().size() > 0;
		break;
	default:
		values++;
		v.raw_json_token();
		break;
	}
}

static void walk_events(const char *s, size_t n, ondemand::parser &parser)
{
	padded_string buf(n + 2);
	buf.data()[0] = '[';
	memcpy(buf.data() + 1, s, n);
	buf.data()[n + 1] = ']';
	ondemand::document doc = parser.iterate(buf);
	for (auto e : doc.get_array())
		walk(e.value());
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: simdjson_floor whole|chunked FILE [CHUNK [SEP]]\n");
		return 2;
	}
	padded_string file;
	if (padded_string::load(argv[2]).get(file)) {
		perror(argv[2]);
		return 3;
	}
	ondemand::parser parser;
	if (strcmp(argv[1], "whole") == 0) {
		ondemand::document doc = parser.iterate(file);
		walk(doc.get_value().value());
	} else {
		size_t chunk = argc > 3 ? strtoull(argv[3], NULL, 10) : (4u << 20);
		const char *sep = argc > 4 ? argv[4] : "},\n  {";
		size_t seplen = strlen(sep);
		const char *s = file.data(), *end = s + file.size();
		const char *ev = strstr(s, "\"traceEvents\"");
		if (!ev || !(ev = strchr(ev, '[')))
			return 4;
		ev++;
		const char *stop = end;   // the "]" closing traceEvents: the last "]" before the final "}"
		while (stop > ev && *--stop != ']')
			;
		// bounded memory: the file is only read piece by piece
		while (ev < stop) {
			const char *cut = ev + chunk < stop ? ev + chunk : stop;
			if (cut < stop) {
				const char *b = (const char *)memmem(cut, (size_t)(stop - cut), sep, seplen);
				cut = b ? b + 1 : stop;
			}
			walk_events(ev, (size_t)(cut - ev), parser);
			ev = cut < stop ? cut + 1 : stop;   // past the ","
		}
	}
	printf("%llu values\n", values);
	return 0;
}
