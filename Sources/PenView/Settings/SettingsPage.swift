/// The settings page, `/settings`: penkitd's settings per tablet (the area drawn on the tablet's
/// outline and dragged, rotation, left-handed, the virtual tablet) and per tool seen on it (the
/// pressure curve with its control points dragged, a test area where the pen's force is drawn
/// live as you press, tip threshold and hover cut-off, each button's action, the ink), changed
/// live through penkitd's `settings` request as the user who runs `penkit view`
/// (Resources/settings.js). `{{TOKEN}}` is replaced with the server's token when the server starts.
enum SettingsPageHTML {
    static let text = PageHead.html(title: "penkit settings", stylesheet: "settings.css", script: "settings.js") + #"""
<body>
<header><h1>penkit settings</h1><p id="settings-status">asking penkitd…</p></header>
<main id="tablets"></main>
<section id="daemon-wide">
  <h2>Every tablet</h2>
  <label><input type="checkbox" id="virtual-tablet"> virtual tablet: apps get penkit's filtered pen (takes a restart of penkitd)</label>
  <div id="actions"></div>
</section>
</body>
</html>
"""#
}

/// The settings page's style sheet.
enum SettingsStyle {
    static let text = #"""
html, body { margin: 0; font: 14px/1.45 sans-serif; color: #222; background: #f4f5f7; }
header, main, #daemon-wide { max-width: 980px; margin: 0 auto; padding: 8px 16px; }
h1 { font-size: 20px; margin: 8px 0 0; }
h2 { font-size: 16px; margin: 4px 0 8px; }
h3 { font-size: 14px; margin: 8px 0 4px; }
#settings-status { color: #555; margin: 2px 0 8px; }
.tablet, .tool { background: #fff; border: 1px solid #cfd3da; border-radius: 8px; padding: 10px 14px; margin: 10px 0; }
#daemon-wide { background: #fff; border: 1px solid #cfd3da; border-radius: 8px; padding: 10px 14px; margin-top: 10px; max-width: 950px; }
.row { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.outline { background: #eef0f3; border: 1px solid #99a; touch-action: none; }
.outline .area { fill: rgba(30, 99, 214, 0.25); stroke: #1e63d6; stroke-width: 2; cursor: move; }
.outline .grip { fill: #1e63d6; cursor: nwse-resize; }
.curve { background: #fff; border: 1px solid #99a; touch-action: none; }
.curve .grid { stroke: #e3e6ea; }
.curve .diagonal { stroke: #c2c7cf; stroke-dasharray: 4 4; }
.curve .path { fill: none; stroke: #1e63d6; stroke-width: 3; }
.curve .arm { stroke: #e0109a; stroke-width: 1.5; }
.curve .handle { fill: #e0109a; cursor: grab; }
.curve .live { fill: #13a538; }
.test { background: #fafbfc; border: 1px solid #99a; }
.test .raw { fill: #8a8f99; }
.test .shaped { fill: #1e63d6; }
label { display: block; margin: 4px 0; }
.origin { color: #777; font-size: 12px; }
select, input[type=text] { font: inherit; }
"""#
}
