// SPDX-License-Identifier: Apache-2.0
// libFuzzer's driver, as libFuzzer declares it (FuzzerInterface.h): parses libFuzzer's flags
// from argc/argv and runs the fuzzing loop, calling UserCb with each input. Linked from
// libFuzzer's runtime (swiftc's -sanitize=fuzzer); the fuzzer's own main calls it.
#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
