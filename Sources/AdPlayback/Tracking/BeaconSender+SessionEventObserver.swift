extension BeaconSender: SessionEventObserver {
    /// Sends the URL of every `BEACON` event the session records (macros already expanded), when `pacing`
    /// says; other events are not for the network.
    public func session(didRecord events: [SessionEvent]) {
        for event in events {
            if case .beacon(_, let url, _, _) = event.kind { send(url, at: pacing.due(outputSeconds: event.time)) }
        }
    }
}
