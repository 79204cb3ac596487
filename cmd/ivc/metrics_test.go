package main

import (
	"fmt"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/verdict"
)

// TestPatternCounts: the metric of failure patterns has at most k+1
// labels, the k most frequent patterns and "other", however many patterns
// the Fails show, and counts every Fail once.
func TestPatternCounts(t *testing.T) {
	var s check.Summary
	for i := range 30 {
		for range i + 1 { // pattern i is seen i+1 times
			o := check.Outcome{Result: verdict.Result{Verdict: verdict.Fail},
				Repair: &verdict.Repair{Verdict: verdict.Pass, Edits: []verdict.Edit{{Op: verdict.Insert, Location: []string{"b"}, Action: fmt.Sprintf("b?m%d", i)}}}}
			s.Add(&o)
		}
	}
	got := patternCounts(s, 3)
	want := []patternCount{{"[b] missing b?m29", 30}, {"[b] missing b?m28", 29}, {"[b] missing b?m27", 28}, {"other", 30*31/2 - 30 - 29 - 28}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := patternCounts(check.Summary{}, 3); len(got) != 0 {
		t.Errorf("no Fail: %v", got)
	}
}
