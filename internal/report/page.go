package report

// pageHTML is the report's template: everything inline, so that the file
// works alone and offline. The table's rows are JSON data that the script
// renders one page at a time.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="ivc">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.R.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<header>
<h1>ivc report</h1>
<p class="cmd">{{.R.Title}}</p>
<p>{{.Total}} multi-traces{{if .R.Spec}} against <code>{{.R.Spec}}</code>{{end}}{{if .R.Mode}}, {{.R.Mode}} mode{{end}}{{if .R.Engine}}, {{.R.Engine}} engine{{end}}{{if .R.Elapsed}}, in {{.Elapsed}}{{end}}.</p>
</header>
<section id="summary">
<h2>Summary</h2>
<div class="cards">{{range .Verdicts}}
<div class="card {{.Class}}" data-verdict="{{.Name}}"><span class="n">{{.N}}</span> {{.Name}} <span class="pct">{{pct .N $.Total}}</span></div>{{end}}
</div>
<table id="reasons">
<thead><tr><th>verdict</th><th>reason</th><th class="num">multi-traces</th></tr></thead>
<tbody>{{range .Kinds}}
<tr><td><span class="v {{.Class}}">{{.Name}}</span></td><td>{{if .Kind}}{{.Kind}}{{else}}—{{end}}</td><td class="num">{{.N}}</td></tr>{{end}}
</tbody>
</table>
{{if .Ignored}}<p id="ignored">{{plural .Ignored "event"}} outside the signature ignored, in {{plural .IgnoredRows "multi-trace"}}{{if .AllIgnored}}; {{.AllIgnored}} of them had no event judged (their verdict says nothing of the log){{end}}.{{if .Undeclared}} The names the signature does not declare, most seen:{{end}}</p>
{{if .Undeclared}}<ul id="undeclared">{{range .Undeclared}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}{{end}}
{{if .Patterns}}<h3>Failure patterns</h3>
<table id="patterns">
<thead><tr><th>failure pattern</th><th class="num">Fails</th><th class="num">share</th><th>examples</th></tr></thead>
<tbody>{{range .Patterns}}
<tr><td><code>{{.Pattern}}</code></td><td class="num">{{.Count}}</td><td class="num">{{pct .Count $.Fails}}</td><td>{{range $i, $e := .Examples}}{{if $i}}, {{end}}{{if ge $e.Drawing 0}}<a href="#drawing-{{$e.Drawing}}">#{{$e.Row}}</a>{{else}}#{{$e.Row}}{{end}} {{$e.Name}}{{end}}</td></tr>{{end}}
</tbody>
</table>
{{end}}{{if or .R.Unkinded .R.Malformed}}<p id="uncounted">Not in any multi-trace:{{if .R.Unkinded}} {{plural .R.Unkinded "span"}} without a protocol kind (INTERNAL or none), not events{{end}}{{if and .R.Unkinded .R.Malformed}};{{end}}{{if .R.Malformed}} {{plural .R.Malformed "malformed line"}}, reported{{end}}.</p>{{end}}
</section>
<section id="all">
<h2>Multi-traces</h2>
<div class="controls">
<label>verdict <select id="verdict"><option value="">all</option>{{range .Verdicts}}<option>{{.Name}}</option>{{end}}</select></label>
<label>filter <input id="filter" type="search" placeholder="file, session or reason"></label>
<button id="prev" type="button">&lsaquo; previous</button> <span id="page"></span> <button id="next" type="button">next &rsaquo;</button>
<span id="count"></span>
</div>
<table id="table">
<thead><tr><th data-key="n" class="num">#</th><th data-key="file">file</th><th data-key="session">session</th><th data-key="verdict">verdict</th><th data-key="reason">reason</th><th data-key="ignored" class="num">ignored</th><th data-key="time" class="num">time (µs)</th><th data-key="nodes" class="num">nodes</th><th></th></tr></thead>
<tbody></tbody>
</table>
{{if .Unlisted}}<p id="unlisted">The last {{.Unlisted}} multi-traces are counted above but not listed: the table holds at most {{.TableLimit}} of text.</p>
{{end}}<noscript><p>The table needs JavaScript; the summary and the drawings do not.</p></noscript>
</section>
<section id="failures">
<h2>Failures</h2>
<p id="drawn">{{if eq .Failures 0}}No failure.{{else if .R.NoDrawing}}{{.Failures}} failures, not drawn: {{.R.NoDrawing}}.{{else}}{{len .Drawings}} of {{.Failures}} failures drawn{{if .R.Undrawn}}: the first {{len .Drawings}} only, {{.R.Undrawn}} more are not drawn{{end}}.{{end}}</p>
{{range .Drawings}}<figure id="drawing-{{.Index}}" class="drawing">
<figcaption>#{{.Row}} {{.Name}}{{if .Reason}}: {{.Reason}}{{end}}{{if .Repair}}<pre class="repair">{{range .Repair}}{{.}}
{{end}}</pre>{{end}}</figcaption>
<img alt="the multi-trace {{.Name}} with its verdict" src="{{.URI}}">
</figure>
{{end}}</section>
<script type="application/json" id="rows">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`

const style = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 48px;color:#222}
h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:24px 0 8px}
.cmd,code{font-family:ui-monospace,Menlo,Consolas,monospace}
.cmd{color:#555;word-break:break-all}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:12px}
.card{border-radius:6px;padding:8px 14px;color:#fff}
.card .n{font-size:20px;font-weight:bold}
.card .pct{opacity:.85}
.pass{background:#2e7d32}.weakpass{background:#558b2f}.fail{background:#c62828}.inconc{background:#ef6c00}.error{background:#6d4c41}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5;position:sticky;top:0}
#table th[data-key]{cursor:pointer;user-select:none}
#table th.asc::after{content:" ▲"}#table th.desc::after{content:" ▼"}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#reasons{width:auto;min-width:320px}
#patterns{width:auto;min-width:320px;margin-top:8px}
pre.repair{margin:4px 0;font-size:13px;white-space:pre-wrap}
.v{border-radius:4px;padding:1px 6px;color:#fff;font-size:12px}
td.reason{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-word}
.controls{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
#count{color:#555}
figure.drawing{border:1px solid #e0e0e0;border-radius:6px;margin:12px 0;padding:8px;overflow:auto;max-height:80vh}
figure.drawing:target{outline:3px solid #c62828}
figcaption{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;margin-bottom:6px}
`

