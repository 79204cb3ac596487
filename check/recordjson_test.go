package check_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
)

// plainRecord is Record without its marshaler: encoding/json writes it by
// reflection, from the struct's tags.
type plainRecord check.Record

// sameAsReflection fails t unless r's AppendJSON (after a prefix kept as
// is) and MarshalJSON write what encoding/json writes by reflection.
func sameAsReflection(t *testing.T, r check.Record) {
	t.Helper()
	want, err := json.Marshal(plainRecord(r))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.AppendJSON([]byte("x"))
	if err != nil || string(got) != "x"+string(want) {
		t.Errorf("AppendJSON:\n%s (%v)\nwant\nx%s", got, err, want)
	}
	if got, err := json.Marshal(r); err != nil || string(got) != string(want) {
		t.Errorf("json.Marshal:\n%s (%v)\nwant\n%s", got, err, want)
	}
}

// TestRecordJSON: a record's JSON is encoding/json's, byte for byte, with
// each field set alone (every field of Record and Live, by reflection: a
// field added to Record and not to AppendJSON fails it), all of them set,
// and strings that JSON escapes.
func TestRecordJSON(t *testing.T) {
	sample := check.Record{
		File: "app.jsonl", Session: "4bf92f3577b34da6a3ce929d0e0e4736", Files: []string{"a.jsonl", "b.jsonl"},
		Verdict: "Fail", Mode: "prefix", Engine: "automata", Nodes: 7, LocalNodes: 3, ElapsedUS: 1500, SetupUS: 20,
		Reason:        "LocalError: [a] cannot read event 3 (a!m), expected a?n",
		Explanation:   &verdict.Explanation{Components: []verdict.ComponentProgress{{Lifelines: "a", Consumed: 2, Head: "a!m"}}, Expected: []string{"a?n"}, LocalFailure: "a"},
		At:            []check.Stop{{Lifelines: "a", Event: 3, Action: "a!m", Origin: session.Origin{File: "app.jsonl", Line: 4}, TraceID: "t", URL: "http://x/t"}},
		Unfinished:    []verdict.Unfinished{{Lifelines: "b", Events: 1, Expected: []string{"b?m"}}},
		Simulated:     []verdict.SimulatedAction{{Action: "c!m", Component: "c", When: "before"}},
		IgnoredEvents: 2, AllIgnored: true, DuplicateEvents: 3, ConflictingEvents: 1, UnpairedSpans: 4,
		Repair:           []check.RepairEdit{{Edit: verdict.Edit{Op: verdict.Delete, Location: []string{"a"}, Index: 3, Action: "a!m"}, Origin: &session.Origin{File: "app.jsonl", Line: 4}}},
		RepairIncomplete: "node budget reached", Pattern: "[a] unexpected a!m",
		Live: &check.Live{Revision: 2, ClosedBy: "idle", LatencyUS: 9},
	}
	sameAsReflection(t, check.Record{})
	sameAsReflection(t, sample)
	all, one := reflect.ValueOf(sample), reflect.TypeFor[check.Record]()
	for i := range one.NumField() {
		f := one.Field(i)
		var r check.Record
		v := reflect.ValueOf(&r).Elem()
		v.Field(i).Set(all.Field(i))
		if all.Field(i).IsZero() {
			t.Fatalf("the sample leaves %s empty", f.Name)
		}
		t.Run(f.Name, func(t *testing.T) { sameAsReflection(t, r) })
	}
	for _, s := range []string{`a"b`, `a\b`, "<a>&", "tab\there\n\r\b\f\x01\x1f\x7f", "é ü 日本", "\u2028\u2029", "bad \xff\xfe utf-8", "", " "} {
		r := sample
		r.File, r.Session, r.Verdict, r.Mode, r.Engine, r.Reason, r.RepairIncomplete, r.Pattern = s, s, s, s, s, s, s, s
		r.Files = []string{s, "x" + s}
		r.Live = &check.Live{ClosedBy: s, Revision: -1, LatencyUS: -1 << 62}
		sameAsReflection(t, r)
	}
}

// TestRecordJSONError: a field encoding/json refuses (an unknown edit
// operation) is an error, as json.Marshal gives, and nothing is appended.
func TestRecordJSONError(t *testing.T) {
	r := check.Record{File: "a", Repair: []check.RepairEdit{{Edit: verdict.Edit{Op: verdict.EditOp(9)}}}}
	if _, err := json.Marshal(plainRecord(r)); err == nil {
		t.Fatal("encoding/json takes an unknown edit operation")
	}
	got, err := r.AppendJSON([]byte("x"))
	if err == nil || string(got) != "x" {
		t.Errorf("AppendJSON: %q, %v; want x and an error", got, err)
	}
	if _, err := json.Marshal(r); err == nil {
		t.Error("json.Marshal: no error")
	}
}

// FuzzRecordJSON: for any strings and numbers, a record's JSON is
// encoding/json's.
func FuzzRecordJSON(f *testing.F) {
	f.Add("app.jsonl", "s1", "Pass", "<&>\"\\", 3, int64(-7), true)
	f.Add("\xff", "\u2028", "\x00", "日本", -1, int64(1)<<62, false)
	f.Fuzz(func(t *testing.T, file, id, v, reason string, n int, us int64, live bool) {
		r := check.Record{File: file, Session: id, Files: []string{id, file}, Verdict: v, Mode: reason, Engine: id,
			Nodes: n, LocalNodes: -n, ElapsedUS: us, SetupUS: -us, Reason: reason, IgnoredEvents: n, RepairIncomplete: v, Pattern: file}
		if live {
			r.Live = &check.Live{Revision: n, ClosedBy: reason, LatencyUS: us}
		}
		sameAsReflection(t, r)
	})
}

// BenchmarkRecordJSON: the record of a session ivc monitor closes, written
// by AppendJSON and by reflection (about 1.9 µs).
func BenchmarkRecordJSON(b *testing.B) {
	r := check.Record{File: "otlp/grpc", Session: "4bf92f3577b34da6a3ce929d0e0e4736", Verdict: "Pass", Mode: "accept", Engine: "automata",
		Nodes: 12, ElapsedUS: 3, Live: &check.Live{Revision: 1, ClosedBy: "idle", LatencyUS: 500123}}
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = r.AppendJSON(buf[:0])
		}
	})
	b.Run("reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(plainRecord(r))
		}
	})
}

// BenchmarkOutcomeRecord: the record of a Pass as ivc monitor writes it,
// from its outcome.
func BenchmarkOutcomeRecord(b *testing.B) {
	o := check.Outcome{Meta: session.Meta{File: "otlp/grpc", ID: "4bf92f3577b34da6a3ce929d0e0e4736"}, Engine: check.EngineAutomata,
		Result: verdict.Result{Verdict: verdict.Pass, Mode: verdict.Accept, Nodes: 12}, Live: &check.Live{Revision: 1, ClosedBy: "idle", LatencyUS: 500123}}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf, _ = o.Record().AppendJSON(buf[:0])
	}
}
