#pragma once
// Whether this build runs under a sanitizer (make test-asan / test-tsan). Sanitizers multiply
// memory (ASan's quarantine and shadow: hundreds of MiB) and time (TSan: 5-15x), so a test that
// bounds the daemon's RSS or latency states product figures only for an uninstrumented build.

namespace rocewatch {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif
#else
inline constexpr bool kUnderSanitizer = false;
#endif

// ThreadSanitizer alone: a child forked from a TSan process can deadlock in TSan's runtime
// before it execs (tests that fork helper daemons skip under it).
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kUnderThreadSanitizer = true;
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif

}  // namespace rocewatch
