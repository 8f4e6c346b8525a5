#pragma once
// The build option that picks split_global's exchange, defaulted once for the kernels (kernels/global_exchange.cuh)
// and the time model's exchange constants (core/records.hpp), so the two cannot disagree.
#ifndef CREDIT_TAGGED_EXCHANGE  // 1: split_global exchanges tagged partials (TaggedRowExchange); 0: the counter barrier
#define CREDIT_TAGGED_EXCHANGE 1
#endif
