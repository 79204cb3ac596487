package check

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// Record is the judgment of one multi-trace as ivc analyze --format json
// prints it, one JSON object a line; ivc-beam writes the same records, and
// ivc monitor too, with what a live session adds (Live).
type Record struct {
	File string `json:"file"`
	// Session is the session's id in a log of several, as written.
	Session string `json:"session,omitempty"`
	// Files names every file of a session joined across several (File is
	// the first).
	Files   []string `json:"files,omitempty"`
	Verdict string   `json:"verdict"`
	Mode    string   `json:"mode"`
	Engine  string   `json:"engine"`
	// Nodes is what the analysis explored (verdict.Result.TotalNodes),
	// LocalNodes the part of the local analyses in it.
	Nodes      int   `json:"nodes"`
	LocalNodes int   `json:"local_nodes,omitempty"`
	ElapsedUS  int64 `json:"elapsed_us"`
	// SetupUS is the one-time work this multi-trace caused (see
	// Outcome.Setup), apart from its own check's time ElapsedUS.
	SetupUS     int64                `json:"setup_us,omitempty"`
	Reason      string               `json:"reason,omitempty"`
	Explanation *verdict.Explanation `json:"explanation,omitempty"`
	// At lists, for a Fail, where the check stopped (Outcome.Stops): per
	// location, the event it could not read and where that event was read.
	At []Stop `json:"at,omitempty"`
	// Unfinished lists, for a WeakPass, the locations whose logs look
	// unfinished, with what each could do next (automata engine).
	Unfinished []verdict.Unfinished `json:"unfinished,omitempty"`
	// Simulated lists, for a slice, the actions assumed unobserved.
	Simulated []verdict.SimulatedAction `json:"simulated,omitempty"`
	// IgnoredEvents counts the session's events outside the signature.
	IgnoredEvents int `json:"ignored_events,omitempty"`
	// AllIgnored flags a session whose events were all outside the
	// signature: its verdict judged nothing of the log.
	AllIgnored bool `json:"all_ignored,omitempty"`
	// DuplicateEvents counts the session's events read again and dropped
	// (session.Meta.Duplicates: a span whose id it had, an event log's
	// event whose seq and action its location had), ConflictingEvents
	// those of them whose content differed from the first read, on which
	// the session is judged.
	DuplicateEvents   int `json:"duplicate_events,omitempty"`
	ConflictingEvents int `json:"conflicting_events,omitempty"`
	// UnpairedSpans counts the session's CLIENT and PRODUCER spans left
	// without their partner (session.Meta.Unpaired), each named by its own
	// span.
	UnpairedSpans int `json:"unpaired_spans,omitempty"`
	// Repair is a Fail's repair (Outcome.Repair): the fewest edits after
	// which it is no longer Fail. RepairIncomplete says why the search
	// stopped before it knew them to be the fewest (a limit), or why there
	// are none.
	Repair           []RepairEdit `json:"repair,omitempty"`
	RepairIncomplete string       `json:"repair_incomplete,omitempty"`
	// Pattern is a Fail's failure pattern (Pattern.Key): what the Fails of
	// a run that fail alike share.
	Pattern string `json:"pattern,omitempty"`
	// Live is set by ivc monitor (package monitor: Outcome.Live), nil
	// elsewhere: its fields follow the others in the JSON object, and are
	// absent when nil.
	*Live
}

// Live is what ivc monitor adds to the record of a session judged live.
type Live struct {
	// Revision is 1, then 2, 3, ... for a session re-opened by late
	// events, or by events after its early record.
	Revision int `json:"revision"`
	// ClosedBy is why the session closed: idle, max, early, evicted or
	// shutdown (monitor.ClosedIdle, ...).
	ClosedBy string `json:"closed_by"`
	// LatencyUS is the time from the arrival of the session's last event
	// (for an early record, of the event that failed) to its verdict.
	LatencyUS int64 `json:"latency_us"`
}

// Record returns the record of o, a judgment (o.Err is nil).
func (o *Outcome) Record() Record {
	r := o.Result
	rec := Record{
		File: o.File, Session: o.ID, IgnoredEvents: o.Ignored, AllIgnored: o.AllIgnored(), UnpairedSpans: o.Unpaired,
		DuplicateEvents: o.Duplicates, ConflictingEvents: o.Conflicts,
		Verdict: r.Verdict.String(), Mode: r.Mode.String(), Engine: o.Engine.String(),
		Nodes: r.TotalNodes(), LocalNodes: r.LocalNodes, ElapsedUS: o.Elapsed.Microseconds(), SetupUS: o.Setup.Microseconds(),
		Reason: r.Text(), Explanation: r.Explanation, Simulated: r.Simulated, Unfinished: o.Unfinished(), Live: o.Live,
	}
	if o.Joined() {
		rec.Files = o.Files
	}
	rec.At = o.Stops()
	if rp := o.Repair; rp != nil {
		// What the JSON line holds of each edit, no more: a record read
		// back is the record written.
		rec.Repair = make([]RepairEdit, len(rp.Edits))
		for i, e := range rp.Edits {
			rec.Repair[i] = RepairEdit{Edit: verdict.Edit{Op: e.Op, Location: e.Location, Index: e.Index, Action: e.Action}}
			if at, ok := o.editOrigin(e); ok {
				rec.Repair[i].Origin = &at
			}
		}
		if rp.Incomplete || len(rp.Edits) == 0 {
			rec.RepairIncomplete = rp.Detail
		}
	}
	if p, ok := o.Pattern(); ok {
		rec.Pattern = p.Key
	}
	return rec
}

