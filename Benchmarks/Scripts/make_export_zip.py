#!/usr/bin/env python3
"""Builds an export.zip the way the iPhone's "Export All Health Data" lays it out — apple_health_export/export.xml
(Apple's v14 DTD, <Me>, Records grouped by type, Correlations, Workouts with their events and statistics) beside an
export_cda.xml about 2.5 times its size (as in real exports: 17.7 MB → 44 MB) — from the real excerpts of
Tests/Fixtures/apple-health-export, repeated with dates shifted by 400 days per copy so every object stays distinct.

The mix per copy: 4,951 environmental-audio records of a watch (with its device), heart rate with motion context,
resting heart rate, VO2 max, body mass, the walking metrics, steps and body composition of a 2021 export, a blood
pressure correlation, 15 workouts of watchOS 4 to 26 (their routes left out: a route file belongs to one workout).

Usage: make_export_zip.py SIZE_MB OUT.zip   (SIZE_MB: the size of export.xml wanted, in MB)
"""
import datetime
import os
import re
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "Tests", "Fixtures", "apple-health-export")
DTD = os.path.join(REPO, "Reference", "apple-health-export", "export-dtd-v14-ios18.1plus.xml")
DATE = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})( [+-]\d{4})")
ELEMENT = re.compile(r"<(Record|Correlation|Workout) [^>]*?/>|<(Record|Correlation|Workout) [^>]*?>.*?</\2>", re.S)


def elements(path, kind):
    text = open(os.path.join(FIXTURES, path), encoding="utf-8").read()
    found = []
    for match in ELEMENT.finditer(text):
        element = match.group(0)
        if not element.startswith("<" + kind + " "):
            continue
        if kind == "Record" and ('type="c"' in element):   # sampleexport-2 holds one corrupted record
            continue
        element = re.sub(r"\s*<WorkoutRoute .*?</WorkoutRoute>", "", element, flags=re.S)
        found.append(re.sub(r"\n\s*", "\n  ", element.strip()))
    return found


def base():
    records = elements("opendroid_hk/audio_exposure.xml", "Record")
    for name in ("record_heart_rate", "record_resting_heart_rate", "record_vo2_max", "record_body_mass"):
        records += elements(f"NicolasReyrolle_apple-health-analyzer/exports/{name}.xml", "Record") * 20
    records += elements("opendroid_hk/sampleexport-2.xml", "Record") * 10
    records += elements("y-yu_ahcd-go/export.xml", "Record") * 5
    # Records grouped by type, as Health writes them.
    by_type = {}
    for record in records:
        by_type.setdefault(re.search(r'type="([^"]+)"', record).group(1), []).append(record)
    workouts = []
    for name in sorted(os.listdir(os.path.join(FIXTURES, "NicolasReyrolle_apple-health-analyzer", "exports"))):
        if name.startswith("workout_"):
            workouts += elements(f"NicolasReyrolle_apple-health-analyzer/exports/{name}", "Workout")
    return by_type, elements("y-yu_ahcd-go/export.xml", "Correlation"), workouts


class Template:
    """An element split at its dates, so each copy only formats shifted dates."""

    def __init__(self, element):
        self.parts = DATE.split(element)  # text, date, offset, text, date, offset, ..., text
        self.dates = [datetime.datetime.strptime(d, "%Y-%m-%d %H:%M:%S") for d in self.parts[1::3]]

    def shifted(self, copy, within):
        """Moved by 400 days per copy and by `within` seconds inside one copy (so a record repeated in the mix is a
        distinct sample too)."""
        shift = datetime.timedelta(days=400 * copy, seconds=within)
        out = list(self.parts)
        for index, date in enumerate(self.dates):
            out[1 + 3 * index] = (date + shift).strftime("%Y-%m-%d %H:%M:%S")
        return "".join(out)


