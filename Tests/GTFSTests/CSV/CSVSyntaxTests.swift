import GTFS
import Testing

@Suite("CSV syntax (RFC 4180 as feeds use it)")
struct CSVSyntaxTests {
    @Test("Quoted fields: commas, doubled quotes, line breaks; the record keeps its first line number", arguments: [1, 5, 4096])
    func quotedFields(chunkSize: Int) throws {
        let csv = "id,name,note\n1,\"Berlin, Staaken Bhf\",\"say \"\"hi\"\"\"\n2,\"two\nlines\r\nthree\",x\n3,plain,\"\"\n"
        let (records, summary) = try parseCSV(TextRecord.self, csv, chunkSize: chunkSize)
        #expect(
            records == [
                TextRecord(id: "1", name: "Berlin, Staaken Bhf", note: "say \"hi\"", line: 2),
                TextRecord(id: "2", name: "two\nlines\nthree", note: "x", line: 3),
                TextRecord(id: "3", name: "plain", note: nil, line: 6),
            ])
        #expect(summary.rowsRead == 3 && summary.rowsParsed == 3)
    }

    @Test("Unquoted fields are trimmed of spaces; quoted fields are kept exactly")
    func padding() throws {
        let (records, _) = try parseCSV(TextRecord.self, "id , name ,note\n  7 ,  Alexanderplatz  ,\" padded \"\n")
        #expect(records == [TextRecord(id: "7", name: "Alexanderplatz", note: " padded ", line: 2)])
    }

    @Test("A header with a BOM, spaces and CRLF maps its columns")
    func headerForms() throws {
        let (records, summary) = try parseCSV(TextRecord.self, "\u{FEFF} note , id\r\nN,1\r\n")
        #expect(records == [TextRecord(id: "1", note: "N", line: 2)])
        #expect(summary.warningCount == 0)
    }

    @Test("Columns in any order, extra columns warned once per file, optional columns may be absent")
    func columnMapping() throws {
        let (records, summary) = try parseCSV(TextRecord.self, "extra,id,more\nx,1,y\nz,2,w\n")
        #expect(records.map(\.id) == ["1", "2"])
        #expect(records.allSatisfy { $0.name == nil && $0.note == nil })
        #expect(summary.warningCount == 2)
        #expect(summary.warnings.map(\.description) == ["test.txt:1: extra: unknown column, ignored", "test.txt:1: more: unknown column, ignored"])
    }

    @Test("A duplicate column is an error naming the file and the column")
    func duplicateColumn() {
        #expect(throws: GTFSError.self) { try parseCSV(TextRecord.self, "id,name,id\n1,a,2\n") }
        do {
            _ = try parseCSV(TextRecord.self, "id,name,id\n1,a,2\n", fileName: "levels.txt")
        } catch let error as GTFSError {
            #expect(error.kind == .duplicateColumn)
            #expect(error.description == "levels.txt:1: id: appears twice in the header (columns 1 and 3)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("A missing required column is an error naming the file and the column")
    func missingColumn() {
        do {
            _ = try parseCSV(TextRecord.self, "name,note\na,b\n", fileName: "levels.txt")
            Issue.record("expected an error")
        } catch let error as GTFSError {
            #expect(error.kind == .missingColumn)
            #expect(error.description == "levels.txt:1: id: required column is missing from the header")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Too few cells are padded and too many ignored, with warnings; strict mode rejects them")
    func cellCounts() throws {
        let csv = "id,name,note\n1,a\n2,b,c,d\n3,c,e\n"
        let (records, summary) = try parseCSV(TextRecord.self, csv)
        #expect(records.map(\.id) == ["1", "2", "3"])
        #expect(records[0].note == nil && records[1].note == "c")
        #expect(summary.warningCount == 2)
        #expect(summary.warnings[0].description == "test.txt:2: has 2 cells but the header has 3; the missing cells read as empty")
        #expect(summary.warnings[1].description == "test.txt:3: has 4 cells but the header has 3; the extra cells are ignored")
        #expect(throws: GTFSError.self) { try parseCSV(TextRecord.self, csv, options: ParseOptions(strict: true)) }
    }

    @Test("Blank lines are skipped, mixed line endings give the same records")
    func blankLinesAndEndings() throws {
        let (records, summary) = try parseCSV(TextRecord.self, "id,name\r\n\r\n1,a\n\n\r\n2,b\r\n3,c")
        #expect(records.map(\.id) == ["1", "2", "3"])
        #expect(records.map(\.line) == [3, 6, 7])
        #expect(summary.rowsRead == 3)
    }

    @Test("A header-only file is a valid empty table; a 0-byte file is reported as empty")
    func emptyFiles() throws {
        let (none, headerOnly) = try parseCSV(TextRecord.self, "id,name\n")
        #expect(none.isEmpty && headerOnly.rowsRead == 0 && headerOnly.warningCount == 0)
        let (_, empty) = try parseCSV(TextRecord.self, "", fileName: "frequencies.txt")
        #expect(empty.warnings.map(\.description) == ["frequencies.txt: is empty (0 bytes)"])
        #expect(empty.warnings.first?.kind == .emptyFile)
        #expect(throws: GTFSError.self) { try parseCSV(TextRecord.self, "", options: ParseOptions(strict: true)) }
    }

    @Test("An unclosed quote is reported at the record's first line; the rows before it survive")
    func unclosedQuote() throws {
        let (records, summary) = try parseCSV(TextRecord.self, "id,name\n1,ok\n2,\"never closed\n3,x\n")
        #expect(records.map(\.id) == ["1"])
        #expect(summary.rowsRejected == 1)
        #expect(summary.errors.map(\.description) == ["test.txt:3: a quoted field is not closed before the end of the file"])
    }

    @Test("Text after a closing quote rejects the row")
    func textAfterQuote() throws {
        let (records, summary) = try parseCSV(TextRecord.self, "id,name\n1,\"a\"b\n2,c\n")
        #expect(records.map(\.id) == ["2"])
        #expect(summary.errors.first?.kind == .malformedCSV)
        #expect(summary.errors.first?.line == 2)
    }

    @Test("A NUL byte rejects its row")
    func nulByte() throws {
        let bytes = Array("id,name\n1,a\u{0}b\n2,c\n".utf8)
        let (records, summary) = try parseCSV(TextRecord.self, bytes)
        #expect(records.map(\.id) == ["2"])
        #expect(summary.errors.map(\.description) == ["test.txt:2: contains a NUL byte"])
        #expect(summary.rowsRead == summary.rowsParsed + summary.rowsRejected)
    }

    @Test("Batches are delivered in file order and sized as asked")
    func batching() throws {
        let csv = "id\n" + (1 ... 10).map { "\($0)\n" }.joined()
        var sizes: [Int] = []
        var ids: [String] = []
        let reader = try LineReaderShim.reader(csv)
        try TableParser.parse(TextRecord.self, from: reader, fileName: "t.txt", options: ParseOptions(batchSize: 4)) { batch in
            sizes.append(batch.count)
            ids += batch.map(\.id)
        }
        #expect(sizes == [4, 4, 2])
        #expect(ids == (1 ... 10).map(String.init))
    }

    @Test("A required column missing from the header names the header's near miss, control characters escaped")
    func nearMissColumn() throws {
        for (header, shown) in [("shape_id\u{0C}", "shape_id\\u{C}"), ("Shape_ID", "Shape_ID"), ("\tshape_id", "\\tshape_id")] {
            let text = "\(header),shape_pt_lat,shape_pt_lon,shape_pt_sequence\nS1,52.5,13.4,1\n"
            #expect {
                try parseCSV(ShapePoint.self, text, fileName: "shapes.txt")
            } throws: { error in
                (error as? GTFSError)?.description
                    == "shapes.txt:1: shape_id: required column is missing from the header (the header has \"\(shown)\")"
            }
        }
        #expect(throws: GTFSError.self) { try parseCSV(ShapePoint.self, "shape_pt_lat,shape_pt_lon,shape_pt_sequence\n", fileName: "shapes.txt") }
    }
}

