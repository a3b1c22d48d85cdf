/// Memory that outlives the bindings of one statement execution, so ``SQLiteRowBinder`` can bind without
/// SQLite copying or re-binding anything it does not have to.
///
/// - Text: strings are copied into blocks owned here and bound with `SQLITE_STATIC`, so SQLite reads them in
///   place instead of allocating a copy of each (a `malloc`, a mutex and a `free` per value). The blocks are
///   reused from one execution to the next; the bindings must be rebound or cleared before the blocks are
///   reused or freed (``TableInserter`` rebinds every non-NULL parameter per execution and clears all
///   bindings when an insert ends).
/// - NULLs: one bit per parameter says whether it currently holds a value. A parameter that already holds
///   NULL is not bound again, so a column a file does not have (all NULL) costs nothing after the first
///   execution. The mask is only valid from a ``clearAll()`` that matches `sqlite3_clear_bindings`.
///
/// Used from one thread at a time (the writer's), so its properties skip the runtime exclusivity checks.
final class BindingBuffers {
    /// The size of a text block; longer strings get a block of their own.
    private static let blockSize = 16 * 1024

    /// Reused text blocks, each `blockSize` bytes.
    @exclusivity(unchecked) private var blocks: [UnsafeMutableRawPointer] = []
    /// Blocks for strings longer than `blockSize`, freed at the next ``startExecution()``.
    @exclusivity(unchecked) private var oversized: [UnsafeMutableRawPointer] = []
    /// The block being filled.
    @exclusivity(unchecked) private var blockIndex = 0
    /// The first free byte of that block.
    @exclusivity(unchecked) private var offset = 0

    /// The number of parameters of the statement.
    let parameterCount: Int
    /// One bit per parameter, set while the parameter holds a non-NULL value.
    let nonNull: UnsafeMutablePointer<UInt64>
    /// The number of words of `nonNull`.
    private let wordCount: Int

    /// Buffers for a statement with `parameterCount` parameters, all NULL.
    init(parameterCount: Int) {
        self.parameterCount = parameterCount
        wordCount = max(1, (parameterCount + 63) / 64)
        nonNull = .allocate(capacity: wordCount)
        nonNull.initialize(repeating: 0, count: wordCount)
    }

    deinit {
        for block in blocks { block.deallocate() }
        for block in oversized { block.deallocate() }
        nonNull.deallocate()
    }

    /// Marks every parameter NULL (after `sqlite3_clear_bindings`).
    func clearAll() {
        nonNull.update(repeating: 0, count: wordCount)
    }

    /// Starts filling the text blocks from the beginning again (the previous execution's text is dead).
    func startExecution() {
        blockIndex = 0
        offset = 0
        for block in oversized { block.deallocate() }
        oversized.removeAll(keepingCapacity: true)
    }

    /// Copies `bytes` and returns where the copy lives until the next ``startExecution()``.
    @inline(__always)
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar> {
        let count = bytes.count
        let destination: UnsafeMutableRawPointer
        if count > Self.blockSize {
            destination = .allocate(byteCount: count, alignment: 1)
            oversized.append(destination)
        } else {
            if blockIndex == blocks.count {
                blocks.append(.allocate(byteCount: Self.blockSize, alignment: 1))
            } else if offset + count > Self.blockSize {
                blockIndex += 1
                offset = 0
                if blockIndex == blocks.count { blocks.append(.allocate(byteCount: Self.blockSize, alignment: 1)) }
            }
            destination = blocks[blockIndex] + offset
            offset += count
        }
        if let base = bytes.baseAddress, count > 0 {
            destination.copyMemory(from: base, byteCount: count)
        }
        return UnsafePointer(destination.assumingMemoryBound(to: CChar.self))
    }
}
