package check_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
)

// TestRecord: the JSON form of an outcome has the fields ivc analyze
// --format json documents, the optional ones left out when empty.
func TestRecord(t *testing.T) {
	o := check.Outcome{Meta: session.Meta{File: "app.jsonl", ID: "s1", Ignored: 2}, Engine: check.EngineAutomata, Elapsed: 1500 * time.Microsecond, Setup: 20 * time.Microsecond,
		Result: verdict.Result{Verdict: verdict.Fail, Mode: verdict.Prefix, Reason: verdict.InterError, Nodes: 7,
			Explanation: &verdict.Explanation{Expected: []string{"a!m"}}},
		Repair: &verdict.Repair{Verdict: verdict.WeakPass, Edits: []verdict.Edit{{Op: verdict.Delete, Location: []string{"a"}, Index: 3, Action: "a!n"}}}}
	b, err := json.Marshal(o.Record())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"app.jsonl","session":"s1","verdict":"Fail","mode":"prefix","engine":"automata","nodes":7,"elapsed_us":1500,` +
		`"setup_us":20,"reason":"InterError","explanation":{"components":null,"expected":["a!m"]},"ignored_events":2,` +
		`"repair":[{"op":"delete","location":["a"],"index":3,"action":"a!n"}],"pattern":"[a] unexpected a!n"}`
	if string(b) != want {
		t.Errorf("\n%s\nwant\n%s", b, want)
	}
	// An incomplete repair says why; its Fail's pattern is where the check
	// got stuck, which does not depend on the edits the budget allowed.
	o.Repair = &verdict.Repair{Incomplete: true, Detail: "node budget reached", Verdict: verdict.WeakPass, Edits: o.Repair.Edits}
	b, _ = json.Marshal(o.Record())
	want = `{"file":"app.jsonl","session":"s1","verdict":"Fail","mode":"prefix","engine":"automata","nodes":7,"elapsed_us":1500,` +
		`"setup_us":20,"reason":"InterError","explanation":{"components":null,"expected":["a!m"]},"ignored_events":2,` +
		`"repair":[{"op":"delete","location":["a"],"index":3,"action":"a!n"}],"repair_incomplete":"node budget reached","pattern":"stuck at the end of the logs: expected a!m"}`
	if string(b) != want {
		t.Errorf("\n%s\nwant\n%s", b, want)
	}
	o = check.Outcome{Meta: session.Meta{File: "x.htf", HTF: true}, Result: verdict.Result{Verdict: verdict.Pass, Mode: verdict.Accept}, Engine: check.EngineRuntime}
	b, _ = json.Marshal(o.Record())
	if want := `{"file":"x.htf","verdict":"Pass","mode":"accept","engine":"runtime","nodes":0,"elapsed_us":0}`; string(b) != want {
		t.Errorf("\n%s\nwant\n%s", b, want)
	}
	// nodes is what the analysis explored, local analyses included, as
	// --max-nodes counts it; local_nodes their part.
	o = check.Outcome{Meta: session.Meta{File: "y.htf", HTF: true}, Result: verdict.Result{Verdict: verdict.Pass, Mode: verdict.Prefix, Nodes: 2, LocalNodes: 13}, Engine: check.EngineRuntime}
	b, _ = json.Marshal(o.Record())
	if want := `{"file":"y.htf","verdict":"Pass","mode":"prefix","engine":"runtime","nodes":15,"local_nodes":13,"elapsed_us":0}`; string(b) != want {
		t.Errorf("\n%s\nwant\n%s", b, want)
	}
	// ivc monitor's record: the same, then its live fields.
	o = check.Outcome{Meta: session.Meta{File: "z.jsonl", ID: "s"}, Result: verdict.Result{Verdict: verdict.Pass, Mode: verdict.Prefix}, Engine: check.EngineAutomata,
		Live: &check.Live{Revision: 2, ClosedBy: "idle", LatencyUS: 9}}
	b, _ = json.Marshal(o.Record())
	if want := `{"file":"z.jsonl","session":"s","verdict":"Pass","mode":"prefix","engine":"automata","nodes":0,"elapsed_us":0,"revision":2,"closed_by":"idle","latency_us":9}`; string(b) != want {
		t.Errorf("\n%s\nwant\n%s", b, want)
	}
}
