import Foundation
#if canImport(Glibc)
import Glibc
#endif

// _exit, not exit: when a command ends early (Ctrl-C), encoder, network and standard-input threads may still be
// running, and the exit handlers of C libraries (OpenSSL's, registered when libcurl starts) would tear down their
// state under those threads — a crash at exit. Everything pipctl prints goes out unbuffered with write(2), and
// every file it writes is complete or removed before `main` returns, so skipping the handlers loses nothing.
_exit(await Pipctl.main())
