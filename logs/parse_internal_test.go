package logs

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// TestParseRFC3339 checks the fast path against time.Parse on random
// times, offsets and precisions, alone and after the time before (whose
// date it keeps: a run of times shares one), and on malformed dates.
func TestParseRFC3339(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var c timeCache
	var tm time.Time
	for range 40000 {
		if rng.IntN(2) == 0 {
			tm = time.Unix(rng.Int64N(1<<36)-1<<34, rng.Int64N(1e9)).In(time.FixedZone("", (rng.IntN(48)-24)*1800))
		} else {
			tm = tm.Add(time.Duration(rng.Int64N(int64(time.Hour)))) // mostly the same date
		}
		if rng.IntN(4) == 0 {
			tm = tm.UTC()
		}
		layout := []string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00", "2006-01-02T15:04:05.000000Z07:00",
			"2006-01-02T15:04:05.000000000Z07:00", "2006-01-02T15:04:05.00000000Z07:00"}[rng.IntN(6)]
		s := tm.Format(layout)
		want, err := time.Parse(time.RFC3339Nano, s)
		sec, nsec, ok := parseRFC3339([]byte(s))
		csec, cnsec, cok := c.parseRFC3339([]byte(s))
		if err != nil {
			continue // a year outside 0000-9999
		}
		if !ok || sec != want.Unix() || nsec != want.Nanosecond() {
			t.Fatalf("%s: %d.%09d %v, want %d.%09d", s, sec, nsec, ok, want.Unix(), want.Nanosecond())
		}
		if csec != sec || cnsec != nsec || !cok {
			t.Fatalf("%s after a time of date %s: %d.%09d %v, want %d.%09d", s, c.date, csec, cnsec, cok, sec, nsec)
		}
	}
	for _, s := range []string{"2025-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2025-13-01T00:00:00Z", "2025-01-01T24:00:00Z",
		"2025-01-01T00:00:00.Z", "2025-01-01T00:00:00+0100", "2025-01-01T00:00:00", "2025-01-01t00:00:00z", "0000-01-01T00:00:00Z",
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00T00:00:00Z", "2025-01-01T00:00:00.1234567890Z", "2025-01-01T00:00:00.1234567x9Z"} {
		var c timeCache
		c.parseRFC3339([]byte("2025-01-01T00:00:00Z"))
		if _, _, ok := parseRFC3339([]byte(s)); ok {
			t.Errorf("%s: read by the fast path", s)
		}
		if _, _, ok := c.parseRFC3339([]byte(s)); ok {
			t.Errorf("%s: read by the fast path after 2025-01-01T00:00:00Z", s)
		}
	}
}

// TestDigits8 checks digits8 against strconv on words of digits and
// others.
func TestDigits8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		b := []byte(fmt.Sprintf("%08d", rng.IntN(1e8)))
		if rng.IntN(2) == 0 {
			b[rng.IntN(8)] = byte(rng.IntN(256))
		}
		want, err := strconv.ParseUint(string(b), 10, 32)
		got, ok := digits8(b)
		if ok != (err == nil) || ok && uint64(got) != want {
			t.Fatalf("%q: %d %v, want %d %v", b, got, ok, want, err)
		}
	}
	if _, ok := digits8([]byte("1234567")); ok {
		t.Errorf("7 bytes read as 8 digits")
	}
}

// TestParseNumber checks that numbers compare as their values.
func TestParseNumber(t *testing.T) {
	nums := []string{"-1e3", "-2.5", "-2.25", "-2", "-1.000000001", "-1", "-0.5", "0", "0.0000000001", "1e-9", "0.5", "1",
		"1.5", "1.50000001", "2", "1E3", "1234567890123456789"}
	var prev Key
	for i, s := range nums {
		k, ok := parseTime([]byte(s))
		if !ok || k.Kind != KeyNumber {
			t.Fatalf("%s: %v %v", s, k, ok)
		}
		if i > 0 && k.Compare(prev) < 0 {
			t.Errorf("%s < %s: %v < %v", s, nums[i-1], k, prev)
		}
		prev = k
	}
	for _, s := range []string{"", "-", "1.", ".5", "+1", "1.2.3", "1e", "0x10", "1_000", "NaN", "1e400",
		"--5.5", "--5", "-+5", "+1e3", ".5e3", "1.e3", "1e+", "Inf", "-Inf", "infinity", "0x1p3", "1 ", " 1", "1e5x"} {
		if k, ok := parseTime([]byte(s)); ok {
			t.Errorf("%q: read as %v", s, k)
		}
	}
	for _, s := range []string{"0", "-9223372036854775807", "9223372036854775807", "+5"} {
		n, ok := parseInt([]byte(s))
		want, _ := strconv.ParseInt(s, 10, 64)
		if !ok || n != want {
			t.Errorf("parseInt(%s) = %d %v", s, n, ok)
		}
	}
	for _, s := range []string{"9223372036854775808", "1.0", "", "-", "12345678901234567890"} {
		if n, ok := parseInt([]byte(s)); ok {
			t.Errorf("parseInt(%s) = %d", s, n)
		}
	}
}

