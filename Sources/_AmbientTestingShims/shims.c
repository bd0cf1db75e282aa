// SPDX-License-Identifier: Apache-2.0

// When a test program that links AmbientTesting loads, before any test runs: AmbientTesting
// starts following which XCTest test case is running (RunningXCTest.swift), so a report
// from Ambient's tools fails that test case, and one made between tests goes to standard
// error; and it installs the source locator that names the lines Ambient's reports point at
// (SourceLocator.swift). Swift has no load-time initialisers; this constructor is the one place it needs one.
#include "_AmbientTestingShims.h"

extern void ambient_testing_follow_xctest(void);
extern void ambient_testing_install_locator(void);

__attribute__((constructor)) static void ambient_testing_load(void) {
    ambient_testing_follow_xctest();
    ambient_testing_install_locator();
}
