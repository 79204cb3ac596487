package compile_test

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
)

// projectOnto returns the multi-trace that the locations part observe of
// mt, each of whose components holds whole locations of part: each event
// of a component split among them, as a generated verifier reads a .htf
// file.
func projectOnto(mt *multitrace.MultiTrace, part interaction.Locations) multitrace.MultiTrace {
	out := gen.Project(nil, part)
	for _, c := range mt.Components {
		p := gen.Project(c.Trace, part)
		for k := range out.Components {
			out.Components[k].Trace = append(out.Components[k].Trace, p.Components[k].Trace...)
		}
	}
	return out
}

// edgeLogs are two JSON Lines logs of ABP that go through the rules of
// ivc's reader (docs/logs.md): a byte order mark, CRLF and blank lines,
// seq as strings, signed and at the bounds of int64, numeric times with
// fractions and exponents, RFC 3339 times with offsets and nanoseconds,
// ties, action or lifeline+kind+message, kinds in any case and as ! and ?,
// null and empty fields, nested values in other fields, escapes, duplicate
// keys, session ids as numbers and absent, events outside the signature
// (ignored, their seq unread), a session mixing order keys and one whose
// location has events in both files without seq or time.
var edgeLogs = [2]string{
	"\ufeff" + `{"session":"a","action":"S?d","seq":"+1"}
{"session":"a","lifeline":"S","kind":"!","message":"d_zero","seq":2}
{"session":"a","lifeline":"K","kind":"RECEIVE","message":"d_zero","seq":-5}` + "\r" + `
  ` + "\t" + `
{"session":"a","lifeline":"K","kind":"Send","message":"d_zero","seq":-4, "extra": {"nested": [1, 2, {"x": null}]}}
{"session":"a","action":"heartbeat!ping","seq":3}
{"session":"a","lifeline":"S","kind":"send","message":"unknown","seq":"not a number"}
{"session":7,"action":"S?d","time":1.5}
{"session":7,"action":"S!d_zero","time":1.25e1}
{"session":7,"action":"K?d_zero","time":-0.5}
{"session":7,"action":"K!d_zero","time":"-0.25"}
{"session":7.0,"action":"R?d_zero","time":3}
{"action":"S?d","time":"2025-01-01T00:00:00.5+01:00"}
{"session":null,"action":"S!d_zero","time":"2025-01-01T00:00:00Z"}
{"session":"","action":"K?d_zero","time":"2025-01-01T00:00:00.123456789Z"}
{"session":"b","action":"S?d","seq":1}
{"session":"b","action":"S!d_zero","time":"2025-01-01T00:00:00Z"}
{"session":"c","action":"S?d"}
{"session":"d","action":"S?d","time":"2025-01-01T00:00:01Z"}
{"session":"d","action":"S!d_zero","time":"2025-01-01T00:00:01Z"}
{"session":"d","action":"S?d","time":"2025-01-01T00:00:00.999Z"}
{"session":"x","action":"S?d","session":"e"}
{"session":"e","action":"S\u003fd"}
{"session":"f","action":"S?d","lifeline":"S","kind":null,"message":""}
{"session":"g","lifeline":"S","kind":"send","message":"d_zero","seq":3,"time":"not a time"}
{"session":"g","lifeline":"S","kind":"receive","message":"d","seq":2}
{"session":"h","lifeline":"S","kind":"?","message":"d","seq":9223372036854775807}
{"session":"h","lifeline":"S","kind":"!","message":"d_zero","seq":-9223372036854775808}
{"session":"i","action":"S?d","time":"2025-01-01T01:00:00+01:00"}
{"session":"i","action":"S!d_zero","time":"2025-01-01T00:00:00.000000001Z"}
{"session":"j","action":"K?d_zero","time":"0001-01-01T00:00:00Z"}
{"session":"j","action":"K!d_zero","time":0}
{"session":"l","action":"S!d_zero","time":"2025-01-01T00:00:00.2Z"}
{"session":"l","action":"S?d","time":"2025-01-01T00:00:00.1Z"}
{"session":"m","action":"K!d_zero","time":5.75}
{"session":"m","action":"K?d_zero","time":5.5}
{"session":"m","action":"R!d","time":-1.25}
{"session":"m","action":"R?d_zero","time":"-1.5"}
{"session":"m","lifeline":"L","kind":"Receive","message":"one","time":"1e-3"}
{"session":"m","lifeline":"L","kind":"rEcEiVe","message":"zero","time":1.5e-4}
{"session":"m","lifeline":"S","kind":"SEND","message":"d_zero","time":2E+1}
{"session":"m","lifeline":"S","kind":"receive","message":"d","time":19.999999999}
{"session":"n","action":"S!d_zero","seq":10}
{"session":"n","action":"S?d","seq":"9"}
{"session":"n","action":"K!d_zero","seq":-1}
{"session":"n","action":"K?d_zero","seq":-2}
`,
	`{"session":"c","action":"S!d_zero"}` + "\r\n" + `{"session":"d","action":"K?d_zero","time":"2025-01-01T00:00:02Z"}
{"session":"a","action":"R?d_zero","seq":1}
{"session":"k","action":"L?one"}`,
}

