#!/usr/bin/env python3
"""Writes the GTFS-Realtime fixtures of RealtimeFeedTests with the official Python bindings.

An encoder independent of the Swift code under test: gtfs-realtime-bindings (PyPI) and Google's protobuf
runtime. RealtimeFeedTests.swift asserts the values written here; change both together.

Usage: python3 -m venv /tmp/gtfsrt && /tmp/gtfsrt/bin/pip install gtfs-realtime-bindings==3.0.0
       /tmp/gtfsrt/bin/python make-fixtures.py            # writes the .pb files next to this script
"""

import os

from google.transit import gtfs_realtime_pb2 as rt

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1764000000  # 2025-11-24 16:00:00 UTC


def feed(incrementality=rt.FeedHeader.FULL_DATASET, timestamp=T0):
    message = rt.FeedMessage()
    message.header.gtfs_realtime_version = "2.0"
    message.header.incrementality = incrementality
    message.header.timestamp = timestamp
    return message


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as handle:
        handle.write(data)
    print(f"{name}: {len(data)} bytes")


def trip_updates():
    message = feed()
    added = message.entity.add(id="tu-added")
    update = added.trip_update
    update.trip.trip_id = "T-ADD"
    update.trip.route_id = "R1"
    update.trip.direction_id = 1
    update.trip.start_time = "25:10:00"
    update.trip.start_date = "20251124"
    update.trip.schedule_relationship = rt.TripDescriptor.ADDED
    update.vehicle.id = "V1"
    update.vehicle.label = "4711"
    update.vehicle.license_plate = "B-XY 123"
    update.timestamp = T0 + 10
    update.delay = -45
    first = update.stop_time_update.add(stop_sequence=1, stop_id="S1")
    first.arrival.delay = 60
    first.arrival.time = T0 + 100
    first.arrival.uncertainty = 30
    first.departure.delay = 90
    first.departure.time = T0 + 190
    first.departure.uncertainty = 15
    first.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SCHEDULED
    update.stop_time_update.add(stop_sequence=2, stop_id="S2",
                                schedule_relationship=rt.TripUpdate.StopTimeUpdate.SKIPPED)
    update.stop_time_update.add(stop_sequence=3, schedule_relationship=rt.TripUpdate.StopTimeUpdate.NO_DATA)
    fourth = update.stop_time_update.add(stop_id="S4")
    fourth.departure.time = T0 + 400
    update.stop_time_update.add(stop_sequence=5, schedule_relationship=rt.TripUpdate.StopTimeUpdate.UNSCHEDULED)

    duplicated = message.entity.add(id="tu-dup").trip_update
    duplicated.trip.trip_id = "T-DUP"
    duplicated.trip.start_date = "20251124"
    duplicated.trip.start_time = "08:00:00"
    duplicated.trip.schedule_relationship = rt.TripDescriptor.DUPLICATED
    duplicated.trip_properties.trip_id = "T-DUP-NEW"
    duplicated.trip_properties.start_date = "20251125"
    duplicated.trip_properties.start_time = "08:15:00"
    duplicated.trip_properties.trip_headsign = "not in the model"

    for entity_id, relationship in [("tu-canceled", rt.TripDescriptor.CANCELED), ("tu-replacement", rt.TripDescriptor.REPLACEMENT),
                                    ("tu-deleted", rt.TripDescriptor.DELETED), ("tu-new", rt.TripDescriptor.NEW),
                                    ("tu-unscheduled", rt.TripDescriptor.UNSCHEDULED)]:
        other = message.entity.add(id=entity_id).trip_update
        other.trip.trip_id = "T-" + entity_id
        other.trip.schedule_relationship = relationship
    write("trip-updates.pb", message.SerializeToString(deterministic=True))


def vehicle_positions():
    message = feed(timestamp=T0 + 5)
    full = message.entity.add(id="vp-1").vehicle
    full.trip.trip_id = "T1"
    full.trip.route_id = "R1"
    full.trip.start_date = "20251124"
    full.vehicle.id = "V1"
    full.vehicle.label = "Tram 12"
    full.position.latitude = 52.5219
    full.position.longitude = 13.4132
    full.position.bearing = 90.5
    full.position.speed = 12.25
    full.position.odometer = 12345.5
    full.current_stop_sequence = 7
    full.stop_id = "S7"
    full.current_status = rt.VehiclePosition.STOPPED_AT
    full.timestamp = T0 + 3
    full.congestion_level = rt.VehiclePosition.STOP_AND_GO
    full.occupancy_status = rt.VehiclePosition.FEW_SEATS_AVAILABLE

    bare = message.entity.add(id="vp-2").vehicle
    bare.vehicle.id = "V2"
    bare.position.latitude = -33.5
    bare.position.longitude = 151.25
    write("vehicle-positions.pb", message.SerializeToString(deterministic=True))


