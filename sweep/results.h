// A sweep's output directory: results.csv and results.jsonl (one line per
// point, appended as points complete), sweep.json (what the sweep is), plots.
//
// Nothing is lost and nothing is half-written: each row is appended with one
// write() of a complete line to a file opened O_APPEND: the JSON line first,
// then the CSV row, then fdatasync() of the CSV, which decides which points
// are done. Files that are created or rewritten whole (the header,
// sweep.json, merged outputs) are written to a temporary name, synced and
// renamed. On opening, a torn last line (only possible if the machine itself
// went down mid-write) is cut off, and JSON lines whose CSV row is missing
// are dropped (a CSV row without its JSON line gets one written from the
// row), so a resumed sweep recomputes exactly the missing points.
#pragma once
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/spec.h"

namespace ptxfu::sweep {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a result directory holds, enough to merge and plot it without the spec.
struct Manifest {
  std::string name;
  std::string spec;  // path as given
  std::string base;
  struct Param {
    std::string key;
    std::vector<std::string> values;
  };
  std::vector<Param> parameters;
  std::vector<std::string> programs;
  std::vector<std::string> metrics;
  std::vector<std::string> plots;
  std::vector<std::string> columns;
  size_t points = 0;  // in the whole spec
  std::string shard;  // "K/N", or "merged"
};

Manifest manifest_of(const Spec& spec);
nlohmann::ordered_json to_json(const Manifest& m);
Manifest manifest_from_json(const nlohmann::json& j);  // throws StoreError
Manifest read_manifest(const std::string& dir);        // DIR/sweep.json; throws StoreError

// CSV (RFC 4180 quoting; newlines inside fields become spaces, so one row is
// one line).
std::string csv_line(const std::vector<std::string>& fields);
bool parse_csv_line(const std::string& line, std::vector<std::string>& fields);

// One JSON line for a row: the CSV's columns (numbers as numbers, an empty
// error as null) plus any extra fields (host_seconds).
std::string json_line(const std::vector<std::string>& columns, const std::vector<std::string>& row,
                      const nlohmann::ordered_json& extra);

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  size_t column(const std::string& name) const;  // header.size() when absent
};

// Reads DIR/results.csv (complete lines only). Throws StoreError.
Table read_table(const std::string& dir);

// mkdir -p.
void make_dirs(const std::string& dir);

// Writes `text` to `path` through `path.partial`, fsync and rename.
void write_whole(const std::string& path, const std::string& text);

// A result directory opened for appending. Holds an exclusive lock on
// DIR/.lock, so two sweeps never write the same directory.
class Store {
 public:
  Store(const std::string& dir, const std::vector<std::string>& header);  // creates DIR if needed
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const Table& table() const { return table_; }
  // Rewrites both files without the rows of these keys (--retry-failed).
  void drop(const std::set<std::string>& keys);
  // Appends one point: the JSON line, then the CSV row, synced.
  void append(const std::vector<std::string>& row, const nlohmann::ordered_json& extra);

 private:
  void rewrite_jsonl(const std::set<std::string>& keep, bool force);
  std::string dir_;
  Table table_;
  int lock_fd_ = -1;
  int csv_fd_ = -1;
  int jsonl_fd_ = -1;
};

}  // namespace ptxfu::sweep
