package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/internal/draw"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
	"github.com/spf13/cobra"
)

func newDrawCmd(a *app) *cobra.Command {
	var (
		format, out, title string
		force              bool
		maxSteps           int
		fl                 = analyzeFlags{engine: "runtime", strategy: "dfs", por: true, loc: true, jobs: 1, maxInput: byteSize(input.DefaultLimit)}
	)
	cmd := &cobra.Command{
		Use:   "draw SPEC [HIF] [MULTITRACE | --session ID LOG...]",
		Short: "Draw an interaction, or a multi-trace with its verdict, as a sequence diagram",
		Long: `Draw writes a picture to stdout (or to the file of -o, which replaces an
existing file only with --force, and never an input or a symbolic link).

With SPEC [HIF], the interaction as a UML sequence diagram: the lifelines as
columns with their names on top, each message as an arrow labelled with it
(open arrowheads for asynchronous messages, filled ones on a thicker line
for <synch> ones, several arrowheads for a broadcast), the environment and
gates at the borders of the frame (a found message starts at a dot on the
left border, a lost one ends at a dot on the right one), and each operator
as a frame with its name in a tab and dashed lines between its operands:
strict, seq, par, alt, coreg(L) (brackets on the lifelines of L), sync(A),
loopS, loopH, loopW and loopP. A seq at the root is the diagram's own frame.

With a MULTITRACE (.htf) too, the multi-trace with its verdict (--mode, as
in ivc analyze): each event a dot on its lifeline, labelled !m (emission)
or ?m (reception), the lifelines grouped by component. For a Pass or a
WeakPass, one row per step of the interleaving the analysis found, with
arrows from each emission to its reception (in slice mode, the actions it
simulated before a log starts in grey). For a Fail: the part consumed,
then in red the event of each component where the analysis got stuck, then
dashed and green the actions the interaction expected there, then a few of
the events left unread. Exit status 1 when the verdict is Fail or Inconc,
as with ivc analyze.

With --session ID and logs (any format, files or directories, as ivc
analyze reads them), the session ID joined across all of them (its id
across the logs given), judged and drawn as a multi-trace; its title
names the files its events come from. An id that no log holds is an
error that names the nearest one.

--format svg (default): one self-contained SVG file (no external font,
script or image), deterministic; every label keeps clear of the others, so
the width grows with the lifelines. --format mermaid: the interaction as a
Mermaid sequenceDiagram, which GitHub and GitLab render in Markdown;
--format plantuml: as a PlantUML sequence diagram (a multi-trace is drawn
in SVG only). ivc reads both back as the same interaction (as SPEC, or as
the HIF beside a .hsf).

` + diagram.MermaidHelp + "\n\n" + diagram.PlantUMLHelp,
		Example: `  ivc draw abp/abp.hsf -o abp.svg
  ivc draw --format mermaid abp/abp.hsf > abp.mmd
  ivc draw --format plantuml abp/abp.hsf -o abp.puml
  ivc draw abp/abp.hsf abp/traces/trace1_error_1.htf -o fail.svg
  ivc draw --mode slice slice/i0.hsf slice/late.htf -o late.svg
  ivc draw --mode accept spec.hsf --session 4bf92f35... gateway.jsonl user.json -o call.svg`,
		Args: a.args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "svg" && format != "mermaid" && format != "plantuml" {
				return a.usagef("invalid --format %q: want svg, mermaid or plantuml", format)
			}
			sp, rest, err := a.loadSpec(args)
			if err != nil {
				return err
			}
			if out != "" && out != "-" {
				// Never over an input, nor through a link; a drawing has
				// no marker of its own: any existing file needs --force.
				if err := checkOutput("-o", out, append([]string{sp.SigPath, sp.HIFPath}, args...), "", force); err != nil {
					return err
				}
			}
			if maxSteps < 0 {
				return a.usagef("invalid --max-steps %d: want a positive number, or 0 for all", maxSteps)
			}
			opt := draw.Options{Title: title, MaxSteps: maxSteps}
			var pic []byte
			switch {
			case fl.session != "" && format != "svg":
				return a.usagef("--format %s draws interactions: a session is drawn in SVG", format)
			case fl.session != "" && len(rest) == 0:
				return a.usagef("--session %s: no LOG given (want SPEC [HIF] --session ID LOG...)", syntax.FileName(fl.session))
			case fl.session != "":
				if pic, err = a.drawSession(cmd, &fl, sp, rest, opt); err != nil {
					return err
				}
			case len(rest) > 1:
				return a.usagef("unexpected argument %s (want SPEC [HIF] [MULTITRACE])", rest[1])
			case len(rest) == 0 && format == "mermaid":
				pic = []byte(diagram.FormatMermaid(sp.Sig, sp.Syntax, opt.Title))
			case len(rest) == 0 && format == "plantuml":
				pic = []byte(diagram.FormatPlantUML(sp.Sig, sp.Syntax, opt.Title))
			case len(rest) == 0:
				if opt.Title == "" {
					opt.Title = sp.HIFPath
				}
				pic = draw.InteractionSVG(sp.Sig, sp.Syntax, opt)
			case format != "svg":
				return a.usagef("--format %s draws interactions: a multi-trace is drawn in SVG", format)
			default:
				if pic, err = a.drawMultiTrace(cmd, &fl, sp, rest[0], opt); err != nil {
					return err
				}
			}
			if out == "" || out == "-" {
				_, err := a.stdout.Write(pic)
				return err
			}
			return syntax.FileError(atomicfile.WriteFile(out, pic, 0o644))
		},
	}
	f := cmd.Flags()
	// A local --format: svg, mermaid or plantuml, in place of the global text or json.
	f.StringVar(&format, "format", "svg", "the picture's format, `svg|mermaid|plantuml`")
	f.StringVarP(&out, "output", "o", "", "write to `FILE` instead of stdout")
	f.BoolVar(&force, "force", false, "let -o replace an existing file")
	f.StringVar(&title, "title", "", "the drawing's title (default: the file drawn)")
	f.IntVar(&maxSteps, "max-steps", 0, "with a MULTITRACE, draw only its last `N` steps (before where the analysis got stuck, for a Fail); 0: all")
	f.StringVar(&fl.mode, "mode", "prefix", "with a MULTITRACE, the question asked, `accept|prefix|slice` (see ivc analyze)")
	f.StringVar(&fl.budget, "budget", "liberal", "slice mode's simulation budget, `liberal|paper`")
	f.DurationVar(&fl.timeout, "timeout", 0, "time budget of the analysis, e.g. 5s (0: none)")
	f.StringVar(&fl.session, "session", "", "draw the session `ID` of the logs given (joined across them)")
	f.StringVar(&fl.logs.format, "log-format", "auto", "with --session, the format of the logs, `auto|jsonl|csv|otlp|otlp-proto|jaeger|zipkin|stdouttrace`")
	f.StringArrayVar(&fl.logs.fields, "field", nil, "with --session, an event log's field for a role, `ROLE=NAME` (see ivc analyze)")
	f.StringVar(&fl.logs.lifelineAttr, "lifeline-attr", "", "with --session, OTLP/Jaeger: the attribute naming a span's lifeline")
	f.StringVar(&fl.logs.messageAttr, "message-attr", "", "with --session, OTLP/Jaeger: the attribute naming a span's message")
	f.Var(&fl.maxLine, "max-line", "with --session, "+maxLineHelp)
	fl.logs.sessionScope = "run"
	f.IntVar(&fl.maxNodes, "max-nodes", 0, fmt.Sprintf("vertex budget of the analysis (0: %d)", check.DefaultMaxNodes))
	repairFlags(cmd, &fl)
	return cmd
}

