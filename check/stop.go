package check

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// Stop is where the check of a Fail stopped in the log of one location:
// the event it could not read (for a log that ends too early, its last),
// with that event's origin, so that a reader can find it in the file or
// in a trace viewer.
type Stop struct {
	// Lifelines names the location (verdict.ComponentProgress.Lifelines),
	// Event the event, from 1, in its log.
	Lifelines string `json:"lifelines"`
	Event     int    `json:"event"`
	// Action is the event's action when it is the one not read (the
	// explanation's head).
	Action string `json:"action,omitempty"`
	session.Origin
	// TraceID is the trace of a span (its session id).
	TraceID string `json:"trace_id,omitempty"`
	// URL is the span's page in a trace viewer (Settings.TraceURL).
	URL string `json:"url,omitempty"`
}

// Stops returns where the check of o, a Fail, stopped: for the logs
// impossible on their own, the event each cannot read (or, read to its
// end, its last event); otherwise, per location whose log was not read to its
// end, its first event not read. Only the events whose origin is known
// are given (for a .htf multi-trace, its line, the file read again).
func (o *Outcome) Stops() []Stop {
	e := o.Result.Explanation
	if o.Result.Verdict != verdict.Fail || e == nil || o.MT == nil || len(e.Components) != len(o.MT.Components) {
		return nil
	}
	if !o.loadOrigins() {
		return nil
	}
	var out []Stop
	for c, p := range e.Components {
		if e.LocalFailure != "" && p.Lifelines != e.LocalFailure &&
			!strings.Contains(o.Result.Detail, fmt.Sprintf("cannot read event %d (%s)", p.Consumed+1, p.Head)) {
			continue // the check stopped at the logs impossible on their own
		}
		i, act := p.Consumed, p.Head
		if i >= p.Length {
			if p.Lifelines != e.LocalFailure || p.Length == 0 {
				continue
			}
			i = p.Length - 1
		}
		at, ok := o.Origins.At(c, i)
		if !ok {
			continue
		}
		s := Stop{Lifelines: p.Lifelines, Event: i + 1, Action: act, Origin: at}
		if at.SpanID != "" {
			s.TraceID = o.ID // a span's session is its trace
		}
		s.URL = traceURL(o.traceURL, s.TraceID, s.SpanID)
		out = append(out, s)
	}
	return out
}

// loadOrigins makes sure o.Origins is there when it can be: a .htf
// multi-trace's are read from its file when a Fail asks for them.
func (o *Outcome) loadOrigins() bool {
	if o.Origins == nil && o.HTF {
		o.Origins = session.HTFOrigins(o.File) // the lines of a Fail's events only
	}
	return o.Origins != nil
}

// RepairEdit is an edit of a Fail's repair as its record writes it: a
// deleted event carries its origin (file, line, time, span id), to find
// it in the log or the trace viewer.
type RepairEdit struct {
	verdict.Edit
	*session.Origin
}

// editOrigin returns the origin of the event an edit deletes.
func (o *Outcome) editOrigin(e verdict.Edit) (session.Origin, bool) {
	if e.Op != verdict.Delete || !o.loadOrigins() {
		return session.Origin{}, false
	}
	return o.Origins.At(e.Component, e.Index)
}

// repairLines are the lines of o's repair (verdict.Repair.ExplainAt), a
// deleted event followed by its origin, as the stops of a Fail are:
// "[R] unexpected R!zero (event 76, span 5f2c…, traces.json:120)".
func (o *Outcome) repairLines() []string {
	return o.Repair.ExplainAt(func(e verdict.Edit) string {
		at, ok := o.editOrigin(e)
		if !ok {
			return ""
		}
		return (&Stop{Origin: at}).where()
	})
}

// traceURL fills the placeholders {trace_id} and {span_id} of template,
// or returns "" when template is empty or one of them has no value.
func traceURL(template, trace, span string) string {
	if template == "" || strings.Contains(template, "{trace_id}") && trace == "" || strings.Contains(template, "{span_id}") && span == "" {
		return ""
	}
	return strings.NewReplacer("{trace_id}", trace, "{span_id}", span).Replace(template)
}

// where says where s is, as the text of a Fail does: "span 5f2c…,
// 12:03:04.123, traces.json:120".
func (s *Stop) where() string {
	var parts []string
	if s.SpanID != "" {
		parts = append(parts, "span "+s.SpanID)
	}
	if !s.Time.IsZero() {
		parts = append(parts, s.Time.Format("15:04:05.000"))
	}
	at := fmt.Sprintf("%s:%d", syntax.FileName(s.File), s.Line)
	if s.Col > 0 {
		at += fmt.Sprintf(":%d", s.Col)
	}
	parts = append(parts, at)
	if s.URL != "" {
		parts = append(parts, s.URL)
	}
	return strings.Join(parts, ", ")
}

// withStops returns why, the reason of a Fail, with the origin of each
// event it names ("[R] cannot read event 76 (R!zero)" becomes "... (R!zero,
// abp.jsonl:301)"), and the stops it does not name.
func withStops(why string, stops []Stop) (string, []Stop) {
	var rest []Stop
	for _, s := range stops {
		named := fmt.Sprintf("cannot read event %d (%s)", s.Event, s.Action)
		if k := strings.Index(why, named); k >= 0 {
			k += len(named) - 1
			why = why[:k] + ", " + s.where() + why[k:]
			continue
		}
		rest = append(rest, s)
	}
	return why, rest
}
