package main

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
)

// logFlags are the flags of ivc analyze for event logs and traces.
type logFlags struct {
	format       string
	fields       []string
	lifelineAttr string
	messageAttr  string
	strict       bool
}

// logOptions turns the flags into the readers' options.
func (a *app) logOptions(fl *analyzeFlags, sp *check.Spec) (logs.Format, logs.Options, error) {
	lf := &fl.logs
	f, err := logs.ParseFormat(lf.format)
	if err != nil {
		return 0, logs.Options{}, a.usagef("invalid --log-format %q: want auto, htf, jsonl, csv, otlp or jaeger", lf.format)
	}
	opt := logs.Options{Sig: sp.Interaction.Sig, LifelineAttr: lf.lifelineAttr, MessageAttr: lf.messageAttr, Strict: lf.strict,
		MaxBytes: int64(fl.maxInput)}
	for _, fv := range lf.fields {
		role, name, ok := strings.Cut(fv, "=")
		switch role {
		case "session", "action", "lifeline", "kind", "message", "seq", "time":
		default:
			ok = false
		}
		if !ok || name == "" {
			return 0, opt, a.usagef("invalid --field %q: want ROLE=NAME, ROLE one of session, action, lifeline, kind, message, seq, time", fv)
		}
		if opt.Fields == nil {
			opt.Fields = map[string]string{}
		}
		opt.Fields[role] = name
	}
	if fl.locations != "" {
		part, err := interaction.ParseLocations(opt.Sig, fl.locations)
		if err != nil {
			return 0, opt, a.usagef("--locations: %v", err)
		}
		opt.Locations = part
	}
	return f, opt, nil
}

// logCounts are what the logs of a batch held besides their sessions.
type logCounts struct {
	ignored   int // events outside the signature
	malformed int // lines reported
	events    int // events in the signature, judged
	unkinded  int // spans without an action (INTERNAL or no kind)
	htf       int // .htf multi-traces
	// undeclared are the names outside the signature seen most
	undeclared []logs.Undeclared
}

// maxUndeclaredShown is how many names outside the signature the summary
// shows.
const maxUndeclaredShown = 5

// undeclaredLine says which names outside the signature the logs' events
// carry most, each with the declared name it likely misspells: when a
// spec matches little of a log, the first thing to look at.
func (c *logCounts) undeclaredLine(sig *interaction.Signature) string {
	if len(c.undeclared) == 0 {
		return ""
	}
	var parts []string
	for _, u := range c.undeclared {
		what, declared := "message", sig.Messages
		if u.Lifeline {
			what, declared = "lifeline", sig.Lifelines
		}
		p := fmt.Sprintf("%s %q (%s", what, u.Name, plural(u.Events, "event"))
		if near := logs.Nearest(u.Name, declared); near != "" {
			p += fmt.Sprintf("; did you mean %q?", near)
		}
		parts = append(parts, p+")")
	}
	return "outside the signature, most seen: " + strings.Join(parts, ", ")
}

// nothingJudged returns the error of a batch that judged no event: every
// event of its logs was outside the signature, or the logs held none (an
// empty log, spans without a kind, a format that does not fit). Exit status
// 2: a Pass of nothing is no answer (issue 25 item 8).
func (c *logCounts) nothingJudged() error {
	if c.htf > 0 || c.events > 0 {
		return nil
	}
	var held []string
	if c.ignored > 0 {
		held = append(held, plural(c.ignored, "event")+" outside the signature")
	}
	if c.unkinded > 0 {
		held = append(held, plural(c.unkinded, "span")+" without a protocol kind (INTERNAL or none)")
	}
	if c.malformed > 0 {
		held = append(held, plural(c.malformed, "malformed line"))
	}
	what := "no event at all"
	if len(held) > 0 {
		what = "only " + strings.Join(held, ", ")
	}
	return fmt.Errorf("nothing judged: the logs hold %s (check the signature's names, --lifeline-attr, --message-attr, --field and --log-format)", what)
}

// malformed is a malformed line of a log, reported in the batch's output
// at the place of its file.
type malformed struct{ error }

// logInputs returns the inputs of ivc analyze against an interaction: a
// .htf file is one multi-trace, a log is one per session, in order of first
// appearance; a log's malformed lines come first, as inputs whose read
// fails. Reading a log happens here, in the goroutine that feeds the
// workers; reading a .htf file and judging the sessions, in the workers.
func logInputs(files []string, f logs.Format, opt logs.Options, counts *logCounts) iter.Seq[check.Input] {
	fail := func(name string, err error) check.Input {
		return check.Input{Name: name, Read: func() (*multitrace.MultiTrace, error) { return nil, err }}
	}
	return func(yield func(check.Input) bool) {
		stdin := false
		for _, file := range files {
			if file == input.Stdin {
				if stdin {
					if !yield(fail(file, errors.New("-: standard input given twice"))) {
						return
					}
					continue
				}
				stdin = true
			}
			in, err := logs.Open(file, f, opt)
			if err != nil {
				if !yield(fail(file, err)) {
					return
				}
				continue
			}
			if in.Format == logs.HTF {
				read := func() (*multitrace.MultiTrace, error) {
					defer in.Close()
					return in.MultiTrace()
				}
				counts.htf++
				if !yield(check.Input{Name: file, Read: read}) {
					in.Close()
					return
				}
				continue
			}
			var bad []error
			report := func(err error) { bad = append(bad, malformed{err}) }
			sessions, stats, err := in.Read(report)
			in.Close()
			if u := in.Undeclared(); len(u) > 0 {
				counts.undeclared = logs.MostUndeclared(maxUndeclaredShown, counts.undeclared, u)
			}
			counts.ignored += stats.Ignored
			counts.malformed += stats.Malformed
			counts.events += stats.Events
			counts.unkinded += stats.Unkinded
			if err != nil {
				bad = append(bad, err)
			}
			for _, err := range bad {
				if !yield(fail(file, err)) {
					return
				}
			}
			for _, s := range sessions {
				in := check.Input{Name: file, Session: s.ID, Ignored: s.Ignored,
					Read: func() (*multitrace.MultiTrace, error) { return s.MT, s.Err }}
				if s.Err == nil {
					in.Incomplete = s.Incomplete()
				}
				if !yield(in) {
					return
				}
			}
		}
	}
}
