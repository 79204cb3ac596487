package session

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/syntax"
)

// Origin is where an event of a session comes from, as a Fail names it:
// the file and line it was read at (for a span, the line of its object),
// its time when it has one (a span's start, an event's RFC 3339 time), and
// a span's id.
type Origin struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Col is the event's column in a .htf file (0: not known).
	Col  int       `json:"col,omitempty"`
	Time time.Time `json:"time,omitzero"`
	// SpanID is a span's id, in hex ("" for an event of an event log).
	SpanID string `json:"span_id,omitempty"`
}

// Origins are the origins of a session's events, in the order of its
// multi-trace (component by component), kept beside it rather than in its
// events: compact, and read only when a judgment names an event.
type Origins struct {
	inputs []string // the inputs of the gatherer that built it, by index
	starts []int32  // where each component's events start in at
	at     []origin
	htf    bool // the origins of a .htf file's events (HTFOrigins)
	// locOf, when not nil, is the location of each lifeline, and at holds
	// the events in the order read rather than by component (the session
	// of a shared multi-trace: each location's events are in that order),
	// no starts: At looks an event up among them.
	locOf []int32
}

// origin is the compact form of an Origin, with the event's action: a
// session is built in its origins (gatherer.build), each location sorted
// there by its order key, hi then lo.
type origin struct {
	hi   int64
	lo   uint32
	act  interaction.Action
	line uint32
	meta uint32 // its input << 8 | the kind of its order key (a .htf's: its column << 8)
	span uint64 // a span's id (0: none)
}

// At returns the origin of event i (from 0) of component c, and false
// when there is none (no such event, or a session without origins: a
// .htf multi-trace).
func (o *Origins) At(c, i int) (Origin, bool) {
	e, ok := o.event(c, i)
	if !ok {
		return Origin{}, false
	}
	if o.htf {
		return Origin{File: o.inputs[0], Line: int(e.line), Col: int(e.meta >> 8)}, true
	}
	out := Origin{File: o.inputs[e.meta>>8], Line: int(e.line)}
	if logs.KeyKind(e.meta) == logs.KeyTime {
		out.Time = time.Unix(e.hi, int64(e.lo)).UTC()
	}
	if e.span != 0 {
		out.SpanID = fmt.Sprintf("%016x", e.span)
	}
	return out, true
}

// event returns the compact origin of event i of component c.
func (o *Origins) event(c, i int) (origin, bool) {
	switch {
	case o == nil || c < 0 || i < 0:
	case o.locOf != nil:
		// In the order read: a judgment asks for a few events of a Fail.
		for _, e := range o.at {
			if int(o.locOf[e.act.Lifeline()]) == c {
				if i == 0 {
					return e, true
				}
				i--
			}
		}
	case c+1 < len(o.starts) && int(o.starts[c])+i < int(o.starts[c+1]):
		return o.at[int(o.starts[c])+i], true
	}
	return origin{}, false
}

// HTFOrigins returns the origins of the events of the .htf multi-trace at
// path, read again (a judgment asks them of a Fail only): each event's
// line and column, in the order of the multi-trace read from the file (its
// components in file order, then those of the lifelines it leaves out,
// empty). It is nil when the file cannot be read again or parsed
// (standard input, a compressed file).
func HTFOrigins(path string) *Origins {
	if path == "-" {
		return nil
	}
	src, err := syntax.ReadFile(path)
	if err != nil {
		return nil
	}
	f, err := multitrace.Parse(path, src)
	if err != nil {
		return nil
	}
	o := &Origins{inputs: []string{path}, starts: make([]int32, 0, len(f.Components)+1), htf: true}
	for _, c := range f.Components {
		o.starts = append(o.starts, int32(len(o.at)))
		for _, e := range c.Trace {
			o.at = append(o.at, origin{line: logs.Line32(e.Pos.Line), meta: uint32(min(max(e.Pos.Col, 0), 1<<24-1)) << 8})
		}
	}
	o.starts = append(o.starts, int32(len(o.at)))
	return o
}
