package ivcconnector

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// scopeName is the instrumentation scope of the records and metrics.
const scopeName = "github.com/ivc-project/ivc/collector/ivcconnector"

// The attributes of a verdict's log record: those of ivc monitor's JSON
// record, prefixed.
const (
	attrVerdict   = "ivc.verdict"
	attrReason    = "ivc.reason"
	attrClosedBy  = "ivc.closed_by"
	attrRevision  = "ivc.revision"
	attrSession   = "ivc.session"
	attrMode      = "ivc.mode"
	attrEngine    = "ivc.engine"
	attrLatencyUS = "ivc.latency_us"
	attrPattern   = "ivc.pattern"
)

// batch is the log records of the sessions judged and not yet sent, as
// the plog.Logs they are sent in (after the spans that closed them, or at
// a tick of the clock), each of max records at most (0: no bound) so that
// a burst is sent as several, and the scratch their bodies are written in.
type batch struct {
	max  int
	full []plog.Logs         // those of max records, in the order judged
	ld   plog.Logs           // the one being filled, after them
	recs plog.LogRecordSlice // ld's one slice of records
	text []byte              // a Pass's body
	buf  bytes.Buffer        // another's
}

// reset starts an empty batch.
func (b *batch) reset() {
	b.full = nil
	b.open()
}

// open starts the plog.Logs to fill.
func (b *batch) open() {
	b.ld = plog.NewLogs()
	sl := b.ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty()
	sl.Scope().SetName(scopeName)
	b.recs = sl.LogRecords()
}

// take returns the plog.Logs of the records pending, in the order judged,
// and leaves the batch empty (the plog.Logs taken are the sender's).
func (b *batch) take() []plog.Logs {
	lds := b.full
	b.full = nil
	if b.recs.Len() > 0 {
		lds = append(lds, b.ld)
		b.open()
	}
	return lds
}

// add appends the log record of o, a session judged: its severity by its
// verdict (a Fail is an ERROR), its body the outcome's text (the verdict,
// the reason and the explanation's lines, as ivc monitor writes a Fail on
// stderr), its attributes the record's, and its trace id the session's, so
// that a backend links the verdict to its trace.
func (b *batch) add(o *check.Outcome) {
	r := o.Record()
	if b.max > 0 && b.recs.Len() >= b.max {
		b.full = append(b.full, b.ld)
		b.open()
	}
	lr := b.recs.AppendEmpty()
	now := pcommon.NewTimestampFromTime(time.Now())
	lr.SetObservedTimestamp(now)
	lr.SetTimestamp(now)
	sev, sevText := severity(o.Result.Verdict)
	lr.SetSeverityNumber(sev)
	lr.SetSeverityText(sevText)
	lr.Body().SetStr(b.body(o))
	a := lr.Attributes()
	n := 4 // verdict, session, mode, engine
	if r.Reason != "" {
		n++
	}
	if r.Pattern != "" {
		n++
	}
	if r.Live != nil {
		n += 3
	}
	a.EnsureCapacity(n)
	a.PutStr(attrVerdict, r.Verdict)
	if r.Reason != "" {
		a.PutStr(attrReason, r.Reason)
	}
	if r.Pattern != "" {
		a.PutStr(attrPattern, r.Pattern) // what the Fails that fail alike share
	}
	a.PutStr(attrSession, r.Session)
	a.PutStr(attrMode, r.Mode)
	a.PutStr(attrEngine, r.Engine)
	if r.Live != nil {
		a.PutStr(attrClosedBy, r.ClosedBy)
		a.PutInt(attrRevision, int64(r.Revision))
		a.PutInt(attrLatencyUS, r.LatencyUS)
	}
	lr.SetTraceID(traceID(r.Session))
}

// body returns the text of o (Outcome.WriteText) without its last newline.
// A plain Pass judged live, most records, is its first line alone, written
// here without fmt (the text is the same: TestBody).
func (b *batch) body(o *check.Outcome) string {
	if r := o.Result; o.Live != nil && r.Verdict == verdict.Pass && r.Text() == "" && len(r.Simulated) == 0 && o.Repair == nil {
		t := append(b.text[:0], syntax.FileName(o.File)...)
		t = append(t, " (session "...)
		t = append(t, syntax.FileName(o.ID)...)
		t = append(t, "): Pass ("...)
		t = strconv.AppendInt(t, int64(r.TotalNodes()), 10)
		t = append(t, " nodes, revision "...)
		t = strconv.AppendInt(t, int64(o.Live.Revision), 10)
		t = append(t, ", closed by "...)
		t = append(t, o.Live.ClosedBy...)
		t = append(t, ", "...)
		t = strconv.AppendInt(t, o.Live.LatencyUS, 10)
		t = append(t, " µs after its last event)"...)
		b.text = t
		return string(t)
	}
	b.buf.Reset()
	o.WriteText(&b.buf)
	return string(bytes.TrimSuffix(b.buf.Bytes(), []byte("\n")))
}

// severity is a verdict's: a Fail is an error, an Inconc (undecided: a
// malformed event, a budget hit) a warning, a Pass or WeakPass news.
func severity(v verdict.Verdict) (plog.SeverityNumber, string) {
	switch v {
	case verdict.Fail:
		return plog.SeverityNumberError, "ERROR"
	case verdict.Pass, verdict.WeakPass:
		return plog.SeverityNumberInfo, "INFO"
	}
	return plog.SeverityNumberWarn, "WARN"
}

// traceID is the trace id of a session read from spans (its id is the
// trace id in hex), empty for another.
func traceID(session string) pcommon.TraceID {
	var id pcommon.TraceID
	if len(session) != 2*len(id) {
		return id
	}
	if _, err := hex.Decode(id[:], []byte(session)); err != nil {
		return pcommon.NewTraceIDEmpty()
	}
	return id
}
