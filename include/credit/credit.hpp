#pragma once
// credit as a library: the selector, the workloads and the launchers.
#include "credit/launch.hpp"
#include "credit/schedule.hpp"
#include "credit/selector.hpp"
#include "credit/workloads.hpp"