// drawSession judges the session fl.session of the logs at paths, joined
// across them, as ivc analyze does, and draws it. Malformed lines are
// reported (exit status 2) and the session still drawn, as analyze still
// judges the others.
func (a *app) drawSession(cmd *cobra.Command, fl *analyzeFlags, sp *spec.Spec, paths []string, opt draw.Options) ([]byte, error) {
	c, err := a.drawChecker(cmd, fl, sp)
	if err != nil {
		return nil, err
	}
	src, err := a.logSource(fl, c.Spec())
	if err != nil {
		return nil, err
	}
	all, _ := a.expandMatch(paths, src.Recognize, "log")
	var files []string
	for _, f := range all {
		if hasExt(f, ".htf") {
			a.report(fmt.Errorf("%s: a .htf file is one multi-trace, not a log of sessions: left out (--session)", syntax.FileName(f)))
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, a.usagef("--session %s: no log among %s", syntax.FileName(fl.session), strings.Join(paths, ", "))
	}
	var (
		ids   []string // the sessions met, for the nearest one
		found *session.Session
	)
	for s := range src.Sessions(files) {
		if s.ID == "" {
			if _, err := s.Read(); err != nil { // an unreadable file, a malformed line
				a.report(a.describe(err))
			}
			continue
		}
		if s.ID != fl.session {
			if len(ids) < maxNearestIDs {
				ids = append(ids, s.ID)
			}
			continue
		}
		found = &s
		break
	}
	if found == nil {
		msg := fmt.Sprintf("no session %s in the logs (--session)", syntax.FileName(fl.session))
		if near := logs.Nearest(fl.session, ids); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", syntax.FileName(near))
		}
		return nil, errors.New(msg)
	}
	o := c.Judge(*found)
	if o.Err != nil {
		return nil, a.describe(o.Err)
	}
	if opt.Title == "" {
		opt.Title = strings.Join(append([]string{o.File}, o.Files[min(1, len(o.Files)):]...), ", ") +
			" (session " + fl.session + ")"
	}
	if o.MT == nil { // not judged: incomplete (Inconc)
		a.fail()
		return nil, fmt.Errorf("session %s: %s", syntax.FileName(fl.session), o.Result.Text())
	}
	return a.drawJudged(c, sp, &o, opt), nil
}

