/// Receives the session's events as they are recorded (beacon sending, live display).
public protocol SessionEventObserver: AnyObject {
    func session(didRecord events: [SessionEvent])
}
