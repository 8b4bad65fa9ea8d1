#!/usr/bin/env python3
"""Builds a large export.xml by repeating a real fixture's Records with shifted dates (each copy N×400 days later),
so every record stays distinct. Usage: scale_export.py FIXTURE.xml COPIES OUT.xml"""
import datetime
import re
import sys

source, copies, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(source, encoding="utf-8").read()
records = re.findall(r"<Record [^>]*?/>|<Record [^>]*?>.*?</Record>", text, re.S)
date = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) ([+-]\d{4})")
pattern = "%Y-%m-%d %H:%M:%S"
split = [date.split(record) for record in records]
with open(target, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-01-01 00:00:00 +0000"/>\n')
    for copy in range(copies):
        shift = datetime.timedelta(days=400 * copy)
        for parts in split:
            pieces, k = [], 0
            while k < len(parts):
                if k % 3 == 1:
                    pieces.append((datetime.datetime.strptime(parts[k], pattern) + shift).strftime(pattern) + " " + parts[k + 1])
                    k += 2
                else:
                    pieces.append(parts[k])
                    k += 1
            out.write(" " + "".join(pieces) + "\n")
    out.write("</HealthData>\n")
print(f"{len(records) * copies} records")
