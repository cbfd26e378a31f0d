import AdPlayback
import MediaCore

/// Where each asset of one card goes, in points relative to the card's top left: the pure result of a template,
/// an ad, the width available and a text measurer.
public struct NativeCardLayout: Hashable, Sendable {
    /// One laid-out element: its slot, its rectangle and which asset it shows (`nil` for the feedback button).
    public struct Frame: Hashable, Sendable {
        public let slot: NativeAssetSlot
        public let rect: PointRect
        /// The index of the asset in the ad's `assets`.
        public let asset: Int?
        /// For text: the lines drawn (the template's line limit applied; the drawing side ellipsises the last).
        public let lines: Int?
        /// Whether the asset is cut to fit (a label of the domain/sponsored/age row narrower than its text): a
        /// required asset must be shown whole, so a cut one fails binding.
        public var isCut = false
    }

    public let size: PointSize
    public let frames: [Frame]

    /// Lays `ad` out with `template`, at most `availableWidth` points wide (the template's width when it fits).
    ///
    /// The row of domain, sponsored and age takes each label's natural width, left to right, 6 pt apart. When
    /// they do not all fit in the column, the optional labels give way first, in row order (a long domain is
    /// cut, down to zero width, before a required "sponsored" label loses a point); only what the required labels
    /// alone cannot fit is cut from them, which fails binding.
    public init(ad: NativeAd, template: NativeCardTemplate, availableWidth: Int, measurer: any TextMeasurer) {
        self.init(assets: ad.assets, template: template, availableWidth: availableWidth, measurer: measurer)
    }

    init(assets: [NativeAsset], template t: NativeCardTemplate, availableWidth: Int, measurer: any TextMeasurer) {
        let width = max(0, min(t.width, availableWidth))
        guard width > 0 else {
            // A card of zero width shows nothing, so nothing of it is laid out.
            size = PointSize(width: 0, height: 0)
            frames = []
            return
        }
        let p = t.padding, inner = max(0, width - 2 * p)
        var frames: [Frame] = []
        func first(_ slot: NativeAssetSlot) -> (Int, NativeAsset)? {
            guard t.slots.contains(slot), let index = assets.firstIndex(where: { $0.slot == slot && $0.refusal == nil }) else { return nil }
            return (index, assets[index])
        }
        func text(_ slot: NativeAssetSlot, x: Int, y: Int, width: Int, fontSize: Int, limit: Int) -> Int {
            guard let (index, asset) = first(slot) else { return 0 }
            let lines = width > 0 ? min(limit, measurer.lineCount(of: asset.text ?? "", width: width, fontSize: fontSize)) : 0
            let height = lines * NativeCardTemplate.lineHeight(fontSize: fontSize)
            frames.append(Frame(slot: slot, rect: PointRect(x: x, y: y, width: lines > 0 ? width : 0, height: height), asset: index, lines: lines))
            return height
        }
        var headerBottom = p
        let hasFeedback = t.slots.contains(.feedback)
        if hasFeedback {
            frames.append(Frame(slot: .feedback, rect: PointRect(x: width - p - t.feedbackSize, y: p, width: t.feedbackSize, height: t.feedbackSize),
                                asset: nil, lines: nil))
            headerBottom = max(headerBottom, p + t.feedbackSize)
        }
        var column = p
        if let (index, _) = first(.icon) {
            frames.append(Frame(slot: .icon, rect: PointRect(x: p, y: p, width: t.iconSize, height: t.iconSize), asset: index, lines: nil))
            column += t.iconSize + t.spacing
            headerBottom = max(headerBottom, p + t.iconSize)
        }
        let columnEnd = width - p - (hasFeedback ? t.feedbackSize + t.spacing : 0)
        let columnWidth = max(0, columnEnd - column)
        let titleHeight = text(.title, x: column, y: p, width: columnWidth, fontSize: t.titleFontSize, limit: t.titleLines)
        let rowY = p + titleHeight + (titleHeight > 0 ? t.spacing / 2 : 0)
        let rowHeight = NativeCardTemplate.lineHeight(fontSize: t.rowFontSize)
        // Each label of the row at its natural width, then the optional ones cut, in row order, while the row is
        // wider than the column (a label cut to nothing takes its gap with it).
        var row: [(slot: NativeAssetSlot, index: Int, natural: Int, width: Int)] = []
        var required: [Bool] = []
        for slot in [NativeAssetSlot.domain, .sponsored, .age] {
            guard let (index, asset) = first(slot) else { continue }
            let natural = Int(measurer.width(of: asset.text ?? "", fontSize: t.rowFontSize).ceiling)
            row.append((slot, index, natural, natural))
            required.append(asset.isRequired)
        }
        func rowWidth() -> Int {
            let shown = row.filter { $0.width > 0 }
            return shown.reduce(0) { $0 + $1.width } + 6 * max(0, shown.count - 1)
        }
        for i in row.indices where !required[i] {
            let over = rowWidth() - (columnEnd - column)
            guard over > 0 else { break }
            row[i].width = max(0, row[i].width - over)
        }
        var cursor = column
        for label in row {
            let w = max(0, min(label.width, columnEnd - cursor))
            var frame = Frame(slot: label.slot, rect: PointRect(x: min(cursor, columnEnd), y: rowY, width: w, height: w > 0 ? rowHeight : 0),
                              asset: label.index, lines: w > 0 ? 1 : 0)
            frame.isCut = w < label.natural
            frames.append(frame)
            headerBottom = max(headerBottom, rowY + rowHeight)
            if w > 0 { cursor += w + 6 }
        }
        headerBottom = max(headerBottom, p + titleHeight)
        var bottom = headerBottom
        func section(_ height: Int, _ add: (Int) -> Void) {
            guard height > 0 else { return }
            add(bottom + t.spacing)
            bottom += t.spacing + height
        }
        if let (index, asset) = first(.media) {
            var aspect = (w: 16, h: 9)
            if case .image(_, _, let size?) = asset.content { aspect = (size.width, size.height) }
            let height = inner * aspect.h / aspect.w
            section(height) { y in frames.append(Frame(slot: .media, rect: PointRect(x: p, y: y, width: inner, height: height), asset: index, lines: nil)) }
        }
        let bodyY = bottom + t.spacing
        let bodyHeight = text(.body, x: p, y: bodyY, width: inner, fontSize: t.bodyFontSize, limit: t.bodyLines)
        if bodyHeight > 0 { bottom = bodyY + bodyHeight }
        if let (index, _) = first(.callToAction) {
            section(t.callToActionHeight) { y in
                frames.append(Frame(slot: .callToAction, rect: PointRect(x: p, y: y, width: inner, height: t.callToActionHeight), asset: index, lines: 1))
            }
        }
        let warningY = bottom + t.spacing
        let warningHeight = text(.warning, x: p, y: warningY, width: inner, fontSize: t.warningFontSize, limit: t.warningLines)
        if warningHeight > 0 { bottom = warningY + warningHeight }
        size = PointSize(width: width, height: bottom + p)
        self.frames = frames
    }