// drawJudged draws the multi-trace judged in o with its verdict, and the
// interleaving found.
func (a *app) drawJudged(c *check.Checker, sp *spec.Spec, o *check.Outcome, opt draw.Options) []byte {
	if !o.Result.Verdict.OK() {
		a.fail()
	}
	run := draw.Run{Sig: sp.Sig, Syntax: sp.Syntax, MT: o.MT, Result: o.Result, Repair: o.Repair}
	run.Witness = witness(c.Witness, o.MT, o.Result)
	return draw.MultiTraceSVG(run, opt)
}

// maxNearestIDs bounds the session ids ivc draw --session keeps to name
// the nearest to an id that is not there.
const maxNearestIDs = 100_000

// drawChecker returns the checker of a drawing of a multi-trace: the
// runtime engine by default, whose explanation the drawing shows.
func (a *app) drawChecker(cmd *cobra.Command, fl *analyzeFlags, sp *spec.Spec) (*check.Checker, error) {
	set := settings(cmd, fl)
	opts, warnings, err := set.Options(sp)
	for _, w := range warnings {
		a.warnf("%s", w)
	}
	if err != nil {
		return nil, err
	}
	return check.New(sp, opts)
}

// drawMultiTrace judges the multi-trace at path as ivc analyze does (with
// the runtime engine by default, whose explanation the drawing shows), finds
// the interleaving to draw, and draws it.
func (a *app) drawMultiTrace(cmd *cobra.Command, fl *analyzeFlags, sp *spec.Spec, path string, opt draw.Options) ([]byte, error) {
	c, err := a.drawChecker(cmd, fl, sp)
	if err != nil {
		return nil, err
	}
	mt, err := multitrace.Read(path, sp.Sig)
	if err != nil {
		return nil, err
	}
	if opt.Title == "" {
		opt.Title = path
	}
	o := c.Judge(session.Session{Meta: session.Meta{File: path, HTF: true}, MT: mt})
	if o.Err != nil {
		return nil, a.describe(o.Err)
	}
	return a.drawJudged(c, sp, &o, opt), nil
}

// witness is the interleaving a drawing of mt shows, as find (a checker's or
// an analyzer's Witness) gives it: for a Pass or WeakPass, an accepted one;
// for a Fail, one of the part the explanation says was consumed (nil if
// none is found within the limits).
func witness(find func(*multitrace.MultiTrace, verdict.Mode) (check.Witness, bool), mt *multitrace.MultiTrace, res verdict.Result) check.Witness {
	switch {
	case res.Verdict.OK():
		w, _ := find(mt, res.Mode)
		return w
	case res.Verdict == verdict.Fail && res.Explanation != nil:
		w, _ := find(draw.Consumed(mt, res.Explanation), verdict.Prefix)
		return w
	}
	return nil
}
