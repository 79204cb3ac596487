package ivcconnector

import (
	"encoding/hex"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/ivc-project/ivc/check"
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

// newRecords returns an empty batch of log records, and its slice of
// records to append to.
func newRecords() (plog.Logs, plog.LogRecordSlice) {
	ld := plog.NewLogs()
	sl := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty()
	sl.Scope().SetName(scopeName)
	return ld, sl.LogRecords()
}

// appendRecord appends the log record of o, a session judged, to lrs: its
// severity by its verdict (a Fail is an ERROR), its body the outcome's
// text (the verdict, the reason and the explanation's lines, as ivc
// monitor writes a Fail on stderr), its attributes the record's, and its
// trace id the session's, so that a backend links the verdict to its trace.
// text is scratch.
func appendRecord(lrs plog.LogRecordSlice, o *check.Outcome, text *strings.Builder) {
	r := o.Record()
	lr := lrs.AppendEmpty()
	now := pcommon.NewTimestampFromTime(time.Now())
	lr.SetObservedTimestamp(now)
	lr.SetTimestamp(now)
	sev, sevText := severity(o.Result.Verdict)
	lr.SetSeverityNumber(sev)
	lr.SetSeverityText(sevText)
	text.Reset()
	o.WriteText(text)
	lr.Body().SetStr(strings.TrimSuffix(text.String(), "\n"))
	a := lr.Attributes()
	a.EnsureCapacity(9)
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
