// `ptxfu check` on a 100,000-line module, single thread: end to end
// (cli::run_check from a FILE*), and the reading alone (isa::lex, and lex +
// isa::parse_module) to see where the time goes. The goal: under 1 s per
// 100,000 lines.
//
// The module is real nvcc output: the kernels of three corpus files
// (tb/corpus/ptx/*.sm_90.ptx) repeated with a numbered suffix on every
// entry name until the module has 100,000 lines.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "cli/check_cmd.h"
#include "isa/lexer.h"
#include "isa/module.h"

namespace {

constexpr size_t kTargetLines = 100000;
constexpr const char* kSources[] = {"softmax.sm_90.ptx", "matmul_tiled.sm_90.ptx", "int_hash.sm_90.ptx"};

std::string read_corpus_file(const std::string& name) {
  std::ifstream in(std::string(PTXFU_CORPUS_DIR) + "/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One corpus file cut at its function boundaries: nvcc puts the module
// directives first, each function from its `.entry` line to a `}` alone on a
// line, and the .file/.section debug directives last.
struct CorpusFile {
  std::string module_variables;  // `.extern .shared ... smem[];` and the like
  std::vector<std::string> functions;
  std::vector<std::string> entry_names;
  std::string trailer;  // .file lines and .section .debug_str
};

std::string_view entry_name(std::string_view header) {
  const size_t start = header.find(".entry") + 6;
  const size_t first = header.find_first_not_of(" \t", start);
  return header.substr(first, header.find_first_of("( \t", first) - first);
}

CorpusFile split(const std::string& text) {
  CorpusFile f;
  std::istringstream in(text);
  std::string line, function;
  bool in_function = false;
  bool after_functions = false;
  while (std::getline(in, line)) {
    const std::string_view l = line;
    if (!in_function && l.find(".entry") != std::string_view::npos) {
      in_function = true;
      f.entry_names.emplace_back(entry_name(l));
      f.trailer.clear();  // what came between two functions (`// .globl NAME`)
    }
    if (in_function) {
      function += line + '\n';
      if (l == "}") {
        f.functions.push_back(std::move(function));
        function.clear();
        in_function = false;
        after_functions = true;
      }
    } else if (after_functions) {
      f.trailer += line + '\n';
    } else if (l.rfind(".extern", 0) == 0 || l.rfind(".global", 0) == 0 || l.rfind(".const", 0) == 0) {
      f.module_variables += line + '\n';
    }
  }
  return f;
}

void replace_all(std::string& s, std::string_view from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The entry name also prefixes its parameters (softmax_row128_float4_param_0)
// and demoted shared variables, so renaming every occurrence keeps them
// consistent.
std::string make_module() {
  std::vector<CorpusFile> files;
  for (const char* name : kSources) files.push_back(split(read_corpus_file(name)));
  std::string m = ".version 9.0\n.target sm_90\n.address_size 64\n\n";
  for (const CorpusFile& f : files) m += f.module_variables;
  size_t lines = static_cast<size_t>(std::count(m.begin(), m.end(), '\n'));
  for (unsigned copy = 0; lines < kTargetLines; ++copy) {
    for (const CorpusFile& f : files) {
      for (size_t k = 0; k < f.functions.size(); ++k) {
        std::string body = f.functions[k];
        replace_all(body, f.entry_names[k], f.entry_names[k] + "_" + std::to_string(copy));
        lines += static_cast<size_t>(std::count(body.begin(), body.end(), '\n')) + 1;
        m += body;
        m += '\n';
      }
    }
  }
  m += files.front().trailer;  // the .file the .loc lines name
  return m;
}

const std::string& module_text() {
  static const std::string text = make_module();
  return text;
}

size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// Output discarded without the stream failing, so formatting still happens.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

int check(const std::string& text, std::ostream& out, std::ostream& err) {
  std::FILE* in = fmemopen(const_cast<char*>(text.data()), text.size(), "rb");
  ptxfu::cli::CheckOptions options;
  options.input_name = "bench.ptx";
  const int status = ptxfu::cli::run_check(in, out, err, options);
  std::fclose(in);
  return status;
}

// A benchmark of a rejected module measures the error path, not `check`.
bool accepted(benchmark::State& state, const std::string& text) {
  std::ostringstream out, err;
  if (check(text, out, err) == 0) return true;
  state.SkipWithError(("the generated module is rejected: " + out.str().substr(0, 500) + err.str()).c_str());
  return false;
}

void set_counters(benchmark::State& state, const std::string& text) {
  const auto lines = static_cast<double>(count_lines(text));
  state.counters["lines"] = lines;
  state.counters["lines/s"] = benchmark::Counter(lines, benchmark::Counter::kIsIterationInvariantRate);
  // Seconds per 100,000 lines: the inverse of a rate in units of 100k lines.
  state.counters["s/100k_lines"] =
      benchmark::Counter(lines / 100000.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void check_end_to_end(benchmark::State& state) {
  const std::string& text = module_text();
  if (!accepted(state, text)) return;
  NullBuffer discard;
  std::ostream out(&discard), err(&discard);
  for (auto _ : state) benchmark::DoNotOptimize(check(text, out, err));
  set_counters(state, text);
}

void lex_only(benchmark::State& state) {
  const std::string& text = module_text();
  if (!accepted(state, text)) return;
  size_t lexemes = 0;
  for (auto _ : state) {
    std::vector<ptxfu::isa::LexError> lex_errors;
    const auto out = ptxfu::isa::lex(text, 64 * 1024, lex_errors);
    lexemes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  set_counters(state, text);
  // Against lex()'s reserve of one lexeme per 5 bytes: more means a reallocation.
  state.counters["lexemes"] = static_cast<double>(lexemes);
  state.counters["bytes"] = static_cast<double>(text.size());
}

void lex_and_parse(benchmark::State& state) {
  const std::string& text = module_text();
  if (!accepted(state, text)) return;
  for (auto _ : state) {
    std::vector<ptxfu::isa::LexError> lex_errors;
    const auto lexemes = ptxfu::isa::lex(text, 64 * 1024, lex_errors);
    std::vector<ptxfu::isa::ModuleError> errors;
    benchmark::DoNotOptimize(ptxfu::isa::parse_module(lexemes, errors));
  }
  set_counters(state, text);
}

BENCHMARK(check_end_to_end)->Unit(benchmark::kMillisecond);
BENCHMARK(lex_and_parse)->Unit(benchmark::kMillisecond);
BENCHMARK(lex_only)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
