#include "sweep/slurm.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sweep/plot.h"
#include "sweep/results.h"

namespace ptxfu::sweep {
namespace {

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string absolute(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  return path;
}

}  // namespace

std::string self_exe() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "ptxfu";
  return std::string(buf, static_cast<size_t>(n));
}

namespace {

struct Scripts {
  std::string sweep, merge;
};

// sweep.sbatch (the job array, one task per shard) and merge.sbatch, for
// the absolute result directory `dir`.
Scripts sbatch_scripts(const Spec& spec, const RunOptions& o, const std::string& dir, unsigned cpus) {
  const unsigned n = o.shards;
  const std::string exe = self_exe();
  const std::string head = fmt::format(
      "#!/bin/bash\n"
      "# ptxfu sweep '{}' as a Slurm job array, one task per shard (written by ptxfu sweep --emit-slurm).\n"
      "# Submit: job=$(sbatch --parsable {}/sweep.sbatch) && sbatch --dependency=afterany:${{job%%;*}} "
      "{}/merge.sbatch\n",
      spec.name, dir, dir);
  std::string extra;  // given as partition=cpu or --partition=cpu
  for (const auto& opt : o.slurm_options) extra += "#SBATCH " + (opt.rfind("-", 0) == 0 ? opt : "--" + opt) + "\n";
  Scripts s{head, head};
  s.sweep +=
      fmt::format("#SBATCH --job-name=ptxfu-{}\n#SBATCH --array=1-{}\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task={}\n",
                  spec.name, n, cpus);
  s.sweep += fmt::format("#SBATCH --output={}/slurm-%A_%a.out\n", dir);
  s.sweep += extra;
  s.sweep += "set -eu\n";
  s.sweep += fmt::format(
      "exec {} sweep {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\" --jobs \"${{SLURM_CPUS_PER_TASK:-{}}}\" \\\n"
      "  --out {}/\"shard-${{SLURM_ARRAY_TASK_ID}}\" --no-plots --quiet\n",
      shell_quoted(exe), shell_quoted(absolute(spec.path)), n, cpus, shell_quoted(dir));
  s.merge +=
      fmt::format("#SBATCH --job-name=ptxfu-{}-merge\n#SBATCH --ntasks=1\n#SBATCH --output={}/slurm-merge-%j.out\n",
                  spec.name, dir);
  s.merge += extra;
  s.merge += "set -eu\n";
  s.merge += fmt::format("exec {} sweep merge", shell_quoted(exe));
  for (unsigned k = 1; k <= n; ++k) s.merge += " " + shell_quoted(fmt::format("{}/shard-{}", dir, k));
  s.merge += " --out " + shell_quoted(dir + "/merged") + "\n";
  return s;
}

}  // namespace

