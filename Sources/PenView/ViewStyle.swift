/// The page's style sheet. The colours here are the legend's; the script draws with the same values.
enum ViewStyle {
    static let text = #"""
html, body { margin: 0; height: 100%; font: 14px/1.4 sans-serif; color: #222; background: #eee; }
main { display: flex; height: 100%; }
#stage { position: relative; flex: 1; min-width: 0; background: #ffffff; }
#stage canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
#panel { width: 300px; padding: 12px 16px; box-sizing: border-box; overflow-y: auto; background: #f4f4f4; border-left: 1px solid #ccc; }
#panel h1 { font-size: 18px; margin: 0 0 4px; }
#status { margin: 0 0 8px; color: #555; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0 0 12px; }
dt { color: #666; }
dd { margin: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; text-align: right; }
#finalized { font-weight: bold; }
ul { list-style: none; padding: 0; margin: 12px 0 0; }
li { margin: 4px 0; display: flex; align-items: center; gap: 8px; }
.swatch { display: inline-block; flex: none; width: 22px; height: 6px; border-radius: 3px; }
.swatch.final { background: #000000; }
.swatch.live { background: #1e63d6; }
.swatch.predicted { background: #e0109a; }
.swatch.estimated { background: none; border: 2px solid #f08c00; width: 8px; height: 8px; border-radius: 50%; }
.swatch.hover { background: #13a538; }
button { font: inherit; padding: 2px 12px; }
#panel a { display: block; margin: 8px 0; }
/* The surface page: the white drawing surface, and a strip standing for another window. */
body.surface-page { overflow: hidden; background: #ffffff; }
#surface-ink, #surface-overlay { position: fixed; left: 0; top: 0; width: calc(100% - 240px); height: 100%; touch-action: none; }
#surface-overlay { pointer-events: none; }
#elsewhere { position: fixed; right: 0; top: 0; width: 240px; height: 100%; box-sizing: border-box; padding: 12px; background: #d9dde3; border-left: 1px solid #aab; }
#elsewhere h1 { font-size: 16px; margin: 0 0 8px; }
"""#
}