// badLines are lines that ivc reports as malformed, each after a good one:
// the generated reader stops at them with ivc's error.
var badLines = []string{
	`not json`,
	`[1, 2]`,
	`"an event"`,
	`null`,
	`  42`,
	`{"session":"a","action":"S?d"`,
	`{"session":"a","action":"S?d"} {"x":1}`,
	`{"session":{"id":1},"action":"S?d"}`,
	`{"session":"a","action":"S"}`,
	`{"session":"a","action":"?d"}`,
	`{"session":"a","action":5}`,
	`{"session":"a","action":"S?d","lifeline":"K"}`,
	`{"session":"a","lifeline":"S","message":"d"}`,
	`{"session":"a","lifeline":"S","kind":"emit","message":"d"}`,
	`{"session":"a","lifeline":"S","kind":"send","message":5}`,
	`{"session":"a","lifeline":["S"],"kind":"send","message":"d"}`,
	`{"session":"a","action":"S?d","seq":1.5}`,
	`{"session":"a","action":"S?d","seq":"12345678901234567890"}`,
	`{"session":"a","action":"S?d","seq":true}`,
	`{"session":"a","action":"S?d","time":"yesterday"}`,
	`{"session":"a","action":"S?d","time":true}`,
	`{"session":"a","action":"S?d","time":123456789012345678901}`,
	`{"session":"a","action":"S?d","time":"2025-02-30T00:00:00Z"}`,
	`{"session":"a","action":"S?d","time":"2025-01-01T00:00:60Z"}`,
}

// logCases writes the logs of case c into dir (the shipped ones are read
// where they are) with a list of the files of each, name.list, which the
// verdicts program reads with the package's ReadJSONL, and returns what it
// must print of each: the lines of readLogs. The logs are c.logs, a JSON
// Lines log of the multi-traces mts, and for ABP edgeLogs and badLines.
func logCases(t *testing.T, c e2eCase, m *compiled, mts []multitrace.MultiTrace, dir string) map[string][]string {
	cases := map[string][]string{}
	for name, files := range c.logs {
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			cases[name] = append(cases[name], abs)
		}
	}
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		writeFile(t, path, data)
		return path
	}
	var ptrs []*multitrace.MultiTrace
	for i := range mts {
		ptrs = append(ptrs, &mts[i])
	}
	var b bytes.Buffer
	if err := gen.Write(&b, logs.JSONL, m.sp.Sig, nil, ptrs, 1); err == nil { // not for multi-actions
		cases["generated"] = []string{write("generated.jsonl", b.String())}
	}
	if filepath.Base(c.model) == "design.md" {
		// The checkout's lifelines have aliases (GW for api-gateway): logs
		// name them by their names, an alias is an undeclared name.
		cases["aliases"] = []string{write("aliases.jsonl", `{"session":"o","lifeline":"shopper","kind":"send","message":"POST /checkout"}
{"session":"o","lifeline":"GW","kind":"receive","message":"POST /checkout"}
{"session":"o","action":"api-gateway?POST /checkout"}
`)}
	}
	if c.model == "abp" {
		cases["edge"] = []string{write("edge1.jsonl", edgeLogs[0]), write("edge2.jsonl", edgeLogs[1])}
		for i, line := range badLines {
			name := fmt.Sprintf("bad%02d", i)
			cases[name] = []string{write(name+".jsonl", `{"session":"a","action":"S?d"}`+"\n"+line+"\n")}
		}
	}
	want := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		write(name+".list", strings.Join(cases[name], "\n"))
		want[name] = readLogs(t, m, cases[name])
	}
	if c.model == "abp" {
		// The cases do what they are for: edgeLogs has sessions ivc
		// cannot order, and every bad line is an error.
		if errs := strings.Count(strings.Join(want["edge"], "\n"), " err "); errs != 3 {
			t.Errorf("edge logs: %d sessions that cannot be ordered, want 3:\n%s", errs, strings.Join(want["edge"], "\n"))
		}
		for i := range badLines {
			if w := want[fmt.Sprintf("bad%02d", i)]; len(w) != 1 || !strings.HasPrefix(w[0], "ERROR ") {
				t.Errorf("bad line %q: ivc reads %q", badLines[i], w)
			}
		}
	}
	return want
}