    /// The frame showing asset `index`, if it was laid out.
    public func frame(ofAsset index: Int) -> Frame? { frames.first { $0.asset == index } }

    /// Why `assets` cannot be bound to this layout: the first required asset that is not laid out with a
    /// non-zero size, described for the `onAdBindingFailure` event; `nil` when every required asset is.
    public func bindingFailure(_ assets: [NativeAsset]) -> String? {
        for (index, asset) in assets.enumerated() where asset.isRequired {
            let name = "required asset \(asset.id.map { "id \($0)" } ?? "#\(index)") (\(asset.kindName))"
            guard let slot = asset.slot else { return "\(name) has no place in a card" }
            if let refusal = asset.refusal { return "\(name) was dropped: \(refusal)" }
            guard let frame = frame(ofAsset: index) else {
                if size.width == 0 { return "\(name) is not laid out: the card has zero width" }
                return frames.contains { $0.slot == slot } ? "\(name) is not laid out (\(slot) shows another asset)"
                    : "\(name) is not laid out: the template leaves out \"\(slot)\""
            }
            guard frame.rect.width > 0, frame.rect.height > 0 else {
                return "\(name) is laid out with zero size (\(frame.rect.width)x\(frame.rect.height) pt)"
            }
            if frame.isCut { return "\(name) is cut to \(frame.rect.width) pt: the row has no room for all of it" }
        }
        return nil
    }
}

extension NativeAsset {
    /// The asset's kind as the response writes it: `title`, `img icon`, `data sponsored`, `video`.
    public var kindName: String {
        switch content {
        case .title: "title"
        case .image(.icon, _, _): "img icon"
        case .image(.main, _, _): "img main"
        case .image(.other(let code), _, _): "img type \(code)"
        case .data(let kind, _): "data \(kind)"
        case .video: "video"
        }
    }
}
