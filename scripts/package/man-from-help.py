#!/usr/bin/env python3
"""Writes a man page (roff, man(7) macros) for a swift-argument-parser command from its
`--experimental-dump-help` JSON, one page for the command with every subcommand as a section.

Usage: man-from-help.py BINARY SECTION VERSION OUT_FILE
The pages are generated at build time from the binaries being packaged, so they say what the
code parses.
"""
import json
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote that would start a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def synopsis(argument):
    names = argument.get("names") or []
    preferred = argument.get("preferredName") or (names[0] if names else None)
    if argument["kind"] == "positional":
        return "\\fI%s\\fR" % roff(argument["valueName"]) + (" ..." if argument.get("isRepeating") else "")
    dash = "-" if preferred["kind"] == "short" else "--"
    spelled = "\\fB%s\\fR" % roff(dash + preferred["name"])
    if argument["kind"] == "option":
        spelled += " \\fI%s\\fR" % roff(argument["valueName"])
    return spelled


def all_names(argument):
    spelled = []
    for name in argument.get("names") or []:
        dash = "-" if name["kind"] == "short" else "--"
        spelled.append("\\fB%s\\fR" % roff(dash + name["name"]))
    if argument["kind"] == "option":
        spelled = [s + " \\fI%s\\fR" % roff(argument["valueName"]) for s in spelled]
    return ", ".join(spelled) or "\\fI%s\\fR" % roff(argument["valueName"])


def visible(command):
    return [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]


def describe_arguments(command, out):
    for argument in visible(command):
        out.append(".TP")
        out.append(all_names(argument))
        text = argument.get("abstract", "")
        if argument.get("discussion"):
            text += "\n" + argument["discussion"]
        if argument.get("defaultValue") and argument["kind"] != "flag":
            text += " (default: %s)" % argument["defaultValue"]
        out.append(roff(text))


def section(command, path, out):
    """One command and, recursively, its subcommands."""
    name = " ".join(path)
    usage = " ".join(synopsis(a) for a in visible(command) if a["kind"] == "positional" or not a.get("isOptional"))
    if len(path) > 1:
        out.append(".SS \"%s\"" % roff(name))
    out.append("\\fB%s\\fR [\\fIoptions\\fR] %s" % (roff(name), usage))
    out.append(".br")
    if command.get("abstract"):
        out.append(roff(command["abstract"]))
    if command.get("discussion"):
        out.append(".PP")
        out.append(roff(command["discussion"]))
    describe_arguments(command, out)
    for sub in command.get("subcommands") or []:
        if sub["commandName"] == "help" or not sub.get("shouldDisplay", True):
            continue
        section(sub, path + [sub["commandName"]], out)


def main():
    binary, number, version, target = sys.argv[1:5]
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)
    command = dump["command"]
    name = command["commandName"]
    out = [
        '.TH "%s" "%s" "" "penkit %s" "penkit"' % (name.upper(), number, version),
        ".SH NAME",
        "%s \\- %s" % (name, roff(command.get("abstract", ""))),
        ".SH SYNOPSIS",
    ]
    subs = [s for s in command.get("subcommands") or [] if s["commandName"] != "help"]
    if subs:
        out.append("\\fB%s\\fR \\fIcommand\\fR [\\fIoptions\\fR]" % name)
    else:
        out.append("\\fB%s\\fR [\\fIoptions\\fR]" % name)
    out.append(".SH DESCRIPTION")
    out.append(roff(command.get("discussion") or command.get("abstract", "")))
    if subs:
        out.append(".SH COMMANDS")
        for sub in subs:
            section(sub, [name, sub["commandName"]], out)
    out.append(".SH OPTIONS")
    describe_arguments(command, out)
    out.append(".TP\n\\fB\\-\\-version\\fR\nPrints %s (penkit %s)." % (name, version))
    out.append(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShows help.")
    out.append(".SH FILES")
    out.append("/usr/share/doc/penkit/daemon.md, /usr/share/doc/penkit/protocol.md, "
               "/usr/share/doc/penkit/protocol.schema.json")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


main()