def alerts():
    message = feed()
    alert = message.entity.add(id="al-1").alert
    alert.active_period.add(start=T0, end=T0 + 3600)
    alert.active_period.add(start=T0 + 7200)
    alert.informed_entity.add(agency_id="A1")
    alert.informed_entity.add(route_id="R1", route_type=3, direction_id=1)
    selected = alert.informed_entity.add(stop_id="S1")
    selected.trip.trip_id = "T1"
    alert.cause = rt.Alert.STRIKE
    alert.effect = rt.Alert.NO_SERVICE
    alert.severity_level = rt.Alert.WARNING
    alert.url.translation.add(text="https://example.org/strike")
    alert.header_text.translation.add(text="Streik bei der BVG", language="de")
    alert.header_text.translation.add(text="Strike at BVG", language="en")
    alert.description_text.translation.add(text="Kein Verkehr auf der Linie M10 – Grüße", language="de")
    alert.tts_header_text.translation.add(text="not in the model")

    plain = message.entity.add(id="al-2").alert
    plain.header_text.translation.add(text="Aufzug defekt")
    write("alerts.pb", message.SerializeToString(deterministic=True))


def with_unknown_bytes(submessage, raw):
    """Parses a submessage back with raw fields appended: protobuf keeps values its enums lack as unknown
    fields, and writes them out again."""
    submessage.MergeFromString(submessage.SerializePartialToString() + raw)


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def key(number, wire_type):
    return varint(number << 3 | wire_type)


def unknown_values():
    message = feed()
    congested = message.entity.add(id="unknown-congestion").vehicle
    congested.vehicle.id = "V9"
    with_unknown_bytes(congested, key(6, 0) + varint(99))  # congestion_level 99

    strange = message.entity.add(id="unknown-relationship").trip_update
    strange.trip.trip_id = "T9"
    with_unknown_bytes(strange.trip, key(4, 0) + varint(42))  # schedule_relationship 42

    caused = message.entity.add(id="unknown-cause").alert
    caused.effect = rt.Alert.DETOUR
    with_unknown_bytes(caused, key(6, 0) + varint(77))  # cause 77

    message.entity.add(id="no-trip").trip_update.delay = 30  # TripUpdate.trip is required: written partial
    nameless = message.entity.add()  # FeedEntity.id is required
    nameless.vehicle.vehicle.id = "V10"
    message.entity.add(id="shape-only").shape.shape_id = "SH1"
    message.entity.add(id="nothing")
    kept = message.entity.add(id="kept").trip_update
    kept.trip.trip_id = "T10"

    # Fields FeedMessage does not define (its extension ranges), of every wire type: to be skipped.
    extra = (key(1000, 0) + varint(2**63) + key(1001, 1) + bytes(8) + key(1002, 2) + varint(3) + b"abc"
             + key(1003, 5) + bytes(4) + key(9000, 3) + key(1, 0) + varint(5) + key(9000, 4))
    data = message.SerializePartialToString(deterministic=True) + extra
    check = rt.FeedMessage()
    check.MergeFromString(data)  # the runtime reads it back whole (MergeFromString: no required-field check)
    assert len(check.entity) == len(message.entity)
    write("unknown-values.pb", data)


def differential():
    message = feed(incrementality=rt.FeedHeader.DIFFERENTIAL, timestamp=T0 + 60)
    message.entity.add(id="tu-old", is_deleted=True)
    message.entity.add(id="vp-old", is_deleted=True)
    changed = message.entity.add(id="tu-changed").trip_update
    changed.trip.trip_id = "T2"
    changed.stop_time_update.add(stop_sequence=4).arrival.delay = 180
    write("differential.pb", message.SerializeToString(deterministic=True))


if __name__ == "__main__":
    trip_updates()
    vehicle_positions()
    alerts()
    unknown_values()
    differential()
