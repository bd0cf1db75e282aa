// SPDX-License-Identifier: Apache-2.0
// Nothing to compile: the target only declares libFuzzer's driver (include/CFuzzerDriver.h).
#include "CFuzzerDriver.h"
