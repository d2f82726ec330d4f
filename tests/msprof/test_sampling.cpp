// Sample-based AI Core collection on a hand-made timeline: the number of samples (collection
// duration x frequency, rounded up), each core's utilisation per sample, and the per-core ratios
// of ai_core_utilization_*.csv, all worked out by hand from the task times below.
#include <doctest/doctest.h>

#include <asc/sdk/msprof/ai_core_sampling.hpp>
#include <asc/sdk/msprof/ai_core_utilization.hpp>

using namespace asc;
using namespace asc::msprof;

namespace {

DeviceInfo coupled_soc(int cores) {
  DeviceInfo soc;
  soc.soc_version = "Hand";
  soc.ai_core_count = cores;
  soc.vector_core_count = cores;
  soc.clock_mhz = 1000;
  return soc;
}

ProfileEvent task(const std::string& task_type, int block_dim, double start, double duration,
                  std::map<std::string, double> metrics) {
  ProfileEvent event;
  event.op_name = "t";
  event.task_type = task_type;
  event.block_dim = block_dim;
  event.start_us = start;
  event.duration_us = duration;
  event.metrics = std::move(metrics);
  return event;
}

// Each core's utilisation in a sample, against the hand-worked percentages.
void check_utilization(const UtilizationSample& sample, const std::vector<double>& expected) {
  REQUIRE(sample.utilization_percent.size() == expected.size());
  for (std::size_t core = 0; core < expected.size(); ++core)
    CHECK(sample.utilization_percent[core] == doctest::Approx(expected[core]));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1)
    lines.push_back(text.substr(begin, end - begin));
  return lines;
}

}  // namespace

// Two cores, 100 Hz (10 ms = 10000 us):
//   A  AI_CORE, 2 blocks, [0, 10000):      per core busy 8000, mac 6000, mte2 3000
//   B  AI_CORE, 1 block,  [10000, 15000):  core 0 busy 5000, vec 5000, mte2 1000
//   a copy                [15000, 25000):  on no core, but inside the collection
// Collection 25 ms x 100 Hz = 2.5 -> 3 samples: [0,10), [10,20), [20,25) ms.
TEST_CASE("25 ms at 100 Hz: 3 samples; utilisation and ratios per core by hand") {
  const std::vector<ProfileEvent> events = {
      task("AI_CORE", 2, 0, 10000, {{"aicore_time(us)", 8000}, {"mac_time(us)", 6000}, {"mte2_time(us)", 3000}}),
      task("AI_CORE", 1, 10000, 5000, {{"aicore_time(us)", 5000}, {"vec_time(us)", 5000}, {"mte2_time(us)", 1000}}),
      task("MEMCPY_ASYNC", 0, 15000, 10000, {{"size(B)", 320000}}),
  };
  const AiCoreSampling sampling = sample_ai_cores(events, coupled_soc(2), 10000);
  CHECK(sampling.start_us == 0);
  CHECK(sampling.end_us == 25000);
  const auto& samples = sampling.ai_cores.samples;
  REQUIRE(samples.size() == 3);
  CHECK(samples[2].start_us == 20000);
  CHECK(samples[2].end_us == 25000);
  check_utilization(samples[0], {80, 80});
  check_utilization(samples[1], {50, 0});
  check_utilization(samples[2], {0, 0});

  // core 0: busy 13000 = mac 6000 + vec 5000 (+ mte2 4000 overlapped); core 1: busy 8000.
  const std::vector<std::string> csv = lines_of(ai_core_utilization_csv(sampling.ai_cores, false, false));
  REQUIRE(csv.size() == 4);
  CHECK(csv[0] ==
        "Device_id,Core ID,vec_ratio,mac_ratio,scalar_ratio,mte1_ratio,mte2_ratio,mte3_ratio,icache_miss_rate,"
        "memory_bound");
  // vec 5/13 = 0.385, mac 6/13 = 0.462, mte2 4/13 = 0.308, memory_bound = 4/6 = 0.667
  CHECK(csv[1] == "0,Core0,0.385,0.462,0.000,0.000,0.308,0.000,N/A,0.667");
  // mac 6/8 = 0.750, mte2 3/8 = 0.375, memory_bound = 0.5
  CHECK(csv[2] == "0,Core1,0.000,0.750,0.000,0.000,0.375,0.000,N/A,0.500");
  // means of the two cores: vec 0.1923, mac 0.6058, mte2 0.3413, memory_bound 0.5833
  CHECK(csv[3] == "0,Average,0.192,0.606,0.000,0.000,0.341,0.000,N/A,0.583");
}

