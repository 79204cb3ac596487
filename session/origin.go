package session

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/logs"
)

// Origin is where an event of a session comes from, as a Fail names it:
// the file and line it was read at (for a span, the line of its object),
// its time when it has one (a span's start, an event's RFC 3339 time), and
// a span's id.
type Origin struct {
	File string    `json:"file"`
	Line int       `json:"line"`
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
}

// origin is the compact form of an Origin.
type origin struct {
	hi   int64
	lo   uint32
	line uint32
	meta uint32 // its input << 8 | the kind of its order key
	span uint64 // a span's id (0: none)
}

// At returns the origin of event i (from 0) of component c, and false
// when there is none (no such event, or a session without origins: a
// .htf multi-trace).
func (o *Origins) At(c, i int) (Origin, bool) {
	if o == nil || c < 0 || c+1 >= len(o.starts) || i < 0 || int(o.starts[c])+i >= int(o.starts[c+1]) {
		return Origin{}, false
	}
	e := o.at[int(o.starts[c])+i]
	out := Origin{File: o.inputs[e.meta>>8], Line: int(e.line)}
	if logs.KeyKind(e.meta) == logs.KeyTime {
		out.Time = time.Unix(e.hi, int64(e.lo)).UTC()
	}
	if e.span != 0 {
		out.SpanID = fmt.Sprintf("%016x", e.span)
	}
	return out, true
}
