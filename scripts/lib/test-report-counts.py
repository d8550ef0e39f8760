#!/usr/bin/env python3
"""Sums the test counts of Surefire and Failsafe XML reports (TEST-*.xml in the folders given) and prints them:
'tests: P passed, F failed, S skipped' and 'skipped tests: S'. Used by .ci/run after mvn verify."""
import pathlib
import sys
import xml.etree.ElementTree as ET

totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
for folder in sys.argv[1:]:
    for report in sorted(pathlib.Path(folder).glob("TEST-*.xml")):
        root = ET.parse(report).getroot()
        suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
        for suite in suites:
            for key in totals:
                totals[key] += int(float(suite.get(key, "0") or 0))
failed = totals["failures"] + totals["errors"]
passed = totals["tests"] - failed - totals["skipped"]
print("tests: %d passed, %d failed, %d skipped" % (passed, failed, totals["skipped"]))
print("skipped tests: %d" % totals["skipped"])
