/// docs/strokes.md's table of the inks, made from `InkDefinition` (its widths and how size, nib
/// and opacity follow the pen), so that a new ink's numbers are written once: InkDocsTableTests
/// checks the region between the doc's markers, and `make generated` rewrites it.
extension InkDefinition {
    public static var docsTable: String {
        var lines = ["| ink | default width (mm) | valid widths (mm) | size (mm) | height | opacity |", "|---|---|---|---|---|---|"]
        for type in Ink.InkType.allCases {
            let d = type.definition
            lines.append("| \(type.rawValue) | \(number(d.defaultWidth)) | \(number(d.widthRange.lowerBound)) … \(number(d.widthRange.upperBound))"
                         + " | \(d.size.formula) | \(d.nibAspect == 1 ? "= size" : "\(number(d.nibAspect)) · size") | \(d.opacity.formula) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number as the docs write it: `1.0` for a default width, `20` for a range's end, `0.25`.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) + (x < 10 ? ".0" : "") : "\(x)"
    }

    /// `0.25 + 1.5 f`, `0.5 + f`, `1 + 3 tilt`.
    static func linear(_ base: Double, _ slope: Double, _ variable: String) -> String {
        let b = base == base.rounded() ? String(Int(base)) : "\(base)"
        let s = slope == 1 ? variable : (slope == slope.rounded() ? String(Int(slope)) : "\(slope)") + " " + variable
        return "\(b) + \(s)"
    }
}

extension InkDefinition.Size {
    /// w · (base + force f) · (1 + tilt tilt) / (1 + v/speedScale), each factor only where it acts.
    var formula: String {
        var text = force == 0 && base == 1 ? "w" : "w · (\(InkDefinition.linear(base, force, "f")))"
        if tilt != 0 { text += " · (\(InkDefinition.linear(1, tilt, "tilt")))" }
        if speedScale > 0 { text += " / (1 + v/\(Int(speedScale)))" }
        return text
    }
}

extension InkDefinition.Opacity {
    /// α · min(1, base + force f) · (1 − min(v/fadeSpeed, fadeCap)), each factor only where it acts.
    var formula: String {
        if base == 0, force == 0 { return "0" }
        var text = "α"
        if force != 0 { text += " · min(1, \(InkDefinition.linear(base, force, "f")))" }
        else if base != 1 { text += " · \(base)" }
        if fadeSpeed > 0 { text += " · (1 − min(v/\(Int(fadeSpeed)), \(fadeCap)))" }
        return text
    }
}
