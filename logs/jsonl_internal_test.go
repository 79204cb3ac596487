package logs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// flatLines are JSON lines for flatScanner: flat objects it reads, and lines
// it leaves to fastjson (escapes, nesting, fastjson's leniencies, errors).
var flatLines = []string{
	`{"session":"s1","time":"2025-01-01T00:11:18.598005111Z","lifeline":"l1","kind":"send","message":"m1"}`,
	`{"session":"s","action":"a!m","seq":1}`,
	` { "session" : 12 , "action":"a?m" ,"seq": -3 , "time" :null,"x":true,"y":false} `,
	"\t{\"session\":\"\",\"action\":\"\"}\r",
	`{"session":"s","action":"a!m","action":"b!m"}`,
	`{"session":"s","seq":1e3,"time":1.5E-2,"n":1.2.3,"m":1-2+3}`,
	`{"session":"s","seq":-1,"time":-0.5}`,
	`{"session":"s\"x","action":"a!m"}`,
	`{"session":"s","action":"a\u0021m"}`,
	`{"ses\u0073ion":"s","action":"a!m"}`,
	`{"session":"s","seq":{"a":1},"l":[1,2]}`,
	`{"session":"s","seq":NaN}`,
	`{"session":"s","seq":-Inf}`,
	`{"session":"s","seq":+1}`,
	`{"session":"s","seq":.5}`,
	`{"session":"s","seq":-}`,
	`{"session":"s","seq":nul}`,
	`{"session":"s","seq":truex}`,
	`{"session":"s",}`,
	`{"session":"s"`,
	`{"session":"s"}}`,
	`{"session":"s"} x`,
	`{"session"}`,
	`{"session":}`,
	`{"session" "s"}`,
	`{}`,
	`{ }`,
	`[1,2]`,
	`"s"`,
	`12`,
	``,
	"{\"session\":\"s\",\"kind\":\"send\" ,\"lifeline\":\"é\",\"message\":\"m\x01\"}",
	"{\"session\":\"s\",\"a\":\"\xff\xfe\"}",
	"\x01{\"session\":\"s\"}",
}

// TestScanFlat checks flatScanner on flatLines: what it reads, it reads
// as fastjson does (FuzzScanFlat checks it on any lines), and it reads the
// plain lines, each alone and each after every other (whose keys it
// remembers).
func TestScanFlat(t *testing.T) {
	keys := newNameTable(roleNames[:])
	plain := 0
	for _, line := range flatLines {
		if checkScanFlat(t, &flatScanner{keys: keys}, []byte(line)) {
			plain++
		}
	}
	if plain != 9 {
		t.Errorf("%d lines read by flatScanner, want the 9 plain ones", plain)
	}
	for _, before := range flatLines {
		for _, line := range flatLines {
			alone := checkScanFlat(t, &flatScanner{keys: keys}, []byte(line))
			f := &flatScanner{keys: keys}
			checkScanFlat(t, f, []byte(before))
			if after := checkScanFlat(t, f, []byte(line)); after != alone {
				t.Errorf("%q after %q: read %v, alone %v", line, before, after, alone)
			}
		}
	}
}

// FuzzScanFlat: any line that flatScanner reads, after the lines before
// it, fastjson reads as an object giving the same event (jsonDecoder).
func FuzzScanFlat(f *testing.F) {
	for i, line := range flatLines {
		f.Add([]byte(line))
		f.Add([]byte(flatLines[0] + "\n" + line + "\n" + flatLines[(i+1)%len(flatLines)]))
	}
	f.Fuzz(func(t *testing.T, lines []byte) {
		s := &flatScanner{keys: newNameTable(roleNames[:])}
		for line := range bytes.SplitSeq(lines, []byte("\n")) {
			checkScanFlat(t, s, line)
		}
	})
}

// checkScanFlat reports whether s reads line, and checks that it reads it
// as jsonDecoder does.
func checkScanFlat(t *testing.T, s *flatScanner, line []byte) bool {
	t.Helper()
	keys := s.keys
	var ev event
	if !s.scan(line, &ev) {
		return false
	}
	d := jsonDecoder{keys: keys}
	v, err := d.parse(line)
	if err != nil || v != nil {
		t.Errorf("%q: read by flatScanner, not by fastjson as an object (%v, %v)", line, v, err)
		return true
	}
	for r := range ev {
		if ev[r].typ != d.ev[r].typ || !bytes.Equal(ev[r].text, d.ev[r].text) {
			t.Errorf("%q: field %s: flatScanner reads %v %q, fastjson %v %q", line, roleNames[r], ev[r].typ, ev[r].text, d.ev[r].typ, d.ev[r].text)
		}
	}
	return true
}

// TestNameTable checks nameTable against a scan of the names: the fields
// of the roles, renamed ones whose hashes collide, and many names.
func TestNameTable(t *testing.T) {
	renamed := roleNames
	renamed[roleAction], renamed[roleKind], renamed[roleTime] = "axcb", "aycb", "a" // axcb and aycb share a slot
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("l%d", i), fmt.Sprintf("service-%d.example", i*7))
	}
	for _, names := range [][]string{roleNames[:], renamed[:], many} {
		table := newNameTable(names)
		var tried []string
		for _, n := range names {
			tried = append(tried, n, n+"x", n[1:], strings.ToUpper(n), "x"+n[1:])
		}
		tried = append(tried, "", "x", "sessio", "seq ", "ac")
		for _, k := range tried {
			want, wantOK := int32(0), false
			for i, n := range names {
				if n == k {
					want, wantOK = int32(i), true
				}
			}
			if got, ok := table.find([]byte(k)); ok != wantOK || got != want {
				t.Errorf("%d names: %q: %d %v, want %d %v", len(names), k, got, ok, want, wantOK)
			}
			if got, ok := table.findString(k); ok != wantOK || got != want {
				t.Errorf("%d names: findString(%q): %d %v, want %d %v", len(names), k, got, ok, want, wantOK)
			}
		}
	}
	if table := newNameTable(renamed[:]); table.slots[table.slot([]byte("axcb"))] != severalNames {
		t.Errorf("axcb and aycb: not in a slot of several names")
	}
}
