// Every test file of this target sees the loopback server without importing it.
@_exported import LoopbackServer
