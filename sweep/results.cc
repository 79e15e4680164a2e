#include "sweep/results.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace ptxfu::sweep {
namespace {

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw StoreError(fmt::format("{}: write failed: {}", path, errno_text()));
    done += static_cast<size_t>(n);
  }
}

std::string slurp(const std::string& path, bool& exists) {
  std::ifstream in(path, std::ios::binary);
  exists = static_cast<bool>(in);
  std::ostringstream s;
  if (exists) s << in.rdbuf();
  return s.str();
}

// Cuts a torn last line (no newline) off a file; returns its complete text.
std::string complete_lines(const std::string& path) {
  bool exists = false;
  std::string text = slurp(path, exists);
  if (!exists || text.empty() || text.back() == '\n') return text;
  const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (::truncate(path.c_str(), static_cast<off_t>(keep)) != 0)
    throw StoreError(fmt::format("{}: cannot cut the torn last line: {}", path, errno_text()));
  text.resize(keep);
  return text;
}

bool is_number(const std::string& s, bool& integer) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  bool digits = false, dot = false, exp = false;
  integer = true;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot && !exp) {
      dot = true;
      integer = false;
    } else if ((c == 'e' || c == 'E') && digits && !exp) {
      exp = true;
      integer = false;
      if (i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+')) ++i;
      digits = false;
    } else {
      return false;
    }
  }
  if (integer && s.size() > 1 && s[s[0] == '-' ? 1 : 0] == '0') return false;  // "007" stays text
  return digits;
}

nlohmann::ordered_json cell(const std::string& column, const std::string& v) {
  if (column == "key" || column == "program" || column == "base" || column == "status") return v;
  if (column == "error") return v.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
  bool integer = false;
  if (is_number(v, integer)) {
    try {
      if (integer) return std::stoll(v);
      return std::stod(v);
    } catch (...) {
    }
  }
  return v;
}

}  // namespace

void make_dirs(const std::string& dir) {
  std::string part;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      if (!part.empty() && ::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST)
        throw StoreError(fmt::format("{}: cannot create directory: {}", part, errno_text()));
    }
    if (i < dir.size()) part += dir[i];
  }
}

Manifest manifest_of(const Spec& spec) {
  Manifest m;
  m.name = spec.name;
  m.spec = spec.path;
  m.base = spec.base;
  for (const auto& p : spec.parameters) m.parameters.push_back({p.key, p.values});
  for (const auto& p : spec.programs) m.programs.push_back(p.id);
  m.metrics = spec.metrics;
  m.plots = spec.plots;
  m.columns = columns(spec);
  m.points = spec.points.size();
  return m;
}

nlohmann::ordered_json to_json(const Manifest& m) {
  nlohmann::ordered_json j;
  j["name"] = m.name;
  j["spec"] = m.spec;
  j["base"] = m.base;
  j["parameters"] = nlohmann::ordered_json::array();
  for (const auto& p : m.parameters) j["parameters"].push_back({{"key", p.key}, {"values", p.values}});
  j["programs"] = m.programs;
  j["metrics"] = m.metrics;
  j["plots"] = m.plots;
  j["columns"] = m.columns;
  j["points"] = m.points;
  j["shard"] = m.shard;
  return j;
}

Manifest manifest_from_json(const nlohmann::json& j) {
  try {
    Manifest m;
    m.name = j.at("name").get<std::string>();
    m.spec = j.at("spec").get<std::string>();
    m.base = j.at("base").get<std::string>();
    for (const auto& p : j.at("parameters"))
      m.parameters.push_back({p.at("key").get<std::string>(), p.at("values").get<std::vector<std::string>>()});
    m.programs = j.at("programs").get<std::vector<std::string>>();
    m.metrics = j.at("metrics").get<std::vector<std::string>>();
    m.plots = j.at("plots").get<std::vector<std::string>>();
    m.columns = j.at("columns").get<std::vector<std::string>>();
    m.points = j.at("points").get<size_t>();
    m.shard = j.at("shard").get<std::string>();
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw StoreError(std::string("not a sweep manifest: ") + e.what());
  }
}

Manifest read_manifest(const std::string& dir) {
  bool exists = false;
  const std::string path = dir + "/sweep.json";
  const std::string text = slurp(path, exists);
  if (!exists) throw StoreError(path + ": missing (not a sweep result directory?)");
  try {
    return manifest_from_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw StoreError(path + ": " + e.what());
  } catch (const StoreError& e) {
    throw StoreError(path + ": " + e.what());
  }
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    std::string f = fields[i];
    for (char& c : f)
      if (c == '\n' || c == '\r') c = ' ';
    if (f.find_first_of(",\"") != std::string::npos || (!f.empty() && (f.front() == ' ' || f.back() == ' '))) {
      line += '"';
      for (char c : f) line += c == '"' ? std::string("\"\"") : std::string(1, c);
      line += '"';
    } else {
      line += f;
    }
  }
  return line + "\n";
}

bool parse_csv_line(const std::string& line, std::vector<std::string>& fields) {
  fields.clear();
  std::string f;
  size_t i = 0;
  while (true) {
    f.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return false;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            f += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        f += line[i++];
      }
      if (i < line.size() && line[i] != ',') return false;
    } else {
      while (i < line.size() && line[i] != ',') f += line[i++];
    }
    fields.push_back(f);
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

