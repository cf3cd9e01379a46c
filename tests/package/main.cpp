// Uses the installed headers (C++ and C) and library; needs no GPU: the only op call has a bad
// argument and must be rejected by validation before anything touches the driver.
#include <normjit/normjit.h>

#include <cstdio>
#include <cstring>
#include <normjit/normjit.hpp>

int main() {
  std::printf("normjit_version() = %s\n", normjit_version());
  if (std::strcmp(normjit_version(), NORMJIT_VERSION_STRING) != 0) {
    std::printf("FAIL: header version %s != library version %s\n", NORMJIT_VERSION_STRING,
                normjit_version());
    return 1;
  }

  normjit::RmsnormArgs args;
  args.input = normjit::make_tensor(reinterpret_cast<void*>(0x10000), normjit::DType::bf16,
                                    {4, 4096});
  args.weight = normjit::make_tensor(reinterpret_cast<void*>(0x100000), normjit::DType::bf16,
                                     {4095});  // wrong length
  try {
    normjit::rmsnorm(args);
    std::printf("FAIL: rmsnorm accepted a weight of the wrong shape\n");
    return 1;
  } catch (const normjit::ValidationError& e) {
    std::printf("ValidationError as expected: %s\n", e.what());
    if (e.kind() != normjit::ValidationError::Kind::InvalidArgument ||
        std::strstr(e.what(), "weight") == nullptr) {
      std::printf("FAIL: unexpected kind or message\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::printf("FAIL: unexpected exception: %s\n", e.what());
    return 1;
  }

  // The same through the C ABI.
  normjit_tensor in{}, w{};
  in.data = reinterpret_cast<void*>(0x10000);
  in.dtype = NORMJIT_I32;  // not a supported activation dtype
  in.ndim = 2;
  in.shape[0] = 4;
  in.shape[1] = 4096;
  in.stride[0] = 4096;
  in.stride[1] = 1;
  w.data = reinterpret_cast<void*>(0x100000);
  w.dtype = NORMJIT_BF16;
  w.ndim = 1;
  w.shape[0] = 4096;
  w.stride[0] = 1;
  const normjit_status st = normjit_rmsnorm(&in, &w, 1e-6, nullptr, nullptr, -1);
  std::printf("normjit_rmsnorm -> %d: %s\n", int(st), normjit_last_error());
  if (st != NORMJIT_ERROR_INVALID_ARGUMENT || std::strstr(normjit_last_error(), "i32") == nullptr) {
    std::printf("FAIL: expected NORMJIT_ERROR_INVALID_ARGUMENT naming i32\n");
    return 1;
  }
  std::printf("consumer OK\n");
  return 0;
}
