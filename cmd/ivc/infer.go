package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/infer"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/spf13/cobra"
)

func newInferCmd(a *app) *cobra.Command {
	var (
		fl          analyzeFlags
		out, sig    string
		maxBranches int
		maxArrows   int
	)
	cmd := &cobra.Command{
		Use:   "infer [--sig SPEC] LOG|MULTITRACE... -o DRAFT",
		Short: "Draft a spec (a sequence diagram) from sessions known to be right",
		Long: `Infer writes a draft of the interaction of a system from logs of runs known
to be right: an interaction that accepts every session given, and little
else, written as a Mermaid sequenceDiagram (-o FILE.mmd), a Markdown file
that holds one (.md), a PlantUML diagram (.puml) or HIBOU files (FILE.hif
and FILE.hsf beside it). Its inputs are analyze's: event logs, traces and
.htf multi-traces, read by the same readers, so the draft names lifelines and
messages as analyze reads them; without --sig, the names are those the
events carry, with it, the signature's (the events outside it are ignored).

Each session becomes its message sequence chart: a reception is matched with
an earlier emission of its message, the rest are messages from or to the
environment. Repeated blocks become loops (loopW: weakly sequenced
iterations, as UML's loop), sessions that differ become alt branches after
their common prefix and before their common suffix, and operands are
weakly sequenced (seq), which orders only the events of one lifeline. The
draft stays small: sessions of one shape are drawn once, loops fold their
repetitions, an alt of more than --max-branches branches becomes a loop
over their messages, and so do the largest alts of a draft of more than
--max-arrows arrows (a warning says so). docs/infer.md says more.

Before the draft is written, ivc checks every session against it in accept
mode (the sessions are complete runs: the draft must accept them whole).
The draft is written in any case; the sessions it does not accept are
printed as analyze prints them, and the exit status is then 1. With
--format json, one object: {"files", "lifelines", "messages", "sessions",
"shapes", "widened", "not_accepted"} (the records of analyze --format json
of the sessions not accepted).

Exit status: 0 when the draft accepts every session, 1 when it does not
accept some, 2 when an input could not be read.`,
		Example: `  ivc infer testdata/checkout/good.jsonl -o checkout.mmd
  ivc infer --sig abp.hsf traces/ -o draft.hif     # draft.hsf + draft.hif
  ivc infer traces.otlp.json -o design.md`,
		Args: a.args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.infer(&fl, args, out, sig, maxBranches, maxArrows)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "the draft's `FILE`: .mmd, .mermaid, .md, .puml, .plantuml or .hif (and its .hsf)")
	f.StringVar(&sig, "sig", "", "name lifelines and messages by the signature of `SPEC` (a .hsf, or a diagram), not by the logs")
	f.IntVar(&maxBranches, "max-branches", infer.DefaultMaxBranches, "the most branches of one alt, past which they become a loop over their messages")
	f.IntVar(&maxArrows, "max-arrows", infer.DefaultMaxArrows, "the most arrows of the draft, past which its largest alts become loops over their messages")
	f.BoolVar(&fl.force, "force", false, "replace an existing draft")
	f.IntVar(&fl.jobs, "jobs", runtime.NumCPU(), "sessions checked in parallel")
	f.StringVar(&fl.locations, "locations", "", locationsHelp)
	fl.maxInput = byteSize(input.DefaultLimit)
	f.Var(&fl.maxInput, "max-input", "the largest input file read, e.g. 512MiB or 8GB")
	f.StringVar(&fl.logs.format, "log-format", "auto", "the format of the logs, `auto|htf|jsonl|csv|otlp|otlp-proto|jaeger|zipkin|stdouttrace` (auto: by extension and content)")
	f.StringArrayVar(&fl.logs.fields, "field", nil, "an event log's field for a role, `ROLE=NAME` (roles: session, action, lifeline, kind, message, seq, time; repeatable)")
	f.StringVar(&fl.logs.lifelineAttr, "lifeline-attr", "", "OTLP/Jaeger: the attribute naming a span's lifeline (default service.name)")
	f.StringVar(&fl.logs.messageAttr, "message-attr", "", "OTLP/Jaeger: the attribute naming a span's message (default messaging.destination.name, then rpc.method, then the span name)")
	f.StringVar(&fl.logs.sessionScope, "session-scope", "run", "what a log's session is, `run|file`: its id across every log of the run, or within its file")
	return cmd
}

