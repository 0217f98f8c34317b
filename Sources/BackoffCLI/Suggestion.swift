/// "Did you mean …?" for mistyped names.
enum Suggestion {
    /// The candidate closest to `input` by edit distance, if close enough to be a likely typo.
    /// A candidate also matches when `input` is close to its last hyphen-separated word
    /// (`--atempts` suggests `--max-attempts`).
    static func closest(to input: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let lastWord = candidate.split(separator: "-").last.map(String.init) ?? candidate
            let distance = min(editDistance(input, candidate), editDistance(input, lastWord))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, input.count / 3) else { return nil }
        return best.candidate
    }

    /// The Levenshtein distance (insertions, deletions, substitutions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
