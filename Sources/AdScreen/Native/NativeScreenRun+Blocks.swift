import AdPlayback
import MediaCore

extension NativeScreenRun.Outcome {
    /// The block placement `placement` (its index in the run's placements) shows at `time`, to draw its layers'
    /// assets from (`block.ads[card].assets[asset]`); `nil` before a load lands.
    public func block(ofPlacement placement: Int, at time: MediaTime) -> NativeBlock? {
        sliders(at: time)[placement].block
    }

    /// The placements evaluated, in the order `block(ofPlacement:at:)` numbers them.
    public var placements: [NativePlacement] { run.placements }
}
