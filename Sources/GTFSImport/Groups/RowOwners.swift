/// Which of consecutive parts of a batch (runs of a batch, or the groups gathered into one) hold the
/// given rows.
///
/// ```swift
/// owners(of: [0, 4], partSizes: [3, 2]) // [0, 1]: row 0 is in the first part, row 4 in the second
/// ```
///
/// - Parameters:
///   - rows: row indexes in the batch, ascending (as SQLite refuses them, in insert order).
///   - partSizes: the rows of each part, in batch order; the parts cover the batch from its first row.
/// - Returns: the position of the part holding each row that a part holds, ascending, without repeats.
func owners(of rows: [Int], partSizes: some Sequence<Int>) -> [Int] {
    var result: [Int] = []
    guard !rows.isEmpty else { return result }
    var next = rows.makeIterator()
    var row = next.next()
    var end = 0
    for (position, size) in partSizes.enumerated() {
        end += size
        var holds = false
        while let current = row, current < end {
            holds = true
            row = next.next()
        }
        if holds { result.append(position) }
        if row == nil { break }
    }
    return result
}
