package logs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

func testSig(t testing.TB) *interaction.Signature {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// dump prints sessions one a line: "id@line events/ignored: a!m.a?n | b?m | "
// (one part per location), or the session's error; "(2 dropped, from line
// 5)" before them for a session that lost events to malformed lines.
func dump(sig *interaction.Signature, sessions []session.Session) string {
	var b strings.Builder
	for _, s := range sessions {
		fmt.Fprintf(&b, "%s@%d %d/%d: ", s.ID, s.Line, s.Events, s.Ignored)
		if s.Dropped > 0 {
			fmt.Fprintf(&b, "(%d dropped, from line %d) ", s.Dropped, s.FirstDropped)
		}
		if s.Err != nil {
			fmt.Fprintf(&b, "error: %v\n", s.Err)
			continue
		}
		for k, c := range s.MT.Components {
			if k > 0 {
				b.WriteString(" | ")
			}
			for i, e := range c.Trace {
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(e.Format(sig))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

type readCase struct {
	name    string
	file    string // its extension decides the format
	opt     logs.Options
	in      string
	want    string // dump of the sessions
	reports string // the errors reported, one a line
	stats   logs.Stats
}

func runReadCases(t *testing.T, cases []readCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := c.opt
			if opt.Sig == nil {
				opt.Sig = testSig(t)
			}
			var reports strings.Builder
			var reported []string
			sessions, st, err := session.ReadFrom(c.file, strings.NewReader(c.in), logs.Auto, opt,
				func(err error) { fmt.Fprintln(&reports, err); reported = append(reported, err.Error()) })
			if err != nil {
				t.Fatal(err)
			}
			checkScan(t, c.file, []byte(c.in), logs.Auto, opt, sessions, st, reported)
			if got := dump(opt.Sig, sessions); got != c.want {
				t.Errorf("sessions:\n%s\nwant:\n%s", got, c.want)
			}
			if got := reports.String(); got != c.reports {
				t.Errorf("reports:\n%s\nwant:\n%s", got, c.reports)
			}
			if st != c.stats {
				t.Errorf("stats %+v, want %+v", st, c.stats)
			}
		})
	}
}

func TestReadJSONL(t *testing.T) {
	runReadCases(t, []readCase{{
		name: "two sessions, three forms of action",
		file: "x.jsonl",
		in: `{"session":"s1","lifeline":"a","kind":"send","message":"m"}
{"session":"s2","action":"a!m","other":{"x":[1,2]}}

{"session":"s1","lifeline":"b","kind":"?","message":"m"}
{"session":"s1","action":"c?m","lifeline":"c","message":"free text: ignored"}
{"session":7,"lifeline":"a","kind":"Receive","message":"n"}
`,
		want:  "s1@1 3/0: a!m | b?m | c?m\ns2@2 1/0: a!m |  | \n7@6 1/0: a?n |  | \n",
		stats: logs.Stats{Sessions: 3, Events: 5},
	}, {
		name: "no session field: one multi-trace, in line order",
		file: "x.ndjson",
		in:   "{\"action\":\"a!m\"}\r\n{\"action\":\"a!n\"}\n{\"action\":\"b?m\"}",
		want: "@1 3/0: a!m.a!n | b?m | \n", stats: logs.Stats{Sessions: 1, Events: 3},
	}, {
		name: "seq orders each location; ties keep line order",
		file: "x.jsonl",
		in: `{"action":"a!m","seq":3}
{"action":"b?m","seq":1}
{"action":"a!n","seq":"1"}
{"action":"a?m","seq":3}
{"action":"a?n","seq":-2,"time":"ignored when there is a seq"}
`,
		want: "@1 5/0: a?n.a!n.a!m.a?m | b?m | \n", stats: logs.Stats{Sessions: 1, Events: 5},
	}, {
		name: "RFC 3339 times, across time zones and precisions",
		file: "x.jsonl",
		in: `{"action":"a!m","time":"2025-01-01T10:00:00.5Z"}
{"action":"a!n","time":"2025-01-01T11:00:00.000000001+01:00"}
{"action":"a?m","time":"2025-01-01T09:59:59.999999999Z"}
{"action":"a?n","time":"2025-01-01 09:00:00Z"}
`,
		want:    "@1 3/0: (1 dropped, from line 4) a?m.a!n.a!m |  | \n",
		reports: "x.jsonl:4:24: field \"time\" (time): \"2025-01-01 09:00:00Z\" is neither an RFC 3339 time nor a number\n",
		stats:   logs.Stats{Sessions: 1, Events: 3, Malformed: 1},
	}, {
		name: "numeric times, negative and fractional",
		file: "x.jsonl",
		in: `{"action":"a!m","time":1.5}
{"action":"a!n","time":-1.5}
{"action":"a?m","time":"-1.25"}
{"action":"a?n","time":1e0}
{"action":"b?n","time":12345678901234567}
`,
		want: "@1 5/0: a!n.a?m.a?n.a!m | b?n | \n", stats: logs.Stats{Sessions: 1, Events: 5},
	}, {
		name: "mixed order keys in a location: that session alone is an error; each location has its own clock",
		file: "x.jsonl",
		in: `{"session":"s1","action":"a!m","seq":1}
{"session":"s2","action":"a!m","seq":1}
{"session":"s1","action":"a?n"}
{"session":"s2","action":"b?m","seq":2}
{"session":"s1","action":"c?m","seq":2}
{"session":"s3","action":"a!m","time":5}
{"session":"s3","action":"a!n","time":"2025-01-01T00:00:00Z"}
{"session":"s4","action":"a!m","seq":7}
{"session":"s4","action":"b?m","time":5}
{"session":"s4","action":"c?m"}
`,
		want: `s1@1 3/0: error: x.jsonl:3: session "s1", location [a]: mixed order keys: this event has neither seq nor time, the one at line 1 has a seq (the events of a location are ordered by seq, by time, or by line)
s2@2 2/0: a!m | b?m | 
s3@6 2/0: error: x.jsonl:7: session "s3", location [a]: mixed order keys: this event has an RFC 3339 time (or a span's start), the one at line 6 has a numeric time (the events of a location are ordered by seq, by time, or by line)
s4@8 3/0: a!m | b?m | c?m
`,
		stats: logs.Stats{Sessions: 4, Events: 10},
	}, {
		name: "events outside the signature are ignored and counted",
		file: "x.jsonl",
		in: `{"session":"s1","action":"a!m"}
{"session":"s1","action":"db!query"}
{"session":"s2","lifeline":"a","kind":"send","message":"heartbeat"}
{"session":"s1","action":"g!m"}
`,
		want:  "s1@1 1/2: a!m |  | \ns2@3 0/1:  |  | \n",
		stats: logs.Stats{Sessions: 2, Events: 1, Ignored: 3},
	}, {
		name: "strict: events outside the signature are reported",
		file: "x.jsonl",
		opt:  logs.Options{Strict: true},
		in: `{"session":"s1","action":"a!m"}
{"session":"s1","action":"db!query"}
{"session":"s2","lifeline":"a","kind":"send","message":"heartbeat"}
`,
		want: "s1@1 1/0: a!m |  | \n",
		reports: `x.jsonl:2:26: lifeline "db" is not declared in the signature
x.jsonl:3:28: message "heartbeat" is not declared in the signature
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 2},
	}, {
		name: "malformed lines are reported, the others read",
		file: "x.jsonl",
		in: `{"session":"s1","action":"a!m"}
{"session":"s1","action":"a!m"
[1,2]
{"session":"s1","action":"a-m"}
{"session":"s1","action":"!m"}
{"session":"s1","lifeline":"a","kind":"send"}
{"session":"s1","lifeline":"a","kind":"sent","message":"m"}
{"session":true,"action":"a!m"}
{"session":"s1","action":"a!m","lifeline":"b"}
{"session":"s1","action":"a!m","seq":1.5}
{"session":"s1","lifeline":1,"kind":"send","message":"m"}
{"session":"s1","action":"b?m"} x
{"session":"s1","action":"c?m"}
`,
		want: "s1@1 2/0: (7 dropped, from line 4) a!m |  | c?m\n",
		reports: `x.jsonl:2:30: invalid JSON: unexpected end of JSON input
x.jsonl:3:1: expected a JSON object (one event a line), found array
x.jsonl:4:26: field "action" (action): "a-m" is not an action l!m or l?m
x.jsonl:5:26: field "action" (action): "!m" is not an action l!m or l?m
x.jsonl:6: no action: expected field "action" (l!m or l?m), or fields "lifeline", "kind" and "message", but "message" is missing
x.jsonl:7:39: field "kind" (kind): "sent" is not send, receive, ! or ?
x.jsonl:8:12: field "session" (session): expected a string or a number
x.jsonl:9:43: field "lifeline" (lifeline): "b" disagrees with the action "a!m"
x.jsonl:10:38: field "seq" (seq): 1.5 is not an integer
x.jsonl:11:28: field "lifeline" (lifeline): expected a string, found 1
x.jsonl:12:33: invalid JSON: invalid character 'x' after top-level value
`,
		stats: logs.Stats{Sessions: 1, Events: 2, Malformed: 11},
	}, {
		name: "renamed fields, locations",
		file: "x.jsonl",
		opt: logs.Options{Fields: map[string]string{"session": "trace_id", "time": "@timestamp", "action": "act"},
			Locations: []interaction.Lifelines{interaction.LifelinesOf(2, 0)}},
		in: `{"trace_id":"t","@timestamp":"2025-01-01T00:00:02Z","act":"a!m","session":"not this one"}
{"trace_id":"t","@timestamp":"2025-01-01T00:00:01Z","act":"c?n"}
{"trace_id":"t","@timestamp":"2025-01-01T00:00:00Z","act":"b?n"}
`,
		want: "t@1 3/0: c?n.a!m | b?n\n", stats: logs.Stats{Sessions: 1, Events: 3},
	}})
}

// TestReadHostile checks the readers against the hostile inputs of issue
// 25: a session that loses an event to a malformed line says so (item 9),
// numbers are read strictly (item 11), session ids that are not UTF-8 are
// refused rather than printed alike (item 12), and a file's name and what
// the file holds are escaped in messages (item 14).
func TestReadHostile(t *testing.T) {
	runReadCases(t, []readCase{{
		name: "hour 24 and --5.5 drop events of their sessions",
		file: "x.jsonl",
		in: `{"session":"s1","action":"a!m","time":"2025-01-01T10:00:00Z"}
{"session":"s1","action":"a?m","time":"2025-01-01T24:00:00Z"}
{"session":"s2","action":"a!m","time":5}
{"session":"s2","action":"a?m","time":"--5.5"}
{"session":"s2","action":"a?n","time":--5.5}
{"session":"s3","action":"a!m","time":+1e3}
`,
		want: "s1@1 1/0: (1 dropped, from line 2) a!m |  | \n" +
			"s2@3 1/0: (2 dropped, from line 4) a!m |  | \n" +
			"s3@6 0/0: (1 dropped, from line 6)  |  | \n",
		// fastjson takes --5.5 and +1e3 for numbers: the time is refused.
		reports: `x.jsonl:2:39: field "time" (time): "2025-01-01T24:00:00Z" is neither an RFC 3339 time nor a number
x.jsonl:4:39: field "time" (time): "--5.5" is neither an RFC 3339 time nor a number
x.jsonl:5:39: field "time" (time): --5.5 is neither an RFC 3339 time nor a number
x.jsonl:6:39: field "time" (time): +1e3 is neither an RFC 3339 time nor a number
`,
		stats: logs.Stats{Sessions: 3, Events: 2, Malformed: 4},
	}, {
		name: "session ids not UTF-8, a hostile file name",
		file: "x\x1b[2J\n.csv",
		in:   "session,action,time\na\xff,a!m,1\na\xfe,a!m,1\nok,a!m,1\nok,a!m,\x1b]0;t\x07\n",
		want: "ok@4 1/0: (1 dropped, from line 5) a!m |  | \n",
		reports: `"x\x1b[2J\n.csv":2:1: field "session" (session): "a\xff" is not valid UTF-8
"x\x1b[2J\n.csv":3:1: field "session" (session): "a\xfe" is not valid UTF-8
"x\x1b[2J\n.csv":5:8: field "time" (time): "\x1b]0;t\a" is neither an RFC 3339 time nor a number
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 3},
	}})
}

func TestReadCSV(t *testing.T) {
	runReadCases(t, []readCase{{
		// A ragged row's error has a column.
		name: "ragged rows, with the column where they go wrong",
		file: "x.csv",
		in:   "session,action,seq\ns1,a!m,1,extra\ns1,a!m\n   \ns1,a?m,2\n",
		want: "s1@5 1/0: a?m |  | \n",
		reports: `x.csv:2:10: the row has 4 fields, the header 3: an extra field starts here
x.csv:3:7: the row has 2 fields, the header 3: field "seq" is missing
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 2},
	}, {
		name: "CSV with quotes",
		file: "x.csv",
		in: "session,time,lifeline,kind,message,note\r\n" +
			"s1,2,a,send,m,\"a note, with a comma\"\r\n" +
			"s1,1,a,receive,n,\"a note\non two lines\"\n" +
			"\n" +
			"\"s 2\",1,b,!,\"m\",\"\"\"quoted\"\"\"\n" +
			"s1,3,c,?,m,\n",
		want:  "s1@2 3/0: a?n.a!m |  | c?m\ns 2@6 1/0:  | b!m | \n",
		stats: logs.Stats{Sessions: 2, Events: 4},
	}, {
		name: "TSV by its name, action form, no session",
		file: "x.tsv.gz",
		in:   "action\tseq\nb?m\t2\nb!n\t1\n",
		want: "@2 2/0:  | b!n.b?m | \n", stats: logs.Stats{Sessions: 1, Events: 2},
	}, {
		name: "TSV by its header",
		file: "x.log",
		in:   "lifeline\tkind\tmessage\na\tsend\tm\n",
		want: "@2 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "a byte order mark, spaces around fields",
		file: "x.csv",
		in:   "\ufeffsession, lifeline , kind,message\n s1 , a , send, m\ns1,\" b\",receive,m\n",
		want: "s1@2 1/1: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1, Ignored: 1},
	}, {
		name: "malformed rows",
		file: "x.csv",
		in: `session,action,seq
s1,a!m,1
s1,a!n
s1,"a!n"x,2
s1,a!n,two
s1,"a?m,3
s2,b!m,1
`,
		want: "s1@2 1/0: (1 dropped, from line 5) a!m |  | \n",
		reports: `x.csv:3:7: the row has 2 fields, the header 3: field "seq" is missing
x.csv:4:8: a '"' in a quoted field not doubled, or text after its closing quote
x.csv:5:8: field "seq" (seq): "two" is not an integer
x.csv:6: quoted field not closed
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 4},
	}})
}

// TestManyMalformed checks that a file of malformed lines costs its
// reader's caller no memory: the first of them are
// reported, the others counted, and one last report says how many.
func TestManyMalformed(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"session":"s","action":"a!m"}` + "\n")
	for range 5000 {
		in.WriteString("not json\n")
	}
	var reports []string
	opt := logs.Options{Sig: testSig(t), MaxReports: 3}
	sessions, st, err := session.ReadFrom("x.jsonl", strings.NewReader(in.String()), logs.Auto, opt,
		func(err error) { reports = append(reports, err.Error()) })
	if err != nil || len(sessions) != 1 || st.Malformed != 5000 {
		t.Fatalf("%d sessions, %+v, %v", len(sessions), st, err)
	}
	want := []string{
		"x.jsonl:2:2: invalid JSON: invalid character 'o' in literal null (expecting 'u')",
		"x.jsonl:3:2: invalid JSON: invalid character 'o' in literal null (expecting 'u')",
		"x.jsonl:4:2: invalid JSON: invalid character 'o' in literal null (expecting 'u')",
		"x.jsonl:5: 4997 more malformed lines or records from here on, not shown (only the first 3 of a file are)",
	}
	if strings.Join(reports, "\n") != strings.Join(want, "\n") {
		t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(reports, "\n"), strings.Join(want, "\n"))
	}
}

// TestHostileFileName checks that a file's name is quoted in the errors
// for the file as a whole too.
func TestHostileFileName(t *testing.T) {
	_, _, err := session.ReadFrom("x\x1b[2J\n.log", strings.NewReader("??\n"), logs.Auto, logs.Options{Sig: testSig(t)}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), `"x\x1b[2J\n.log": cannot tell the log format`) {
		t.Errorf("%v", err)
	}
}
