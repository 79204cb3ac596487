package verdict

import (
	"fmt"
	"strconv"
	"strings"
)

// The words of a result, as every output says them: ivc analyze's text
// lines, the HTML report's rows and the drawings' headings.

// Explain returns the lines that explain r under its verdict, without
// indentation: per component, the actions a slice explanation simulated
// before its log starts; for a WeakPass, the locations whose logs look
// unfinished and what each could do next; for a Fail, the component whose log is impossible
// on its own, how far each component was consumed and its next action, and
// what the interaction expected there.
func (r Result) Explain() []string {
	var lines []string
	var comps []string
	byComp := map[string][]string{}
	for _, s := range r.Simulated {
		if _, ok := byComp[s.Component]; !ok {
			comps = append(comps, s.Component)
		}
		byComp[s.Component] = append(byComp[s.Component], s.Action)
	}
	for _, c := range comps {
		lines = append(lines, fmt.Sprintf("before the log of [%s] starts: %s", c, strings.Join(byComp[c], " ")))
	}
	for _, u := range r.Unfinished {
		lines = append(lines, fmt.Sprintf("[%s] looks unfinished after %s, expected %s", u.Lifelines, plural(u.Events, "event"), strings.Join(u.Expected, " ")))
	}
	e := r.Explanation
	if r.Verdict != Fail || e == nil {
		return lines
	}
	if e.LocalFailure != "" {
		lines = append(lines, e.LocalFailureText())
	}
	for _, c := range e.Components {
		line := fmt.Sprintf("[%s] consumed %d/%d", c.Lifelines, c.Consumed, c.Length)
		if c.Head != "" {
			line += ", next " + c.Head
		}
		lines = append(lines, line)
	}
	return append(lines, "expected: "+e.expected())
}

// TotalNodes is what the analysis explored, as a node budget (--max-nodes)
// counts it: the vertices of its search (Nodes) and those of the runtime
// engine's local analyses, its optimistic first attempt included
// (LocalNodes).
func (r Result) TotalNodes() int { return r.Nodes + r.LocalNodes }

// Cost is TotalNodes as ivc prints it, with the part of the local analyses
// when they took some: "252 nodes", "13 nodes, 13 of local analyses" (an
// optimistic attempt that decided alone).
func (r Result) Cost() string { return string(r.AppendCost(nil)) }

// AppendCost appends Cost to b.
func (r Result) AppendCost(b []byte) []byte {
	b = append(strconv.AppendInt(b, int64(r.TotalNodes()), 10), " nodes"...)
	if r.LocalNodes == 0 {
		return b
	}
	return append(strconv.AppendInt(append(b, ", "...), int64(r.LocalNodes), 10), " of local analyses"...)
}

// Heading is the verdict with what it means and its reason (Text), as a
// drawing's title line says it: "WeakPass (a multi-prefix: the logs may
// stop early)", "Fail: InterError".
func (r Result) Heading() string {
	head := r.Verdict.String()
	switch {
	case r.Verdict == WeakPass && r.Mode == Slice:
		head += " (a slice: the logs may start late and stop early)"
	case r.Verdict == WeakPass:
		head += " (a multi-prefix: the logs may stop early)"
	}
	if why := r.Text(); why != "" {
		head += ": " + why
	}
	return head
}

// Diagnosis is the kind of r's reason and the reason in words, as a table
// of results gives them: the Reason and Text when there is one; for the
// runtime engine's Fail, which has none, what its explanation says ("no
// accepted interleaving", or "local failure").
func (r Result) Diagnosis() (kind, why string) {
	why = r.Text()
	if r.Reason != NoReason {
		kind = r.Reason.String()
	}
	if e := r.Explanation; e != nil && kind == "" {
		kind, why = "no accepted interleaving", "expected "+e.expected()
		if e.LocalFailure != "" {
			kind, why = "local failure", e.LocalFailureText()+"; "+why
		}
	}
	return kind, why
}

// LocalFailureText says which component's trace is impossible on its own,
// or is empty when none is.
func (e *Explanation) LocalFailureText() string {
	if e.LocalFailure == "" {
		return ""
	}
	return fmt.Sprintf("local failure: the trace of [%s] is impossible on its own", e.LocalFailure)
}

// expected joins the actions expected, or says "nothing more".
func (e *Explanation) expected() string {
	if len(e.Expected) == 0 {
		return "nothing more"
	}
	return strings.Join(e.Expected, " ")
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
