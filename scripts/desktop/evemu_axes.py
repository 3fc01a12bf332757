"""What an evemu trace's header says of a tablet's axes."""


def tablet_size(trace):
    """The tablet's width and height in mm, from the trace's ABS_X and ABS_Y (range / resolution)."""
    axes = {}
    for line in open(trace):
        p = line.split()
        if p[:1] == ["A:"] and p[1] in ("00", "01") and len(p) >= 7 and int(p[6]) > 0:
            axes[p[1]] = (int(p[3]) - int(p[2])) / int(p[6])
    if set(axes) != {"00", "01"}:
        raise ValueError("%s: no ABS_X and ABS_Y with their resolutions (an evemu trace of a tablet?)" % trace)
    return axes["00"], axes["01"]