// script renders the table from the JSON rows: sorting (click a header),
// filtering (verdict, text) and paging, 100 rows a page. It writes text
// with textContent only, never markup from the data.
const script = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("rows").textContent);
  var files = data.files, rows = data.rows, PAGE = 100;
  var order = rows.map(function (_, i) { return i; });
  var shown = order, page = 0, sortKey = "n", sortDir = 1;
  var tbody = document.querySelector("#table tbody");
  var verdict = document.getElementById("verdict"), filter = document.getElementById("filter");
  var prev = document.getElementById("prev"), next = document.getElementById("next");
  var classes = {Pass: "pass", WeakPass: "weakpass", Fail: "fail", Inconc: "inconc"};
  function key(i, k) {
    var r = rows[i];
    switch (k) {
    case "file": return fileText(r);
    case "ignored": return r[7];
    case "session": return r[1];
    case "verdict": return r[2];
    case "reason": return r[4];
    case "time": return r[5];
    case "nodes": return r[10];
    }
    return i;
  }
  function fileText(r) {
    var s = files[r[0]], o = r[9] || [];
    for (var k = 0; k < o.length; k++) s += ", " + files[o[k]];
    return s;
  }
  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function render() {
    tbody.textContent = "";
    var start = page * PAGE, end = Math.min(shown.length, start + PAGE);
    for (var j = start; j < end; j++) {
      var i = shown[j], r = rows[i], tr = document.createElement("tr");
      cell(tr, String(i + 1), "num");
      cell(tr, fileText(r));
      cell(tr, r[1]);
      var v = document.createElement("span");
      v.className = "v " + (classes[r[2]] || "error");
      v.textContent = r[2];
      cell(tr, "").appendChild(v);
      cell(tr, r[4], "reason");
      cell(tr, r[8] ? r[7] + ", none judged" : String(r[7]), "num");
      cell(tr, String(r[5]), "num");
      cell(tr, r[11] ? r[10] + ", " + r[11] + " of local analyses" : String(r[10]), "num");
      var d = cell(tr, "");
      if (r[6] >= 0) {
        var a = document.createElement("a");
        a.href = "#drawing-" + r[6];
        a.textContent = "drawing";
        d.appendChild(a);
      }
      (r[12] || []).forEach(function (url, k) {
        var a = document.createElement("a");
        a.href = url;
        a.textContent = "span " + (k + 1);
        a.title = url;
        if (d.childNodes.length) d.appendChild(document.createTextNode(" "));
        d.appendChild(a);
      });
      tbody.appendChild(tr);
    }
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    document.getElementById("page").textContent = "page " + (page + 1) + " of " + pages;
    prev.disabled = page === 0;
    next.disabled = page + 1 >= pages;
    tbody.setAttribute("data-shown", String(shown.length));
    document.getElementById("count").textContent = shown.length === 0
      ? "no row of " + rows.length + " matches"
      : "rows " + (start + 1) + "–" + end + " of " + shown.length +
        (shown.length < rows.length ? " (filtered from " + rows.length + ")" : "");
  }
  function apply() {
    var v = verdict.value, q = filter.value.toLowerCase();
    shown = order.filter(function (i) {
      var r = rows[i];
      return (!v || r[2] === v) && (!q || (fileText(r) + " " + r[1] + " " + r[4]).toLowerCase().indexOf(q) >= 0);
    });
    page = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE) - 1));
    render();
  }
  function sortBy(k) {
    sortDir = sortKey === k ? -sortDir : 1;
    sortKey = k;
    page = 0;
    order.sort(function (a, b) {
      var x = key(a, k), y = key(b, k);
      return (x < y ? -1 : x > y ? 1 : a - b) * sortDir;
    });
    document.querySelectorAll("#table th[data-key]").forEach(function (th) {
      th.classList.remove("asc", "desc");
      if (th.getAttribute("data-key") === k) th.classList.add(sortDir > 0 ? "asc" : "desc");
    });
    apply();
  }
  document.querySelectorAll("#table th[data-key]").forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th.getAttribute("data-key")); });
  });
  verdict.addEventListener("change", function () { page = 0; apply(); });
  filter.addEventListener("input", function () { page = 0; apply(); });
  prev.addEventListener("click", function () { if (page > 0) { page--; render(); } });
  next.addEventListener("click", function () { page++; apply(); });
  render();
})();
`
