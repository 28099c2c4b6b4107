// RVO2's Circle scenario, timed, for the side-by-side comparison with corridor-crowd
// (bench/rvo2/run.sh builds it against the RVO2 sources). Written for Corridor against
// RVO2's public API (RVOSimulator); same parameters as RVO2's examples/Circle.cc.
//
// usage: circle N MAX_STEPS [distance]
//   N agents evenly on a circle of radius 200 * N / 250 (Circle.cc's spacing), each
//   walking to its antipode; stops when all are within their radius of their goals or
//   after MAX_STEPS. With "distance", the smallest distance between two agents' centres
//   over the run is measured after each step (outside the timed region, with a grid).
// Prints one line of key=value pairs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unordered_map>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "RVO.h"

static float min_distance(const RVO::RVOSimulator &sim) {
  // Cells of side 4 (agents closer than that are what matters; radius 1.5).
  const float cell = 4.0F;
  std::unordered_map<long long, std::vector<std::size_t>> grid;
  auto key = [](long long x, long long y) { return (x << 32) ^ (y & 0xffffffffLL); };
  const std::size_t n = sim.getNumAgents();
  for (std::size_t i = 0; i < n; ++i) {
    RVO::Vector2 p = sim.getAgentPosition(i);
    grid[key((long long)std::floor(p.x() / cell), (long long)std::floor(p.y() / cell))].push_back(i);
  }
  float best = 1e30F;
  for (std::size_t i = 0; i < n; ++i) {
    RVO::Vector2 p = sim.getAgentPosition(i);
    long long cx = (long long)std::floor(p.x() / cell), cy = (long long)std::floor(p.y() / cell);
    for (long long dx = -1; dx <= 1; ++dx)
      for (long long dy = -1; dy <= 1; ++dy) {
        auto it = grid.find(key(cx + dx, cy + dy));
        if (it == grid.end()) continue;
        for (std::size_t j : it->second)
          if (j > i) best = std::min(best, RVO::abs(sim.getAgentPosition(j) - p));
      }
  }
  return best;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: circle N MAX_STEPS [distance]\n");
    return 2;
  }
  const std::size_t n = std::strtoul(argv[1], nullptr, 10);
  const long max_steps = std::strtol(argv[2], nullptr, 10);
  const bool distance = argc > 3 && std::strcmp(argv[3], "distance") == 0;
  const float radius = 200.0F * std::max(1.0F, static_cast<float>(n) / 250.0F);
  RVO::RVOSimulator sim;
  sim.setTimeStep(0.25F);
  sim.setAgentDefaults(15.0F, 10U, 10.0F, 10.0F, 1.5F, 2.0F);
  std::vector<RVO::Vector2> goals;
  for (std::size_t i = 0; i < n; ++i) {
    const float a = static_cast<float>(i) * 6.28318530717958647692F / static_cast<float>(n);
    sim.addAgent(radius * RVO::Vector2(std::cos(a), std::sin(a)));
    goals.push_back(-sim.getAgentPosition(i));
  }
  std::vector<double> ms;
  double agent_steps = 0;
  float closest = 1e30F;
  bool done = false;
  // CPU seconds of the process over the steps (all threads): on a loaded machine wall
  // clock overstates the work, as in corridor-crowd's example.
  const std::clock_t cpu0 = std::clock();
  while (!done && static_cast<long>(ms.size()) < max_steps) {
    const auto t = std::chrono::steady_clock::now();
#ifdef _OPENMP
#pragma omp parallel for
#endif
    for (long i = 0; i < static_cast<long>(n); ++i) {
      RVO::Vector2 g = goals[i] - sim.getAgentPosition(i);
      if (RVO::absSq(g) > 1.0F) g = RVO::normalize(g);
      sim.setAgentPrefVelocity(i, g);
    }
    sim.doStep();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
    agent_steps += static_cast<double>(n);
    if (distance) closest = std::min(closest, min_distance(sim));
    done = true;
    for (std::size_t i = 0; i < n; ++i)
      if (RVO::absSq(sim.getAgentPosition(i) - goals[i]) > sim.getAgentRadius(i) * sim.getAgentRadius(i)) {
        done = false;
        break;
      }
  }
  const double steps_cpu_s = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  double total = 0;
  for (double v : ms) total += v;
  std::vector<double> s = ms;
  std::sort(s.begin(), s.end());
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::printf("system=rvo2 agents=%zu threads=%d steps=%zu all_arrived=%d step_ms_median=%.4f step_ms_mean=%.4f "
              "agent_steps_per_s=%.4e steps_cpu_s=%.2f",
              n, threads, ms.size(), done ? 1 : 0, s[s.size() / 2], total / ms.size(), agent_steps / (total / 1e3), steps_cpu_s);
  if (distance) std::printf(" min_pairwise_distance=%.4f", closest);
  std::printf("\n");
  return 0;
}
