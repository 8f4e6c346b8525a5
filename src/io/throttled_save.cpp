#include "io/throttled_save.hpp"

#include <chrono>
#include <utility>

namespace credit {

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }
}  // namespace

ThrottledSave::ThrottledSave(std::function<void()> write, double interval_s, Seconds now)
    : write_(std::move(write)), interval_(interval_s), now_(std::move(now)), last_(now_()) {}

double ThrottledSave::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void ThrottledSave::changed() {
  dirty_ = true;
  if (now_() - last_ >= interval_) write_now();
}

void ThrottledSave::flush() {
  if (dirty_) write_now();
}

void ThrottledSave::write_now() {
  write_();  // throws on a failed write: dirty_ stays set
  dirty_ = false;
  last_ = now_();
  ++writes_;
}

StopOnSignal::StopOnSignal() {
  g_stop_signal = 0;
  old_int_ = std::signal(SIGINT, on_stop_signal);
  old_term_ = std::signal(SIGTERM, on_stop_signal);
}

StopOnSignal::~StopOnSignal() {
  std::signal(SIGINT, old_int_ == SIG_ERR ? SIG_DFL : old_int_);
  std::signal(SIGTERM, old_term_ == SIG_ERR ? SIG_DFL : old_term_);
}

bool StopOnSignal::requested() { return g_stop_signal != 0; }
int StopOnSignal::signal_number() { return int(g_stop_signal); }

}  // namespace credit
