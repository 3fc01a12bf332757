#!/usr/bin/env python3
"""The desktop guest's rows as docs/virtual-tablet.md's table: reads `make desktop`'s output (its
`desktop-result {json}` lines, from a log or stdin) and prints one Markdown row per app, server and
path, in the order app, server, path.

    python3 scripts/desktop/desktop-table.py LOG
"""
import json
import sys


def yes(value, limit=None):
    if value is None:
        return "—"
    if not value and limit:
        return "no (app limit)"
    return "yes" if value else "no"


def row(r):
    reports = "%s (%s / %s; %s; %s)" % (r["events"], r.get("paired"), r.get("expected"), r.get("lost"), r.get("repeated"))
    if r["path"] == "failsafe":
        reports += "; after the grab %s" % r.get("stale_after_grab_reports", 0)
    residual = "%s" % r.get("residual_px")
    if r.get("residual_beyond_rounding_px") is not None:
        residual += " (%s beyond whole px)" % r["residual_beyond_rounding_px"]
    pressure = "%s (%s)" % (yes(r.get("pressure_exact")), r.get("pressure_worst"))
    server = r["server"] + (" (%s)" % r["input_driver"] if r["server"] == "xorg" and r.get("input_driver") else "")
    jitter = " / ".join(str(r.get(k)) for k in ("jitter_rest_mm", "jitter_slow_mm", "jitter_hover_mm"))
    cells = [r["app"], server, r["path"], reports, residual, pressure, r.get("axes_lag_reports"), yes(r.get("hover")),
             yes(r.get("eraser"), r.get("eraser_limit")), yes(r.get("buttons")), r.get("double_events"),
             r.get("lag_ms"), r.get("rmse_mm"), jitter, r.get("delay_ms_p50")]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def main():
    source = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    rows = [json.loads(line.split(" ", 1)[1]) for line in source if line.startswith("desktop-result ")]
    print("| app | server (input driver) | path | reports (paired / expected; lost; repeated) | residual px "
          "| pressure exact (worst, 1/65535) | axes lag | hover | eraser | buttons | double | lag ms | rmse mm "
          "| jitter rest / slow / hover mm | delay p50 ms |")
    print("|" + "---|" * 15)
    for r in sorted(rows, key=lambda r: (r["app"], r["server"], r["path"])):
        print(row(r))


if __name__ == "__main__":
    main()
