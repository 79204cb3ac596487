package logs_test

import (
	"fmt"
	"testing"

	"github.com/ivc-project/ivc/logs"
)

// TestMostUndeclaredOrder: names of as many events are listed in one
// order whatever the order they were counted in — by name, a lifeline
// before a message of the same name, then by their other candidates. A
// lifeline and a message both named "0" came in map order (FuzzOTLPProtoWire,
// testdata/fuzz/FuzzOTLPProtoWire/0d4d5934ae4886c9).
func TestMostUndeclaredOrder(t *testing.T) {
	us := []logs.Undeclared{
		{Name: "0", Events: 1}, {Lifeline: true, Name: "0", Events: 1},
		{Name: "b", Also: "y", Events: 1}, {Name: "b", Also: "x", Events: 1}, {Name: "a", Events: 2},
	}
	want := "[{false a  2} {true 0  1} {false 0  1} {false b x 1} {false b y 1}]"
	for i := range us {
		rotated := append(append([]logs.Undeclared{}, us[i:]...), us[:i]...)
		for range 20 { // the merge's map order changes from run to run
			if got := fmt.Sprint(logs.MostUndeclared(len(us), rotated)); got != want {
				t.Fatalf("from %v:\n%s\nwant\n%s", rotated, got, want)
			}
		}
	}
}
