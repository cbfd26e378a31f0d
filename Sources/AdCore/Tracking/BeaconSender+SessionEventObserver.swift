extension BeaconSender: SessionEventObserver {
    /// Sends the URL of every `BEACON` event the session records (macros already expanded), when `pacing`
    /// says; other events are not for the network.
    public func session(didRecord events: [SessionEvent]) {
        for event in events where event.type == .beacon {
            if let url = event.url { send(url, at: pacing.due(outputSeconds: event.time)) }
        }
    }
}
