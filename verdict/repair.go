package verdict

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/internal/enum"
)

// The repair of a Fail: the smallest change to the multi-trace after which
// it is no longer Fail in the same mode. A change is a list of edits, each
// deleting one event from a component or inserting one, and costing 1, so
// that the cost of a repair is its number of edits. Both engines compute
// repairs (the automata engine by an alignment, the runtime engine by a
// bounded search over edits) and the front door checks every repair again
// before it gives it (check.Checker.Repair); docs/repairs.md says what a
// repair means in each mode.

// EditOp is what an edit does to a component: delete one of its events, or
// insert one.
type EditOp uint8

const (
	Delete EditOp = iota // an event of the log that should not be there
	Insert               // an event missing from the log
)

// editOpNames are the operations as JSON spells them.
var editOpNames = enum.New("EditOp", map[EditOp]string{Delete: "delete", Insert: "insert"})

func (o EditOp) String() string { return editOpNames.Name(o) }

// MarshalText writes "delete" or "insert".
func (o EditOp) MarshalText() ([]byte, error) {
	if o > Insert {
		return nil, fmt.Errorf("verdict: unknown edit operation %d", o)
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads "delete" or "insert".
func (o *EditOp) UnmarshalText(b []byte) error {
	v, ok := editOpNames.Value(string(b))
	if !ok {
		return fmt.Errorf("unknown edit operation %q (expected delete or insert)", b)
	}
	*o = v
	return nil
}

// Edit is one change to one component of a multi-trace: the deletion of
// its event at Index, or the insertion of an event before the event at
// Index (at the end of the component when Index is its length). Indices
// are those of the component as read, 0-based, whatever the other edits
// of a repair: the insertions at one index go there in the order of the
// repair's list.
type Edit struct {
	Op EditOp `json:"op"`
	// Location names the lifelines of the component, as the multi-trace
	// groups them; Component is its index among the components.
	Location  []string `json:"location"`
	Component int      `json:"-"`
	// Lifelines is the location as the text outputs write it, its names
	// quoted where the parsers need it (ComponentProgress.Lifelines).
	Lifelines string `json:"-"`
	Index     int    `json:"index"`
	// End marks an insertion at the end of the component (Index is its
	// length), for the words of the edit.
	End bool `json:"-"`
	// Action is the event deleted or inserted as a log writes it: l!m,
	// l?m, or {a!m,b?m} for the actions a location observes at once.
	Action string `json:"action"`
}

// Repair is a smallest list of edits after which a failing multi-trace is
// no longer Fail in the mode it was checked in, each edit costing 1: in
// prefix mode the repaired multi-trace is a multi-prefix (Pass or
// WeakPass), in accept mode it is accepted (Pass), in slice mode it is a
// slice (Pass or WeakPass; Inconc is no repair). The edits are sorted by
// component, then index, the insertions at an index before the deletion
// of the event there.
//
// A limit may stop the search first (Incomplete, with the Reason and in
// words Detail); the edits are then the best repair found, if any, which
// is still checked, but may not be the smallest.
type Repair struct {
	Edits []Edit
	// Verdict is the verdict of the repaired multi-trace (Pass or
	// WeakPass), when there are edits.
	Verdict    Verdict
	Incomplete bool
	Reason     Reason
	Detail     string
	// Nodes counts the work of the search: the states of the automata
	// engine's alignment, or the vertices of the runtime engine's checks of
	// candidate repairs.
	Nodes int
}

// Cost is the number of edits of the repair.
func (r Repair) Cost() int { return len(r.Edits) }

// Text says the edit in words, as the text outputs write it: the location,
// then "unexpected ACTION (event N)" for a deletion, "missing ACTION before
// event N" (or "at the end") for an insertion. Events are counted from 1,
// as the explanation of a Fail counts them; Index, in JSON, from 0.
func (e Edit) Text() string { return e.TextAt("") }

// TextAt is Text with where the deleted event comes from (a log's
// file:line, a span), when at is not empty: "[R] unexpected R!zero (event
// 76, traces.json:120)". An insertion has no origin: at is not said.
func (e Edit) TextAt(at string) string {
	loc := e.Lifelines
	if loc == "" {
		loc = strings.Join(e.Location, ",")
	}
	loc = "[" + loc + "]"
	switch {
	case e.Op == Delete:
		if at != "" {
			at = ", " + at
		}
		return fmt.Sprintf("%s unexpected %s (event %d%s)", loc, e.Action, e.Index+1, at)
	case e.End:
		return fmt.Sprintf("%s missing %s at the end", loc, e.Action)
	}
	return fmt.Sprintf("%s missing %s before event %d", loc, e.Action, e.Index+1)
}

// MaxEditLines is how many edits Explain says; the others are counted.
const MaxEditLines = 10

// Explain returns the lines that give the repair of a Fail, without
// indentation: a heading (how many edits, the verdict they lead to, or why
// the search is incomplete), then one line per edit (Edit.Text), each after
// two spaces, at most MaxEditLines and a count of the others.
func (r Repair) Explain() []string { return r.ExplainAt(nil) }

// ExplainAt is Explain with where each deleted event comes from (at, when
// not nil: Edit.TextAt).
func (r Repair) ExplainAt(at func(Edit) string) []string {
	var head string
	switch {
	case len(r.Edits) == 0 && r.Incomplete:
		return []string{"no repair found: " + r.Detail}
	case len(r.Edits) == 0:
		if r.Detail == "" {
			return nil
		}
		return []string{r.Detail}
	case r.Incomplete:
		head = fmt.Sprintf("repair (%s, then %s; incomplete, perhaps not the fewest: %s):", edits(len(r.Edits)), r.Verdict, r.Detail)
	default:
		head = fmt.Sprintf("repair (%s, then %s):", edits(len(r.Edits)), r.Verdict)
	}
	lines := []string{head}
	for _, e := range r.Edits[:min(len(r.Edits), MaxEditLines)] {
		where := ""
		if at != nil && e.Op == Delete {
			where = at(e)
		}
		lines = append(lines, "  "+e.TextAt(where))
	}
	if n := len(r.Edits) - MaxEditLines; n > 0 {
		lines = append(lines, fmt.Sprintf("  and %d more", n))
	}
	return lines
}

func edits(n int) string {
	if n == 1 {
		return "1 edit"
	}
	return fmt.Sprintf("%d edits", n)
}
