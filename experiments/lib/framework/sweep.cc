#include "experiments/lib/framework/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "core/files.h"
#include "core/flags.h"
#include "core/progress.h"
#include "core/provenance.h"
#include "core/seeding.h"
#include "core/threads.h"

namespace privbench {

Result<Shard> ParseShard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) {
    return Error("shard must be i/n (e.g. 0/4), got '" + text + "'");
  }
  auto i = ParseInt(text.substr(0, slash));
  auto n = ParseInt(text.substr(slash + 1));
  if (!i.ok() || !n.ok() || *n < 1 || *i < 0 || *i >= *n) {
    return Error("shard must be i/n with 0 <= i < n, got '" + text + "'");
  }
  return Shard{*i, *n};
}

std::string DefaultPartsDir() {
  const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string base = std::string(ws ? ws : ".") + "/results/parts";
  const std::string commit = BuildCommit();
  // One directory per commit: a rerun after pulling or committing starts
  // fresh instead of meeting parts of another commit (which are refused).
  return commit == "unknown" ? base : base + "/" + commit.substr(0, 12);
}

std::string PartsDirectory(const SweepOptions& o) {
  char key[32];
  std::snprintf(key, sizeof(key), "%012llx",
                static_cast<unsigned long long>(StableHash(o.config_text) >> 16));
  return o.parts_dir + "/" + o.study + "." + key;
}

std::string PartPath(const SweepOptions& o, const SweepUnit& u) {
  return PartsDirectory(o) + "/" + u.id + ".h5";
}

namespace {

Status CheckUnitId(const std::string& id) {
  if (id.empty()) return Error("sweep unit id must be non-empty");
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '=' || c == '+' || c == '-';
    if (!ok) return Error("sweep unit id '" + id + "' has a character outside [A-Za-z0-9._=+-]");
  }
  return Status::Ok();
}

std::string VersionText(const std::string& commit, bool dirty) {
  return commit + (dirty ? " (with uncommitted changes)" : "");
}

// Parts are keyed by the sweep configuration, not by the code: a part made
// by another commit may hold other datasets or other numbers (resuming once
// failed in the merge with "no dataset '/audits/max_loss'"), so it is
// refused, naming both commits. Compared: the commit only. Parts of the same
// commit are reused whatever their dirty flags: a rebuild of the same commit
// makes the same parts, and in a tree with uncommitted changes the flag
// cannot tell which edits were made, so refusing there would block every
// resume while developing (such edits are the user's to track). A part or a
// binary whose commit is unknown (built outside git) is not checked.
// --accept_parts_from=<c1>[,<c2>...] names the other commits whose parts
// are reused (each a prefix of at least 7 hex digits of one), e.g. a long
// run resumed twice at later commits.
bool AcceptedCommit(const SweepOptions& o, const std::string& theirs) {
  std::stringstream list(o.accept_parts_from);
  std::string accepted;
  while (std::getline(list, accepted, ',')) {
    if (accepted.size() >= 7 && theirs.compare(0, accepted.size(), accepted) == 0) return true;
  }
  return false;
}

Status CheckPartVersion(const SweepOptions& o, const std::string& path, const ResultReader& part) {
  const std::string ours = BuildCommit();
  auto theirs = part.ReadStringAttribute("/meta", "git_commit");
  if (!theirs.ok() || *theirs == "unknown" || ours == "unknown" || *theirs == ours ||
      AcceptedCommit(o, *theirs)) {
    return Status::Ok();
  }
  const bool dirty = part.ReadIntAttribute("/meta", "git_dirty").value_or(0) != 0;
  return Error("part '" + path + "' was made by commit " + VersionText(*theirs, dirty) +
               ", this binary by commit " + VersionText(ours, BuildDirty()) +
               ": parts are keyed by the sweep configuration, not the code, and a part of "
               "another code version may hold other datasets or numbers. Remove " +
               PartsDirectory(o) +
               " (or choose another --parts_dir) to rerun the sweep with this code, finish it "
               "with a binary built at commit " +
               *theirs + ", or pass --accept_parts_from=" + *theirs +
               " if this code makes the same parts (the paper-scale shelf check tests that)");
}

// A part is complete if it exists, opens, carries our configuration and was
// made by this binary's commit (CheckPartVersion).
Result<bool> PartComplete(const SweepOptions& o, const SweepUnit& u) {
  const std::string path = PartPath(o, u);
  if (!FileExists(path)) return false;
  PB_ASSIGN_OR_RETURN(auto reader, ResultReader::Open(path));
  auto config = reader->ReadStringAttribute("/meta", "sweep_config");
  if (!config.ok() || *config != o.config_text) {
    return Error("part '" + path + "' was made with a different sweep configuration; remove " +
                 PartsDirectory(o) + " (or choose another --parts_dir) to start over");
  }
  PB_RETURN_IF_ERROR(CheckPartVersion(o, path, *reader));
  return true;
}

