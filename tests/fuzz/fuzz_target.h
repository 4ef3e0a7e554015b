// The libFuzzer entry point each target defines (and replay_main.cc calls).
#ifndef PRIVBENCH_TESTS_FUZZ_FUZZ_TARGET_H_
#define PRIVBENCH_TESTS_FUZZ_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#endif  // PRIVBENCH_TESTS_FUZZ_FUZZ_TARGET_H_
