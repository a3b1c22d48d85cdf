extension Reader {
    /// The reader's lines as an `AsyncSequence` of owned copies.
    ///
    /// Iteration reads on the calling task and throws `CancellationError` when that task is
    /// cancelled, so a cancelled task stops reading at the next line.
    ///
    /// ```swift
    /// for try await line in try Reader(path: "stops.txt").lines {
    ///     print(line.number, line.string)
    /// }
    /// ```
    public var lines: AsyncLines { AsyncLines(reader: self) }
}

/// An asynchronous sequence of a ``Reader``'s lines, each an ``OwnedLine``.
public struct AsyncLines: AsyncSequence {
    /// The element type: a line that owns its bytes.
    public typealias Element = OwnedLine
    /// The error type: a ``ReaderError``, `CancellationError` or a source's own error.
    public typealias Failure = any Error

    let reader: Reader

    /// Makes the iterator; the sequence is single-pass like its reader.
    /// - Returns: an iterator that reads on from where the reader stands.
    public func makeAsyncIterator() -> Iterator { Iterator(reader: reader) }

    /// Pulls lines from the reader one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next line, `nil` at the end of the input.
        ///
        /// - Parameter actor: the caller's actor; reading runs there.
        /// - Returns: the next line, or `nil` at the end of the input.
        /// - Throws: `CancellationError` when the task is cancelled, or a reading error.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> OwnedLine? {
            try Task.checkCancellation()
            return try reader.nextLine()?.owned()
        }

        /// The next line, `nil` at the end of the input.
        ///
        /// - Returns: the next line, or `nil` at the end of the input.
        /// - Throws: `CancellationError` when the task is cancelled, or a reading error.
        public mutating func next() async throws -> OwnedLine? {
            try Task.checkCancellation()
            return try reader.nextLine()?.owned()
        }
    }
}

@available(*, unavailable)
extension AsyncLines: Sendable {}

@available(*, unavailable)
extension AsyncLines.Iterator: Sendable {}
