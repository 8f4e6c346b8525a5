#pragma once
// A sweep's results file is written atomically and whole. Written after every point, a sweep of 4472
// points (4.3 MB) takes about 0.1 s a write, about 6900 writes: most of its 770 s of device time. So a
// sweep writes at most every `interval` seconds and at the end of each shape (ThrottledSave); SIGINT or
// SIGTERM (StopOnSignal) stops it once the shape in progress is written: an interrupted sweep still loses
// nothing it measured, short of SIGKILL (then at most `interval`).
#include <csignal>
#include <functional>

namespace credit {

class ThrottledSave {
 public:
  using Seconds = std::function<double()>;  // a monotonic clock, in seconds
  ThrottledSave(std::function<void()> write, double interval_s, Seconds now = steady_seconds);

  // Something new to write: written now if `interval` has passed since the last write.
  void changed();
  // Written now if anything is unwritten.
  void flush();
  bool dirty() const { return dirty_; }
  int writes() const { return writes_; }

  static double steady_seconds();

 private:
  void write_now();
  std::function<void()> write_;
  double interval_;
  Seconds now_;
  double last_;
  bool dirty_ = false;
  int writes_ = 0;
};

// While one lives, SIGINT and SIGTERM only set a flag (the previous handlers come back after it).
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  static bool requested();
  static int signal_number();  // the signal that asked (0: none)

 private:
  using Handler = void (*)(int);
  Handler old_int_, old_term_;
};

}  // namespace credit
