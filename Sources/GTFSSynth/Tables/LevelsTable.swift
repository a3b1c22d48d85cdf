import GTFS

/// `levels.txt`: floors of stations, numbered `1`, `2`, …, some with commas in their names.
struct LevelsTable: FeedTable {
    let model: FeedModel
    typealias Record = Level
    let fields: [Level.Field] = [.levelID, .levelIndex, .levelName]

    func writeRows(to out: RowBuffer) throws {
        for level in 1 ... model.size.levels {
            var random = SplitMix64(seed: model.seed, stream: .levels, index: level)
            out.int(level)
            out.comma()
            out.int(random.int(in: -4 ... 3))
            out.comma()
            out.text(random.pick(Texts.levelNames))
            try out.endRow()
        }
    }
}
