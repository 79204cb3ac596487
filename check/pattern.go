package check

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// Failure patterns: the Fails of a run grouped by what does not depend on
// the session. A Fail with a repair is grouped by its edits as (location,
// op, action), without their indices, each once: two sessions whose logs
// hold the same unexpected event, at any position, fail alike. A Fail
// without one (no repair, or an incomplete one) is grouped by where its
// check got stuck and what the interaction expected there.

// PatternEdit is an edit of a failure pattern: a repair's edit without its
// index.
type PatternEdit struct {
	Op       verdict.EditOp `json:"op"`
	Location []string       `json:"location"`
	Action   string         `json:"action"`
}

// Text says the edit as Edit.Text does, without where.
func (e PatternEdit) Text() string {
	what := "unexpected"
	if e.Op == verdict.Insert {
		what = "missing"
	}
	names := make([]string, len(e.Location))
	for i, l := range e.Location {
		names[i] = syntax.QuoteName(l)
	}
	return fmt.Sprintf("[%s] %s %s", strings.Join(names, ","), what, e.Action)
}

// Example names a session of a pattern: its file and its id in it.
type Example struct {
	File    string `json:"file"`
	Session string `json:"session,omitempty"`
}

// MaxExamples is how many example sessions a pattern keeps.
const MaxExamples = 3

// MaxPatterns bounds the distinct patterns a Summary tracks, so that its
// memory stays bounded however varied the failures: the Fails of the
// patterns past it are counted together (Summary.OtherPatterns).
const MaxPatterns = 1000

// Pattern is a failure pattern of a run and the Fails that show it.
type Pattern struct {
	// Key says the pattern in words: its edits (PatternEdit.Text) joined by
	// "; ", or, without a repair, "stuck at [L]: expected A B".
	Key   string        `json:"pattern"`
	Edits []PatternEdit `json:"edits,omitempty"`
	Count int           `json:"count"`
	// Examples are sessions of the pattern: the first MaxExamples in the
	// order of their files and ids, whatever the order they were judged
	// in. First and Last are when the first and the last of its sessions
	// were judged (Outcome.At).
	Examples []Example `json:"examples"`
	First    time.Time `json:"first,omitzero"`
	Last     time.Time `json:"last,omitzero"`
}

// PatternOf returns the failure pattern of a Fail, by its repair rep when
// it has edits and is complete (an incomplete repair may hold edits of its
// session only), else by its explanation; ok is false for any other
// verdict.
func PatternOf(res verdict.Result, rep *verdict.Repair) (p Pattern, ok bool) {
	if res.Verdict != verdict.Fail {
		return Pattern{}, false
	}
	if rep != nil && !rep.Incomplete && len(rep.Edits) > 0 {
		for _, e := range rep.Edits {
			pe := PatternEdit{Op: e.Op, Location: e.Location, Action: e.Action}
			if !slices.ContainsFunc(p.Edits, func(x PatternEdit) bool { return x.Text() == pe.Text() }) {
				p.Edits = append(p.Edits, pe)
			}
		}
		slices.SortFunc(p.Edits, func(a, b PatternEdit) int { return cmp.Compare(a.Text(), b.Text()) })
		keys := make([]string, len(p.Edits))
		for i, e := range p.Edits {
			keys[i] = e.Text()
		}
		p.Key = strings.Join(keys, "; ")
		return p, true
	}
	p.Key = stuck(res.Explanation)
	return p, true
}

// stuck says where a Fail's check got stuck and what it expected there:
// the component whose log is impossible on its own, or those not consumed
// to their end.
func stuck(e *verdict.Explanation) string {
	if e == nil {
		return "failed, without an explanation"
	}
	var at []string
	if e.LocalFailure != "" {
		at = []string{"[" + e.LocalFailure + "]"}
	} else {
		for _, c := range e.Components {
			if c.Consumed < c.Length {
				at = append(at, "["+c.Lifelines+"]")
			}
		}
	}
	expected := "nothing more"
	if len(e.Expected) > 0 {
		expected = strings.Join(e.Expected, " ")
	}
	if len(at) == 0 {
		return "stuck at the end of the logs: expected " + expected
	}
	return "stuck at " + strings.Join(at, ", ") + ": expected " + expected
}