// WriteText writes the text form of o, a judgment (o.Err is nil): the line
// of ivc analyze,
//
//	FILE[ and N other files] [(session ID)]: VERDICT (N nodes, T µs[, K events ignored][, D duplicates dropped][, none judged])[: REASON]
//
// or, for a session judged live (o.Live), ivc monitor's,
//
//	FILE (session ID): VERDICT (N nodes, revision R, closed by C, L µs after its last event)[: REASON]
//
// then the lines of its explanation (verdict.Result.Explain) and of its
// repair (verdict.Repair.Explain), each after a tab. A session joined across files names the first (its record names
// them all). The reason of a Fail names the origin of each event it names
// (Stops), and the stops it does not name follow the explanation, one a
// line; the runtime engine's Fail, which has no Reason, gives its
// diagnosis as the reason (verdict.Result.Diagnosis). Names are written as
// syntax.FileName writes them.
func (o *Outcome) WriteText(w io.Writer) { w.Write(o.AppendText(nil)) }

// AppendText appends the text form of o that WriteText writes to b: ivc
// analyze writes a line a session, and its parts made as strings took a
// fifth of the time of a log of short sessions.
func (o *Outcome) AppendText(b []byte) []byte {
	r := o.Result
	r.Unfinished = o.Unfinished()
	b = append(b, syntax.FileName(o.File)...)
	if o.Live != nil {
		b = fmt.Appendf(b, " (session %s): %s (%d nodes, revision %d, closed by %s, %d µs after its last event)",
			syntax.FileName(o.ID), r.Verdict, r.TotalNodes(), o.Live.Revision, o.Live.ClosedBy, o.Live.LatencyUS)
	} else {
		if n := len(o.Files) - 1; n > 0 { // a session joined across files
			b = append(append(b, " and "...), plural(n, "other file")...)
		}
		if o.ID != "" {
			b = append(append(append(b, " (session "...), syntax.FileName(o.ID)...), ')')
		}
		b = append(append(append(b, ": "...), r.Verdict.String()...), " ("...)
		b = append(strconv.AppendInt(append(r.AppendCost(b), ", "...), o.Elapsed.Microseconds(), 10), " µs"...)
		if o.Ignored > 0 {
			b = append(append(b, ", "...), plural(o.Ignored, "event")+" ignored"...)
		}
		if o.Duplicates > 0 {
			b = append(append(b, ", "...), plural(o.Duplicates, "duplicate")+" dropped"...)
		}
		if o.AllIgnored() {
			b = append(b, ", none judged"...)
		}
		b = append(b, ')')
	}
	why := r.Text()
	if why == "" && r.Verdict == verdict.Fail {
		why = failText(r.Explanation)
	}
	why, rest := withStops(why, o.Stops())
	if why != "" {
		b = append(append(b, ": "...), why...)
	}
	b = append(b, '\n')
	for _, line := range r.Explain() {
		b = append(append(append(b, '\t'), line...), '\n')
	}
	for _, s := range rest {
		at := fmt.Sprintf("[%s] event %d", s.Lifelines, s.Event)
		if s.Action != "" {
			at += " (" + s.Action + ")"
		}
		b = fmt.Appendf(b, "\tat %s: %s\n", at, s.where())
	}
	if o.Repair != nil {
		for _, line := range o.repairLines() {
			b = append(append(append(b, '\t'), line...), '\n')
		}
	}
	return b
}

// failText is the reason of a Fail without one (the runtime engine's),
// worded as the automata engine words a local error: "local failure: [R]
// cannot read event 76 (R!zero), expected R?ce", "no accepted
// interleaving, expected a!m".
func failText(e *verdict.Explanation) string {
	if e == nil {
		return ""
	}
	kind, why := "no accepted interleaving", ""
	if e.LocalFailure != "" {
		kind = "local failure"
		for _, c := range e.Components {
			if c.Lifelines != e.LocalFailure {
				continue
			}
			if c.Head != "" {
				why = fmt.Sprintf(": [%s] cannot read event %d (%s)", c.Lifelines, c.Consumed+1, c.Head)
			} else {
				why = fmt.Sprintf(": [%s] ends after %s", c.Lifelines, plural(c.Consumed, "event"))
			}
		}
	}
	if len(e.Expected) == 0 {
		return kind + why + ", expected nothing more"
	}
	return kind + why + ", expected " + strings.Join(e.Expected, " ")
}
