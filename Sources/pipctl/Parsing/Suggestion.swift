/// Finds the known word a mistyped one was probably meant to be, for "did you mean --fps?".
enum Suggestion {
    /// The candidate closest to `typed`: one that `typed` abbreviates, or else one within a small edit distance
    /// (transpositions count as one edit, so `fsp` finds `fps`). Nil when nothing is close enough to help.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        guard !typed.isEmpty else { return nil }
        if typed.count >= 2, let expansion = candidates.filter({ $0.hasPrefix(typed) }).min(by: { $0.count < $1.count }) {
            return expansion
        }
        let limit = max(1, min(2, typed.count / 3))
        let scored = candidates.map { (word: $0, distance: distance(typed, $0)) }.filter { $0.distance <= limit }
        return scored.min { $0.distance < $1.distance }?.word
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
