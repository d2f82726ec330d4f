// The simulated host clock, one per host thread (microseconds on the device timeline's scale).
//
// Between two API calls a thread's clock advances by the wall time that passed (the program's
// own work: preprocessing, file reads), less the time the thread waited for a CPU (a loaded
// machine's preemption is not the program's work); inside an API call it does not, because the functional
// emulation's CPU time is not the card's time. A call that blocks (synchronize, synchronous copy
// or execution) moves the clock to the simulated time the awaited work ends. A thread starts at
// the latest time any thread has reached, so threads created later do not travel back in time.
#pragma once

namespace asc::acl {

// The calling thread's clock (inside an API call).
double host_now_us();
// The calling thread blocked until `time_us`: its clock becomes at least that.
void host_wait_until(double time_us);
// aclInit: every thread's clock restarts at 0.
void restart_host_clocks();

// Inside an API call, around user code the runtime calls (host callbacks): that time counts.
class UserCodeScope {
 public:
  UserCodeScope();
  ~UserCodeScope();
  UserCodeScope(const UserCodeScope&) = delete;
  UserCodeScope& operator=(const UserCodeScope&) = delete;
};

}  // namespace asc::acl