// addPattern counts one Fail of pattern p, seen in session ex at t.
func (s *Summary) addPattern(p Pattern, ex Example, t time.Time) {
	p.Count = 1
	p.Examples = []Example{ex}
	p.First, p.Last = t, t
	s.mergePattern(p)
}

// mergePattern adds the Fails of pattern p: to its own count, or to the
// others' when the summary tracks MaxPatterns patterns already.
func (s *Summary) mergePattern(p Pattern) {
	q, ok := s.Patterns[p.Key]
	if !ok {
		if len(s.Patterns) >= MaxPatterns {
			s.OtherPatterns += p.Count
			return
		}
		if s.Patterns == nil {
			s.Patterns = map[string]Pattern{}
		}
		q = Pattern{Key: p.Key, Edits: p.Edits, First: p.First, Last: p.Last}
	}
	q.Count += p.Count
	q.Examples = mergeExamples(q.Examples, p.Examples)
	if !p.First.IsZero() && (q.First.IsZero() || p.First.Before(q.First)) {
		q.First = p.First
	}
	if p.Last.After(q.Last) {
		q.Last = p.Last
	}
	s.Patterns[p.Key] = q
}

// mergeExamples returns the first MaxExamples of the examples of a and b
// (each sorted, without duplicates), in the order of their files and ids:
// the same examples whatever the order in which the Fails were counted (by
// one run, or by the workers of a pipeline, whose summaries merge in any
// order).
func mergeExamples(a, b []Example) []Example {
	out := make([]Example, 0, min(len(a)+len(b), MaxExamples))
	for len(out) < MaxExamples && (len(a) > 0 || len(b) > 0) {
		var next Example
		switch {
		case len(b) == 0 || len(a) > 0 && compareExamples(a[0], b[0]) <= 0:
			next, a = a[0], a[1:]
		default:
			next, b = b[0], b[1:]
		}
		if len(out) == 0 || out[len(out)-1] != next {
			out = append(out, next)
		}
	}
	return out
}

func compareExamples(a, b Example) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Session, b.Session))
}

// TopPatterns returns the k most frequent failure patterns of s (all with
// k < 0), the most frequent first, then by key.
func (s *Summary) TopPatterns(k int) []Pattern {
	ps := make([]Pattern, 0, len(s.Patterns))
	for _, p := range s.Patterns {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b Pattern) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key)) })
	if k >= 0 && len(ps) > k {
		ps = ps[:k]
	}
	return ps
}

// MaxPatternsShown is how many failure patterns the text summary shows.
const MaxPatternsShown = 10

// WritePatterns writes the failure patterns of s as the text summary of ivc
// analyze gives them, nothing when there is no Fail: a heading, then the k
// most frequent patterns (MaxPatternsShown with k 0), one a line after a
// tab, with their count, their share of the Fails and their first
// example, then how many Fails the other patterns hold.
func (s *Summary) WritePatterns(w io.Writer, k int) {
	fails := s.Verdicts[verdict.Fail]
	if fails == 0 || len(s.Patterns) == 0 && s.OtherPatterns == 0 {
		return
	}
	if k <= 0 {
		k = MaxPatternsShown
	}
	more, first := "", ", the most frequent first"
	if s.OtherPatterns > 0 {
		more = "more than "
	}
	if len(s.Patterns) == 1 && s.OtherPatterns == 0 {
		first = ""
	}
	fmt.Fprintf(w, "failure patterns: %s%d in %s%s:\n", more, len(s.Patterns), plural(fails, "Fail"), first)
	shown := 0
	for _, p := range s.TopPatterns(k) {
		shown += p.Count
		line := fmt.Sprintf("\t%d (%s) %s", p.Count, share(p.Count, fails), p.Key)
		if len(p.Examples) > 0 {
			ex := p.Examples[0]
			line += ", e.g. " + syntax.FileName(ex.File)
			if ex.Session != "" {
				line += " (session " + syntax.FileName(ex.Session) + ")"
			}
		}
		fmt.Fprintln(w, line)
	}
	if rest := fails - shown; rest > 0 {
		fmt.Fprintf(w, "\tand %s of other patterns\n", plural(rest, "Fail"))
	}
}

// share writes n/total as a percentage.
func share(n, total int) string {
	return strconv.FormatFloat(100*float64(n)/float64(total), 'f', 0, 64) + "%"
}
