/// The canvas, `/`: PencilKit's canvas view and tool picker in a page. It pairs its own pen
/// PointerEvents with penkit's frames (penkit-surface.js, as `/surface` does) and draws penkit's
/// live, predicted and finalized ink in page coordinates with the picked ink; the panel at the
/// right is the tool picker (and, for the pen, another window: ink is drawn on the canvas only).
/// `{{TOKEN}}` is replaced with the server's token when the server starts.
enum CanvasPageHTML {
    static let text = PageHead.html(title: "penkit canvas", stylesheet: "canvas.css", script: "canvas.js") + #"""
<body class="canvas-page">
<div id="canvas-stage"><canvas id="canvas-ink"></canvas><canvas id="canvas-live"></canvas><canvas id="canvas-overlay"></canvas></div>
<aside id="picker" aria-label="tool picker">
  <div id="inks" role="radiogroup" aria-label="inks">
    <button type="button" class="ink-button" data-tool="pen" title="pen"><canvas class="ink-sample"></canvas><span>pen</span></button>
    <button type="button" class="ink-button" data-tool="pencil" title="pencil"><canvas class="ink-sample"></canvas><span>pencil</span></button>
    <button type="button" class="ink-button" data-tool="marker" title="marker"><canvas class="ink-sample"></canvas><span>marker</span></button>
    <button type="button" class="ink-button" data-tool="monoline" title="monoline"><canvas class="ink-sample"></canvas><span>monoline</span></button>
    <button type="button" class="ink-button" data-tool="fountainPen" title="fountain pen"><canvas class="ink-sample"></canvas><span>fountain pen</span></button>
    <button type="button" class="ink-button" data-tool="watercolor" title="watercolor"><canvas class="ink-sample"></canvas><span>watercolor</span></button>
    <button type="button" class="ink-button" data-tool="crayon" title="crayon"><canvas class="ink-sample"></canvas><span>crayon</span></button>
  </div>
  <div id="palette" class="row" role="radiogroup" aria-label="colours">
    <button type="button" class="swatch-button" data-color="#000000" title="black"></button>
    <button type="button" class="swatch-button" data-color="#1e63d6" title="blue"></button>
    <button type="button" class="swatch-button" data-color="#d62828" title="red"></button>
    <button type="button" class="swatch-button" data-color="#2a9d3a" title="green"></button>
    <button type="button" class="swatch-button" data-color="#ffd000" title="yellow"></button>
    <input type="color" id="color" value="#000000" title="any colour">
  </div>
  <div id="width-row" class="row">
    <span id="width-well" title="the width, as a dot of that size"><span id="width-dot"></span></span>
    <input type="range" id="width" min="0.1" max="40" step="0.1" value="1" aria-label="width">
    <output id="width-value">1 mm</output>
  </div>
  <div class="row" role="radiogroup" aria-label="erasers and lasso">
    <button type="button" data-tool="objectEraser" title="object eraser: removes whole strokes">object eraser</button>
    <button type="button" data-tool="pixelEraser" title="pixel eraser: erases what it passes over">pixel eraser</button>
    <button type="button" data-tool="lasso" title="lasso: select strokes to move, delete, copy">lasso</button>
  </div>
  <details id="attributes">
    <summary>opacity</summary>
    <label>opacity <input type="range" id="opacity" min="0.1" max="1" step="0.05" value="1"></label>
  </details>
  <p id="tool-name">pen</p>
  <div class="row">
    <button type="button" id="undo" title="undo">undo</button>
    <button type="button" id="redo" title="redo">redo</button>
  </div>
  <div class="row" id="selection-actions">
    <button type="button" id="delete" title="delete the selected strokes">delete</button>
    <button type="button" id="copy" title="copy the selected strokes">copy</button>
    <button type="button" id="paste" title="paste the copied strokes">paste</button>
  </div>
  <div class="row">
    <button type="button" id="save" title="save as a .penkit drawing">save</button>
    <label class="file-button">open <input type="file" id="open" accept=".penkit"></label>
    <button type="button" id="export-svg" title="PenKit's SVG of the drawing">SVG</button>
    <button type="button" id="export-png" title="the canvas as PNG">PNG</button>
  </div>
  <label><input type="checkbox" id="transparent"> transparent background (SVG and PNG)</label>
  <p id="canvas-status">connecting…</p>
  <a id="debug-link" href="debug?token={{TOKEN}}">debug view: the pen in tablet millimetres, with its panel</a>
</aside>
</body>
</html>
"""#
}

/// The canvas page's style sheet.
enum CanvasStyle {
    static let text = #"""
html, body { margin: 0; height: 100%; font: 13px/1.4 sans-serif; color: #222; }
body.canvas-page { overflow: hidden; background: #ffffff; }
#canvas-stage { position: fixed; left: 0; top: 0; width: calc(100% - 240px); height: 100%; background: #ffffff; }
#canvas-stage canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; touch-action: none; }
#canvas-live, #canvas-overlay { pointer-events: none; }
#picker { position: fixed; right: 0; top: 0; width: 240px; height: 100%; box-sizing: border-box; padding: 8px; overflow-y: auto;
          background: #eef0f3; border-left: 1px solid #bbc; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin: 4px 0 8px; }
button, .file-button { font: inherit; padding: 2px 6px; border: 1px solid #99a; border-radius: 4px; background: #fff; cursor: pointer; }
button[aria-pressed="true"] { background: #1e63d6; color: #fff; border-color: #1e63d6; }
button:disabled { opacity: 0.4; cursor: default; }
.file-button input { display: none; }
/* The inks: each a sample stroke drawn in that ink, its colour and opacity; the picked one in a
   blue frame on a blue ground, as PKToolPicker raises the picked tool. */
#inks { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; margin: 0 0 8px; }
.ink-button { display: flex; flex-direction: column; align-items: stretch; padding: 2px; border: 2px solid #c8ccd6;
              border-radius: 6px; background: #fff; color: #333; }
.ink-button span { font-size: 11px; text-align: center; }
.ink-sample { width: 100%; height: 30px; display: block; }
.ink-button[aria-pressed="true"] { background: #dbe6fb; color: #0b3a8c; border: 2px solid #1e63d6; font-weight: bold; }
.swatch-button { width: 26px; height: 26px; padding: 0; border-radius: 50%; border: 2px solid #fff; background: var(--c);
                 box-shadow: 0 0 0 1px #99a; }
.swatch-button[aria-pressed="true"] { background: var(--c); box-shadow: 0 0 0 3px #1e63d6; }
#color { width: 30px; height: 28px; padding: 0; border: none; background: none; }
#width-well { display: inline-flex; align-items: center; justify-content: center; width: 44px; height: 44px; flex: none;
              background: #fff; border: 1px solid #c8ccd6; border-radius: 6px; }
#width-dot { display: block; border-radius: 50%; background: #000; }
#width { flex: 1; min-width: 0; }
details { margin: 4px 0 8px; }
details label { display: block; margin: 4px 0; }
#tool-name { font-weight: bold; margin: 4px 0; }
#canvas-status { color: #555; }
#debug-link { display: block; margin-top: 8px; }
"""#
}
