// Package report writes the outcomes of a batch of checks as one HTML file
// that works offline, from file://, with no other file: inline CSS, script
// and drawings. It gives the counts by verdict and by reason, a table of
// every multi-trace or session that can be sorted, filtered and paged (it
// stays usable for hundreds of thousands of rows: the rows are data, and
// only one page of them is in the document at a time), and the drawings of
// the failures (a capped number, which the report states).
//
//	r := &report.Report{Title: "ivc analyze abp.hsf traces/"}
//	r.Rows = append(r.Rows, report.Row{File: "t1.htf", Verdict: "Fail", Reason: "LocalError", Drawing: 0})
//	r.Drawings = append(r.Drawings, draw.MultiTraceSVG(run, draw.Options{}))
//	err := r.WriteHTML(w)
package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Generator is in the head of every report, so that a driver can tell a
// report it may replace from a file it did not write.
const Generator = `<meta name="generator" content="ivc">`

// DefaultMaxDrawings is how many failures a report draws by default.
const DefaultMaxDrawings = 50

// MaxField bounds what a report copies of one text of a row (a file name,
// a session id, a reason) and DefaultMaxTable the text of all its rows, in
// bytes: a longer text is cut with a marker (Shorten), and the rows past
// the table's cap are counted in the summary but not listed, so that a few
// huge ids cannot make a report of gigabytes.
const (
	MaxField        = 1 << 10
	DefaultMaxTable = 64 << 20
)

// Shorten returns s when it has at most max bytes, else its first bytes
// (cut at a character boundary) and a marker saying how many were left out:
// "abc… (1234 more bytes)".
func Shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:n], len(s)-n)
}

// Report is a batch's outcomes.
type Report struct {
	Title   string        // what was run, e.g. the command line
	Spec    string        // what the multi-traces were checked against
	Mode    string        // the question: accept, prefix or slice
	Engine  string        // the engine that answered
	Elapsed time.Duration // the whole batch
	Rows    []Row         // in input order
	// Drawings are SVG documents of failures, each named by the Drawing
	// field of its row.
	Drawings [][]byte
	// Undrawn counts the failures left without a drawing (beyond the cap).
	Undrawn int
	// NoDrawing, when not empty, says why no failure is drawn (a raw NFA
	// has no interaction to draw).
	NoDrawing string
	// MaxTable bounds the text of the rows listed, in bytes (0:
	// DefaultMaxTable).
	MaxTable int
	// Undeclared lists the names outside the signature that the logs'
	// events carry most, each as a phrase ("message \"GET\" (3 events; did
	// you mean ...?)"), at most MaxUndeclared of them.
	Undeclared []string
	// Unkinded counts the spans without a protocol kind (INTERNAL or none):
	// not events, but counted; Malformed the malformed lines reported.
	Unkinded, Malformed int
	// Patterns are the failure patterns of the batch, the most frequent
	// first; Fails their number (for their shares).
	Patterns []Pattern
	Fails    int
}

// Pattern is a failure pattern: the Fails that fail alike (the same
// repair, or stuck at the same place), with a few examples.
type Pattern struct {
	Pattern  string
	Count    int
	Examples []Example
}

// Example is a Fail of a pattern: its row (Report.Rows, from 0), whose
// drawing, if any, it links to.
type Example struct {
	Name string
	Row  int
}

// MaxUndeclared bounds Report.Undeclared.
const MaxUndeclared = 20

// Row is one multi-trace or session.
type Row struct {
	File    string
	Session string // in a log of several sessions, else ""
	Verdict string // Pass, WeakPass, Fail, Inconc, or "error" (unreadable)
	// Kind groups the reasons in the summary: the verdict.Reason
	// (LocalError, NodeLimit...) or another short phrase, "" for none;
	// Reason says it in full.
	Kind    string
	Reason  string
	Elapsed time.Duration
	// Nodes is what the analysis explored (verdict.Result.TotalNodes),
	// LocalNodes the part of the local analyses in it.
	Nodes, LocalNodes int
	Drawing           int // index in Report.Drawings, -1 for none
	// Files names every file of a session joined across several (File is
	// the first), nil otherwise.
	Files []string
	// Ignored counts the session's events outside the signature; AllIgnored
	// says that none of its events was judged.
	Ignored    int
	AllIgnored bool
	// Links are the pages, in a trace viewer, of the spans where a Fail
	// stopped (check.Stop.URL): http and https only.
	Links []string
	// Repair says the repair of a Fail, one line per edit after a heading
	// (verdict.Repair.Explain), shown with its drawing.
	Repair []string
}

// verdicts are the verdict columns of the summary, in order.
var verdicts = []string{"Pass", "WeakPass", "Fail", "Inconc", "error"}

// count is a line of a summary table.
type count struct {
	Name  string
	N     int
	Class string
	Kind  string // by reason: the reason, "" for none
}