// Where a part was made: its shard, host and Slurm job (when run by Slurm).
Status WritePartOrigin(const SweepOptions& o, ResultWriter& part) {
  PB_RETURN_IF_ERROR(part.SetAttribute(
      "/meta", "shard", std::to_string(o.shard.index) + "/" + std::to_string(o.shard.count)));
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "host", std::string(host)));
  const char* array_job = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* job = std::getenv("SLURM_JOB_ID");
  std::string slurm;
  if (array_job != nullptr && task != nullptr) {
    slurm = std::string(array_job) + "_" + task;
  } else if (job != nullptr) {
    slurm = job;
  }
  return part.SetAttribute("/meta", "slurm_job", slurm);
}

PartVersions DescribeCommits(const std::vector<std::unique_ptr<ResultReader>>& parts) {
  std::map<std::string, int64_t> count;  // version -> parts
  for (const auto& p : parts) {
    auto commit = p->ReadStringAttribute("/meta", "git_commit");
    auto dirty = p->ReadIntAttribute("/meta", "git_dirty");
    std::string v = commit.ok() ? *commit : "unrecorded";
    if (dirty.ok() && *dirty != 0) v += " +uncommitted changes";
    ++count[v];
  }
  PartVersions out;
  out.mixed = count.size() > 1;
  if (count.size() == 1) {
    out.description =
        std::to_string(parts.size()) + " parts, all from commit " + count.begin()->first;
  } else {
    for (const auto& [v, n] : count) {
      out.description +=
          (out.description.empty() ? "" : "; ") + v + ": " + std::to_string(n) + " parts";
    }
  }
  return out;
}

// The units this run owns: its shard's, or exactly those --units names
// (an id the plan lacks is an error naming it).
Result<std::vector<bool>> SelectedUnits(const std::vector<SweepUnit>& units,
                                        const SweepOptions& o) {
  std::vector<bool> selected(units.size(), false);
  if (o.only_units.empty()) {
    for (size_t k = 0; k < units.size(); ++k) selected[k] = o.shard.Owns(static_cast<int64_t>(k));
    return selected;
  }
  for (const std::string& id : o.only_units) {
    const auto it =
        std::find_if(units.begin(), units.end(), [&](const SweepUnit& u) { return u.id == id; });
    if (it == units.end()) {
      return Error("--units: '" + id + "' is not a unit of this sweep (" +
                   std::to_string(units.size()) + " units, e.g. '" +
                   (units.empty() ? std::string() : units.front().id) + "')");
    }
    selected[it - units.begin()] = true;
  }
  return selected;
}

// "; units' wall time 812 s in all (sum over parts)".
std::string DescribeUnitTime(const std::vector<std::unique_ptr<ResultReader>>& parts) {
  double wall = 0.0;
  for (const auto& p : parts)
    wall += p->ReadDoubleAttribute("/meta", "duration_seconds").value_or(0);
  char text[96];
  std::snprintf(text, sizeof(text), "; units' wall time %.0f s in all (sum over parts)", wall);
  return text;
}

}  // namespace

