package multitrace

import (
	"bytes"
	"strings"
	"testing"
)

// TestLargeInputs feeds large inputs, valid and not, to both levels: each
// must end in a result or an error, in time linear in its size. The inputs
// that fail early or hold few events are 100 MB; those that hold many
// events are smaller, as their syntax tree takes about 20 bytes per input
// byte (-short divides every size by 10).
func TestLargeInputs(t *testing.T) {
	big, valid := 100<<20, 8<<20
	if testing.Short() {
		big, valid = big/10, valid/10
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
		src    []byte
		err    string // error message suffix; "" for success
		syntax bool   // the error is a syntax error
	}{
		{"binary garbage", bytes.Repeat([]byte{0xff, 0x00, 0xfe, 0x01}, big/4), "invalid UTF-8 byte 0xff: not a text file?", true},
		{"one long name", rep("", "a", "", big), "found end of file", true},
		{"unterminated comment", rep("{ [a] /*", "*", "", big), "comment not terminated: missing '*/'", true},
		{"long comment", rep("{ [a] /*", "* /", "*/ a!m }", big), "", false},
		{"whitespace", rep("{", " \n\t\r", "}", big), "", false},
		{"many components", rep("{", "[a] ;", "}", big), "in two components: here and at 1:3 (a lifeline belongs to one location)", false},
		{"unclosed multi-action", rep("{ [a,b] {", "a!m,", "", valid), "found end of file", true},
		{"long trace", rep("{ [a,b] a!m", ".b?n", " }", valid), "", false},
		{"long trace, error at the end", rep("{ [a,b] a!m", ".b?n", ".c!m }", valid), "c!m is on c, outside component [a,b]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt, err := ParseResolve("big.htf", tt.src, sig)
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.err)):
				t.Fatalf("error %v, want ...%s", err, tt.err)
			case err == nil && mt.Len() != bytes.Count(tt.src, []byte("!"))+bytes.Count(tt.src, []byte("?")):
				t.Fatalf("%d events", mt.Len())
			}
			if len(tt.src) > valid && tt.name == "many components" {
				return // 20 million components: too much memory for a test
			}
			_, err = Parse("big.htf", tt.src)
			if tt.syntax {
				if err == nil || !strings.HasSuffix(err.Error(), tt.err) {
					t.Fatalf("Parse: error %v, want ...%s", err, tt.err)
				}
			} else if err != nil {
				t.Fatalf("Parse: %v", err)
			}
		})
	}
}