int emit_slurm(const Spec& spec, const RunOptions& o, const std::string& out_dir, std::ostream& out,
               std::ostream& err) {
  const unsigned cpus = o.jobs ? o.jobs : 1;
  std::string dir;
  try {
    make_dirs(out_dir);
    dir = absolute(out_dir);
    const Scripts s = sbatch_scripts(spec, o, dir, cpus);
    write_whole(dir + "/sweep.sbatch", s.sweep);
    write_whole(dir + "/merge.sbatch", s.merge);
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  out << fmt::format("ptxfu sweep: {}: {} points in {} shards ({} CPUs each)\n", spec.name, spec.points.size(),
                     o.shards, cpus);
  out << fmt::format("  wrote  {}/sweep.sbatch (the job array) and {}/merge.sbatch\n", dir, dir);
  out << fmt::format(
      "  submit job=$(sbatch --parsable {0}/sweep.sbatch) && sbatch --dependency=afterany:${{job%%;*}} "
      "{0}/merge.sbatch\n",
      dir);
  out << fmt::format("  merge  {} sweep merge {}/shard-* --out {}/merged   (what merge.sbatch runs)\n", self_exe(), dir,
                     dir);
  return 0;
}

namespace {

using Rows = std::map<std::string, std::vector<std::string>>;  // by key

// The manifests and tables of the directories, which must be of one sweep.
Manifest read_shards(const std::vector<std::string>& dirs, std::vector<Table>& tables) {
  Manifest m;
  for (size_t i = 0; i < dirs.size(); ++i) {
    const Manifest mi = read_manifest(dirs[i]);
    if (i == 0) {
      m = mi;
    } else if (mi.columns != m.columns || mi.name != m.name || mi.points != m.points) {
      throw StoreError(fmt::format("{}: results of another sweep than {} ('{}' with {} points vs '{}' with {})",
                                   dirs[i], dirs[0], mi.name, mi.points, m.name, m.points));
    } else {
      for (size_t k = 0; k < m.parameters.size(); ++k)
        if (mi.parameters[k].values != m.parameters[k].values)
          throw StoreError(
              fmt::format("{}: parameter '{}' takes other values than in {}", dirs[i], m.parameters[k].key, dirs[0]));
    }
    tables.push_back(read_table(dirs[i]));
    if (tables.back().header != m.columns)
      throw StoreError(dirs[i] + "/results.csv: columns differ from its sweep.json");
  }
  return m;
}

// One row per key: a successful one if any directory has it.
Rows choose_rows(const std::vector<Table>& tables, size_t status) {
  Rows rows;
  for (const auto& t : tables)
    for (const auto& r : t.rows) {
      auto it = rows.find(r[0]);
      if (it == rows.end())
        rows[r[0]] = r;
      else if (it->second[status] != "ok" && r[status] == "ok")
        it->second = r;
    }
  return rows;
}

// The JSON line of each chosen row, from the directory it came from.
std::map<std::string, std::string> json_lines(const std::vector<std::string>& dirs, const Rows& rows, size_t status) {
  std::map<std::string, std::string> json;
  for (const auto& d : dirs) {
    std::ifstream in(d + "/results.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (in.eof()) break;  // a torn last line (no newline) is not a row
      try {
        const auto j = nlohmann::json::parse(line);
        const std::string key = j.at("key").get<std::string>();
        const auto it = rows.find(key);
        if (it != rows.end() && !json.count(key) && j.at("status").get<std::string>() == it->second[status])
          json[key] = line + "\n";
      } catch (...) {
      }
    }
  }
  return json;
}

// The rows in spec order: program, then each parameter's value order.
std::vector<std::vector<std::string>> spec_order(const Manifest& m, const Rows& rows) {
  auto rank = [&](const std::vector<std::string>& r) {
    std::vector<size_t> v;
    const auto p = std::find(m.programs.begin(), m.programs.end(), r[1]);
    v.push_back(static_cast<size_t>(p - m.programs.begin()));
    for (size_t k = 0; k < m.parameters.size(); ++k) {
      const auto& vals = m.parameters[k].values;
      v.push_back(static_cast<size_t>(std::find(vals.begin(), vals.end(), r[2 + k]) - vals.begin()));
    }
    return v;
  };
  std::vector<std::vector<std::string>> ordered;
  ordered.reserve(rows.size());
  for (const auto& kv : rows) ordered.push_back(kv.second);
  std::stable_sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return ordered;
}

}  // namespace

int merge(const std::vector<std::string>& dirs, const std::string& out_dir, bool plots, std::ostream& out,
          std::ostream& err) {
  try {
    std::vector<Table> tables;
    Manifest m = read_shards(dirs, tables);
    const size_t status = tables[0].column("status");
    const Rows rows = choose_rows(tables, status);
    std::map<std::string, std::string> json = json_lines(dirs, rows, status);
    Table merged;
    merged.header = m.columns;
    merged.rows = spec_order(m, rows);
    std::string csv = csv_line(m.columns), jsonl;
    size_t ok = 0, failed = 0;
    for (const auto& r : merged.rows) {
      csv += csv_line(r);
      jsonl += json.count(r[0]) ? json[r[0]] : json_line(m.columns, r, nlohmann::ordered_json::object());
      (r[status] == "ok" ? ok : failed) += 1;
    }
    make_dirs(out_dir);
    m.shard = "merged";
    write_whole(out_dir + "/results.jsonl", jsonl);
    write_whole(out_dir + "/results.csv", csv);
    write_whole(out_dir + "/sweep.json", to_json(m).dump(2) + "\n");
    const size_t missing = m.points > merged.rows.size() ? m.points - merged.rows.size() : 0;
    out << fmt::format("ptxfu sweep merge: {} director{} of '{}' into {}\n", dirs.size(),
                       dirs.size() == 1 ? "y" : "ies", m.name, out_dir);
    out << fmt::format("  points     {} of {} ({} ok, {} failed), {} missing\n", merged.rows.size(), m.points, ok,
                       failed, missing);
    out << fmt::format("  results    {}/results.csv, {}/results.jsonl\n", out_dir, out_dir);
    if (plots) {
      const PlotReport p = draw_plots(out_dir, m, merged, {});
      if (!p.files.empty()) {
        out << "  plots     ";
        for (const auto& f : p.files) out << " " << f;
        out << "\n";
      }
      if (!p.note.empty()) out << "  plots      " << p.note << "\n";
    }
    return failed || missing ? 1 : 0;
  } catch (const StoreError& e) {
    err << "ptxfu sweep merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace ptxfu::sweep
