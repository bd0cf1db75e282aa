// SPDX-License-Identifier: Apache-2.0

// Implementation detail of AmbientTesting. Not API.
#ifndef AMBIENT_TESTING_SHIMS_H
#define AMBIENT_TESTING_SHIMS_H
// Nothing to declare: this module only runs AmbientTesting's set-up when a program that
// links it loads (shims.c).
#endif
