#include "results/h5_array.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

namespace privbench {
namespace {

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

RunMeta Meta() {
  RunMeta m;
  m.study = "unit";
  m.paper = "none";
  m.section = "-";
  m.scale = "test";
  return m;
}

TEST(H5ArrayTest, RoundTripsShapesAndValuesOfDoubleAndIntArrays) {
  const std::string path = TempDir() + "/arrays.h5";
  const xt::xtensor<double, 3> cube = xt::arange<double>(24.0).reshape({2, 3, 4}) * 0.5 - 3.0;
  const xt::xtensor<int64_t, 2> grid = {{1, -2, 3}, {4000000000LL, 5, -6}};
  {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok()) << w.message();
    ASSERT_TRUE(WriteArray(*w.value(), "/a/cube", cube).ok());
    ASSERT_TRUE(WriteArray(*w.value(), "/a/grid", grid).ok());
    // A strided view is written in row-major order of its own shape.
    ASSERT_TRUE(WriteArray(*w.value(), "/a/column", xt::view(cube, xt::all(), 1, 2)).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  auto r = ResultReader::Open(path);
  ASSERT_TRUE(r.ok()) << r.message();
  auto c = ReadArray<double>(*r.value(), "/a/cube");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->shape().size(), 3u);
  EXPECT_EQ(*c, cube);
  auto g = ReadArray<int64_t>(*r.value(), "/a/grid");
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(*g, grid);
  auto col = ReadArray<double>(*r.value(), "/a/column");
  ASSERT_TRUE(col.ok()) << col.message();
  ASSERT_EQ(col->size(), 2u);
  EXPECT_EQ((*col)(0), cube(0, 1, 2));
  EXPECT_EQ((*col)(1), cube(1, 1, 2));
  // The same values written flat with the shape read back identically.
  auto flat = r.value()->ReadDoubles("/a/cube");
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ((*flat)[23], cube(1, 2, 3));
}

TEST(H5ArrayTest, ReadingAMissingDatasetNamesIt) {
  const std::string path = TempDir() + "/arrays_missing.h5";
  {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  auto r = ResultReader::Open(path);
  ASSERT_TRUE(r.ok());
  auto missing = ReadArray<double>(*r.value(), "/nothing/here");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("/nothing/here"), std::string::npos) << missing.message();
}

}  // namespace
}  // namespace privbench
