// Hot paths allocate nothing: legal-action generation, actions, chance outcomes and copies
// run whole random games without a single heap allocation. Counted by replacing the global
// operator new in this test executable (the count is read only while a game runs).

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "env/io/scenario_library.h"
#include "env/rules.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size ? size : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace morne::test {
namespace {

TEST(NoAllocation, RandomGamesAllocateNothing) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    env::Rng rng(3);
    env::ActionList legal;
    env::ChanceList outcomes;
    const long before = g_allocations.load();
    long plies = 0;
    for (int game = 0; game < 3; ++game) {
      env::GameState s = env::newGame(*sc);
      while (!s.isTerminal()) {
        const env::GameState copy = s;
        if (copy.isChanceNode()) env::chanceOutcomes(s, outcomes);
        env::playRandomPly(s, rng, legal);
        ++plies;
      }
    }
    EXPECT_EQ(g_allocations.load() - before, 0) << name << " over " << plies << " plies";
    EXPECT_GT(plies, 100);
  }
}

}  // namespace
}  // namespace morne::test
