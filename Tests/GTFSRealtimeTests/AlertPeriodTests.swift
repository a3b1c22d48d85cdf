import Foundation
@testable import GTFSRealtime
import Testing

/// Alerts that give only the periods replacing the deprecated `active_period`.
struct AlertPeriodTests {
    @Test func communicationPeriodsStandInForActivePeriods() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        var entity = TransitRealtime_FeedEntity()
        entity.id = "a1"
        var range = TransitRealtime_TimeRange()
        (range.start, range.end) = (1_000, 2_000)
        entity.alert.communicationPeriod = [range]
        entity.alert.informedEntity = [TransitRealtime_EntitySelector.with { $0.stopID = "S1" }]
        message.entity = [entity]
        var alerts: [RealtimeAlert] = []
        try RealtimeFeed(data: message.serializedData()).forEachEntity { entity, _ in
            if case .alert(let alert) = entity { alerts.append(alert) }
        }
        #expect(alerts.map(\.activePeriods) == [[RealtimeAlert.Period(start: 1_000, end: 2_000)]])
    }
}
