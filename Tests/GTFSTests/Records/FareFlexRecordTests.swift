import GTFS
import LineReader
import Testing

/// The Fares v1, Fares v2 and GTFS-Flex record types, and `locations.geojson`.
@Suite("Fare and flex records")
struct FareFlexRecordTests {
    /// Parses CSV text leniently into records and the summary.
    static func parse<R: GTFSRecord>(_ type: R.Type, _ csv: String, fileName: String) throws -> ([R], TableSummary) {
        var records: [R] = []
        let reader = try Reader(bytes: Array(csv.utf8))
        let summary = try TableParser.parse(type, from: reader, fileName: fileName) { records += $0 }
        return (records, summary)
    }

    /// Parses a file whose one data row (line 2) must be rejected, and returns that row's error.
    static func rejection<R: GTFSRecord>(_ type: R.Type, _ csv: String, fileName: String) throws -> GTFSError {
        let (records, summary) = try parse(type, csv, fileName: fileName)
        #expect(records.isEmpty)
        #expect(summary.rowsRead == 1 && summary.rowsRejected == 1)
        return try #require(summary.errors.first)
    }

    /// Checks every part of an error and its description.
    static func check(
        _ error: GTFSError, _ kind: GTFSError.Kind, file: String, line: Int? = 2, column: String?, description: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.file == file, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.column == column, sourceLocation: sourceLocation)
        #expect(error.description == description, sourceLocation: sourceLocation)
    }

    // MARK: - Fares v1

    @Test("fare_attributes.txt: exact prices, payment methods, empty transfers = unlimited, unknown codes kept")
    func fareAttributes() throws {
        let csv = """
            transfer_duration,agency_id,transfers,note,payment_method,currency_type,price,fare_id
            7200,A1,,x,1,EUR,3.20,F1
            ,,0,y,0,USD,0,F2
            ,,7,,9,EUR,1.5,F3

            """
        let (fares, summary) = try Self.parse(FareAttribute.self, csv, fileName: "fare_attributes.txt")
        #expect(summary.rowsParsed == 3 && summary.rowsRejected == 0)
        #expect(summary.warnings.map(\.description) == ["fare_attributes.txt:1: note: unknown column, ignored"])
        try #require(fares.count == 3)
        #expect(fares[0].fareID == "F1")
        #expect(fares[0].price == CurrencyAmount(units: 320, scale: 2))
        #expect(fares[0].price.description == "3.20")
        #expect(fares[0].currencyType == "EUR")
        #expect(fares[0].paymentMethod == .beforeBoarding)
        #expect(fares[0].transfers == nil)
        #expect(fares[0].agencyID == "A1")
        #expect(fares[0].transferDuration == 7200)
        #expect(fares[1].price == CurrencyAmount(units: 0, scale: 0))
        #expect(fares[1].paymentMethod == .onBoard)
        #expect(fares[1].transfers == .noTransfers)
        #expect(fares[1].agencyID == nil && fares[1].transferDuration == nil)
        #expect(fares[2].paymentMethod == .unknown(9))
        #expect(fares[2].transfers == .unknown(7))
        #expect(fares[2].transfers?.code == 7)
        #expect(fares[2].price == CurrencyAmount(units: 15, scale: 1))
    }

    @Test("fare_attributes.txt: a negative price, a bad currency, a missing payment method, a missing transfers column")
    func fareAttributeErrors() throws {
        let header = "fare_id,price,currency_type,payment_method,transfers\n"
        let negative = try Self.rejection(FareAttribute.self, header + "F1,-1.00,EUR,0,\n", fileName: "fare_attributes.txt")
        Self.check(
            negative, .invalidValue, file: "fare_attributes.txt", column: "price",
            description: "fare_attributes.txt:2: price: \"-1.00\" is not a non-negative amount")
        let currency = try Self.rejection(FareAttribute.self, header + "F1,1.00,EURO,0,\n", fileName: "fare_attributes.txt")
        Self.check(
            currency, .invalidValue, file: "fare_attributes.txt", column: "currency_type",
            description: "fare_attributes.txt:2: currency_type: \"EURO\" is not an ISO 4217 currency code")
        let payment = try Self.rejection(FareAttribute.self, header + "F1,1.00,EUR,,\n", fileName: "fare_attributes.txt")
        Self.check(
            payment, .missingValue, file: "fare_attributes.txt", column: "payment_method",
            description: "fare_attributes.txt:2: payment_method: is required")

        let error = #expect(throws: GTFSError.self) {
            try Self.parse(FareAttribute.self, "fare_id,price,currency_type,payment_method\nF1,1,EUR,0\n", fileName: "fare_attributes.txt")
        }
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "fare_attributes.txt:1: transfers: required column is missing from the header")
    }

    @Test("fare_rules.txt: zones and routes, empty cells as nil; a missing fare_id is rejected")
    func fareRules() throws {
        let csv = "contains_id,fare_id,note,route_id,destination_id,origin_id\nZ3,F1,foo,R1,Z2,Z1\n,F2,,,,\n"
        let (rules, summary) = try Self.parse(FareRule.self, csv, fileName: "fare_rules.txt")
        #expect(summary.rowsParsed == 2 && summary.warningCount == 1)
        try #require(rules.count == 2)
        #expect(rules[0].fareID == "F1" && rules[0].routeID == "R1")
        #expect(rules[0].originID == "Z1" && rules[0].destinationID == "Z2" && rules[0].containsID == "Z3")
        #expect(rules[1].fareID == "F2" && rules[1].routeID == nil)
        #expect(rules[1].originID == nil && rules[1].destinationID == nil && rules[1].containsID == nil)

        let error = try Self.rejection(FareRule.self, "route_id,fare_id\nR1,\n", fileName: "fare_rules.txt")
        Self.check(error, .missingValue, file: "fare_rules.txt", column: "fare_id", description: "fare_rules.txt:2: fare_id: is required")
    }

    // MARK: - Fares v2

    @Test("timeframes.txt: local times, empty start/end read as 00:00:00 and 24:00:00")
    func timeframes() throws {
        let csv = """
            service_id,end_time,zzz,start_time,timeframe_group_id
            WK,10:00:00,q,07:30:00,peak
            WE,,q,,allday
            WK,24:00:00,,19:00:00,evening

            """
        let (frames, summary) = try Self.parse(Timeframe.self, csv, fileName: "timeframes.txt")
        #expect(summary.rowsParsed == 3 && summary.warningCount == 1)
        try #require(frames.count == 3)
        #expect(frames[0].timeframeGroupID == "peak" && frames[0].serviceID == "WK")
        #expect(frames[0].startTime == GTFSTime(hours: 7, minutes: 30, seconds: 0))
        #expect(frames[0].endTime == GTFSTime(hours: 10, minutes: 0, seconds: 0))
        #expect(frames[1].startTime.seconds == 0)
        #expect(frames[1].endTime.seconds == 86_400)
        #expect(frames[2].endTime.description == "24:00:00")
    }

    @Test("timeframes.txt: a time past 24:00:00, and start_time without end_time (and the reverse)")
    func timeframeErrors() throws {
        let header = "timeframe_group_id,start_time,end_time,service_id\n"
        let late = try Self.rejection(Timeframe.self, header + "night,22:00:00,25:00:00,WK\n", fileName: "timeframes.txt")
        Self.check(
            late, .invalidValue, file: "timeframes.txt", column: "end_time",
            description: "timeframes.txt:2: end_time: \"25:00:00\" is later than 24:00:00")
        let noEnd = try Self.rejection(Timeframe.self, header + "peak,07:00:00,,WK\n", fileName: "timeframes.txt")
        Self.check(
            noEnd, .rule, file: "timeframes.txt", column: "end_time",
            description: "timeframes.txt:2: end_time: is required when start_time is given")
        let noStart = try Self.rejection(Timeframe.self, header + "peak,,09:00:00,WK\n", fileName: "timeframes.txt")
        Self.check(
            noStart, .rule, file: "timeframes.txt", column: "start_time",
            description: "timeframes.txt:2: start_time: is required when end_time is given")
    }

    @Test("rider_categories.txt: default category, empty = not default, unknown codes kept, URLs checked")
    func riderCategories() throws {
        let csv = """
            eligibility_url,is_default_fare_category,rider_category_name,rider_category_id,x
            https://example.com/seniors,1,Seniors,senior,
            ,,Adults,adult,
            example.com/kids,5,Kids,kid,

            """
        let (categories, summary) = try Self.parse(RiderCategory.self, csv, fileName: "rider_categories.txt")
        #expect(summary.rowsParsed == 3)
        #expect(
            summary.warnings.map(\.description) == [
                "rider_categories.txt:1: x: unknown column, ignored",
                "rider_categories.txt:4: eligibility_url: \"example.com/kids\" is not an absolute http(s) URL",
            ])
        try #require(categories.count == 3)
        #expect(categories[0].riderCategoryID == "senior" && categories[0].riderCategoryName == "Seniors")
        #expect(categories[0].isDefaultFareCategory == .defaultCategory)
        #expect(categories[0].eligibilityURL == "https://example.com/seniors")
        #expect(categories[1].isDefaultFareCategory == .notDefault)
        #expect(categories[1].eligibilityURL == nil)
        #expect(categories[2].isDefaultFareCategory == .unknown(5))
        #expect(categories[2].eligibilityURL == "example.com/kids")

        let error = try Self.rejection(
            RiderCategory.self, "rider_category_id,rider_category_name,is_default_fare_category\nadult,Adults,yes\n",
            fileName: "rider_categories.txt")
        Self.check(
            error, .invalidValue, file: "rider_categories.txt", column: "is_default_fare_category",
            description: "rider_categories.txt:2: is_default_fare_category: \"yes\" is not an integer code")
    }

    @Test("fare_media.txt: media types, unknown codes kept; a missing type is rejected")
    func fareMedia() throws {
        let csv = "fare_media_type,color,fare_media_name,fare_media_id\n2,red,Clipper,clipper\n0,,,cash\n4,,App,app\n7,,,future\n"
        let (media, summary) = try Self.parse(FareMedia.self, csv, fileName: "fare_media.txt")
        #expect(summary.rowsParsed == 4 && summary.warningCount == 1)
        #expect(media.map(\.fareMediaID) == ["clipper", "cash", "app", "future"])
        #expect(media.map(\.fareMediaType) == [.physicalTransitCard, .noMedia, .mobileApp, .unknown(7)])
        #expect(media.map(\.fareMediaName) == ["Clipper", nil, "App", nil])

        let error = try Self.rejection(FareMedia.self, "fare_media_id,fare_media_type\ncash,\n", fileName: "fare_media.txt")
        Self.check(
            error, .missingValue, file: "fare_media.txt", column: "fare_media_type",
            description: "fare_media.txt:2: fare_media_type: is required")
    }

    @Test("fare_products.txt: exact amounts, negative and zero allowed, empty ids as nil")
    func fareProducts() throws {
        let csv = """
            currency,amount,fare_media_id,x,rider_category_id,fare_product_name,fare_product_id
            EUR,-1.50,app,,senior,Senior discount,disc
            USD,2.75,,,,,single
            EUR,0,,,,,free

            """
        let (products, summary) = try Self.parse(FareProduct.self, csv, fileName: "fare_products.txt")
        #expect(summary.rowsParsed == 3 && summary.warningCount == 1)
        try #require(products.count == 3)
        #expect(products[0].fareProductID == "disc" && products[0].fareProductName == "Senior discount")
        #expect(products[0].riderCategoryID == "senior" && products[0].fareMediaID == "app")
        #expect(products[0].amount.units == -150)
        #expect(products[0].amount.scale == 2)
        #expect(products[0].amount.description == "-1.50")
        #expect(products[0].currency == "EUR")
        #expect(products[1].amount == CurrencyAmount(units: 275, scale: 2))
        #expect(products[1].currency == "USD")
        #expect(products[1].fareProductName == nil && products[1].riderCategoryID == nil && products[1].fareMediaID == nil)
        #expect(products[2].amount.units == 0)

        let header = "fare_product_id,amount,currency\n"
        let comma = try Self.rejection(FareProduct.self, header + "single,\"1,50\",EUR\n", fileName: "fare_products.txt")
        Self.check(
            comma, .invalidValue, file: "fare_products.txt", column: "amount",
            description: "fare_products.txt:2: amount: \"1,50\" is not a currency amount")
        let currency = try Self.rejection(FareProduct.self, header + "single,1.50,euro\n", fileName: "fare_products.txt")
        Self.check(
            currency, .invalidValue, file: "fare_products.txt", column: "currency",
            description: "fare_products.txt:2: currency: \"euro\" is not an ISO 4217 currency code")
    }

    @Test("fare_leg_rules.txt: every field; empty rule_priority reads 0; whether the rule_priority column exists")
    func fareLegRules() throws {
        let csv = """
            fare_product_id,rule_priority,to_timeframe_group_id,from_timeframe_group_id,to_area_id,from_area_id,network_id,leg_group_id,x
            single,2,offpeak,peak,zoneB,zoneA,bus,g1,
            day,,,,,,,,

            """
        let (rules, summary) = try Self.parse(FareLegRule.self, csv, fileName: "fare_leg_rules.txt")
        #expect(summary.rowsParsed == 2 && summary.warningCount == 1)
        try #require(rules.count == 2)
        #expect(rules[0].legGroupID == "g1" && rules[0].networkID == "bus")
        #expect(rules[0].fromAreaID == "zoneA" && rules[0].toAreaID == "zoneB")
        #expect(rules[0].fromTimeframeGroupID == "peak" && rules[0].toTimeframeGroupID == "offpeak")
        #expect(rules[0].fareProductID == "single")
        #expect(rules[0].rulePriority == 2)
        #expect(rules[0].hasRulePriorityColumn)
        #expect(rules[1].legGroupID == nil && rules[1].networkID == nil && rules[1].fromAreaID == nil && rules[1].toAreaID == nil)
        #expect(rules[1].fromTimeframeGroupID == nil && rules[1].toTimeframeGroupID == nil)
        #expect(rules[1].rulePriority == 0)
        #expect(rules[1].hasRulePriorityColumn)

        let (plain, _) = try Self.parse(FareLegRule.self, "network_id,fare_product_id\n,single\n", fileName: "fare_leg_rules.txt")
        #expect(plain.first?.rulePriority == 0)
        #expect(plain.first?.hasRulePriorityColumn == false)

        let error = try Self.rejection(FareLegRule.self, "fare_product_id,rule_priority\nsingle,-1\n", fileName: "fare_leg_rules.txt")
        Self.check(
            error, .invalidValue, file: "fare_leg_rules.txt", column: "rule_priority",
            description: "fare_leg_rules.txt:2: rule_priority: \"-1\" is not a non-negative integer")
    }

    @Test("fare_leg_join_rules.txt: networks and stops; the stop ids come together")
    func fareLegJoinRules() throws {
        let csv = "to_stop_id,x,from_network_id,from_stop_id,to_network_id\nS2,,rail,S1,bus\n,,rail,,rail\n"
        let (rules, summary) = try Self.parse(FareLegJoinRule.self, csv, fileName: "fare_leg_join_rules.txt")
        #expect(summary.rowsParsed == 2 && summary.warningCount == 1)
        try #require(rules.count == 2)
        #expect(rules[0].fromNetworkID == "rail" && rules[0].toNetworkID == "bus")
        #expect(rules[0].fromStopID == "S1" && rules[0].toStopID == "S2")
        #expect(rules[1].fromNetworkID == "rail" && rules[1].toNetworkID == "rail")
        #expect(rules[1].fromStopID == nil && rules[1].toStopID == nil)

        let header = "from_network_id,to_network_id,from_stop_id,to_stop_id\n"
        let noTo = try Self.rejection(FareLegJoinRule.self, header + "rail,bus,S1,\n", fileName: "fare_leg_join_rules.txt")
        Self.check(
            noTo, .rule, file: "fare_leg_join_rules.txt", column: "to_stop_id",
            description: "fare_leg_join_rules.txt:2: to_stop_id: is required when from_stop_id is given")
        let noFrom = try Self.rejection(FareLegJoinRule.self, header + "rail,bus,,S2\n", fileName: "fare_leg_join_rules.txt")
        Self.check(
            noFrom, .rule, file: "fare_leg_join_rules.txt", column: "from_stop_id",
            description: "fare_leg_join_rules.txt:2: from_stop_id: is required when to_stop_id is given")
        let noNetwork = try Self.rejection(FareLegJoinRule.self, header + "rail,,,\n", fileName: "fare_leg_join_rules.txt")
        Self.check(
            noNetwork, .missingValue, file: "fare_leg_join_rules.txt", column: "to_network_id",
            description: "fare_leg_join_rules.txt:2: to_network_id: is required")
    }

    @Test("fare_transfer_rules.txt: transfer counts, duration limits, transfer types, unknown codes kept")
    func fareTransferRules() throws {
        let csv = """
            fare_product_id,fare_transfer_type,duration_limit_type,duration_limit,transfer_count,to_leg_group_id,from_leg_group_id,x
            xfer,0,1,5400,,g2,g1,
            ,2,,,-1,g1,g1,
            ,1,,,3,g1,g1,
            ,9,4,60,,,,

            """
        let (rules, summary) = try Self.parse(FareTransferRule.self, csv, fileName: "fare_transfer_rules.txt")
        #expect(summary.rowsParsed == 4 && summary.rowsRejected == 0 && summary.warningCount == 1)
        try #require(rules.count == 4)
        #expect(rules[0].fromLegGroupID == "g1" && rules[0].toLegGroupID == "g2")
        #expect(rules[0].transferCount == nil)
        #expect(rules[0].durationLimit == 5400)
        #expect(rules[0].durationLimitType == .departureToDeparture)
        #expect(rules[0].fareTransferType == .fromLegPlusTransfer)
        #expect(rules[0].fareProductID == "xfer")
        #expect(rules[1].transferCount == -1)
        #expect(rules[1].durationLimit == nil && rules[1].durationLimitType == nil)
        #expect(rules[1].fareTransferType == .transferOnly)
        #expect(rules[1].fareProductID == nil)
        #expect(rules[2].transferCount == 3)
        #expect(rules[2].fareTransferType == .fromLegPlusTransferPlusToLeg)
        #expect(rules[3].fromLegGroupID == nil && rules[3].toLegGroupID == nil)
        #expect(rules[3].fareTransferType == .unknown(9))
        #expect(rules[3].durationLimitType == .unknown(4))
    }

    @Test(
        "fare_transfer_rules.txt: bad values and broken rules",
        arguments: [
            ("g1,g1,0,,,0", GTFSError.Kind.invalidValue, "transfer_count",
             "fare_transfer_rules.txt:2: transfer_count: \"0\" is not -1 (no limit) or a positive integer"),
            ("g1,g1,-2,,,0", .invalidValue, "transfer_count",
             "fare_transfer_rules.txt:2: transfer_count: \"-2\" is not -1 (no limit) or a positive integer"),
            ("g1,g1,,,,0", .rule, "transfer_count",
             "fare_transfer_rules.txt:2: transfer_count: is required when from_leg_group_id equals to_leg_group_id"),
            ("g1,g2,2,,,0", .rule, "transfer_count",
             "fare_transfer_rules.txt:2: transfer_count: \"2\" is forbidden unless from_leg_group_id equals to_leg_group_id"),
            (",,1,,,0", .rule, "transfer_count",
             "fare_transfer_rules.txt:2: transfer_count: \"1\" is forbidden unless from_leg_group_id equals to_leg_group_id"),
            ("g1,g2,,0,0,0", .invalidValue, "duration_limit",
             "fare_transfer_rules.txt:2: duration_limit: \"0\" is not a positive integer"),
            ("g1,g2,,5400,,0", .rule, "duration_limit_type",
             "fare_transfer_rules.txt:2: duration_limit_type: is required when duration_limit is given"),
            ("g1,g2,,,2,0", .rule, "duration_limit_type",
             "fare_transfer_rules.txt:2: duration_limit_type: \"2\" is forbidden when duration_limit is empty"),
            ("g1,g2,,,,", .missingValue, "fare_transfer_type",
             "fare_transfer_rules.txt:2: fare_transfer_type: is required"),
        ])
    func fareTransferRuleErrors(cells: String, kind: GTFSError.Kind, column: String, description: String) throws {
        let header = "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type\n"
        let error = try Self.rejection(FareTransferRule.self, header + cells + "\n", fileName: "fare_transfer_rules.txt")
        Self.check(error, kind, file: "fare_transfer_rules.txt", column: column, description: description)
    }

    // MARK: - Areas and networks

    @Test("areas.txt and stop_areas.txt: ids and names; missing ids are rejected")
    func areas() throws {
        let (areas, areaSummary) = try Self.parse(Area.self, "x,area_name,area_id\n1,Zone A,zoneA\n,,zoneB\n", fileName: "areas.txt")
        #expect(areaSummary.rowsParsed == 2 && areaSummary.warningCount == 1)
        #expect(areas.map(\.areaID) == ["zoneA", "zoneB"])
        #expect(areas.map(\.areaName) == ["Zone A", nil])
        let noArea = try Self.rejection(Area.self, "area_id,area_name\n,Zone A\n", fileName: "areas.txt")
        Self.check(noArea, .missingValue, file: "areas.txt", column: "area_id", description: "areas.txt:2: area_id: is required")

        let (stopAreas, stopAreaSummary) = try Self.parse(StopArea.self, "stop_id,x,area_id\nS1,,zoneA\nS2,,zoneA\n", fileName: "stop_areas.txt")
        #expect(stopAreaSummary.rowsParsed == 2 && stopAreaSummary.warningCount == 1)
        #expect(stopAreas.map(\.stopID) == ["S1", "S2"])
        #expect(stopAreas.allSatisfy { $0.areaID == "zoneA" })
        let noStop = try Self.rejection(StopArea.self, "area_id,stop_id\nzoneA,\n", fileName: "stop_areas.txt")
        Self.check(noStop, .missingValue, file: "stop_areas.txt", column: "stop_id", description: "stop_areas.txt:2: stop_id: is required")
        let noColumn = #expect(throws: GTFSError.self) { try Self.parse(StopArea.self, "area_id\nzoneA\n", fileName: "stop_areas.txt") }
        #expect(noColumn?.kind == .missingColumn)
        #expect(noColumn?.description == "stop_areas.txt:1: stop_id: required column is missing from the header")
    }

    @Test("networks.txt and route_networks.txt: ids and names; missing ids are rejected")
    func networks() throws {
        let (networks, networkSummary) = try Self.parse(Network.self, "network_name,x,network_id\nBus,,bus\n,,rail\n", fileName: "networks.txt")
        #expect(networkSummary.rowsParsed == 2 && networkSummary.warningCount == 1)
        #expect(networks.map(\.networkID) == ["bus", "rail"])
        #expect(networks.map(\.networkName) == ["Bus", nil])
        let noNetwork = try Self.rejection(Network.self, "network_id,network_name\n,Bus\n", fileName: "networks.txt")
        Self.check(
            noNetwork, .missingValue, file: "networks.txt", column: "network_id", description: "networks.txt:2: network_id: is required")

        let (routeNetworks, summary) = try Self.parse(RouteNetwork.self, "route_id,x,network_id\nR1,,bus\nR2,,rail\n", fileName: "route_networks.txt")
        #expect(summary.rowsParsed == 2 && summary.warningCount == 1)
        #expect(routeNetworks.map(\.routeID) == ["R1", "R2"])
        #expect(routeNetworks.map(\.networkID) == ["bus", "rail"])
        let noRoute = try Self.rejection(RouteNetwork.self, "network_id,route_id\nbus,\n", fileName: "route_networks.txt")
        Self.check(
            noRoute, .missingValue, file: "route_networks.txt", column: "route_id",
            description: "route_networks.txt:2: route_id: is required")
    }

    // MARK: - Flex

    @Test("location_groups.txt and location_group_stops.txt: ids and names; missing ids are rejected")
    func locationGroups() throws {
        let (groups, groupSummary) = try Self.parse(
            LocationGroup.self, "location_group_name,x,location_group_id\nOld town,,LG1\n,,LG2\n", fileName: "location_groups.txt")
        #expect(groupSummary.rowsParsed == 2 && groupSummary.warningCount == 1)
        #expect(groups.map(\.locationGroupID) == ["LG1", "LG2"])
        #expect(groups.map(\.locationGroupName) == ["Old town", nil])
        let noGroup = try Self.rejection(LocationGroup.self, "location_group_id,location_group_name\n,Old town\n", fileName: "location_groups.txt")
        Self.check(
            noGroup, .missingValue, file: "location_groups.txt", column: "location_group_id",
            description: "location_groups.txt:2: location_group_id: is required")

        let (stops, stopSummary) = try Self.parse(
            LocationGroupStop.self, "stop_id,x,location_group_id\nS1,,LG1\nS2,,LG1\n", fileName: "location_group_stops.txt")
        #expect(stopSummary.rowsParsed == 2 && stopSummary.warningCount == 1)
        #expect(stops.map(\.stopID) == ["S1", "S2"])
        #expect(stops.allSatisfy { $0.locationGroupID == "LG1" })
        let noStop = try Self.rejection(LocationGroupStop.self, "location_group_id,stop_id\n,S1\n", fileName: "location_group_stops.txt")
        Self.check(
            noStop, .missingValue, file: "location_group_stops.txt", column: "location_group_id",
            description: "location_group_stops.txt:2: location_group_id: is required")
    }

    @Test("booking_rules.txt: the three booking types, every field, unknown types kept")
    func bookingRules() throws {
        let csv = """
            booking_url,info_url,phone_number,drop_off_message,pickup_message,message,prior_notice_service_id,prior_notice_start_time,prior_notice_start_day,prior_notice_last_time,prior_notice_last_day,prior_notice_duration_max,prior_notice_duration_min,booking_type,booking_rule_id,x
            https://book.example.com,https://info.example.com,+1 555 0100,Drop msg,Pick msg,Call us,,,,,,,,0,rt,
            ,,,,,,,,,,,120,30,1,sameday,
            ,,,,,,wk,08:00:00,7,17:00:00,1,,,2,prior,
            ,,,,,,,,,,,,,5,future,

            """
        let (rules, summary) = try Self.parse(BookingRule.self, csv, fileName: "booking_rules.txt")
        #expect(summary.rowsParsed == 4 && summary.rowsRejected == 0 && summary.warningCount == 1)
        try #require(rules.count == 4)
        let realTime = rules[0]
        #expect(realTime.bookingRuleID == "rt" && realTime.bookingType == .realTime)
        #expect(realTime.message == "Call us" && realTime.pickupMessage == "Pick msg" && realTime.dropOffMessage == "Drop msg")
        #expect(realTime.phoneNumber == "+1 555 0100")
        #expect(realTime.infoURL == "https://info.example.com" && realTime.bookingURL == "https://book.example.com")
        #expect(realTime.priorNoticeDurationMin == nil && realTime.priorNoticeDurationMax == nil)
        #expect(realTime.priorNoticeLastDay == nil && realTime.priorNoticeLastTime == nil)
        #expect(realTime.priorNoticeStartDay == nil && realTime.priorNoticeStartTime == nil && realTime.priorNoticeServiceID == nil)
        let sameDay = rules[1]
        #expect(sameDay.bookingType == .sameDay)
        #expect(sameDay.priorNoticeDurationMin == 30 && sameDay.priorNoticeDurationMax == 120)
        #expect(sameDay.message == nil && sameDay.phoneNumber == nil && sameDay.bookingURL == nil)
        let prior = rules[2]
        #expect(prior.bookingType == .priorDays)
        #expect(prior.priorNoticeLastDay == 1 && prior.priorNoticeLastTime == GTFSTime(hours: 17, minutes: 0, seconds: 0))
        #expect(prior.priorNoticeStartDay == 7 && prior.priorNoticeStartTime == GTFSTime(hours: 8, minutes: 0, seconds: 0))
        #expect(prior.priorNoticeServiceID == "wk")
        #expect(rules[3].bookingType == .unknown(5))
        #expect(rules[3].bookingType.code == 5)
    }

    @Test(
        "booking_rules.txt: fields the booking type requires or forbids",
        arguments: [
            ("1,,,,,,,", "prior_notice_duration_min",
             "booking_rules.txt:2: prior_notice_duration_min: is required for booking_type 1"),
            ("0,30,,,,,,", "prior_notice_duration_min",
             "booking_rules.txt:2: prior_notice_duration_min: \"30\" is forbidden for booking_type 0"),
            ("2,30,,1,17:00:00,,,", "prior_notice_duration_min",
             "booking_rules.txt:2: prior_notice_duration_min: \"30\" is forbidden for booking_type 2"),
            ("0,,60,,,,,", "prior_notice_duration_max",
             "booking_rules.txt:2: prior_notice_duration_max: \"60\" is forbidden for booking_type 0"),
            ("2,,60,1,17:00:00,,,", "prior_notice_duration_max",
             "booking_rules.txt:2: prior_notice_duration_max: \"60\" is forbidden for booking_type 2"),
            ("2,,,,,,,", "prior_notice_last_day",
             "booking_rules.txt:2: prior_notice_last_day: is required for booking_type 2"),
            ("1,30,,1,17:00:00,,,", "prior_notice_last_day",
             "booking_rules.txt:2: prior_notice_last_day: \"1\" is forbidden for booking_type 1"),
            ("2,,,1,,,,", "prior_notice_last_time",
             "booking_rules.txt:2: prior_notice_last_time: is required when prior_notice_last_day is given"),
            ("1,30,,,17:00:00,,,", "prior_notice_last_time",
             "booking_rules.txt:2: prior_notice_last_time: \"17:00:00\" is forbidden when prior_notice_last_day is empty"),
            ("0,,,,,3,08:00:00,", "prior_notice_start_day",
             "booking_rules.txt:2: prior_notice_start_day: \"3\" is forbidden for booking_type 0"),
            ("1,30,120,,,3,08:00:00,", "prior_notice_start_day",
             "booking_rules.txt:2: prior_notice_start_day: \"3\" is forbidden for booking_type 1 when prior_notice_duration_max is given"),
            ("1,30,,,,3,,", "prior_notice_start_time",
             "booking_rules.txt:2: prior_notice_start_time: is required when prior_notice_start_day is given"),
            ("2,,,1,17:00:00,,08:00:00,", "prior_notice_start_time",
             "booking_rules.txt:2: prior_notice_start_time: \"08:00:00\" is forbidden when prior_notice_start_day is empty"),
            ("1,30,,,,,,wk", "prior_notice_service_id",
             "booking_rules.txt:2: prior_notice_service_id: \"wk\" is forbidden for booking_type 1"),
        ])
    func bookingRuleErrors(cells: String, column: String, description: String) throws {
        let header = """
            booking_type,prior_notice_duration_min,prior_notice_duration_max,prior_notice_last_day,prior_notice_last_time,\
            prior_notice_start_day,prior_notice_start_time,prior_notice_service_id,booking_rule_id

            """
        let error = try Self.rejection(BookingRule.self, header + cells + ",B1\n", fileName: "booking_rules.txt")
        Self.check(error, .rule, file: "booking_rules.txt", column: column, description: description)
    }

    @Test("booking_rules.txt: a booking type that is not an integer, and a time that is not a time")
    func bookingRuleValues() throws {
        let header = "booking_rule_id,booking_type,prior_notice_last_day,prior_notice_last_time\n"
        let type = try Self.rejection(BookingRule.self, header + "B1,soon,,\n", fileName: "booking_rules.txt")
        Self.check(
            type, .invalidValue, file: "booking_rules.txt", column: "booking_type",
            description: "booking_rules.txt:2: booking_type: \"soon\" is not an integer code")
        let time = try Self.rejection(BookingRule.self, header + "B1,2,1,5pm\n", fileName: "booking_rules.txt")
        Self.check(
            time, .invalidValue, file: "booking_rules.txt", column: "prior_notice_last_time",
            description: "booking_rules.txt:2: prior_notice_last_time: \"5pm\" is not a time (H:MM:SS)")
    }

    // MARK: - locations.geojson

    @Test("locations.geojson: a FeatureCollection is kept as its raw text")
    func locations() throws {
        let json = #"{"features": [{"type": "Feature", "id": "zone1", "properties": {}, "geometry": {"type": "Polygon", "coordinates": []}}], "type": "FeatureCollection"}"#
        let locations = try LocationsGeoJSON(json: json)
        #expect(locations.json == json)
        #expect(try LocationsGeoJSON(json: json) == locations)
    }

    @Test(
        "locations.geojson: empty text, not JSON, not an object, no type, the wrong type",
        arguments: [
            ("  \n", GTFSError.Kind.emptyFile, nil as String?, "locations.geojson: is empty"),
            ("{\"type\": ", .invalidValue, nil, "locations.geojson: is not valid JSON"),
            ("[1, 2]", .invalidValue, nil, "locations.geojson: is not a JSON object"),
            ("\"FeatureCollection\"", .invalidValue, nil, "locations.geojson: is not a JSON object"),
            ("{\"features\": []}", .missingValue, "type", "locations.geojson: type: is required"),
            ("{\"type\": \"Feature\"}", .invalidValue, "type", "locations.geojson: type: \"Feature\" is not \"FeatureCollection\""),
            ("{\"type\": [\"a\", {\"b\": 1}]}", .invalidValue, "type", "locations.geojson: type: \"[\"a\",{\"b\":1}]\" is not \"FeatureCollection\""),
        ])
    func locationsErrors(json: String, kind: GTFSError.Kind, column: String?, description: String) {
        let error = #expect(throws: GTFSError.self) { try LocationsGeoJSON(json: json) }
        #expect(error?.kind == kind)
        #expect(error?.file == "locations.geojson")
        #expect(error?.line == nil)
        #expect(error?.column == column)
        #expect(error?.description == description)
    }
}
