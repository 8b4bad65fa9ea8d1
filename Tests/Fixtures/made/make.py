#!/usr/bin/env python3
"""Makes the fixtures of this folder, each for one test (run from anywhere; output is deterministic).

The zips are written by hand (local headers, central directory, end record) so that a test can have exactly the
flaw it is about: a path that leaves the folder, a zip bomb, a size that lies, entries that overlap, a bad checksum.
The exports are small Apple Health export.xml files in the format of Export Version 14.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DTD = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>\n]>\n'
ME = ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n'


def export(body, me=ME, offset="-0700"):
    return (DTD + '<HealthData locale="en_US">\n' + f' <ExportDate value="2026-11-01 10:00:00 {offset}"/>\n' + me + body
            + '</HealthData>\n').encode()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def zip_archive(entries):
    """entries: dicts with name, data and optionally method (8), size (declared), crc (declared), at (reuse the local
    header of an earlier entry, by index)."""
    out = bytearray()
    directory = bytearray()
    offsets = []
    for entry in entries:
        name = entry["name"].encode()
        data = entry["data"]
        method = entry.get("method", 8)
        packed = deflate(data) if method == 8 else data
        crc = entry.get("crc", zlib.crc32(data))
        size = entry.get("size", len(data))
        if "at" in entry:
            offset = offsets[entry["at"]]
            packed = entry["packed"] = entries[entry["at"]]["packed"]
        else:
            offset = len(out)
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, method, 0, 0x21, crc, len(packed), size, len(name), 0)
            out += name + packed
        entry["packed"] = packed
        offsets.append(offset)
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0x800, method, 0, 0x21, crc, len(packed), size,
                                 len(name), 0, 0, 0, 0, 0o100644 << 16, offset)
        directory += name
    start = len(out)
    out += directory
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(directory), start, 0)
    return bytes(out)


RECORD = ('  <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alex’s iPhone" sourceVersion="18.1" unit="count" '
          'creationDate="2026-10-30 09:10:00 -0700" startDate="2026-10-30 09:00:00 -0700" endDate="2026-10-30 09:05:00 -0700" value="420"/>\n')
SMALL = export(RECORD)

# A workout an app wrote twice (another creation date: two objects), and an exact copy of it (the same object twice);
# a record written twice, exactly alike.
WORKOUT = ('  <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Connect" '
           'sourceVersion="5.1" creationDate="{created}" startDate="2026-10-29 07:00:00 -0700" endDate="2026-10-29 07:30:00 -0700">\n'
           '   <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2026-10-29 07:00:00 -0700" '
           'endDate="2026-10-29 07:30:00 -0700" sum="5.2" unit="km"/>\n  </Workout>\n')
write("workout-copies.xml", export(
    RECORD + RECORD
    + WORKOUT.format(created="2026-10-29 07:31:10 -0700")
    + WORKOUT.format(created="2026-10-29 07:45:02 -0700")
    + WORKOUT.format(created="2026-10-29 07:45:02 -0700")))

# A mindful session as Health writes it, without a value (its type has none but "not applicable"), and a sleep record
# without one, which is an error: sleep has stages.
write("valueless-category.xml", export(
    '  <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" sourceVersion="11.0" '
    'creationDate="2026-10-30 21:05:00 -0700" startDate="2026-10-30 21:00:00 -0700" endDate="2026-10-30 21:05:00 -0700"/>\n'
    '  <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Alex’s Apple Watch" sourceVersion="11.0" '
    'creationDate="2026-10-31 07:05:00 -0700" startDate="2026-10-31 01:00:00 -0700" endDate="2026-10-31 02:00:00 -0700"/>\n'))

# <Me> with every attribute of the v14 DTD.
write("me-full.xml", export(RECORD))

# A record of a type the catalog does not know, in two exports made at two UTC offsets: the same record.
UNKNOWN = ('  <Record type="HKQuantityTypeIdentifierFutureThing" sourceName="Alex’s Apple Watch" sourceVersion="27.0" '
           'device="&lt;&lt;HKDevice: {pointer}&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,1, software:27.0&gt;" '
           'unit="count" creationDate="{c}" startDate="{s}" endDate="{e}" value="3"/>\n')
write("kept-element-winter.xml", export(UNKNOWN.format(pointer="0x283a1c0a0", c="2026-01-15 10:01:00 -0800",
                                                      s="2026-01-15 10:00:00 -0800", e="2026-01-15 10:00:30 -0800"), offset="-0800"))
write("kept-element-summer.xml", export(UNKNOWN.format(pointer="0x600001e5c", c="2026-01-15 20:01:00 +0200",
                                                      s="2026-01-15 20:00:00 +0200", e="2026-01-15 20:00:30 +0200"), offset="+0200"))

# The CDA copy of an export, given by mistake.
write("export_cda.xml", b'<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3">\n <title>Health Data</title>\n</ClinicalDocument>\n')

# Zips.
write("export.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL}]))
write("traversal.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL},
                                    {"name": "apple_health_export/../../evil.sh", "data": b"echo owned\n"}]))
write("absolute.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL},
                                   {"name": "/etc/evil.conf", "data": b"x\n"}]))
# 100 MB of one byte inflates from about 100 KB: a thousand times.
bomb = export(" " * 100_000_000)
write("bomb.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": bomb}]))
# Declares 2 MB (a ratio of 20), inflates to 100 MB.
write("lying-size.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": bomb, "size": 2_000_000}]))
# Two directory entries share one local header and its data (the overlapping-file zip bomb).
write("overlap.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL},
                                  {"name": "apple_health_export/export_cda.xml", "data": SMALL, "at": 0}]))
write("bad-checksum.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL, "crc": 0x12345678}]))
# export_cda.xml whose data is not DEFLATE at all: the import must never read it.
write("unreadable-cda.zip", zip_archive([{"name": "apple_health_export/export.xml", "data": SMALL},
                                         {"name": "apple_health_export/export_cda.xml", "data": b"\xff" * 4096, "method": 0,
                                          "crc": 0}]))
# A phone's zip with what sits beside export.xml: a route's GPX (from dogsheep/healthkit-to-sqlite, Apache-2.0) and an
# electrocardiogram, read from the archive when the import reaches them.
DOGSHEEP = os.path.join(HERE, "..", "apple-health-export", "dogsheep_healthkit-to-sqlite", "zip_contents", "apple_health_export")
with open(os.path.join(DOGSHEEP, "export.xml"), "rb") as f:
    routed = f.read()
with open(os.path.join(DOGSHEEP, "workout-routes", "route_2019-06-11_3.00pm.gpx"), "rb") as f:
    gpx = f.read()
ECG = b"Name,Alex\nDate of Birth,\"May 4, 1980\"\nRecorded Date,2026-10-30 09:00:00 -0700\nClassification,Sinus Rhythm\nSample Rate,512 hertz\n\n-0.123\n0.456\n"
write("with-side-files.zip", zip_archive([
    {"name": "apple_health_export/export.xml", "data": routed},
    {"name": "apple_health_export/export_cda.xml", "data": b"<ClinicalDocument/>\n" * 1000},
    {"name": "apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx", "data": gpx},
    {"name": "apple_health_export/electrocardiograms/ecg_2026-10-30.csv", "data": ECG},
]))