Result<SweepReport> RunSweep(const std::vector<SweepUnit>& units, const SweepOptions& o,
                             const UnitFn& run_unit) {
  if (o.study.empty()) return Error("sweep study name must be non-empty");
  for (const auto& u : units) PB_RETURN_IF_ERROR(CheckUnitId(u.id));
  {
    std::vector<std::string> ids;
    for (const auto& u : units) ids.push_back(u.id);
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) {
      return Error("sweep unit ids must be unique");
    }
  }
  PB_RETURN_IF_ERROR(MakeDirs(PartsDirectory(o)));

  SweepReport report;
  report.total = static_cast<int64_t>(units.size());
  PB_ASSIGN_OR_RETURN(const std::vector<bool> selected, SelectedUnits(units, o));
  std::vector<int64_t> todo;
  for (int64_t k = 0; k < report.total; ++k) {
    if (!selected[k]) continue;
    ++report.owned;
    PB_ASSIGN_OR_RETURN(bool done, PartComplete(o, units[k]));
    if (done) {
      ++report.skipped;
    } else {
      todo.push_back(k);
    }
  }
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%s: shard %lld/%lld owns %lld of %lld units; %lld already complete, "
                 "%zu to run\n",
                 o.study.c_str(), static_cast<long long>(o.shard.index),
                 static_cast<long long>(o.shard.count), static_cast<long long>(report.owned),
                 static_cast<long long>(report.total), static_cast<long long>(report.skipped),
                 todo.size());
  }
  ProgressReporter progress(o.study + " units", static_cast<int64_t>(todo.size()), o.quiet);
  std::atomic<size_t> next{0};
  std::atomic<int64_t> ran{0};
  std::mutex mu;
  Status first_error;
  auto worker = [&] {
    for (size_t t = next++; t < todo.size(); t = next++) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!first_error.ok()) return;
      }
      const int64_t k = todo[t];
      const SweepUnit& u = units[k];
      RunMeta meta;
      meta.study = o.study;
      meta.description = "sweep unit " + u.id;
      meta.config_text = o.config_text;
      meta.scale = o.scale;
      meta.seed = o.seed;
      Status s;
      auto part = ResultWriter::Create(PartPath(o, u), meta);
      if (!part.ok()) {
        s = part.status();
      } else {
        s = part.value()->SetAttribute("/meta", "sweep_config", o.config_text);
        if (s.ok()) s = part.value()->SetAttribute("/meta", "unit_id", u.id);
        if (s.ok()) s = part.value()->SetAttribute("/meta", "unit_index", k);
        if (s.ok()) s = WritePartOrigin(o, *part.value());
        if (s.ok()) s = run_unit(k, u, *part.value());
        if (s.ok()) s = part.value()->Commit();
      }
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_error.ok()) first_error = Error("unit " + u.id + ": " + s.message());
        return;
      }
      ++ran;
      progress.Advance();
    }
  };
  const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(todo.size())));
  RunOnThreads(threads - 1, worker);
  progress.Finish();
  report.ran = ran.load();
  if (!first_error.ok()) return first_error.error();
  for (const auto& u : units) {
    if (FileExists(PartPath(o, u))) ++report.complete;
  }
  return report;
}

Result<std::vector<std::unique_ptr<ResultReader>>> OpenSweepParts(
    const std::vector<SweepUnit>& units, const SweepOptions& o) {
  std::vector<std::string> missing;
  for (const auto& u : units) {
    PB_ASSIGN_OR_RETURN(bool done, PartComplete(o, u));
    if (!done) missing.push_back(u.id);
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 5; ++i) list += (i ? ", " : "") + missing[i];
    if (missing.size() > 5) list += ", ...";
    return Error(std::to_string(missing.size()) + " of " + std::to_string(units.size()) +
                 " units missing (" + list + "); run the remaining shards, then merge");
  }
  std::vector<std::unique_ptr<ResultReader>> out;
  for (const auto& u : units) {
    PB_ASSIGN_OR_RETURN(auto r, ResultReader::Open(PartPath(o, u)));
    out.push_back(std::move(r));
  }
  const PartVersions versions = DescribePartVersions(out);
  if (versions.mixed && !o.quiet) {
    std::fprintf(stderr,
                 "%s: warning: the parts were made by different code versions (%s); "
                 "rerun in a fresh --parts_dir if the code change affects results\n",
                 o.study.c_str(), versions.description.c_str());
  }
  return out;
}

PartVersions DescribePartVersions(const std::vector<std::unique_ptr<ResultReader>>& parts) {
  std::map<std::string, int64_t> origins;  // "shard i/n on host (Slurm job j)" -> parts
  for (const auto& p : parts) {
    auto shard = p->ReadStringAttribute("/meta", "shard");
    if (!shard.ok()) continue;  // parts made before the origin was recorded
    std::string o =
        "shard " + *shard + " on " + p->ReadStringAttribute("/meta", "host").value_or("?");
    const std::string job = p->ReadStringAttribute("/meta", "slurm_job").value_or("");
    if (!job.empty()) o += " (Slurm job " + job + ")";
    ++origins[o];
  }
  PartVersions out = DescribeCommits(parts);
  std::string made;
  for (const auto& [o, n] : origins) {
    made += (made.empty() ? "; made by " : ", ") + o + ": " + std::to_string(n) + " parts";
  }
  out.description += made + DescribeUnitTime(parts);
  return out;
}

