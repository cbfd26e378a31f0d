// libFuzzer's driver, called from a Swift `main`: SwiftPM gives every executable target its own `main`, which
// wins over libFuzzer's. Declared here because libFuzzer ships no header for it. (Each target still exports
// `LLVMFuzzerTestOneInput`, which libFuzzer's unused `main` refers to.)
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