// WriteHTML writes the report as one self-contained HTML document.
func (r *Report) WriteHTML(w io.Writer) error {
	byVerdict := map[string]int{}
	type verdictKind struct{ verdict, kind string }
	byKind := map[verdictKind]int{}
	files := map[string]int{}
	var fileNames []string
	// file index, session, verdict, kind, reason, µs, drawing, ignored
	// events, none judged, the indexes of the session's other files, nodes,
	// local nodes, links to a trace viewer
	type jsonRow [13]any
	rows := make([]jsonRow, 0, len(r.Rows))
	size, unlisted := 0, 0
	ignored, ignoredRows, allIgnored := 0, 0, 0
	maxTable := r.MaxTable
	if maxTable <= 0 {
		maxTable = DefaultMaxTable
	}
	for _, row := range r.Rows {
		row = row.shortened()
		byVerdict[row.Verdict]++
		byKind[verdictKind{row.Verdict, row.Kind}]++
		if row.Ignored > 0 {
			ignored += row.Ignored
			ignoredRows++
		}
		if row.AllIgnored {
			allIgnored++
		}
		links := 0
		for _, l := range row.Links {
			links += len(l)
		}
		if size += len(row.Session) + len(row.Kind) + len(row.Reason) + 80 + 8*len(row.Files) + links; size > maxTable {
			unlisted++
			continue
		}
		fileIndex := func(name string) int {
			f, ok := files[name]
			if !ok {
				f = len(fileNames)
				files[name] = f
				fileNames = append(fileNames, name)
				size += len(name)
			}
			return f
		}
		f := fileIndex(row.File)
		var others []int
		for _, name := range row.Files[min(1, len(row.Files)):] {
			others = append(others, fileIndex(name))
		}
		rows = append(rows, jsonRow{f, row.Session, row.Verdict, row.Kind, row.Reason, row.Elapsed.Microseconds(), row.Drawing,
			row.Ignored, row.AllIgnored, others, row.Nodes, row.LocalNodes, row.Links})
	}
	var vs, ks []count
	for _, v := range verdicts {
		if byVerdict[v] > 0 {
			vs = append(vs, count{Name: v, N: byVerdict[v], Class: classOf(v)})
		}
	}
	for k, n := range byKind {
		ks = append(ks, count{Name: k.verdict, N: n, Class: classOf(k.verdict), Kind: k.kind})
	}
	slices.SortFunc(ks, func(a, b count) int {
		switch {
		case a.N != b.N:
			return b.N - a.N
		case a.Name != b.Name:
			return strings.Compare(a.Name, b.Name)
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	data, err := json.Marshal(map[string]any{"files": fileNames, "rows": rows})
	if err != nil {
		return err
	}
	var drawings []drawing
	for i, d := range r.Drawings {
		drawings = append(drawings, drawing{Index: i, URI: template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(d))})
	}
	for i, row := range r.Rows {
		row = row.shortened()
		if d := row.Drawing; d >= 0 && d < len(drawings) {
			drawings[d].Row = i + 1
			drawings[d].Name = strings.Join(append([]string{row.File}, row.Files[min(1, len(row.Files)):]...), ", ")
			if row.Session != "" {
				drawings[d].Name += " (session " + row.Session + ")"
			}
			drawings[d].Reason = row.Reason
			drawings[d].Repair = row.Repair
		}
	}
	type patternExample struct {
		Name    string
		Row     int
		Drawing int // -1: none
	}
	type patternRow struct {
		Pattern  string
		Count    int
		Examples []patternExample
	}
	var patterns []patternRow
	for _, p := range r.Patterns {
		pr := patternRow{Pattern: Shorten(p.Pattern, MaxField), Count: p.Count}
		for _, ex := range p.Examples {
			pe := patternExample{Name: Shorten(ex.Name, MaxField), Row: ex.Row + 1, Drawing: -1}
			if ex.Row >= 0 && ex.Row < len(r.Rows) {
				if d := r.Rows[ex.Row].Drawing; d >= 0 && d < len(drawings) {
					pe.Drawing = d
				}
			}
			pr.Examples = append(pr.Examples, pe)
		}
		patterns = append(patterns, pr)
	}
	var b bytes.Buffer
	err = page.Execute(&b, map[string]any{
		"R": r, "Total": len(r.Rows), "Unlisted": unlisted, "TableLimit": fmt.Sprintf("%d bytes", maxTable), "Verdicts": vs, "Kinds": ks, "Drawings": drawings,
		"Failures": byVerdict["Fail"], "Elapsed": RoundDuration(r.Elapsed), "Patterns": patterns, "Fails": r.Fails,
		"Ignored": ignored, "IgnoredRows": ignoredRows, "AllIgnored": allIgnored, "Undeclared": r.Undeclared[:min(len(r.Undeclared), MaxUndeclared)],
		"Data": template.JS(data), "Script": template.JS(script), "Style": template.CSS(style),
	})
	if err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// shortened is row with its texts cut to MaxField bytes.
func (row Row) shortened() Row {
	row.File = Shorten(row.File, MaxField)
	row.Session = Shorten(row.Session, MaxField)
	row.Kind = Shorten(row.Kind, MaxField)
	row.Reason = Shorten(row.Reason, MaxField)
	var links []string
	for _, l := range row.Links {
		// Only a web page: a link is clicked, and a javascript: URL would run.
		if (strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) && len(l) <= MaxField {
			links = append(links, l)
		}
	}
	row.Links = links
	if row.Files != nil {
		files := make([]string, len(row.Files))
		for i, f := range row.Files {
			files[i] = Shorten(f, MaxField)
		}
		row.Files = files
	}
	return row
}

type drawing struct {
	Index  int
	Row    int
	Name   string
	Reason string
	Repair []string
	URI    template.URL
}

func classOf(v string) string {
	switch v {
	case "Pass":
		return "pass"
	case "WeakPass":
		return "weakpass"
	case "Fail":
		return "fail"
	case "Inconc":
		return "inconc"
	}
	return "error"
}

// RoundDuration keeps about three significant digits of d, as the report
// and ivc's summary line print durations: 1.23s, 45.67ms, 789µs.
func RoundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(n, total int) string {
		if total == 0 {
			return ""
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
	},
	"plural": func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	},
}).Parse(pageHTML))
