// The host API's device: its memory and its modules.
#include <algorithm>
#include <cstring>

#include <sys/mman.h>

#include <fmt/format.h>

#include "host/host_state.h"
#include "models/text_file.h"

namespace ptxfu {
namespace host_detail {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// `bytes` of storage, untouched and, when large, in transparent huge pages
// where the kernel offers them on request (Debian's default, madvise):
// 512 times fewer page faults when the bytes are first written, which is
// most of what a large copy in costs (NumPy does the same for its arrays).
std::vector<uint8_t> reserved(size_t bytes) {
  std::vector<uint8_t> v;
  v.reserve(bytes);
  constexpr size_t kHuge = size_t{2} << 20;
  uint8_t* const data = v.data();
  const size_t skip = (kHuge - reinterpret_cast<uintptr_t>(data) % kHuge) % kHuge;  // to the first huge page
  if (bytes > skip + kHuge)
    madvise(data + skip, (bytes - skip) & ~(kHuge - 1), MADV_HUGEPAGE);  // a hint: failure is fine
  return v;
}

std::string describe(const Allocation& a) {
  return fmt::format("device buffer #{} ({} bytes at 0x{:x})", a.id, a.bytes, a.base);
}

}  // namespace

Allocation::~Allocation() {
  if (auto d = device.lock()) d->release(*this);
}

kernel::Buffer& DeviceState::buffer_of(const Allocation& a) {
  auto it = std::lower_bound(memory.begin(), memory.end(), a.base,
                             [](const kernel::Buffer& b, uint64_t base) { return b.base < base; });
  return *it;  // every live allocation has its buffer
}

void DeviceState::check_owned(const DeviceBuffer& b, const char* what) const {
  const Allocation* a = b.alloc_.get();
  if (!a) throw Error(fmt::format("{}: an empty DeviceBuffer (never allocated)", what));
  if (a->device.lock().get() != this) throw Error(fmt::format("{}: {} belongs to another device", what, describe(*a)));
  if (a->freed) throw Error(fmt::format("{}: {} was freed", what, describe(*a)));
}

uint8_t* DeviceState::bytes_of(const DeviceBuffer& b, size_t n, const char* what) {
  check_owned(b, what);
  if (n > b.bytes())
    throw Error(fmt::format("{}: {} bytes do not fit the {} bytes at offset {} of {}", what, n, b.bytes(), b.offset(),
                            describe(*b.alloc_)));
  return buffer_of(*b.alloc_).bytes.data() + b.offset();
}

void DeviceState::release(const Allocation& a) {
  if (a.freed) return;
  auto it = std::lower_bound(memory.begin(), memory.end(), a.base,
                             [](const kernel::Buffer& x, uint64_t base) { return x.base < base; });
  memory.erase(it);
}

DeviceBuffer DeviceState::allocate(std::vector<uint8_t> contents) {
  const size_t bytes = contents.size();
  const uint64_t base = align_up(next_base, 256);  // cudaMalloc's alignment
  auto a = std::make_shared<Allocation>();
  a->device = shared_from_this();
  a->id = next_id++;
  a->base = base;
  a->bytes = bytes;
  memory.push_back({base, std::move(contents), -1, fmt::format("device buffer #{}", a->id)});
  next_base = base + bytes + kGuardBytes;
  DeviceBuffer b;
  b.alloc_ = std::move(a);
  b.bytes_ = bytes;
  return b;
}

}  // namespace host_detail

using host_detail::Allocation;
using host_detail::DeviceState;

uint64_t DeviceBuffer::address() const { return alloc_ ? alloc_->base + offset_ : 0; }

bool DeviceBuffer::valid() const { return alloc_ && !alloc_->freed && !alloc_->device.expired(); }

DeviceBuffer DeviceBuffer::slice(size_t offset, size_t bytes) const {
  if (offset > bytes_ || (bytes != npos && bytes > bytes_ - offset))
    throw Error(fmt::format("slice [{}, {}) is out of the buffer's {} bytes", offset,
                            bytes == npos ? std::string("end") : std::to_string(offset + bytes), bytes_));
  DeviceBuffer b = *this;
  b.offset_ = offset_ + offset;
  b.bytes_ = bytes == npos ? bytes_ - offset : bytes;
  return b;
}

Device::Device(const std::string& config) : state_(std::make_shared<DeviceState>()) {
  try {
    state_->config = models::load_config(config);
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

Device::Device(Empty) : state_(std::make_shared<DeviceState>()) {}

Device Device::from_config_text(const std::string& yaml, const std::string& origin) {
  Device d{Empty{}};
  try {
    d.state_->config = models::load_config_text(yaml, origin);
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  return d;
}

void Device::set_approximately_timed(bool at) {
  state_->style = at ? models::TimingStyle::approximately_timed : models::TimingStyle::loosely_timed;
}

const std::string& Device::config_name() const { return state_->config.name; }

DeviceBuffer Device::malloc(size_t bytes) {
  if (bytes == 0) throw Error("malloc: 0 bytes (an allocation holds at least one byte)");
  std::vector<uint8_t> v = host_detail::reserved(bytes);
  v.resize(bytes);
  return state_->allocate(std::move(v));
}

DeviceBuffer Device::malloc_copy(const void* data, size_t bytes) {
  if (bytes == 0) throw Error("malloc_copy: 0 bytes (an allocation holds at least one byte)");
  const uint8_t* p = static_cast<const uint8_t*>(data);
  std::vector<uint8_t> v = host_detail::reserved(bytes);
  v.assign(p, p + bytes);
  return state_->allocate(std::move(v));
}

void Device::free(const DeviceBuffer& b) {
  state_->check_owned(b, "free");
  state_->release(*b.alloc_);
  b.alloc_->freed = true;
}

void Device::memset(const DeviceBuffer& b, uint8_t value) {
  uint8_t* p = state_->bytes_of(b, b.bytes(), "memset");
  std::memset(p, value, b.bytes());
}

void Device::copy_to_device(const DeviceBuffer& dst, const void* src, size_t bytes) {
  std::memcpy(state_->bytes_of(dst, bytes, "copy_to_device"), src, bytes);
}

void Device::copy_to_host(void* dst, const DeviceBuffer& src, size_t bytes) const {
  std::memcpy(dst, state_->bytes_of(src, bytes, "copy_to_host"), bytes);
}

void Device::copy(const DeviceBuffer& dst, const DeviceBuffer& src, size_t bytes) {
  const uint8_t* from = state_->bytes_of(src, bytes, "copy (source)");
  std::memmove(state_->bytes_of(dst, bytes, "copy (destination)"), from, bytes);
}

size_t Device::allocated_bytes() const {
  size_t n = 0;
  for (const kernel::Buffer& b : state_->memory) n += b.bytes.size();
  return n;
}

const std::vector<TimelineEntry>& Device::timeline() const { return state_->timeline; }

uint64_t Device::cycle() const { return state_->cycle; }

Module Device::load_module(const std::string& path) {
  std::string text;
  switch (models::read_text_file(path, models::kMaxProgramBytes, text)) {
    case models::ReadStatus::cannot_open: throw Error(fmt::format("{}: cannot open the module", path));
    case models::ReadStatus::too_large:
      throw Error(fmt::format("{}: larger than {} bytes", path, models::kMaxProgramBytes));
    case models::ReadStatus::ok: break;
  }
  return load_module_text(text, path);
}

}  // namespace ptxfu
