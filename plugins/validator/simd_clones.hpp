// Marks a function whose loops vectorise to be compiled for baseline x86-64, AVX2 (x86-64-v3)
// and AVX-512 (x86-64-v4), the best clone picked at load time: the plugin is built for baseline
// x86-64 but its per-element loops run several times faster with wider vectors.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ASC_VALIDATOR_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define ASC_VALIDATOR_CLONES
#endif
