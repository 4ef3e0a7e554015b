// The paper-scale shelf: result files of a study's paper scale, produced by
// the study's own binary and kept in the study's folder,
//
//   experiments/<study>/paper/<study>.h5         the study file (what
//       `<study> --scale=paper` writes; for a sweep, the merge of its parts)
//   experiments/<study>/paper/units/<unit>.h5    a few of the sweep's parts,
//       re-run by the study's :shelf_test, which compares their data
//       (everything but /meta) with what the code makes now
//
// so that published numbers that need the papers' scale are judged in every
// run of //results:verify without re-running hours of training. A shelf file
// is checked, not trusted:
//   - here (OpenShelfFile, used by verify): its checksum, its study name,
//     scale "paper", and a command line that sets no configuration flag
//     (only the run-only flags below, the scale and the seed), so that its
//     configuration is the study's paper-scale defaults at its commit;
//   - by the study's :shelf_test (//results:shelf_check): that the study's
//     paper-scale configuration today (--print_config) equals the shelf's,
//     and that its sample units re-run today give the same data.
// tools/shelve.sh <study> produces or refreshes a study's shelf.
#ifndef PRIVBENCH_RESULTS_SHELF_H_
#define PRIVBENCH_RESULTS_SHELF_H_

#include <memory>
#include <string>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

// <shelf_root>/<study>/paper/<study>.h5 (shelf_root: the experiments folder).
std::string ShelfPath(const std::string& shelf_root, const std::string& study);

// Flags that change how a run is carried out, never its numbers: output and
// parts directories, threads, progress, sharding, unit selection, resuming
// from another commit's parts, the data directory (the data are pinned by
// digest) and --print_config.
bool IsRunOnlyFlag(const std::string& name);

// The /meta config text ("name = value" lines) without the run-only flags:
// what must be equal for two runs to be the same configuration.
std::string ResultConfig(const std::string& config_text);

// Opens `path` as the shelf file of `study`: refused, naming the file and
// the reason, when it fails its checksum, belongs to another study, has a
// scale other than paper, or was run with a configuration flag set (not the
// study's paper-scale defaults).
Result<std::unique_ptr<ResultReader>> OpenShelfFile(const std::string& path,
                                                    const std::string& study);

// "<display_path> (paper scale, commit 5d50a2e, 2026-11-24)": which file
// judged a verdict.
std::string DescribeResultFile(const std::string& display_path, const ResultReader& file);

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_SHELF_H_
