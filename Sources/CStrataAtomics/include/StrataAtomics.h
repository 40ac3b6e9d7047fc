// Word-sized atomics for Strata's lock-free read paths, over the compiler's __atomic builtins
// (clang ships them on every platform Swift runs on). Swift's own `Atomic` needs macOS 15 /
// iOS 18; these work on every OS version Strata supports.
#ifndef STRATA_ATOMICS_H
#define STRATA_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

static inline intptr_t strata_atomic_load_relaxed(const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_RELAXED);
}

static inline intptr_t strata_atomic_load_acquire(const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

static inline void strata_atomic_store_release(intptr_t *address, intptr_t value) {
  __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

static inline intptr_t strata_atomic_add(intptr_t *address, intptr_t delta) {
  return __atomic_add_fetch(address, delta, __ATOMIC_SEQ_CST);
}

static inline bool strata_atomic_compare_exchange(
    intptr_t *address, intptr_t expected, intptr_t desired) {
  return __atomic_compare_exchange_n(
      address, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#endif
