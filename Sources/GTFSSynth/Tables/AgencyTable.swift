import GTFS

/// `agency.txt`: VBB's main operators first (S-Bahn `1`, BVG `796`, DB Regio `108`, ODEG `731`), then
/// regional bus companies.
struct AgencyTable: FeedTable {
    let model: FeedModel
    typealias Record = Agency
    let fields: [Agency.Field] = [.agencyID, .agencyName, .agencyURL, .agencyTimezone, .agencyLang, .agencyPhone]

    /// `agency_id` of agency `index`.
    static func id(_ index: Int) -> String {
        index < Texts.agencies.count ? Texts.agencies[index].id : String(800 + index)
    }

    func writeRows(to out: RowBuffer) throws {
        for index in 0 ..< model.size.agencies {
            let name: String
            let url: String
            if index < Texts.agencies.count {
                name = Texts.agencies[index].name
                url = Texts.agencies[index].url
            } else {
                let company = index - Texts.agencies.count
                let round = company / Texts.busCompanies.count
                name = Texts.busCompanies[company % Texts.busCompanies.count] + (round > 0 ? ", Los \(round + 1)" : "")
                url = "https://www.vbb.de/unternehmen/\(Self.id(index))"
            }
            out.ascii(Self.id(index))
            out.comma()
            out.text(name)
            out.comma()
            out.ascii(url)
            out.comma()
            out.ascii("Europe/Berlin")
            out.comma()
            out.ascii("de")
            out.comma()
            if index % 3 == 1 { out.ascii("+49 30 \(2_000_000 + index * 7919)") }
            try out.endRow()
        }
    }
}
