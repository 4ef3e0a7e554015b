// Writes a small result file for h5py_readable_test.sh.
#include <cstdio>

#include "results/h5_file.h"

int main(int argc, char** argv) {
  using namespace privbench;
  if (argc != 2) return 2;
  RunMeta meta;
  meta.study = "h5py_check";
  meta.scale = "test";
  auto w = ResultWriter::Create(argv[1], meta);
  if (!w.ok()) {
    std::fprintf(stderr, "%s\n", w.message().c_str());
    return 1;
  }
  ResultWriter& f = *w.value();
  Status s = f.WriteDoubles("/raw/eps_lo", {0.25, 0.5});
  if (s.ok()) s = f.WriteStrings("/raw/method", {"cp", "bayesian"});
  if (s.ok()) {
    s = f.WriteTable(
        {"t",
         "T",
         "C",
         {Column::Strings("method", {"cp", "bayesian"}), Column::Doubles("eps_lo", {0.25, 0.5})}});
  }
  if (s.ok()) s = f.WriteClaim({"c", "claim", "src", true, "ev"});
  if (s.ok()) s = f.Commit();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return 0;
}
