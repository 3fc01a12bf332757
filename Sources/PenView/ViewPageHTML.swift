/// The page's markup. `{{TOKEN}}` is replaced with the server's token (hex) when the server starts.
enum ViewPageHTML {
    static let text = PageHead.html(title: "penkit view: debug", stylesheet: "view.css", script: "view.js", module: false) + #"""
<body>
<main>
  <div id="stage"><canvas id="ink"></canvas><canvas id="overlay"></canvas></div>
  <aside id="panel">
    <h1>penkit view</h1>
    <p id="status">connecting…</p>
    <dl>
      <dt>source</dt><dd id="source">–</dd>
      <dt>device</dt><dd id="device">–</dd>
      <dt>tool</dt><dd id="tool">–</dd>
      <dt>report rate</dt><dd id="rate">–</dd>
      <dt>latency, event → page</dt><dd id="latency">–</dd>
      <dt>predicted horizon</dt><dd id="horizon">–</dd>
      <dt>prediction error</dt><dd id="error">–</dd>
      <dt>dropped frames</dt><dd id="dropped">0</dd>
      <dt>finalized strokes</dt><dd id="finalized">0</dd>
      <dt>pen</dt><dd id="pose">–</dd>
    </dl>
    <button id="pause" type="button">pause</button>
    <a id="canvas-link" href="./?token={{TOKEN}}">back to the canvas</a>
    <a href="surface?token={{TOKEN}}">draw in this window: the page pairs its own pen events with penkit's (docs/apps.md)</a>
    <ul id="legend">
      <li><span class="swatch final"></span>finalized stroke (the ink's colour; red: cancelled)</li>
      <li><span class="swatch live"></span>ink as it comes, before the stroke is finalized</li>
      <li><span class="swatch predicted"></span>predicted samples of the latest frame</li>
      <li><span class="swatch estimated"></span>sample whose force or tilt still awaits an update</li>
      <li><span class="swatch hover"></span>hovering pen: tilt direction, altitude, distance</li>
    </ul>
  </aside>
</main>
</body>
</html>
"""#
}
