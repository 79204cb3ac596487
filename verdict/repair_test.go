package verdict_test

import (
	"encoding/json"
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