// TestLineReader reads lines of every length around its buffer's size,
// one byte at a time and all at once, with and without a last '\n'.
func TestLineReader(t *testing.T) {
	var in strings.Builder
	var want []string
	for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 5, 0} {
		line := strings.Repeat("x", n)
		want = append(want, line)
		in.WriteString(line + "\r\n")
	}
	in.WriteString("last")
	want = append(want, "last")
	for _, oneByte := range []bool{false, true} {
		var r io.Reader = strings.NewReader(in.String())
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		lr := newLineReader(r, 2*chunk, -1)
		var got []string
		var long []int
		for {
			line, err := lr.next()
			if err == io.EOF {
				break
			}
			if err == errLineTooLong {
				long = append(long, lr.line)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(line))
		}
		var wantShort []string
		for i, w := range want {
			if i != 5 {
				wantShort = append(wantShort, w)
			}
		}
		if len(got) != len(wantShort) || len(long) != 1 || long[0] != 6 {
			t.Fatalf("one byte %v: %d lines, too long %v", oneByte, len(got), long)
		}
		for i := range got {
			if got[i] != wantShort[i] {
				t.Errorf("line %d: %d bytes, want %d", i, len(got[i]), len(wantShort[i]))
			}
		}
	}
	// peekLine and rest give back what was not read.
	lr := newLineReader(iotest.HalfReader(strings.NewReader("first\nsecond\n")), 100, -1)
	if line, ok := lr.peekLine(); !ok || string(line) != "first" {
		t.Errorf("peekLine: %q %v", line, ok)
	}
	if rest, _ := io.ReadAll(lr.rest()); !bytes.Equal(rest, []byte("first\nsecond\n")) {
		t.Errorf("rest: %q", rest)
	}
	lr = newLineReader(iotest.TimeoutReader(strings.NewReader("a\nb")), 100, -1)
	if _, err := lr.next(); err != nil {
		t.Fatal(err)
	}
	if _, err := lr.next(); err != iotest.ErrTimeout {
		t.Errorf("a read error: %v", err)
	}
}

// TestValueTooLong checks that a JSON value longer than the bound ends the
// reading with an error at the value: a 1 MB .gz of one
// huge Jaeger tag took gigabytes to decode.
func TestValueTooLong(t *testing.T) {
	in := `{"data": [` + "\n" + `{"traceID": "` + strings.Repeat("x", 1000) + `"}]}`
	s := newJSONStream("j.json", strings.NewReader(in), 0, 100)
	var err error
	for err == nil {
		_, err = s.token()
	}
	if err == io.EOF || err.Error() != fmt.Sprintf("j.json:2:13: a JSON value longer than 100 bytes, the most one value may hold (--max-memory raises it, up to %d)", maxLine) {
		t.Errorf("%v", err)
	}
}

// TestLimitsOfMemory checks the limits that Options.MaxMemory sets on what
// reading holds: one value, the spans of a file (and the
// events of one session: package session's TestSessionLimit).
func TestLimitsOfMemory(t *testing.T) {
	for _, c := range []struct {
		mem   int64
		value int
		held  int64
	}{
		{0, maxLine, 0},
		{32 << 20, 512 << 10, 8 << 20},
		{1 << 10, 4 << 10, MinHeld},
		{64 << 30, maxLine, 16 << 30},
	} {
		opt := Options{MaxMemory: c.mem}
		if opt.maxValue() != c.value || opt.MaxHeld() != c.held {
			t.Errorf("MaxMemory %d: value %d, held %d; want %d, %d",
				c.mem, opt.maxValue(), opt.MaxHeld(), c.value, c.held)
		}
	}
}
