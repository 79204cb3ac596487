package check

import (
	"encoding/json"
	"strconv"
)

// MarshalJSON returns r as AppendJSON writes it.
func (r Record) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(nil)
}

// AppendJSON appends r's JSON object to b, byte for byte as encoding/json
// writes the struct's fields by their tags, and returns the extended
// slice. ivc monitor writes a record a session it closes: by reflection a
// record took about 1.9 µs, a tenth of the monitor's time a span. The
// fields a Pass has are written here; the rare structured ones (an
// explanation, stops, a repair, ...) by encoding/json, field by field.
// TestRecordJSON compares the two on every field.
func (r Record) AppendJSON(b []byte) ([]byte, error) {
	start := len(b)
	var err error
	b = append(b, `{"file":`...)
	b = appendString(b, r.File)
	if r.Session != "" {
		b = append(b, `,"session":`...)
		b = appendString(b, r.Session)
	}
	if len(r.Files) > 0 {
		b = append(b, `,"files":[`...)
		for i, f := range r.Files {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, f)
		}
		b = append(b, ']')
	}
	b = append(b, `,"verdict":`...)
	b = appendString(b, r.Verdict)
	b = append(b, `,"mode":`...)
	b = appendString(b, r.Mode)
	b = append(b, `,"engine":`...)
	b = appendString(b, r.Engine)
	b = append(b, `,"nodes":`...)
	b = strconv.AppendInt(b, int64(r.Nodes), 10)
	if r.LocalNodes != 0 {
		b = append(b, `,"local_nodes":`...)
		b = strconv.AppendInt(b, int64(r.LocalNodes), 10)
	}
	b = append(b, `,"elapsed_us":`...)
	b = strconv.AppendInt(b, r.ElapsedUS, 10)
	if r.SetupUS != 0 {
		b = append(b, `,"setup_us":`...)
		b = strconv.AppendInt(b, r.SetupUS, 10)
	}
	if r.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendString(b, r.Reason)
	}
	if r.Explanation != nil {
		b, err = appendValue(b, `,"explanation":`, r.Explanation, err)
	}
	if len(r.At) > 0 {
		b, err = appendValue(b, `,"at":`, r.At, err)
	}
	if len(r.Unfinished) > 0 {
		b, err = appendValue(b, `,"unfinished":`, r.Unfinished, err)
	}
	if len(r.Simulated) > 0 {
		b, err = appendValue(b, `,"simulated":`, r.Simulated, err)
	}
	if r.IgnoredEvents != 0 {
		b = append(b, `,"ignored_events":`...)
		b = strconv.AppendInt(b, int64(r.IgnoredEvents), 10)
	}
	if r.AllIgnored {
		b = append(b, `,"all_ignored":true`...)
	}
	if r.DuplicateEvents != 0 {
		b = append(b, `,"duplicate_events":`...)
		b = strconv.AppendInt(b, int64(r.DuplicateEvents), 10)
	}
	if r.ConflictingEvents != 0 {
		b = append(b, `,"conflicting_events":`...)
		b = strconv.AppendInt(b, int64(r.ConflictingEvents), 10)
	}
	if r.UnpairedSpans != 0 {
		b = append(b, `,"unpaired_spans":`...)
		b = strconv.AppendInt(b, int64(r.UnpairedSpans), 10)
	}
	if len(r.Repair) > 0 {
		b, err = appendValue(b, `,"repair":`, r.Repair, err)
	}
	if r.RepairIncomplete != "" {
		b = append(b, `,"repair_incomplete":`...)
		b = appendString(b, r.RepairIncomplete)
	}
	if r.Pattern != "" {
		b = append(b, `,"pattern":`...)
		b = appendString(b, r.Pattern)
	}
	if l := r.Live; l != nil {
		b = append(b, `,"revision":`...)
		b = strconv.AppendInt(b, int64(l.Revision), 10)
		b = append(b, `,"closed_by":`...)
		b = appendString(b, l.ClosedBy)
		b = append(b, `,"latency_us":`...)
		b = strconv.AppendInt(b, l.LatencyUS, 10)
	}
	if err != nil {
		return b[:start], err
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string, as encoding/json writes it: the
// printable ASCII it writes as is here, anything else (escapes, HTML's
// characters, UTF-8) by encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendValue appends a field's name and v, by encoding/json, unless err
// (the error of a field before) is not nil; it returns the first error.
func appendValue(b []byte, name string, v any, err error) ([]byte, error) {
	if err != nil {
		return b, err
	}
	q, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	b = append(b, name...)
	return append(b, q...), nil
}