std::string json_line(const std::vector<std::string>& columns, const std::vector<std::string>& row,
                      const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json j;
  for (size_t i = 0; i < columns.size() && i < row.size(); ++i) j[columns[i]] = cell(columns[i], row[i]);
  if (extra.is_object())
    for (const auto& [k, v] : extra.items()) j[k] = v;
  return j.dump() + "\n";
}

size_t Table::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return header.size();
}

Table read_table(const std::string& dir) {
  const std::string path = dir + "/results.csv";
  bool exists = false;
  const std::string text = slurp(path, exists);
  if (!exists) throw StoreError(path + ": missing");
  Table t;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> fields;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (in.eof() && text.back() != '\n') break;  // a torn last line is not a row
    if (!parse_csv_line(line, fields)) throw StoreError(fmt::format("{}:{}: malformed CSV row", path, number));
    if (number == 1) {
      t.header = fields;
      continue;
    }
    if (fields.size() != t.header.size())
      throw StoreError(
          fmt::format("{}:{}: {} fields, the header has {}", path, number, fields.size(), t.header.size()));
    t.rows.push_back(fields);
  }
  return t;
}

void write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".partial";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw StoreError(fmt::format("{}: cannot write: {}", tmp, errno_text()));
  try {
    write_all(fd, text, tmp);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    throw StoreError(fmt::format("{}: cannot rename into place: {}", path, errno_text()));
}

Store::Store(const std::string& dir, const std::vector<std::string>& header) : dir_(dir) {
  make_dirs(dir);
  const std::string lock = dir + "/.lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (lock_fd_ < 0) throw StoreError(fmt::format("{}: cannot open: {}", lock, errno_text()));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw StoreError(dir + ": another sweep is writing this directory");
  }
  const std::string csv = dir + "/results.csv";
  const std::string text = complete_lines(csv);
  if (text.empty()) {
    write_whole(csv, csv_line(header));
    table_.header = header;
  } else {
    table_ = read_table(dir);
    if (table_.header != header) {
      std::string want, have;
      for (const auto& h : header) want += (want.empty() ? "" : ",") + h;
      for (const auto& h : table_.header) have += (have.empty() ? "" : ",") + h;
      throw StoreError(fmt::format(
          "{}: holds results of another sweep (columns {}; this sweep writes {}); use another --out", csv, have, want));
    }
  }
  std::set<std::string> keys;
  for (const auto& r : table_.rows) keys.insert(r[0]);
  rewrite_jsonl(keys, false);
  csv_fd_ = ::open(csv.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  const std::string jsonl = dir + "/results.jsonl";
  jsonl_fd_ = ::open(jsonl.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
  if (csv_fd_ < 0 || jsonl_fd_ < 0)
    throw StoreError(fmt::format("{}: cannot open for appending: {}", dir, errno_text()));
}

Store::~Store() {
  for (int fd : {csv_fd_, jsonl_fd_, lock_fd_})
    if (fd >= 0) ::close(fd);
}

// Keeps the JSON lines whose CSV row exists (first one per key) and writes
// one, from the CSV row, for any row that lacks it.
void Store::rewrite_jsonl(const std::set<std::string>& keep, bool force) {
  const std::string path = dir_ + "/results.jsonl";
  const std::string text = complete_lines(path);
  std::istringstream in(text);
  std::string line, out;
  std::set<std::string> seen;
  bool changed = force;
  while (std::getline(in, line)) {
    std::string key;
    try {
      key = nlohmann::json::parse(line).at("key").get<std::string>();
    } catch (...) {
    }
    if (key.empty() || !keep.count(key) || seen.count(key)) {
      changed = true;
      continue;
    }
    seen.insert(key);
    out += line + "\n";
  }
  for (const auto& r : table_.rows)
    if (keep.count(r[0]) && !seen.count(r[0])) {
      seen.insert(r[0]);
      out += json_line(table_.header, r, nlohmann::ordered_json::object());
      changed = true;
    }
  bool exists = false;
  slurp(path, exists);
  if (changed || !exists) write_whole(path, out);
}

void Store::drop(const std::set<std::string>& keys) {
  if (keys.empty()) return;
  std::vector<std::vector<std::string>> kept;
  std::string text = csv_line(table_.header);
  std::set<std::string> keep;
  for (auto& r : table_.rows)
    if (!keys.count(r[0])) {
      text += csv_line(r);
      keep.insert(r[0]);
      kept.push_back(std::move(r));
    }
  table_.rows = std::move(kept);
  // JSON first: a JSON line without a CSV row is dropped on the next open.
  rewrite_jsonl(keep, true);
  write_whole(dir_ + "/results.csv", text);
  for (int* fd : {&csv_fd_, &jsonl_fd_}) {
    if (*fd >= 0) ::close(*fd);
  }
  csv_fd_ = ::open((dir_ + "/results.csv").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  jsonl_fd_ = ::open((dir_ + "/results.jsonl").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (csv_fd_ < 0 || jsonl_fd_ < 0)
    throw StoreError(fmt::format("{}: cannot reopen for appending: {}", dir_, errno_text()));
}

void Store::append(const std::vector<std::string>& row, const nlohmann::ordered_json& extra) {
  // Only the CSV row is synced: it decides what is done. A JSON line lost
  // with the machine is written again from its CSV row on the next open.
  write_all(jsonl_fd_, json_line(table_.header, row, extra), dir_ + "/results.jsonl");
  write_all(csv_fd_, csv_line(row), dir_ + "/results.csv");
  ::fdatasync(csv_fd_);
  table_.rows.push_back(row);
}

}  // namespace ptxfu::sweep
