// --device: parsing, the CPU default, and the CUDA path. On a machine
// without a usable GPU (this project's CI) --device=cuda must be refused
// with a message naming the flag; where a GPU is visible (tools/gpu_check.sh
// runs this test there) a short DP-SGD run on it must agree with the same
// run on the CPU within float32 rounding.
#include "mechanisms/device.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <string>

#include "mechanisms/dpsgd.h"
#include "mechanisms/testing.h"

namespace privbench {
namespace {

TEST(Device, ParsesCpuAndCudaAndNamesTheFlagOtherwise) {
  EXPECT_EQ(ParseDevice("cpu").value(), ComputeDevice::kCpu);
  EXPECT_EQ(ParseDevice("cuda").value(), ComputeDevice::kCuda);
  for (const char* bad : {"", "gpu", "CUDA", "cuda:1"}) {
    Result<ComputeDevice> d = ParseDevice(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_NE(d.message().find("--device"), std::string::npos) << d.message();
  }
  EXPECT_EQ(DeviceName(ComputeDevice::kCuda), "cuda");
  EXPECT_TRUE(EnsureDevice(ComputeDevice::kCpu).ok());
  EXPECT_EQ(DescribeDevice(ComputeDevice::kCpu).rfind("cpu (LibTorch 2.11.0", 0), 0u)
      << DescribeDevice(ComputeDevice::kCpu);
}

DpSgdConfig SmallRun(ComputeDevice device) {
  DpSgdConfig c;
  c.noise_multiplier = 0.8;
  c.clip_norm = 1.0;
  c.batch_size = 64;
  c.epochs = 3;
  c.learning_rate = 0.1;
  c.seed = 11;
  c.device = device;
  return c;
}

// The device is checked before the CPU run: the CUDA backend must be loaded
// before any backward pass in the process (device.h).
TEST(Device, CudaIsRefusedNamingTheFlagOrAgreesWithTheCpu) {
  const Status available = EnsureDevice(ComputeDevice::kCuda);
  const testing::Blobs data = testing::TwoBlobs(512, 8, 3.0, 5);
  const ModelSpec spec = MlpSpec("mlp", 8, {16}, Activation::kTanh, 2);
  DpModel on_cpu = DpModel::Create(spec, 3).value();
  Result<TrainingRecord> cpu = TrainDpSgd(on_cpu, data.x, data.y, SmallRun(ComputeDevice::kCpu));
  ASSERT_TRUE(cpu.ok()) << cpu.message();
  EXPECT_EQ(cpu->device.rfind("cpu", 0), 0u) << cpu->device;

  DpModel on_gpu = DpModel::Create(spec, 3).value();
  Result<TrainingRecord> gpu = TrainDpSgd(on_gpu, data.x, data.y, SmallRun(ComputeDevice::kCuda));
  if (!available.ok()) {
    EXPECT_NE(available.message().find("--device=cuda"), std::string::npos) << available.message();
    ASSERT_FALSE(gpu.ok());
    EXPECT_NE(gpu.message().find("--device=cuda"), std::string::npos) << gpu.message();
    GTEST_SKIP() << "no usable GPU here: " << available.message();
  }
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  EXPECT_EQ(gpu->device.rfind("cuda:0", 0), 0u) << gpu->device;
  // Back on the CPU, and the same training up to float32 rounding: the
  // batches and the noise are the CPU's draws on both devices.
  for (size_t i = 0; i < on_cpu.parameters().size(); ++i) {
    ASSERT_TRUE(on_gpu.parameters()[i].device().is_cpu());
    const double diff =
        (on_gpu.parameters()[i] - on_cpu.parameters()[i]).abs().max().item<double>();
    EXPECT_LT(diff, 1e-3) << "parameter " << i;
  }
  for (size_t e = 0; e < cpu->loss_per_epoch.size(); ++e) {
    EXPECT_NEAR(gpu->loss_per_epoch[e], cpu->loss_per_epoch[e], 1e-4) << "epoch " << e;
  }
}

}  // namespace
}  // namespace privbench
