#include "core/element_type.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace credit {

const char* element_type_name(ElementType t) {
  switch (t) {
    case ElementType::F32: return "f32";
    case ElementType::BF16: return "bf16";
    case ElementType::F16: return "f16";
  }
  return "?";
}

ElementType parse_element_type(std::string_view name) {
  for (ElementType t : kElementTypes)
    if (name == element_type_name(t)) return t;
  throw std::invalid_argument("unknown element type '" + std::string(name) + "' (known: f32, bf16, f16)");
}

std::vector<ElementType> parse_element_types(std::string_view list) {
  std::vector<ElementType> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const ElementType t = parse_element_type(list.substr(start, end - start));
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    start = end + 1;
  }
  return out;
}

ElementType element_of_name(std::string_view workload) {
  const std::size_t at = workload.rfind('@');
  return at == std::string_view::npos ? ElementType::F32 : parse_element_type(workload.substr(at + 1));
}

float round_to(ElementType t, float x) {
  switch (t) {
    case ElementType::F32: return x;
    case ElementType::BF16: return __bfloat162float(__float2bfloat16_rn(x));
    case ElementType::F16: return __half2float(__float2half_rn(x));
  }
  return x;
}

std::uint16_t to_bits(ElementType t, float x) {
  if (t == ElementType::BF16) return __bfloat16_as_ushort(__float2bfloat16_rn(x));
  return __half_as_ushort(__float2half_rn(x));
}

float widen(ElementType t, std::uint16_t bits) {
  if (t == ElementType::BF16) return __bfloat162float(__ushort_as_bfloat16(bits));
  return __half2float(__ushort_as_half(bits));
}

double output_tolerance(ElementType out, double ref_norm, double count) {
  if (out == ElementType::F32) return output_tolerance(out);
  if (!(ref_norm > 0)) return std::numeric_limits<double>::infinity();  // an all-zero oracle: no relative error
  return output_tolerance(out) + subnormal_step(out) / 2 * std::sqrt(count) / ref_norm;
}

}  // namespace credit
