package verdict_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/verdict"
)

// TestEditJSON pins an edit's JSON: the form of a repair's edits.
func TestEditJSON(t *testing.T) {
	edits := []verdict.Edit{
		{Op: verdict.Delete, Location: []string{"payments"}, Component: 2, Index: 3, Action: "payments!refund"},
		{Op: verdict.Insert, Location: []string{"a", "b"}, Index: 0, Action: "{a!m,b?m}"},
	}
	b, err := json.Marshal(edits)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"op":"delete","location":["payments"],"index":3,"action":"payments!refund"},` +
		`{"op":"insert","location":["a","b"],"index":0,"action":"{a!m,b?m}"}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back []verdict.Edit
	if err := json.Unmarshal(b, &back); err != nil || back[0].Op != verdict.Delete || back[1].Op != verdict.Insert {
		t.Errorf("read back: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`[{"op":"move"}]`), &back); err == nil {
		t.Errorf("an unknown operation is read")
	}
	if (verdict.Repair{Edits: edits}).Cost() != 2 {
		t.Errorf("a repair of two edits does not cost 2")
	}
}

// TestRepairText: the words of a repair, as the text outputs write them:
// events counted from 1, an insertion before an event or at the end, the
// location as the explanation writes it, at most MaxEditLines edits.
func TestRepairText(t *testing.T) {
	r := verdict.Repair{Verdict: verdict.WeakPass, Edits: []verdict.Edit{
		{Op: verdict.Insert, Location: []string{"orders"}, Index: 1, Action: "orders?confirm"},
		{Op: verdict.Delete, Location: []string{"pay-ments"}, Lifelines: `"pay-ments"`, Index: 2, Action: `"pay-ments"!refund`},
		{Op: verdict.Insert, Location: []string{"a", "b"}, Index: 4, End: true, Action: "{a!m,b?m}"},
	}}
	want := []string{
		"repair (3 edits, then WeakPass):",
		"  [orders] missing orders?confirm before event 2",
		`  ["pay-ments"] unexpected "pay-ments"!refund (event 3)`,
		"  [a,b] missing {a!m,b?m} at the end",
	}
	if got := r.Explain(); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	long := verdict.Repair{Verdict: verdict.Pass, Incomplete: true, Detail: "node budget reached"}
	for i := range verdict.MaxEditLines + 3 {
		long.Edits = append(long.Edits, verdict.Edit{Op: verdict.Delete, Location: []string{"l"}, Index: i, Action: "l!m"})
	}
	got := long.Explain()
	if len(got) != 1+verdict.MaxEditLines+1 || got[0] != "repair (13 edits, then Pass; incomplete, perhaps not the fewest: node budget reached):" || got[len(got)-1] != "  and 3 more" {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
	if got := (verdict.Repair{Incomplete: true, Detail: "timeout"}).Explain(); !slices.Equal(got, []string{"no repair found: timeout"}) {
		t.Errorf("got %q", got)
	}
}

// TestExplainAt: a deleted event is followed by its origin, an insertion
// is not.
func TestExplainAt(t *testing.T) {
	r := verdict.Repair{Verdict: verdict.WeakPass, Edits: []verdict.Edit{
		{Op: verdict.Delete, Location: []string{"R"}, Index: 75, Action: "R!zero"},
		{Op: verdict.Insert, Location: []string{"S"}, Index: 2, Action: "S?ce"},
	}}
	got := r.ExplainAt(func(verdict.Edit) string { return "abp.jsonl:807" })
	want := []string{"repair (2 edits, then WeakPass):", "  [R] unexpected R!zero (event 76, abp.jsonl:807)", "  [S] missing S?ce before event 3"}
	if !slices.Equal(got, want) {
		t.Errorf("ExplainAt = %q, want %q", got, want)
	}
}