// infer runs ivc infer LOG... -o DRAFT.
func (a *app) infer(fl *analyzeFlags, args []string, out, sigPath string, maxBranches, maxArrows int) error {
	if out == "" {
		return a.usagef("-o: the draft's file is required (%s)", strings.Join(infer.Outputs, ", "))
	}
	paths, err := infer.Paths(out)
	if err != nil {
		return a.usagef("-o %v", err)
	}
	// Before the work: a draft replaces no input, nor a file without
	// --force.
	for _, p := range paths {
		if err := checkOutput("-o", p, args, "", fl.force); err != nil {
			return err
		}
	}
	// infer parses the locations against each signature it reads with;
	// the other flags of the logs are analyze's.
	cfg := infer.Config{Locations: fl.locations, MaxBranches: maxBranches, MaxArrows: maxArrows}
	fl.locations = ""
	if sigPath != "" {
		sig, err := a.inferSignature(sigPath)
		if err != nil {
			return err
		}
		cfg.Sig = sig
	}
	// The inputs are read once per naming pass and once to check the
	// draft: a note about them (an input named twice, a span read again
	// with other content) is said once.
	noted := map[string]bool{}
	cfg.Source = func(sig *interaction.Signature) (*session.Source, error) {
		src, err := a.logSource(fl, &spec.Spec{Sig: sig})
		if err == nil && src.Note != nil {
			note := src.Note
			src.Note = func(err error) {
				if !noted[err.Error()] {
					noted[err.Error()] = true
					note(err)
				}
			}
		}
		return src, err
	}
	probe, err := cfg.Source(cfg.Sig)
	if err != nil {
		return err
	}
	files, skipped := a.expandMatch(args, probe.Recognize, orList(append(logs.Extensions(probe.Format), "other log")))
	if line := skippedLine(skipped); line != "" {
		fmt.Fprintln(a.stderr, line)
	}
	d, err := infer.Infer(files, cfg)
	if err != nil {
		return err
	}
	for _, err := range d.Unused {
		a.report(err)
	}
	drafts, err := d.Files(out)
	if err != nil {
		return a.usagef("-o %v", err)
	}
	unfit, sum, err := d.Check(drafts, max(1, fl.jobs))
	if err != nil {
		return err
	}
	if line := undeclaredLine(&sum.Counts, d.Sig); line != "" {
		fmt.Fprintln(a.stderr, line)
	}
	for _, f := range drafts {
		if err := checkOutput("-o", f.Path, files, "", fl.force); err != nil {
			return err
		}
	}
	for _, f := range drafts {
		if err := atomicfile.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return syntax.FileError(err)
		}
	}
	if d.Widened > 0 {
		a.warnf("%s: %s widened into loops over their messages, to keep the draft within --max-branches %d and --max-arrows %d",
			syntax.FileName(out), plural(d.Widened, "alt"), cfg.MaxBranches, cfg.MaxArrows)
	}
	if len(unfit) > 0 {
		a.fail()
	}
	names := make([]string, len(drafts))
	for i, f := range drafts {
		names[i] = syntax.FileName(f.Path)
	}
	if a.json() {
		records := make([]check.Record, len(unfit))
		for i := range unfit {
			records[i] = unfit[i].Record()
		}
		return json.NewEncoder(a.stdout).Encode(map[string]any{"files": names, "lifelines": len(d.Sig.Lifelines),
			"messages": len(d.Sig.Messages), "sessions": d.Sessions, "shapes": d.Shapes, "widened": d.Widened,
			"not_accepted": records})
	}
	fmt.Fprintf(a.stdout, "wrote %s: %s, %s from %s (%s)\n", strings.Join(names, " and "),
		plural(len(d.Sig.Lifelines), "lifeline"), plural(len(d.Sig.Messages), "message"),
		plural(d.Sessions, "session"), plural(d.Shapes, "shape"))
	if len(unfit) > 0 {
		fmt.Fprintf(a.stdout, "the draft does not accept %s:\n", plural(len(unfit), "session"))
		for _, o := range unfit {
			o.WriteText(a.stdout)
		}
	}
	return nil
}

// inferSignature loads the signature of --sig: a .hsf, or a spec (a
// diagram) whose signature is derived.
func (a *app) inferSignature(path string) (*interaction.Signature, error) {
	if spec.IsDiagram(path) {
		sp, err := a.specOptions().Load(path, "")
		if err != nil {
			return nil, err
		}
		a.warn(sp.Warnings)
		return sp.Sig, nil
	}
	return a.loadSignature(path)
}
