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

// logRun is how ivc analyze reads the logs of a run.
type logRun struct {
	format logs.Format
	opt    logs.Options
	scope  session.Scope
	budget int64  // bytes of sessions held before spilling to disk
	tmpDir string // where they spill
	// detected holds what was detected of the formats of files while the
	// inputs were chosen (a directory's files recognized by their content,
	// the file of --graph), so that a file's format is decided once.
	detected map[string]logs.Format
}

// recognize reports whether the file at path, found in a directory given,
// is an input (logs.Recognize), and keeps what recognition detected of
// its format.
func (run *logRun) recognize(path string) bool {
	f, ok := logs.Recognize(path, run.format, run.opt)
	if ok && f != logs.Auto {
		run.detected[path] = f
	}
	return ok
}

// formatOf returns what is known of the format of file before it is
// opened: the format given, the one detected when the inputs were chosen,
// or the one its name decides (logs.DetectName); Auto when opening it
// detects it.
func (run *logRun) formatOf(file string) logs.Format {
	if run.format != logs.Auto {
		return run.format
	}
	if f, ok := run.detected[file]; ok {
		return f
	}
	return logs.DetectName(file)
}

// open opens file in the format given, or in the one detected of it so
// far, which is then not decided again.
func (run *logRun) open(file string) (*logs.Input, error) {
	if run.format != logs.Auto {
		return logs.Open(file, run.format, run.opt)
	}
	return logs.OpenDetected(file, run.formatOf(file), run.opt)
}

// logOptions turns the flags into the readers' options.
func (a *app) logOptions(fl *analyzeFlags, sp *spec.Spec) (logRun, error) {
	lf := &fl.logs
	f, err := logs.ParseFormat(lf.format)
	if err != nil {
		return logRun{}, a.usagef("invalid --log-format %q: want %s", lf.format, logs.FormatNames)
	}
	scope, err := session.ParseScope(lf.sessionScope)
	if err != nil {
		return logRun{}, a.usagef("invalid --session-scope %q: want run or file", lf.sessionScope)
	}
	// The reading limits (a line, a session, the spans held to pair them)
	// follow the memory budget; the joiner spills past --join-memory,
	// which a run may set lower without refusing a session it can hold.
	memory := check.Settings{MaxMemory: int64(fl.maxMemory)}.ReadMemory()
	run := logRun{format: f, scope: scope, budget: int64(fl.joinMemory), tmpDir: lf.tmpDir, detected: map[string]logs.Format{}}
	if run.budget == 0 {
		run.budget = memory
	}
	opt := logs.Options{Sig: sp.Sig, LifelineAttr: lf.lifelineAttr, MessageAttr: lf.messageAttr, Strict: lf.strict,
		MaxBytes: int64(fl.maxInput), MaxMemory: memory}
	for _, fv := range lf.fields {
		role, name, ok := strings.Cut(fv, "=")
		switch role {
		case "session", "action", "lifeline", "kind", "message", "seq", "time":
		default:
			ok = false
		}
		if !ok || name == "" {
			return run, a.usagef("invalid --field %q: want ROLE=NAME, ROLE one of session, action, lifeline, kind, message, seq, time", fv)
		}
		if opt.Fields == nil {
			opt.Fields = map[string]string{}
		}
		opt.Fields[role] = name
	}
	if fl.locations != "" {
		part, err := interaction.ParseLocations(opt.Sig, fl.locations)
		if err != nil {
			return run, a.usagef("--locations: %v", err)
		}
		opt.Locations = part
	}
	run.opt = opt
	return run, nil
}

// logCounts are what the logs of a batch held besides their sessions.
type logCounts struct {
	logs      int      // log files read
	sessions  int      // sessions of the logs
	joined    int      // sessions with events in several files
	unjudged  int      // events of the sessions that could not be judged
	ignored   int      // events outside the signature
	malformed int      // lines reported
	events    int      // events in the signature, judged
	unkinded  int      // spans without an action (INTERNAL or no kind)
	htf       int      // .htf multi-traces
	spilled   bool     // sessions joined past --join-memory went to disk
	skipped   []string // files of directories in no format
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
	return "outside the signature, most seen: " + strings.Join(c.undeclaredNames(sig), ", ")
}

