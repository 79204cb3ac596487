package verdict

import (
	"fmt"

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
	Index     int      `json:"index"`
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
