package main

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// logFlags are the flags of ivc analyze for event logs and traces.
type logFlags struct {
	format       string
	fields       []string
	lifelineAttr string
	messageAttr  string
	strict       bool
	sessionScope string
	tmpDir       string
}

// maxLineHelp is the help of --max-line, the flag of logs.Options.MaxLine.
var maxLineHelp = fmt.Sprintf("the longest line, JSON value (an OTLP resource, a Jaeger span) or CSV record read, e.g. 64MiB; decoding one takes up to 60 times it (0: %d MiB, or a 64th of --max-memory when less)", logs.MaxLine>>20)

// logSource turns the flags into the reading of the logs of a run: the
// readers' options, the session scope, and the joiner's budget.
func (a *app) logSource(fl *analyzeFlags, sp *spec.Spec) (*session.Source, error) {
	lf := &fl.logs
	f, err := logs.ParseFormat(lf.format)
	if err != nil {
		return nil, a.usagef("invalid --log-format %q: want %s", lf.format, logs.FormatNames)
	}
	scope, err := session.ParseScope(lf.sessionScope)
	if err != nil {
		return nil, a.usagef("invalid --session-scope %q: want run or file", lf.sessionScope)
	}
	// The reading limits (a line, a session, the spans held to pair them)
	// follow the memory budget; the joiner spills past --join-memory,
	// which a run may set lower without refusing a session it can hold.
	memory := check.Settings{MaxMemory: int64(fl.maxMemory)}.ReadMemory()
	src := &session.Source{Format: f, Scope: scope, Budget: int64(fl.joinMemory), TmpDir: lf.tmpDir,
		Note: func(err error) { a.warnf("%v", err) }}
	if src.Budget == 0 {
		src.Budget = memory
	}
	opt := logs.Options{Sig: sp.Sig, LifelineAttr: lf.lifelineAttr, MessageAttr: lf.messageAttr, Strict: lf.strict,
		MaxBytes: int64(fl.maxInput), MaxMemory: memory, MaxLine: int(fl.maxLine), Replies: sp.Replies}
	for _, fv := range lf.fields {
		role, name, ok := strings.Cut(fv, "=")
		switch role {
		case "session", "action", "lifeline", "kind", "message", "seq", "time":
		default:
			ok = false
		}
		if !ok || name == "" {
			return nil, a.usagef("invalid --field %q: want ROLE=NAME, ROLE one of session, action, lifeline, kind, message, seq, time", fv)
		}
		if opt.Fields == nil {
			opt.Fields = map[string]string{}
		}
		opt.Fields[role] = name
	}
	if fl.locations != "" {
		part, err := interaction.ParseLocations(opt.Sig, fl.locations)
		if err != nil {
			return nil, a.usagef("--locations: %v", err)
		}
		opt.Locations = part
	}
	src.Options = opt
	return src, nil
}

// undeclaredLine says which names outside the signature the logs' events
// carry most, each with the declared name it likely misspells: when a
// spec matches little of a log, the first thing to look at.
func undeclaredLine(c *session.Counts, sig *interaction.Signature) string {
	if len(c.Undeclared) == 0 {
		return ""
	}
	return "outside the signature, most seen: " + strings.Join(undeclaredNames(c, sig), ", ")
}

// undeclaredNames says each name of undeclaredLine: `message "GET" (3
// events; did you mean "get"?)`.
func undeclaredNames(c *session.Counts, sig *interaction.Signature) []string {
	var parts []string
	for _, u := range c.Undeclared {
		what, declared := "message", sig.Messages
		if u.Lifeline {
			what, declared = "lifeline", sig.Lifelines
		}
		p := fmt.Sprintf("%s %q (%s", what, u.Name, plural(u.Events, "event"))
		names := u.Names()
		if len(names) > 1 {
			// A span none of whose candidate names is declared: each is
			// a name the spec could use.
			q := make([]string, len(names)-1)
			for i, n := range names[1:] {
				q[i] = fmt.Sprintf("%q", n)
			}
			p += "; also named " + strings.Join(q, ", ")
		}
		for _, n := range names {
			if near := logs.Nearest(n, declared); near != "" {
				p += fmt.Sprintf("; did you mean %q?", near)
				break
			}
		}
		parts = append(parts, p+")")
	}
	return parts
}
