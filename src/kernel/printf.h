// CUDA's device printf: nvcc lowers printf(fmt, ...) to vprintf(fmt, args)
// with the arguments packed in a local buffer, each at the next multiple of
// its own size (int and char 4 bytes; long, long long, pointers and double
// 8; float promoted to double). format_vprintf formats one call from that
// buffer as the C library's printf would; the kernel executor calls it for
// each thread (kernel/step_control.cc) and the launch collects the text in
// Memory::printf, in the order of printf_output().
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ptxfu::kernel {

// A malformed or unsupported format: the message says which conversion and why.
class PrintfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads `bytes` (1, 4 or 8) little-endian bytes at a generic device
// address; throws on an address that is not readable.
using DeviceRead = std::function<uint64_t(uint64_t address, unsigned bytes)>;

// The longest string %s reads, and the longest format string.
inline constexpr size_t kMaxPrintfString = size_t{1} << 16;
// The widest field or longest precision a conversion may ask for.
inline constexpr unsigned kMaxPrintfField = 1u << 16;
// The most text one launch's printf calls may make (CUDA drops what does not
// fit its 1 MiB FIFO by default; the model keeps more and then stops the run).
inline constexpr size_t kMaxPrintfOutput = size_t{64} << 20;

// The text of one vprintf call: `format` (its bytes, without the NUL) with
// its arguments packed at device address `args` (0 when there are none).
// Conversions: d i u x X o c s p f F e E g G %% with flags (- + space # 0),
// widths and precisions (also `*`), lengths hh h l ll z j t. %p prints as
// glibc does (0x... or (nil)), a null %s as (null). Throws PrintfError on a
// malformed or unsupported conversion; `read` throws on a bad address.
// `arguments` (when given) gets the number of arguments the format consumed,
// what CUDA's printf returns.
std::string format_vprintf(std::string_view format, uint64_t args, const DeviceRead& read,
                           unsigned* arguments = nullptr);

// Reads a NUL-terminated string at `address`, at most `limit` bytes
// (PrintfError beyond, or when address is null: `what` names it).
std::string read_device_string(uint64_t address, size_t limit, const DeviceRead& read, std::string_view what);

}  // namespace ptxfu::kernel
