import Testing

/// Suites that measure wall-clock time (HTTP deadlines) or keep the CPU busy (huge documents) run inside this
/// serialized suite, one test at a time: on a two-core machine a 15 MB parse on one cooperative thread would
/// otherwise starve the task waiting for a loopback response and turn a fast request into a false timeout.
@Suite(.serialized) struct SerialDecisioningTests {}
