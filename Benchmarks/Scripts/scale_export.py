#!/usr/bin/env python3
"""Builds a large export.xml by repeating a real fixture's Records with shifted dates (each copy N×400 days later),
so every record stays distinct. Both date forms are shifted: `2019-06-01 08:00:00 +0200` and the compact
`20150605060000+0100` of 2015 exports. Usage: scale_export.py FIXTURE.xml COPIES OUT.xml"""
import datetime
import re
import sys

source, copies, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(source, encoding="utf-8").read()
records = re.findall(r"<Record [^>]*?/>|<Record [^>]*?>.*?</Record>", text, re.S)
date = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})( [+-]\d{4})|(\d{14})([+-]\d{4})")
FORMS = ("%Y-%m-%d %H:%M:%S", "%Y%m%d%H%M%S")


def shifted(record, shift):
    def replace(match):
        if match.group(1):
            value, form, offset = match.group(1), FORMS[0], match.group(2)
        else:
            value, form, offset = match.group(3), FORMS[1], match.group(4)
        return (datetime.datetime.strptime(value, form) + shift).strftime(form) + offset
    return date.sub(replace, record)


dated = sum(1 for record in records if date.search(record))
if dated < len(records):
    sys.exit(f"{len(records) - dated} records have no date this script can shift; copies of them would be duplicates")
with open(target, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-01-01 00:00:00 +0000"/>\n')
    for copy in range(copies):
        shift = datetime.timedelta(days=400 * copy)
        for record in records:
            out.write(" " + shifted(record, shift) + "\n")
    out.write("</HealthData>\n")
print(f"{len(records) * copies} records")
