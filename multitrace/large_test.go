package multitrace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// TestLargeInputs feeds large inputs, valid and not, to both levels: each
// must end in a result or an error, at a cost linear in its size, measured
// at a size and an eighth of it. The inputs that fail early or hold few
// events are 100 MB with -tags sweep (512 KB without); those that hold many
// events are smaller, as their syntax tree takes about 20 bytes per input
// byte: 8 MB with -tags sweep (256 KB without).
func TestLargeInputs(t *testing.T) {
	big, valid := 256<<10, 128<<10
	if testutil.Sweep() {
		big, valid = 100<<20, 8<<20
	}
	sig := testSig(t)
	rep := func(prefix, unit, suffix string, size int) []byte {
		n := size / len(unit)
		b := make([]byte, 0, len(prefix)+n*len(unit)+len(suffix))
		b = append(b, prefix...)
		for range n {
			b = append(b, unit...)
		}
		return append(b, suffix...)
	}
	tests := []struct {
		name   string
		src    func(big, valid int) []byte
		err    string // error message suffix; "" for success
		syntax bool   // the error is a syntax error
	}{
		{"binary garbage", func(big, _ int) []byte { return bytes.Repeat([]byte{0xff, 0x00, 0xfe, 0x01}, big/4) }, "invalid UTF-8 byte 0xff: not a text file?", true},
		{"one long name", func(big, _ int) []byte { return rep("", "a", "", big) }, "found end of file", true},
		{"unterminated comment", func(big, _ int) []byte { return rep("{ [a] /*", "*", "", big) }, "comment not terminated: missing '*/'", true},
		{"long comment", func(big, _ int) []byte { return rep("{ [a] /*", "* /", "*/ a!m }", big) }, "", false},
		{"whitespace", func(big, _ int) []byte { return rep("{", " \n\t\r", "}", big) }, "", false},
		{"many components", func(big, _ int) []byte { return rep("{", "[a] ;", "}", big) }, "in two components: here and at 1:3 (a lifeline belongs to one location)", false},
		{"unclosed multi-action", func(_, valid int) []byte { return rep("{ [a,b] {", "a!m,", "", valid) }, "found end of file", true},
		{"long trace", func(_, valid int) []byte { return rep("{ [a,b] a!m", ".b?n", " }", valid) }, "", false},
		{"long trace, error at the end", func(_, valid int) []byte { return rep("{ [a,b] a!m", ".b?n", ".c!m }", valid) }, "c!m is on c, outside component [a,b]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testutil.Linear(t, valid, func(n int) func() {
				src := tt.src(int(int64(n)*int64(big)/int64(valid)), n) // n is the size of a valid input
				return func() {
					mt, err := ParseResolve("big.htf", src, sig)
					switch {
					case tt.err == "" && err != nil:
						t.Fatal(err)
					case tt.err != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.err)):
						t.Fatalf("error %v, want ...%s", err, tt.err)
					case err == nil && mt.Len() != bytes.Count(src, []byte("!"))+bytes.Count(src, []byte("?")):
						t.Fatalf("%d events", mt.Len())
					}
					if len(src) > 8<<20 && tt.name == "many components" {
						return // millions of components: too much memory for a test
					}
					_, err = Parse("big.htf", src)
					if tt.syntax {
						if err == nil || !strings.HasSuffix(err.Error(), tt.err) {
							t.Fatalf("Parse: error %v, want ...%s", err, tt.err)
						}
					} else if err != nil {
						t.Fatalf("Parse: %v", err)
					}
				}
			})
		})
	}
}