def cda_entry(element):
    """A CDA observation of a Record, as export_cda.xml writes one (about 2.5 times the Record's size)."""
    attributes = dict(re.findall(r'(\w+)="([^"]*)"', element.split(">", 1)[0]))
    start = attributes.get("startDate", "").replace("-", "").replace(":", "").replace(" ", "")
    end = attributes.get("endDate", "").replace("-", "").replace(":", "").replace(" ", "")
    return (f'<entry typeCode="DRIV"><organizer classCode="CLUSTER" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.26"/>'
            f'<id root="{abs(hash(element)) % 10**12:012d}"/><code code="46680005" codeSystem="2.16.840.1.113883.6.96" '
            f'codeSystemName="SNOMED CT" displayName="Vital signs"/><statusCode code="completed"/><effectiveTime><low value="{start}"/>'
            f'<high value="{end}"/></effectiveTime><component><observation classCode="OBS" moodCode="EVN">'
            f'<templateId root="2.16.840.1.113883.10.20.22.4.27"/><id root="{abs(hash(element[::-1])) % 10**12:012d}"/>'
            f'<code code="8867-4" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="{attributes.get("type", "")}"/>'
            f'<text><sourceName>{attributes.get("sourceName", "")}</sourceName><sourceVersion>{attributes.get("sourceVersion", "")}</sourceVersion>'
            f'<device>{attributes.get("device", "")}</device><value>{attributes.get("value", "")}</value><type>{attributes.get("type", "")}</type>'
            f'<unit>{attributes.get("unit", "")}</unit></text><statusCode code="completed"/><effectiveTime><low value="{start}"/>'
            f'<high value="{end}"/></effectiveTime><value xsi:type="PQ" value="{attributes.get("value", "")}" unit="{attributes.get("unit", "")}"/>'
            f'<referenceRange><observationRange><text></text></observationRange></referenceRange></observation></component></organizer></entry>\n')


def main():
    size_mb, target = float(sys.argv[1]), sys.argv[2]
    by_type, correlations, workouts = base()
    block = sum(len(r) + 2 for group in by_type.values() for r in group) + sum(len(e) + 2 for e in correlations + workouts)
    copies = max(1, round(size_mb * 1e6 / block))
    dtd = open(DTD, encoding="utf-8").read()
    counts = {"Record": 0, "Correlation": 0, "Workout": 0}
    options = dict(compression=zipfile.ZIP_DEFLATED, compresslevel=6)
    groups = [[Template(r) for r in group] for group in by_type.values()]
    others = [("Correlation", [Template(e) for e in correlations]), ("Workout", [Template(e) for e in workouts])]

    def records():
        for group in groups:
            for copy in range(copies):
                yield [template.shifted(copy, index) for index, template in enumerate(group)]

    with zipfile.ZipFile(target, "w", allowZip64=True, **options) as archive:
        with archive.open("apple_health_export/export.xml", "w", force_zip64=True) as xml:
            xml.write((dtd + '<HealthData locale="en_US">\n <ExportDate value="2026-11-01 10:00:00 -0700"/>\n'
                       ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
                       'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" '
                       'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n').encode())
            for chunk in records():
                xml.write("".join(" " + r + "\n" for r in chunk).encode())
                counts["Record"] += len(chunk)
            for kind, group in others:
                for copy in range(copies):
                    xml.write("".join(" " + t.shifted(copy, i) + "\n" for i, t in enumerate(group)).encode())
                    counts[kind] += len(group)
            xml.write(b"</HealthData>\n")
        with archive.open("apple_health_export/export_cda.xml", "w", force_zip64=True) as cda:
            cda.write(b'<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
                      b'<component><structuredBody><component><section>\n')
            for chunk in records():
                cda.write("".join(cda_entry(r) for r in chunk).encode())
            cda.write(b"</section></component></structuredBody></component>\n</ClinicalDocument>\n")
    with zipfile.ZipFile(target) as archive:
        info = {i.filename: i for i in archive.infolist()}
    xml, cda = info["apple_health_export/export.xml"], info["apple_health_export/export_cda.xml"]
    print(f"{target}: export.xml {xml.file_size / 1e6:.1f} MB ({xml.file_size / xml.compress_size:.0f}x compressed), "
          f"export_cda.xml {cda.file_size / 1e6:.1f} MB, zip {os.path.getsize(target) / 1e6:.1f} MB; "
          f"{counts['Record']:,} records, {counts['Correlation']:,} correlations, {counts['Workout']:,} workouts ({copies} copies)")


if __name__ == "__main__":
    main()