void RegisterSweepFlags(FlagSet& flags, SweepFlags* sweep) {
  flags.AddString("shard", &sweep->shard, "i/n: run the units k with k mod n == i")
      .NonEmpty()
      .Satisfies("i/n with 0 <= i < n",
                 [](const std::string& text) { return ParseShard(text).status(); });
  flags
      .AddString("parts_dir", &sweep->parts_dir,
                 "directory of the sweep's per-unit parts (empty: results/parts/<commit>; "
                 "created if missing; --merge_only needs it to exist)")
      .CreatableDirectoryOrEmpty()
      .Satisfies("an existing directory with --merge_only", [sweep](const std::string& dir) {
        if (!sweep->merge_only || dir.empty() || IsDirectory(dir)) return Status::Ok();
        return Status(Error("'" + dir + "' is missing (--merge_only reads existing parts)"));
      });
  flags.AddBool("merge_only", &sweep->merge_only,
                "assemble the study file from existing parts only; run nothing");
  flags
      .AddString("units", &sweep->units,
                 "comma-separated unit ids: run only these units into the parts directory and "
                 "write no study file (e.g. the paper-scale shelf check); empty: this shard's")
      .Satisfies("not with --merge_only", [sweep](const std::string& units) {
        if (units.empty() || !sweep->merge_only) return Status::Ok();
        return Status(Error("--units runs units, --merge_only runs none: pass one of them"));
      });
  flags
      .AddString("accept_parts_from", &sweep->accept_parts_from,
                 "git commits (each at least 7 hex digits, comma-separated) whose parts are "
                 "reused as if this binary made them, e.g. to resume a paper-scale run from "
                 "committed parts")
      .Satisfies("empty or commits of at least 7 hex digits", [](const std::string& commits) {
        std::stringstream list(commits);
        std::string commit;
        while (std::getline(list, commit, ',')) {
          const bool hex = std::all_of(commit.begin(), commit.end(), [](char c) {
            return std::isxdigit(static_cast<unsigned char>(c));
          });
          if (commit.size() < 7 || !hex) {
            return Status(Error("'" + commit + "' is not a commit of at least 7 hex digits"));
          }
        }
        if (!commits.empty() && commits.back() == ',') {
          return Status(Error("'" + commits + "' ends with a comma"));
        }
        return Status::Ok();
      });
}

namespace {
std::vector<std::string> SplitUnitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string id;
  while (std::getline(in, id, ',')) {
    if (!id.empty()) out.push_back(id);
  }
  return out;
}
}  // namespace

Result<SweepOptions> MakeSweepOptions(const std::string& study, const SweepPlan& plan,
                                      const SweepFlags& flags, const StudyContext& ctx) {
  SweepOptions o;
  o.study = study;
  o.parts_dir = flags.parts_dir.empty() ? DefaultPartsDir() : flags.parts_dir;
  o.config_text = plan.config_text;
  PB_ASSIGN_OR_RETURN(o.shard, ParseShard(flags.shard));
  o.threads = ctx.threads();
  o.quiet = ctx.quiet();
  o.scale = ScaleName(ctx.scale());
  o.seed = ctx.seed();
  o.only_units = SplitUnitList(flags.units);
  o.accept_parts_from = flags.accept_parts_from;
  return o;
}

int64_t PendingUnits(const std::vector<SweepUnit>& units, const SweepOptions& o) {
  int64_t pending = 0;
  for (size_t k = 0; k < units.size(); ++k) {
    if (o.shard.Owns(static_cast<int64_t>(k)) && !FileExists(PartPath(o, units[k]))) ++pending;
  }
  return pending;
}

Status RunSweepStudy(const std::string& study, const SweepPlan& plan, const SweepFlags& flags,
                     StudyContext& ctx, const UnitFn& run_unit, const MergeFn& merge) {
  PB_ASSIGN_OR_RETURN(SweepOptions o, MakeSweepOptions(study, plan, flags, ctx));
  if (!flags.merge_only) {
    PB_ASSIGN_OR_RETURN(SweepReport report, RunSweep(plan.run_order, o, run_unit));
    if (!o.only_units.empty()) {
      ctx.SkipOutput("ran the " + std::to_string(o.only_units.size()) +
                     " unit(s) --units names into " + PartsDirectory(o) + "; no study file");
      return Status::Ok();
    }
    if (!report.all_complete()) {
      ctx.SkipOutput(std::to_string(report.total - report.complete) + " of " +
                     std::to_string(report.total) +
                     " units pending: run the other shards, then --merge_only");
      return Status::Ok();
    }
  }
  const std::vector<SweepUnit>& order =
      plan.merge_order.empty() ? plan.run_order : plan.merge_order;
  PB_ASSIGN_OR_RETURN(SweepParts parts, OpenSweepParts(order, o));
  return merge(parts, o);
}

}  // namespace privbench
