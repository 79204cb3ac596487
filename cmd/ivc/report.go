package main

import (
	"bytes"
	"strings"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/draw"
	"github.com/ivc-project/ivc/internal/report"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// witnessTimeout bounds the search of the interleaving drawn for each
// failure of a report, and drawnSteps its rows: the last steps before the
// analysis got stuck.
const (
	witnessTimeout = 5 * time.Second
	drawnSteps     = 200
)

// reportBuilder collects the outcomes of ivc analyze --report and writes
// the HTML report at the end. It keeps the multi-traces of the first
// failures (report.DefaultMaxDrawings of them) to draw them once the batch
// is over, when no worker uses the specification any more.
type reportBuilder struct {
	a    *app
	path string
	sp   *spec.Spec // what the failures are drawn against: nil for a raw NFA
	rep  report.Report

	fails []failure
	// failRows are the rows of the Fails, by file and session: where the
	// examples of the failure patterns link to.
	failRows map[check.Example]int
}

type failure struct {
	row    int
	mt     *multitrace.MultiTrace
	res    verdict.Result
	repair *verdict.Repair
}

// reportPatterns is how many failure patterns a report lists.
const reportPatterns = 50

// newReportBuilder returns the builder of the report at path of ivc
// analyze args, which checks against the spec or raw NFA at specPath (sp, a
// raw NFA's nil), or nil when path is "": no report.
func newReportBuilder(a *app, path string, args []string, specPath string, mode verdict.Mode, engine check.Engine, sp *spec.Spec) *reportBuilder {
	if path == "" {
		return nil
	}
	r := &reportBuilder{a: a, path: path, sp: sp}
	r.rep = report.Report{Title: "ivc analyze " + strings.Join(args, " "), Spec: specPath,
		Mode: mode.String(), Engine: engine.String()}
	return r
}

// add records an outcome, and keeps the multi-trace of a failure to draw.
func (r *reportBuilder) add(o *check.Outcome) {
	if r == nil {
		return
	}
	// Shortened now: a report keeps no more of a huge id than it shows.
	row := report.Row{File: report.Shorten(o.File, report.MaxField), Session: report.Shorten(o.ID, report.MaxField),
		Elapsed: o.Elapsed, Nodes: o.Result.TotalNodes(), LocalNodes: o.Result.LocalNodes, Drawing: -1, Ignored: o.Ignored, AllIgnored: o.AllIgnored()}
	if o.Joined() {
		for _, f := range o.Files {
			row.Files = append(row.Files, report.Shorten(f, report.MaxField))
		}
	}
	switch {
	case o.Err != nil:
		row.Verdict, row.Reason = "error", r.a.describe(o.Err).Error()
	default:
		res := o.Result
		row.Verdict = res.Verdict.String()
		row.Kind, row.Reason = res.Diagnosis()
		for _, s := range o.Stops() {
			if s.URL != "" {
				row.Links = append(row.Links, s.URL)
			}
		}
		if res.Verdict == verdict.Fail {
			if r.failRows == nil {
				r.failRows = map[check.Example]int{}
			}
			r.failRows[check.Example{File: o.File, Session: o.ID}] = len(r.rep.Rows)
			if o.Repair != nil {
				row.Repair = o.Repair.Explain()
			}
			if o.MT != nil && len(r.fails) < report.DefaultMaxDrawings {
				// A copy: the session's storage serves a later one once
				// the outcome is printed (session.Source.Reuse).
				r.fails = append(r.fails, failure{row: len(r.rep.Rows), mt: o.MT.Clone(), res: res, repair: o.Repair})
			} else {
				r.rep.Undrawn++
			}
		}
	}
	row.Kind, row.Reason = report.Shorten(row.Kind, report.MaxField), report.Shorten(row.Reason, report.MaxField)
	r.rep.Rows = append(r.rep.Rows, row)
}

// write draws the failures kept and writes the report, atomically, with
// what the logs held besides their sessions' events (sum; sig: the
// signature their names are outside of, nil for a raw NFA).
func (r *reportBuilder) write(elapsed time.Duration, sum *check.Summary, sig *interaction.Signature) error {
	if r == nil {
		return nil
	}
	if sig != nil {
		r.rep.Undeclared = undeclaredNames(&sum.Counts, sig)
	}
	r.rep.Unkinded, r.rep.Malformed = sum.Unkinded, sum.Malformed
	r.rep.Fails = sum.Verdicts[verdict.Fail]
	for _, p := range sum.TopPatterns(reportPatterns) {
		rp := report.Pattern{Pattern: p.Key, Count: p.Count}
		for _, ex := range p.Examples {
			name := ex.File
			if ex.Session != "" {
				name += " (session " + ex.Session + ")"
			}
			row, ok := r.failRows[ex]
			if !ok {
				row = -1
			}
			rp.Examples = append(rp.Examples, report.Example{Name: name, Row: row})
		}
		r.rep.Patterns = append(r.rep.Patterns, rp)
	}
	r.rep.Elapsed = elapsed
	if r.sp == nil {
		r.rep.NoDrawing = "a raw NFA has no interaction to draw"
	}
	if in := r.sp; in != nil && len(r.fails) > 0 {
		// A checker of its own, with the default settings but a short
		// timeout: the run's may still be used elsewhere, and its limits
		// are those of the verdicts, not of the drawings.
		opts := check.DefaultOptions()
		opts.Engine, opts.Timeout = check.EngineRuntime, witnessTimeout
		wc, err := check.New(in, opts)
		if err != nil {
			return err
		}
		for _, f := range r.fails {
			run := draw.Run{Sig: in.Sig, Syntax: in.Syntax, MT: f.mt, Result: f.res, Witness: witness(wc.Witness, f.mt, f.res), Repair: f.repair}
			title := r.rep.Rows[f.row].File
			if files := r.rep.Rows[f.row].Files; len(files) > 1 {
				title = strings.Join(files, ", ")
			}
			if s := r.rep.Rows[f.row].Session; s != "" {
				title += " (session " + s + ")"
			}
			r.rep.Rows[f.row].Drawing = len(r.rep.Drawings)
			r.rep.Drawings = append(r.rep.Drawings, draw.MultiTraceSVG(run, draw.Options{Title: title, MaxSteps: drawnSteps}))
		}
	}
	var b bytes.Buffer
	if err := r.rep.WriteHTML(&b); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(r.path, b.Bytes(), 0o644); err != nil {
		return syntax.FileError(err)
	}
	return nil
}