// undeclaredNames says each name of undeclaredLine: `message "GET" (3
// events; did you mean "get"?)`.
func (c *logCounts) undeclaredNames(sig *interaction.Signature) []string {
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
	return parts
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
// .htf file is one multi-trace, a log holds sessions. With --session-scope
// run (the default) a session is its id across every log of the run, and
// the sessions come once all the logs are read, in order of first
// appearance, a .htf file at its place among them; with file, a session is
// its id within one log, and a log's sessions come once it is read. A
// log's malformed lines come as they are read, as inputs whose read fails.
// Reading the logs happens here, in the goroutine that feeds the workers;
// reading a .htf file and judging the sessions, in the workers.
func logInputs(files []string, run logRun, counts *logCounts) iter.Seq[check.Input] {
	fail := func(name string, err error) check.Input {
		return check.Input{Name: name, Read: func() (*multitrace.MultiTrace, error) { return nil, err }}
	}
	// A .htf file, or an error, after the logs of the run began: it waits
	// for the sessions that come before it.
	type later struct {
		before int // its place: the number of logs read before it
		in     check.Input
	}
	return func(yield func(check.Input) bool) {
		var (
			j       *session.Joiner
			pending []later
			stdin   bool
			failed  bool // stop: yield said so
		)
		defer func() {
			if j != nil {
				j.Close()
			}
		}()
		// put yields in, or keeps it for its place among the sessions.
		put := func(in check.Input) {
			if failed {
				return
			}
			if run.scope == session.ScopeRun && j != nil && counts.logs > 0 {
				pending = append(pending, later{before: counts.logs, in: in})
				return
			}
			failed = !yield(in)
		}
		// flush yields the sessions of j, the pending inputs at their place.
		flush := func() {
			if j == nil {
				return
			}
			for s, err := range j.Sessions() {
				if err != nil {
					failed = failed || !yield(fail("", err))
					break
				}
				for len(pending) > 0 && pending[0].before <= s.Input && !failed {
					failed = !yield(pending[0].in)
					pending = pending[1:]
				}
				if failed {
					break
				}
				failed = !yield(sessionInput(s, counts))
			}
			if u := j.Undeclared(); len(u) > 0 {
				counts.undeclared = logs.MostUndeclared(maxUndeclaredShown, counts.undeclared, u)
			}
			for _, p := range pending {
				if failed {
					break
				}
				failed = !yield(p.in)
			}
			pending = nil
			counts.spilled = counts.spilled || j.Spilled()
			j.Close()
			j = nil
		}
		for _, file := range files {
			if failed {
				return
			}
			if file == input.Stdin {
				if stdin {
					put(fail(file, errors.New("-: standard input given twice")))
					continue
				}
				stdin = true
			}
			if file != input.Stdin && run.formatOf(file) == logs.HTF {
				counts.htf++
				put(htfInput(file, run.opt))
				continue
			}
			in, err := run.open(file)
			if err != nil {
				put(fail(file, err))
				continue
			}
			if in.Format == logs.HTF {
				// Standard input, or a file its content alone says is a
				// .htf file: read now, so that it is opened once and no
				// descriptor waits for its place among the sessions.
				counts.htf++
				mt, err := in.MultiTrace()
				in.Close()
				put(check.Input{Name: file, Read: func() (*multitrace.MultiTrace, error) { return mt, err }})
				continue
			}
			if j == nil {
				if j, err = session.NewJoiner(run.opt, run.budget, run.tmpDir); err != nil {
					in.Close()
					put(fail(file, err))
					continue
				}
			}
			var bad []error
			stats, err := j.Read(in, func(err error) { bad = append(bad, malformed{err}) })
			in.Close()
			counts.logs++
			if u := in.Undeclared(); len(u) > 0 {
				counts.undeclared = logs.MostUndeclared(maxUndeclaredShown, counts.undeclared, u)
			}
			counts.malformed += stats.Malformed
			counts.unkinded += stats.Unkinded
			if err != nil {
				bad = append(bad, err)
			}
			for _, err := range bad {
				if failed = failed || !yield(fail(file, err)); failed {
					return
				}
			}
			if run.scope == session.ScopeFile {
				flush()
			}
		}
		flush()
	}
}

// htfInput is the input of a .htf file, known as one without opening it
// (its name says so, or the format was given or detected): opened once,
// on the worker that reads it, so that files waiting for their place
// among the sessions hold no descriptor.
func htfInput(file string, opt logs.Options) check.Input {
	return check.Input{Name: file, Read: func() (*multitrace.MultiTrace, error) {
		in, err := logs.Open(file, logs.HTF, opt)
		if err != nil {
			return nil, err
		}
		defer in.Close()
		return in.MultiTrace()
	}}
}

// sessionInput is the input of a session, counted.
func sessionInput(s session.Session, counts *logCounts) check.Input {
	counts.sessions++
	// Counted here, not from the logs' Stats: a span's message, and so
	// whether it is judged, may come from its partner in another file.
	counts.events += s.Events
	counts.ignored += s.Ignored
	in := check.Input{Name: s.File, Session: s.ID, Ignored: s.Ignored,
		Read: func() (*multitrace.MultiTrace, error) { return s.MT, s.Err }}
	if len(s.Files) > 1 {
		counts.joined++
		in.Files = s.Files
	}
	switch {
	case s.Err != nil:
		counts.unjudged += s.Events
	case s.Incomplete() != "":
		// Inconc without a search: it lost events that could not be read.
		in.Incomplete = s.Incomplete()
		counts.unjudged += s.Events
	}
	return in
}
