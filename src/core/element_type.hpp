#pragma once
// The element type of a run's inputs, column parameters and per-element outputs: fp32, bf16 or fp16.
// A property of the run, not of a workload: declarations stay type-free and every figure that counts bytes per
// element derives from the declaration and the type. Statistics, contributions and the combine stay fp32; int8
// outputs stay int8; per-row scalars stay fp32.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace credit {

enum class ElementType : unsigned char { F32, BF16, F16 };
inline constexpr ElementType kElementTypes[] = {ElementType::F32, ElementType::BF16, ElementType::F16};

constexpr int element_bytes(ElementType t) { return t == ElementType::F32 ? 4 : 2; }
// Elements of the type in one 16-byte access (the kernels' groups): 4 floats, 8 bf16 or fp16.
constexpr int group_elems_of(ElementType t) { return 16 / element_bytes(t); }

// Half the distance from 1 to the next value (the relative error bound of round-to-nearest): 2^-24, 2^-8, 2^-11.
constexpr double unit_roundoff(ElementType t) {
  return t == ElementType::F32 ? 0x1p-24 : t == ElementType::BF16 ? 0x1p-8 : 0x1p-11;
}

const char* element_type_name(ElementType t);  // "f32", "bf16", "f16"
// Throws std::invalid_argument naming the known types.
ElementType parse_element_type(std::string_view name);
// A comma-separated list ("f32,bf16"), in its order, without repeats; throws as above, or on an empty list.
std::vector<ElementType> parse_element_types(std::string_view list);
// The type a workload's name carries (workload_registry's typed_name): "<name>@bf16" bf16, "<name>@f16" fp16, f32
// without a suffix. Throws as parse_element_type for an unknown suffix.
ElementType element_of_name(std::string_view workload);

// x rounded to the type, to nearest even (the CUDA toolkit's own conversions, cuda_bf16.h and cuda_fp16.h): what a
// kernel reads when its inputs are stored in that type, and what the float64 oracle is given. fp16 overflows to inf.
float round_to(ElementType t, float x);
// x stored as bf16 or fp16 (rounded to nearest even): its 16 bits; and a stored value widened to fp32, exactly.
std::uint16_t to_bits(ElementType t, float x);
float widen(ElementType t, std::uint16_t bits);

// The spacing of the type's subnormals (2^-149, 2^-133, 2^-24): below the normal range rounding loses relative
// precision, and its error is at most half this, absolutely. fp16's starts at 6.1e-5, where a softmax of 2^15
// elements already writes.
constexpr double subnormal_step(ElementType t) {
  return t == ElementType::F32 ? 0x1p-149 : t == ElementType::BF16 ? 0x1p-133 : 0x1p-24;
}

// The relative L2 error a kernel's per-element output may show against the float64 oracle on the same rounded
// inputs: the fp32 kernel's own allowance (kKernelRelL2, as every fp32 check has used) plus, where the output is
// stored in a narrower type, that type's rounding of each element. Rounding costs each element at most
// unit_roundoff relative or subnormal_step / 2 absolute, so over `count` elements of the oracle's L2 norm
// `ref_norm` at most unit_roundoff + subnormal_step / 2 x sqrt(count) / ref_norm. Derived, not tuned until tests
// pass; the one-argument form is the bound where no output is subnormal.
inline constexpr double kKernelRelL2 = 1e-5;
constexpr double output_tolerance(ElementType out) {
  return kKernelRelL2 + (out == ElementType::F32 ? 0.0 : unit_roundoff(out));
}
double output_tolerance(ElementType out, double ref_norm, double count);

}  // namespace credit
