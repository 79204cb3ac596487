package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/tracegen"
)

// logFlags are the flags of ivc analyze for event logs and traces.
type logFlags struct {
	format       string
	fields       []string
	lifelineAttr string
	messageAttr  string
	strict       bool
}

// logExts are the extensions of the files a directory stands for, by
// format (Auto: every format's).
var logExts = map[logs.Format][]string{
	logs.HTF:    {".htf"},
	logs.JSONL:  {".jsonl", ".ndjson"},
	logs.CSV:    {".csv", ".tsv"},
	logs.OTLP:   {".json"},
	logs.Jaeger: {".json"},
}

// inputExts returns the extensions of the inputs a directory stands for:
// with a format asked for, its files; with auto, .htf files and JSON Lines
// logs only, whose extensions say what they are (a .csv, .tsv or .json file
// beside them may hold anything: they are taken when named, or with
// --log-format).
func inputExts(f logs.Format) []string {
	if f != logs.Auto {
		return withGz(logExts[f])
	}
	return withGz(append([]string{".htf"}, logExts[logs.JSONL]...))
}

func withGz(exts []string) []string {
	out := exts
	for _, e := range exts {
		if e != ".htf" {
			out = append(out, e+".gz")
		}
	}
	return out
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
		part, err := tracegen.ParsePartition(opt.Sig, fl.locations)
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
// workers; judging its sessions, in the workers.
func logInputs(c *check.Checker, files []string, f logs.Format, opt logs.Options, counts *logCounts) iter.Seq[check.Input] {
	fail := func(name string, err error) check.Input {
		return check.Input{Name: name, Read: func() (*multitrace.MultiTrace, error) { return nil, err }}
	}
	return func(yield func(check.Input) bool) {
		for _, file := range files {
			var stdin *bufio.Reader // "-": read once, its head peeked
			g, err := f, error(nil)
			if file == input.Stdin {
				stdin = bufio.NewReaderSize(os.Stdin, 64<<10)
				if g == logs.Auto {
					head, _ := stdin.Peek(64 << 10)
					g, err = logs.Detect(file, head)
				}
			} else {
				g, err = formatOf(file, f)
			}
			if err != nil {
				if !yield(fail(file, err)) {
					return
				}
				continue
			}
			if g == logs.HTF {
				var in check.Input
				switch {
				case opt.Locations != nil:
					err := fmt.Errorf("%s: a .htf multi-trace has its own locations (its components): --locations applies to event logs and traces", file)
					in = fail(file, err)
				case stdin != nil:
					src, err := io.ReadAll(io.LimitReader(stdin, opt.MaxBytes+1))
					if err == nil && int64(len(src)) > opt.MaxBytes {
						err = fmt.Errorf("-: %w", input.ErrTooLarge)
					}
					in = check.Input{Name: file, Read: func() (*multitrace.MultiTrace, error) {
						if err != nil {
							return nil, err
						}
						return multitrace.ParseResolve(file, src, opt.Sig)
					}}
				default:
					in = c.FileInput(file)
				}
				counts.htf++
				if !yield(in) {
					return
				}
				continue
			}
			var bad []error
			report := func(err error) { bad = append(bad, malformed{err}) }
			var (
				sessions []logs.Session
				stats    logs.Stats
			)
			if stdin != nil {
				sessions, stats, err = logs.ReadFrom("<stdin>", stdin, g, opt, report)
			} else {
				sessions, stats, err = logs.Read(file, g, opt, report)
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

// formatOf decides the format of an input: the one asked for, or by the
// extension, or else by the first bytes.
func formatOf(file string, f logs.Format) (logs.Format, error) {
	if f != logs.Auto {
		return f, nil
	}
	if hasExt(file, ".htf") {
		return logs.HTF, nil
	}
	fh, _, err := input.Open(file)
	if err != nil {
		return 0, spec.FileError(err)
	}
	defer fh.Close()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, spec.FileError(err)
	}
	return logs.Detect(file, head[:n])
}