// readLogs reads the JSON Lines logs files as ivc analyze does, with the
// locations of m, and returns one line per session, as the verdicts
// program prints them: its id, where it starts, its events and ignored
// events, its multi-trace, and its verdicts; or why it cannot be judged;
// or, when ivc reports a malformed line, the first.
func readLogs(t *testing.T, m *compiled, files []string) []string {
	opt := logs.Options{Sig: m.sp.Sig, Locations: m.part}
	j, err := session.NewJoiner(opt, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var first error
	report := func(err error) {
		if first == nil {
			first = err
		}
	}
	for _, f := range files {
		in, err := logs.Open(f, logs.JSONL, opt)
		if err != nil {
			t.Fatal(err)
		}
		_, err = j.Read(in, report)
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if first != nil {
		return []string{"ERROR " + first.Error()}
	}
	var out []string
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if s.Err != nil {
			out = append(out, fmt.Sprintf("%q err %v", s.ID, s.Err))
			continue
		}
		var locs []string
		for _, c := range s.MT.Components {
			var acts []string
			for _, ev := range c.Trace {
				acts = append(acts, ev.Format(m.sp.Sig))
			}
			locs = append(locs, "["+c.Lifelines.Format(m.sp.Sig)+"] "+strings.Join(acts, "."))
		}
		letters, err := m.eng.Letters(s.MT)
		if err != nil {
			t.Fatal(err)
		}
		acc, pre := m.chk.CheckAS(letters, nfa.Accept), m.chk.CheckAS(letters, nfa.Prefix)
		out = append(out, fmt.Sprintf("%q %s:%d %d %d {%s} %s | %s", s.ID, s.File, s.Line, s.Events, s.Ignored,
			strings.Join(locs, "; "), expected(acc, m), expected(pre, m)))
	}
	return out
}

// logsFunc is the function of the verdicts program that reads the logs of
// a case with package p's ReadJSONL and prints what readLogs returns.
const logsFunc = `	%[1]q: func(paths []string) []string {
		sessions, err := %[1]s.ReadJSONL(paths...)
		if err != nil {
			return []string{"ERROR " + err.Error()}
		}
		var out []string
		for _, s := range sessions {
			if s.Err != nil {
				out = append(out, fmt.Sprintf("%%q err %%v", s.ID, s.Err))
				continue
			}
			var locs []string
			for l, trace := range s.MT {
				var acts []string
				for _, a := range trace {
					acts = append(acts, a.String())
				}
				locs = append(locs, %[1]s.Location(l).String()+" "+strings.Join(acts, "."))
			}
			acc, pre := %[1]s.Check(&s.MT, %[1]s.Accept), %[1]s.Check(&s.MT, %[1]s.Prefix)
			acc.Nodes, pre.Nodes = 0, 0
			out = append(out, fmt.Sprintf("%%q %%s:%%d %%d %%d {%%s} %%s | %%s", s.ID, s.File, s.Line, s.Events, s.Ignored,
				strings.Join(locs, "; "), acc, pre))
		}
		return out
	},
`