TEST_CASE("a task cut by the sampling windows counts in each for the time it overlaps") {
  // [5000, 15000) busy 5000 on its one core: an even half of every window it covers.
  const std::vector<ProfileEvent> events = {task("AI_CORE", 1, 5000, 10000, {{"aicore_time(us)", 5000}})};
  // 10 ms at 100 Hz: exactly one sample.
  CHECK(sample_ai_cores(events, coupled_soc(1), 10000).ai_cores.samples.size() == 1);
  // 10 ms at 250 Hz (4 ms): 2.5 -> 3 samples, the last 2 ms long.
  const AiCoreSampling sampling = sample_ai_cores(events, coupled_soc(1), 4000);
  REQUIRE(sampling.ai_cores.samples.size() == 3);
  for (const UtilizationSample& sample : sampling.ai_cores.samples)
    CHECK(sample.utilization_percent[0] == doctest::Approx(50));
  CHECK(sampling.ai_cores.samples[2].end_us - sampling.ai_cores.samples[2].start_us == doctest::Approx(2000));
}

TEST_CASE("blocks are dealt over the cores: 3 blocks on 2 cores give the second core half the busiest's time") {
  const std::vector<ProfileEvent> events = {
      task("AI_CORE", 3, 0, 10000, {{"aicore_time(us)", 8000}, {"mac_time(us)", 4000}})};
  const AiCoreSampling sampling = sample_ai_cores(events, coupled_soc(2), 10000);
  CHECK(sampling.ai_cores.cores[0].busy_us == 8000);
  CHECK(sampling.ai_cores.cores[1].busy_us == 4000);
  check_utilization(sampling.ai_cores.samples[0], {80, 40});
}

TEST_CASE("split SoCs: cube tasks on the AI Cores, vector tasks on the vector cores, msprof's A2 columns") {
  DeviceInfo soc = coupled_soc(1);
  soc.split_vector_cores = true;
  soc.vector_core_count = 2;
  const std::vector<ProfileEvent> events = {
      task("AI_CORE", 1, 0, 1000, {{"aicore_time(us)", 1000}, {"aic_mac_time(us)", 500}, {"aic_fixpipe_time(us)", 250}}),
      task("AI_VECTOR_CORE", 2, 1000, 1000, {{"aiv_time(us)", 800}, {"aiv_vec_time(us)", 400}, {"aiv_mte2_time(us)", 800}}),
  };
  const AiCoreSampling sampling = sample_ai_cores(events, soc, 10000);
  const std::vector<std::string> cube = lines_of(ai_core_utilization_csv(sampling.ai_cores, true, false));
  CHECK(cube[0] == "Device_id,Core ID,mac_ratio,scalar_ratio,mte1_ratio,mte2_ratio,icache_miss_rate,fixpipe_ratio");
  CHECK(cube[1] == "0,Core0,0.500,0.000,0.000,0.000,N/A,0.250");
  const std::vector<std::string> vector = lines_of(ai_core_utilization_csv(sampling.vector_cores, true, true));
  CHECK(vector[0] ==
        "Device_id,Core ID,vec_ratio,mac_ratio,scalar_ratio,mte1_ratio,mte2_ratio,mte3_ratio,icache_miss_rate,"
        "memory_bound");
  CHECK(vector[1] == "0,Core0,0.500,0.000,0.000,0.000,1.000,0.000,N/A,2.000");
  CHECK(vector[2] == "0,Core1,0.500,0.000,0.000,0.000,1.000,0.000,N/A,2.000");
  // 2 ms collection in one 10 ms window: the vector cores were busy 800 us of 2000.
  check_utilization(sampling.vector_cores.samples[0], {40, 40});
}
