package check

import "github.com/ivc-project/ivc/verdict"

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
	// Simulated lists, for a slice, the actions assumed unobserved.
	Simulated []verdict.SimulatedAction `json:"simulated,omitempty"`
	// IgnoredEvents counts the session's events outside the signature.
	IgnoredEvents int `json:"ignored_events,omitempty"`
	// AllIgnored flags a session whose events were all outside the
	// signature: its verdict judged nothing of the log.
	AllIgnored bool `json:"all_ignored,omitempty"`
	// Live is set by ivc monitor (package monitor), nil elsewhere: its
	// fields follow the others in the JSON object, and are absent when
	// nil.
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

// NewRecord returns the record of o, a judgment (o.Err is nil).
func NewRecord(o Outcome) Record {
	r := o.Result
	return Record{
		File: o.Name, Session: o.Session, Files: o.Files, IgnoredEvents: o.Ignored, AllIgnored: o.AllIgnored,
		Verdict: r.Verdict.String(), Mode: r.Mode.String(), Engine: o.Engine.String(),
		Nodes: r.TotalNodes(), LocalNodes: r.LocalNodes, ElapsedUS: o.Elapsed.Microseconds(), SetupUS: o.Setup.Microseconds(),
		Reason: r.Text(), Explanation: r.Explanation, Simulated: r.Simulated,
	}
}
