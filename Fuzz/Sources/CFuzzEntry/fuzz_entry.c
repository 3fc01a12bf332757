#include "fuzz_entry.h"

#include <stdio.h>

// libFuzzer's entry for programs with a main of their own. Weak: the fuzz targets are targets of
// the main package, so its plain build compiles and links them without libFuzzer, where this is
// null; Fuzz/run.sh builds them with -sanitize=fuzzer, which links libFuzzer in.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size))
    __attribute__((weak));

int penkit_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) {
        fputs("built without libFuzzer: build and run the fuzz targets with Fuzz/run.sh (make fuzz)\n", stderr);
        return 2;
    }
    return LLVMFuzzerRunDriver(argc, argv, test);
}
